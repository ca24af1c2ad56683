package analyze

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonScanner is a pull parser over a stream of JSON. The readers use it to
// walk profiles of hundreds of megabytes with a small buffer, keeping only
// what they need: no generic tree of values is ever built.
//
// Methods record the first error in s.err and return zero values after it,
// so callers may check s.err once per logical unit. Byte slices it returns
// are valid only until the next call.
type jsonScanner struct {
	r    io.Reader
	buf  []byte
	pos  int   // next unread byte in buf
	end  int   // end of valid data in buf
	base int64 // stream offset of buf[0]
	eof  bool
	err  error

	scratch []byte // unescaped strings
	key     []byte // the current object key
}

const scanBufSize = 256 << 10

func newJSONScanner(r io.Reader, bufSize int) *jsonScanner {
	return &jsonScanner{r: r, buf: make([]byte, bufSize)}
}

// offset returns the stream offset of the next unread byte.
func (s *jsonScanner) offset() int64 { return s.base + int64(s.pos) }

func (s *jsonScanner) fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("at byte %d: %s", s.offset(), fmt.Sprintf(format, args...))
	}
}

// fill reads more input, keeping buf[keep:end] (moved to the front). It
// returns false at end of input or on a read error.
func (s *jsonScanner) fill(keep int) bool {
	if s.eof || s.err != nil {
		return false
	}
	if keep > 0 || s.end == len(s.buf) {
		n := copy(s.buf, s.buf[keep:s.end])
		s.base += int64(keep)
		s.pos -= keep
		s.end = n
		if s.end == len(s.buf) { // one token fills the buffer: grow it
			nb := make([]byte, 2*len(s.buf))
			copy(nb, s.buf[:s.end])
			s.buf = nb
		}
	}
	for {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			if err == io.EOF {
				s.eof = true
			} else {
				s.err = fmt.Errorf("at byte %d: %w", s.base+int64(s.end), err)
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

// ensure tries to have at least n bytes buffered after the current position,
// short of the end of input. It does not grow the buffer: n is capped at
// half its size.
func (s *jsonScanner) ensure(n int) {
	n = min(n, len(s.buf)/2)
	for s.end-s.pos < n && !s.eof && s.err == nil {
		if !s.fill(s.pos) {
			return
		}
	}
}

// peek skips white space and returns the next byte without consuming it, or
// 0 at end of input.
func (s *jsonScanner) peek() byte {
	for {
		for s.pos < s.end {
			c := s.buf[s.pos]
			if c == ' ' || c == '\n' || c == '\r' || c == '\t' {
				s.pos++
				continue
			}
			return c
		}
		if !s.fill(s.pos) {
			return 0
		}
	}
}

func (s *jsonScanner) unexpected(want string) {
	c := s.peek()
	if s.err != nil {
		return
	}
	if c == 0 {
		s.err = fmt.Errorf("at byte %d: unexpected end of input, expected %s (file truncated?)", s.offset(), want)
		return
	}
	s.fail("expected %s, found %q", want, rune(c))
}

// expect consumes byte c after white space.
func (s *jsonScanner) expect(c byte, want string) bool {
	if s.peek() != c {
		s.unexpected(want)
		return false
	}
	s.pos++
	return true
}

// Objects and arrays are walked with a "first" flag held by the caller:
//
//	if s.beginObject() {
//		for first := true; ; {
//			key, ok := s.nextKey(&first)
//			if !ok {
//				break
//			}
//			... read the member's value ...
//		}
//	}
//
// nextKey/nextElem consume the separators and the closing bracket.

func (s *jsonScanner) beginObject() bool { return s.expect('{', "an object") }
func (s *jsonScanner) beginArray() bool  { return s.expect('[', "an array") }

// nextKey advances to the next member of an object and returns its key, or
// returns false at the closing brace (or on error).
func (s *jsonScanner) nextKey(first *bool) ([]byte, bool) {
	c := s.peek()
	if c == '}' {
		s.pos++
		return nil, false
	}
	if !*first {
		if c != ',' {
			s.unexpected("',' or '}'")
			return nil, false
		}
		s.pos++
		c = s.peek()
	}
	*first = false
	if c != '"' {
		s.unexpected("a string key")
		return nil, false
	}
	// Copy the key: finding the ':' may refill the buffer under it.
	s.key = append(s.key[:0], s.readString()...)
	if s.err != nil || !s.expect(':', "':'") {
		return nil, false
	}
	return s.key, true
}

// nextElem advances to the next element of an array, or returns false at the
// closing bracket (or on error).
func (s *jsonScanner) nextElem(first *bool) bool {
	c := s.peek()
	if c == ']' {
		s.pos++
		return false
	}
	if !*first {
		if c != ',' {
			s.unexpected("',' or ']'")
			return false
		}
		s.pos++
	}
	*first = false
	return s.err == nil
}

// readString reads a JSON string and returns its unescaped bytes.
func (s *jsonScanner) readString() []byte {
	if !s.expect('"', "a string") {
		return nil
	}
	start := s.pos
	escaped := false
	for {
		i := s.pos
		for i < s.end {
			c := s.buf[i]
			if c == '"' {
				break
			}
			if c == '\\' {
				escaped = true
				i++ // skip the escaped byte (it may be a quote)
			} else if c < 0x20 {
				s.pos = i
				s.fail("control character in string")
				return nil
			}
			i++
		}
		if i < s.end {
			raw := s.buf[start:i]
			s.pos = i + 1
			if escaped {
				return s.unescape(raw)
			}
			return raw
		}
		// The string runs past the buffer: keep it, read more, and scan it
		// again from its start (the buffer grows geometrically, so the
		// rescans cost O(length) in all).
		s.pos = start
		if !s.fill(start) {
			if s.err == nil {
				s.err = fmt.Errorf("at byte %d: unexpected end of input inside a string (file truncated?)", s.base+int64(s.end))
			}
			return nil
		}
		start = s.pos
		escaped = false
	}
}

func (s *jsonScanner) unescape(raw []byte) []byte {
	out := s.scratch[:0]
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if i >= len(raw) {
			s.fail("bad escape in string")
			return nil
		}
		switch raw[i] {
		case '"', '\\', '/':
			out = append(out, raw[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, n := decodeU(raw[i+1:])
			if n == 0 {
				s.fail("bad \\u escape in string")
				return nil
			}
			i += n
			if utf16.IsSurrogate(r) {
				r2, n2 := rune(-1), 0
				if i+2 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
					r2, n2 = decodeU(raw[i+3:])
				}
				if d := utf16.DecodeRune(r, r2); n2 > 0 && d != utf8.RuneError {
					r = d
					i += 2 + n2
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			s.fail("bad escape \\%c in string", raw[i])
			return nil
		}
	}
	s.scratch = out
	return out
}

func decodeU(b []byte) (rune, int) {
	if len(b) < 4 {
		return 0, 0
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 16)
	if err != nil {
		return 0, 0
	}
	return rune(v), 4
}

// numberToken returns the raw bytes of the number at the current position.
func (s *jsonScanner) numberToken() []byte {
	c := s.peek()
	if !(c == '-' || (c >= '0' && c <= '9')) {
		s.unexpected("a number")
		return nil
	}
	for {
		i := s.pos
		for i < s.end {
			c := s.buf[i]
			if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
				i++
				continue
			}
			break
		}
		if i < s.end || s.eof {
			tok := s.buf[s.pos:i]
			s.pos = i
			return tok
		}
		start := s.pos
		if !s.fill(start) && !s.eof {
			return nil
		}
	}
}

// readInt reads an integer. A number with a fraction or exponent that is a
// whole number within range is accepted (some writers emit 12.0).
func (s *jsonScanner) readInt() int64 {
	tok := s.numberToken()
	if s.err != nil {
		return 0
	}
	// Fast path: optional minus and up to 18 digits.
	neg := false
	b := tok
	if len(b) > 0 && b[0] == '-' {
		neg = true
		b = b[1:]
	}
	if len(b) > 0 && len(b) <= 18 {
		var v int64
		ok := true
		for _, c := range b {
			if c < '0' || c > '9' {
				ok = false
				break
			}
			v = v*10 + int64(c-'0')
		}
		if ok {
			if neg {
				v = -v
			}
			return v
		}
	}
	v, err := parseIntToken(tok)
	if err != nil {
		s.fail("%s: %q", err, tok)
	}
	return v
}

func parseIntToken(tok []byte) (int64, error) {
	if v, err := strconv.ParseInt(string(tok), 10, 64); err == nil {
		return v, nil
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("number out of range")
	}
	if err != nil {
		return 0, fmt.Errorf("malformed number")
	}
	if f != math.Trunc(f) {
		return 0, fmt.Errorf("expected an integer, found a fraction")
	}
	if f >= math.MaxInt64 || f <= math.MinInt64 {
		return 0, fmt.Errorf("integer out of range")
	}
	return int64(f), nil
}

// readFloat reads any JSON number.
func (s *jsonScanner) readFloat() float64 {
	tok := s.numberToken()
	if s.err != nil {
		return 0
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	if err != nil || math.IsInf(f, 0) {
		s.fail("malformed or out-of-range number %q", tok)
		return 0
	}
	return f
}

// readIntArray reads an array of integers, appending to dst.
func (s *jsonScanner) readIntArray(dst []int64) []int64 {
	if !s.beginArray() {
		return dst
	}
	for first := true; s.nextElem(&first); {
		dst = append(dst, s.readInt())
		if s.err != nil {
			return dst
		}
		// Then as many plain integers as the buffer holds whole, read in
		// place; the general step above takes what they cannot.
		i := s.pos
		for {
			j := skipSpace(s.buf[:s.end], i)
			if j >= s.end || s.buf[j] != ',' {
				break
			}
			v, k := plainInt(s.buf[:s.end], skipSpace(s.buf[:s.end], j+1))
			if k < 0 {
				break
			}
			dst = append(dst, v)
			i = k
		}
		s.pos = i
	}
	return dst
}

// readLiteral consumes true, false or null and reports which.
func (s *jsonScanner) readLiteral() (string, bool) {
	for _, lit := range [...]string{"true", "false", "null"} {
		if s.peek() != lit[0] {
			continue
		}
		for s.end-s.pos < len(lit) && !s.eof {
			if !s.fill(s.pos) {
				break
			}
		}
		if s.end-s.pos >= len(lit) && string(s.buf[s.pos:s.pos+len(lit)]) == lit {
			s.pos += len(lit)
			return lit, true
		}
	}
	s.unexpected("a value")
	return "", false
}

// isNull consumes a null if one is next.
func (s *jsonScanner) isNull() bool {
	if s.peek() != 'n' {
		return false
	}
	lit, ok := s.readLiteral()
	if ok && lit != "null" {
		s.fail("expected null")
	}
	return ok
}

// skipValue skips one value of any kind, iteratively, so that deeply nested
// input cannot overflow the stack.
func (s *jsonScanner) skipValue() {
	depth := 0
	for s.err == nil {
		c := s.peek()
		switch {
		case c == '{' || c == '[':
			s.pos++
			depth++
			// An empty container closes at once; members are handled below.
			continue
		case c == '}' || c == ']':
			if depth == 0 {
				s.unexpected("a value")
				return
			}
			s.pos++
			depth--
		case c == '"':
			s.readString()
			if depth > 0 && s.peek() == ':' {
				s.pos++
				continue
			}
		case c == '-' || (c >= '0' && c <= '9'):
			s.numberToken()
		case c == 't' || c == 'f' || c == 'n':
			s.readLiteral()
		case c == ',' && depth > 0:
			s.pos++
			continue
		default:
			s.unexpected("a value")
			return
		}
		if depth == 0 {
			return
		}
	}
}

// atEnd reports whether only white space follows the top-level value.
func (s *jsonScanner) atEnd() bool {
	return s.peek() == 0 && s.err == nil
}
