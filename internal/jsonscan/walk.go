package jsonscan

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Walker validates and walks JSON held in memory. It accepts exactly what
// encoding/json accepts (RFC 8259 syntax; invalid UTF-8 inside strings is
// tolerated, as encoding/json replaces it).
//
// Raw values it hands out alias the input.
type Walker struct {
	d     []byte // the input
	i     int    // the next unread byte
	depth int
	// elemHook, if set, is asked for each key of the outermost object
	// whether to collect the elements of its value when that is an array.
	elemHook func(key []byte) func(i int, val []byte) error
}

// maxJSONDepth bounds the nesting of containers, as encoding/json does.
const maxJSONDepth = 10000

// NewWalker returns a Walker over data, starting at byte start (errors
// give offsets in data itself).
func NewWalker(data []byte, start int) *Walker { return &Walker{d: data, i: start} }

// Pos returns the offset of the next unread byte, after white space.
func (s *Walker) Pos() int {
	s.ws()
	return s.i
}

// Next returns the next byte after white space, 0 at the end of input.
func (s *Walker) Next() byte {
	if s.Pos() >= len(s.d) {
		return 0
	}
	return s.d[s.i]
}

// Skip validates and skips the value at the current position.
func (s *Walker) Skip() error { return s.value(nil, nil) }

// Object walks the object at the current position: onField gets each raw
// key and value. collect, if not nil, is asked for each key whose value is
// an array whether to receive its elements, in the same pass.
func (s *Walker) Object(onField func(key, val []byte) error, collect func(key []byte) func(i int, val []byte) error) error {
	s.elemHook = collect
	defer func() { s.elemHook = nil }()
	return s.value(onField, nil)
}

// errf returns a JSON syntax error at the current offset.
func (s *Walker) errf(format string, args ...any) error {
	return fmt.Errorf("json: %s at byte %d", fmt.Sprintf(format, args...), s.i)
}

// ws skips white space.
func (s *Walker) ws() { s.i = SkipSpace(s.d, s.i) }

// value skips (validating) the value at s.i, after optional white space. If
// it is an object and onField is not nil, onField gets each key (raw JSON
// string) and value; if it is an array and onElem is not nil, onElem gets
// each element. Raw values alias s.d.
func (s *Walker) value(onField func(key, val []byte) error, onElem func(i int, val []byte) error) error {
	s.ws()
	if s.i >= len(s.d) {
		return s.errf("unexpected end of input")
	}
	switch c := s.d[s.i]; c {
	case '"':
		return s.str()
	case '{':
		return s.obj(onField)
	case '[':
		return s.arr(onElem)
	case 't':
		return s.lit("true")
	case 'f':
		return s.lit("false")
	case 'n':
		return s.lit("null")
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return s.num()
		}
		if c >= 0x20 && c < 0x7f {
			return s.errf("invalid character %q", c)
		}
		return s.errf("invalid character 0x%02x", c)
	}
}

// lit consumes the literal w (true, false or null).
func (s *Walker) lit(w string) error {
	if !bytes.HasPrefix(s.d[s.i:], []byte(w)) {
		return s.errf("invalid literal")
	}
	s.i += len(w)
	return nil
}

// num consumes a number, checking RFC 8259 syntax.
func (s *Walker) num() error {
	d, i := s.d, s.i
	digits := func() bool {
		st := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i > st
	}
	if d[i] == '-' {
		i++
	}
	if i < len(d) && d[i] == '0' {
		i++
	} else if !digits() {
		s.i = i
		return s.errf("invalid number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			s.i = i
			return s.errf("invalid number")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			s.i = i
			return s.errf("invalid number")
		}
	}
	s.i = i
	return nil
}

// strStop marks the bytes that end the fast scan of a string.
var strStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'] = true
	t['\\'] = true
	return t
}()

// isHex reports whether c is a hex digit.
func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// str consumes a string, checking its escapes and control characters.
func (s *Walker) str() error {
	d := s.d
	i := s.i + 1
	for {
		// Eight bytes at a time while none is '"', '\\' or a control
		// character (the classic has-zero-byte / has-less-than tricks; they
		// may flag a byte after a real hit, never miss one).
		const ones, highs = 0x0101010101010101, 0x8080808080808080
		for i+8 <= len(d) {
			x := binary.LittleEndian.Uint64(d[i:])
			q := x ^ (ones * '"')
			b := x ^ (ones * '\\')
			if ((q-ones)&^q|(b-ones)&^b|(x-ones*0x20)&^x)&highs != 0 {
				break
			}
			i += 8
		}
		for i < len(d) && !strStop[d[i]] {
			i++
		}
		if i >= len(d) {
			s.i = i
			return s.errf("unterminated string")
		}
		switch c := d[i]; {
		case c == '"':
			s.i = i + 1
			return nil
		case c == '\\':
			if i+1 >= len(d) {
				s.i = i
				return s.errf("unterminated string")
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) || !isHex(d[i+2]) || !isHex(d[i+3]) || !isHex(d[i+4]) || !isHex(d[i+5]) {
					s.i = i
					return s.errf("invalid \\u escape")
				}
				i += 6
			default:
				s.i = i
				return s.errf("invalid escape")
			}
		default:
			s.i = i
			return s.errf("control character in string")
		}
	}
}

// enter goes one container deeper, failing beyond maxJSONDepth.
func (s *Walker) enter() error {
	s.depth++
	if s.depth > maxJSONDepth {
		return s.errf("nesting too deep")
	}
	return nil
}

// open enters the object or array at s.i and reports whether it closes at
// once ("{}" or "[]").
func (s *Walker) open(closing byte) (empty bool, err error) {
	if err := s.enter(); err != nil {
		return false, err
	}
	s.i++ // '{' or '['
	s.ws()
	if s.i < len(s.d) && s.d[s.i] == closing {
		s.i++
		s.depth--
		return true, nil
	}
	return false, nil
}

// next consumes the ',' or the closing bracket after a member or element
// and reports whether the container closed.
func (s *Walker) next(closing byte) (closed bool, err error) {
	s.ws()
	if s.i >= len(s.d) {
		return false, s.errf("unexpected end of input")
	}
	switch s.d[s.i] {
	case ',':
		s.i++
		return false, nil
	case closing:
		s.i++
		s.depth--
		return true, nil
	}
	return false, s.errf("expected ',' or '%c'", closing)
}

// obj consumes an object, passing each raw key and value to fn if not nil.
func (s *Walker) obj(fn func(key, val []byte) error) error {
	if empty, err := s.open('}'); empty || err != nil {
		return err
	}
	for {
		s.ws()
		if s.i >= len(s.d) || s.d[s.i] != '"' {
			return s.errf("expected object key")
		}
		k0 := s.i
		if err := s.str(); err != nil {
			return err
		}
		key := s.d[k0:s.i]
		s.ws()
		if s.i >= len(s.d) || s.d[s.i] != ':' {
			return s.errf("expected ':'")
		}
		s.i++
		s.ws()
		v0 := s.i
		var onElem func(int, []byte) error
		if s.elemHook != nil && s.depth == 1 && s.i < len(s.d) && s.d[s.i] == '[' {
			onElem = s.elemHook(key)
		}
		if err := s.value(nil, onElem); err != nil {
			return err
		}
		if fn != nil {
			if err := fn(key, s.d[v0:s.i]); err != nil {
				return err
			}
		}
		if closed, err := s.next('}'); closed || err != nil {
			return err
		}
	}
}

// arr consumes an array, passing each raw element to fn if not nil.
func (s *Walker) arr(fn func(i int, val []byte) error) error {
	if empty, err := s.open(']'); empty || err != nil {
		return err
	}
	for n := 0; ; n++ {
		s.ws()
		v0 := s.i
		if err := s.value(nil, nil); err != nil {
			return err
		}
		if fn != nil {
			if err := fn(n, s.d[v0:s.i]); err != nil {
				return err
			}
		}
		if closed, err := s.next(']'); closed || err != nil {
			return err
		}
	}
}

// EachElem calls fn for each element of a validated raw JSON array.
func EachElem(raw []byte, fn func(i int, val []byte) error) error {
	s := Walker{d: raw}
	return s.value(nil, fn)
}

// EachField calls fn for each member (raw key, raw value) of a validated
// raw JSON object.
func EachField(raw []byte, fn func(key, val []byte) error) error {
	s := Walker{d: raw}
	return s.value(fn, nil)
}

// DecodeString decodes a validated raw JSON string. It unescapes in one
// pass into one buffer of the string's size: sourcesContent entries run to
// megabytes, and encoding/json's decoding of them cost more than the rest
// of symbolication.
func DecodeString(raw []byte) (string, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", errors.New("not a string")
	}
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body), nil
	}
	out, err := Unescape(make([]byte, 0, len(body)), body)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(out) {
		// As encoding/json does: each invalid byte becomes U+FFFD.
		var v strings.Builder
		for _, r := range string(out) {
			v.WriteRune(r) // ranging yields RuneError per invalid byte
		}
		return v.String(), nil
	}
	return unsafe.String(unsafe.SliceData(out), len(out)), nil // out is not used again
}

// DecodeInPlace decodes the JSON string raw (quotes included, validated)
// into raw's own bytes and returns the text, which shares them: raw must not
// be used again. It declines (false) when raw holds invalid UTF-8, whose
// replacement characters could outgrow it.
func DecodeInPlace(raw []byte) (string, bool) {
	if len(raw) < 2 {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	if !utf8.Valid(body) {
		return "", false
	}
	// Each escape decodes to no more bytes than it takes, and is read
	// whole before its bytes are written, so writing never overtakes
	// reading.
	out, err := Unescape(body[:0], body)
	if err != nil {
		return "", false
	}
	return unsafe.String(unsafe.SliceData(out), len(out)), true
}
