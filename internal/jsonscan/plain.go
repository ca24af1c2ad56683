package jsonscan

// The functions of this file read plain JSON straight from a byte slice, for
// fast paths: no escapes, no fractions or exponents, nothing cut by the end
// of the slice. Each returns an index past what it read, or -1 when the input
// is not plain; the caller then reads it again with the Scanner.

// SkipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// PlainString returns the end (past the closing quote) of the string that
// starts at b[i], or -1 if it is not there whole or has escapes or control
// characters.
func PlainString(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return j + 1
		case c == '\\' || c < 0x20:
			return -1
		}
	}
	return -1
}

// PlainInt reads an integer of at most 18 digits at b[i], returning it and
// its end, or -1 for anything else (a fraction, an exponent, a number that
// may run past the end of b).
func PlainInt(b []byte, i int) (int64, int) {
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	start := i
	var v int64
	for i < len(b) && b[i]-'0' <= 9 {
		v = v*10 + int64(b[i]-'0')
		i++
	}
	if i == start || i-start > 18 || i >= len(b) {
		return 0, -1
	}
	switch b[i] {
	case '.', 'e', 'E', '+', '-':
		return 0, -1
	}
	if neg {
		v = -v
	}
	return v, i
}

// PlainScalar returns the end of the string, number or literal at b[i], or
// -1 when it is anything else or not plain.
func PlainScalar(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		return PlainString(b, i)
	case c == '-' || c-'0' <= 9:
		_, j := PlainInt(b, i)
		return j
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(b)-i > len(lit) && string(b[i:i+len(lit)]) == lit {
			return i + len(lit)
		}
	}
	return -1
}

// PlainKey reads `"key" :` at b[i] (after white space), returning the key
// and the index of the value after white space, or -1.
func PlainKey(b []byte, i int) ([]byte, int) {
	i = SkipSpace(b, i)
	j := PlainString(b, i)
	if j < 0 {
		return nil, -1
	}
	key := b[i+1 : j-1]
	j = SkipSpace(b, j)
	if j >= len(b) || b[j] != ':' {
		return nil, -1
	}
	return key, SkipSpace(b, j+1)
}

// NextMember moves past the value that ended at b[i]: it returns the index
// after a ',' and whether one was there, or the index after the closing
// bracket with more false; -1 if neither follows.
func NextMember(b []byte, i int, closing byte) (int, bool) {
	i = SkipSpace(b, i)
	if i >= len(b) {
		return -1, false
	}
	switch b[i] {
	case ',':
		return i + 1, true
	case closing:
		return i + 1, false
	}
	return -1, false
}

// OpenArray reads the '[' of an array at b[i]. It returns the index of its
// first element, or the end of an empty array with empty true, or -1.
func OpenArray(b []byte, i int) (j int, empty bool) {
	if i >= len(b) || b[i] != '[' {
		return -1, false
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	return i, false
}
