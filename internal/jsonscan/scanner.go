package jsonscan

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"strconv"
)

// Scanner is a pull parser over a stream of JSON. The readers use it to
// walk profiles of hundreds of megabytes with a small buffer, keeping only
// what they need: no generic tree of values is ever built.
//
// Methods record the first error (see Err) and return zero values after it,
// so callers may check Err once per logical unit. Byte slices it returns
// are valid only until the next call.
type Scanner struct {
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

// BufSize is the buffer size the readers use: large enough that the fast
// paths see whole nodes, small beside any profile worth streaming.
const BufSize = 256 << 10

// New returns a Scanner reading r with a buffer of bufSize bytes (it grows
// for tokens longer than half of it).
func New(r io.Reader, bufSize int) *Scanner {
	return &Scanner{r: r, buf: make([]byte, bufSize)}
}

// Offset returns the stream offset of the next unread byte.
func (s *Scanner) Offset() int64 { return s.base + int64(s.pos) }

// Err returns the first error met, nil if none.
func (s *Scanner) Err() error { return s.err }

// Fail records an error at the current offset, unless one is recorded.
func (s *Scanner) Fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("at byte %d: %s", s.Offset(), fmt.Sprintf(format, args...))
	}
}

// WrapErr prefixes the recorded error, if any, with the given context.
func (s *Scanner) WrapErr(format string, args ...any) {
	if s.err != nil {
		s.err = fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), s.err)
	}
}

// fill reads more input, keeping buf[keep:end] (moved to the front). It
// returns false at end of input or on a read error.
func (s *Scanner) fill(keep int) bool {
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

// Window returns the buffered input from the current position, first trying
// to buffer at least n bytes (at most half the buffer): what a fast path
// reads in place before calling Advance.
func (s *Scanner) Window(n int) []byte {
	s.ensure(n)
	return s.buf[s.pos:s.end]
}

// Advance consumes n bytes of the Window.
func (s *Scanner) Advance(n int) { s.pos += n }

// ensure tries to have at least n bytes buffered after the current position,
// short of the end of input. It does not grow the buffer: n is capped at
// half its size.
func (s *Scanner) ensure(n int) {
	n = min(n, len(s.buf)/2)
	for s.end-s.pos < n && !s.eof && s.err == nil {
		if !s.fill(s.pos) {
			return
		}
	}
}

// Peek skips white space and returns the next byte without consuming it, or
// 0 at end of input.
func (s *Scanner) Peek() byte {
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

// unexpected records what was found where want was expected.
func (s *Scanner) unexpected(want string) {
	c := s.Peek()
	if s.err != nil {
		return
	}
	if c == 0 {
		s.err = fmt.Errorf("at byte %d: unexpected end of input, expected %s (file truncated?)", s.Offset(), want)
		return
	}
	s.Fail("expected %s, found %q", want, rune(c))
}

// expect consumes byte c after white space.
func (s *Scanner) expect(c byte, want string) bool {
	if s.Peek() != c {
		s.unexpected(want)
		return false
	}
	s.pos++
	return true
}

// Members walks the object at the current position, yielding each key; the
// loop body reads (or skips) the member's value. The walk ends at the
// closing brace, or at the first error, which Err then reports:
//
//	for key := range s.Members() {
//		switch string(key) {
//		case "id":
//			id = s.ReadInt()
//		default:
//			s.SkipValue()
//		}
//	}
//
// The key is valid until the next call. A loop that breaks early leaves the
// rest of the object unread.
func (s *Scanner) Members() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		if !s.expect('{', "an object") {
			return
		}
		for first := true; ; {
			key, ok := s.nextKey(&first)
			if !ok || !yield(key) || s.err != nil {
				return
			}
		}
	}
}

// Elements walks the array at the current position, yielding once per
// element; the loop body reads the element. The walk ends at the closing
// bracket, or at the first error, which Err then reports.
func (s *Scanner) Elements() func(yield func() bool) {
	return func(yield func() bool) {
		if !s.expect('[', "an array") {
			return
		}
		for first := true; s.nextElem(&first); {
			if !yield() || s.err != nil {
				return
			}
		}
	}
}

// nextKey advances to the next member of an object and returns its key, or
// returns false at the closing brace (or on error).
func (s *Scanner) nextKey(first *bool) ([]byte, bool) {
	c := s.Peek()
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
		c = s.Peek()
	}
	*first = false
	if c != '"' {
		s.unexpected("a string key")
		return nil, false
	}
	// Copy the key: finding the ':' may refill the buffer under it.
	s.key = append(s.key[:0], s.ReadString()...)
	if s.err != nil || !s.expect(':', "':'") {
		return nil, false
	}
	return s.key, true
}

// nextElem advances to the next element of an array, or returns false at the
// closing bracket (or on error).
func (s *Scanner) nextElem(first *bool) bool {
	c := s.Peek()
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

// ReadString reads a JSON string and returns its unescaped bytes.
func (s *Scanner) ReadString() []byte {
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
				s.Fail("control character in string")
				return nil
			}
			i++
		}
		if i < s.end {
			raw := s.buf[start:i]
			s.pos = i + 1
			if escaped {
				out, err := Unescape(s.scratch[:0], raw)
				if err != nil {
					s.Fail("%s", err)
					return nil
				}
				s.scratch = out
				return out
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

// NumberToken returns the raw bytes of the number at the current position.
func (s *Scanner) NumberToken() []byte {
	c := s.Peek()
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

// ReadInt reads an integer. A number with a fraction or exponent that is a
// whole number within range is accepted (some writers emit 12.0).
func (s *Scanner) ReadInt() int64 {
	tok := s.NumberToken()
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
		s.Fail("%s: %q", err, tok)
	}
	return v
}

// parseIntToken parses a number token that must be a whole number in
// the range of int64.
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

// ReadFloat reads any JSON number.
func (s *Scanner) ReadFloat() float64 {
	tok := s.NumberToken()
	if s.err != nil {
		return 0
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	if err != nil || math.IsInf(f, 0) {
		s.Fail("malformed or out-of-range number %q", tok)
		return 0
	}
	return f
}

// ReadIntArray reads an array of integers, appending to dst.
func (s *Scanner) ReadIntArray(dst []int64) []int64 {
	for range s.Elements() {
		dst = append(dst, s.ReadInt())
		if s.err != nil {
			return dst
		}
		// Then as many plain integers as the buffer holds whole, read in
		// place; the general step above takes what they cannot.
		i := s.pos
		for {
			j := SkipSpace(s.buf[:s.end], i)
			if j >= s.end || s.buf[j] != ',' {
				break
			}
			v, k := PlainInt(s.buf[:s.end], SkipSpace(s.buf[:s.end], j+1))
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

// ReadLiteral consumes true, false or null and reports which.
func (s *Scanner) ReadLiteral() (string, bool) {
	for _, lit := range [...]string{"true", "false", "null"} {
		if s.Peek() != lit[0] {
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

// IsNull consumes a null if one is next.
func (s *Scanner) IsNull() bool {
	if s.Peek() != 'n' {
		return false
	}
	lit, ok := s.ReadLiteral()
	if ok && lit != "null" {
		s.Fail("expected null")
	}
	return ok
}

// SkipValue skips one value of any kind, iteratively, so that deeply nested
// input cannot overflow the stack.
func (s *Scanner) SkipValue() {
	depth := 0
	for s.err == nil {
		c := s.Peek()
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
			s.ReadString()
			if depth > 0 && s.Peek() == ':' {
				s.pos++
				continue
			}
		case c == '-' || (c >= '0' && c <= '9'):
			s.NumberToken()
		case c == 't' || c == 'f' || c == 'n':
			s.ReadLiteral()
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

// AtEnd reports whether only white space follows the top-level value.
func (s *Scanner) AtEnd() bool {
	return s.Peek() == 0 && s.err == nil
}
