// Package jsonwrite writes JSON value by value to an io.Writer, through a
// buffer of its own, without reflection and without holding the document:
// a report of megabytes costs one 64 KiB buffer, not a tree of structs, a
// marshalled copy and an indented copy.
//
// The bytes are exactly those encoding/json writes: compact as json.Marshal
// writes a value (strings HTML-escaped, floats formatted as its float64
// encoder does), or, with Options.Indent, as json.Indent(dst, compact, "",
// " ") would indent that. Options.Escape adds runes to escape as \uXXXX
// inside strings.
//
// The caller nests the calls correctly (a Key before each value of an
// object, none in an array); the Writer does not check. The first error
// from the underlying writer, or from a value JSON cannot hold (NaN, ±Inf),
// is kept; from then on nothing more is written, and Flush returns it.
package jsonwrite

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// flushAt is the buffered size past which a value flushes the buffer.
const flushAt = 64 << 10

// Options tune a Writer.
type Options struct {
	// Indent writes one value or key per line, indented by one space per
	// level, as json.Indent(dst, src, "", " ") does.
	Indent bool
	// Escape, when set, reports the runes above ASCII to write as \uXXXX
	// (lower-case hex) inside strings, on top of those encoding/json
	// escapes. It is asked only of valid runes encoding/json writes as
	// they are; a rune above U+FFFF is escaped as a UTF-16 surrogate pair.
	Escape func(r rune) bool
}

// A Writer writes one JSON document (or several, one after another with
// nothing between them but what Raw writes) to an io.Writer. Its zero value is not usable; see New.
type Writer struct {
	w      io.Writer
	buf    []byte
	err    error
	indent bool
	escape func(rune) bool
	depth  int
	// comma: a value was written at this level, so the next one needs a
	// comma (and, at the end of the container, a new line before it).
	comma bool
	// afterKey: a key was written, so its value follows at once.
	afterKey bool
}

// New returns a Writer to w.
func New(w io.Writer, opts Options) *Writer {
	return &Writer{w: w, buf: make([]byte, 0, flushAt+4<<10), indent: opts.Indent, escape: opts.Escape}
}

// Flush writes what is buffered and returns the first error met, by the
// underlying writer or on a value JSON cannot hold.
func (w *Writer) Flush() error {
	if w.err == nil && len(w.buf) > 0 {
		_, w.err = w.w.Write(w.buf)
	}
	w.buf = w.buf[:0]
	return w.err
}

// Err returns the first error met so far, without flushing.
func (w *Writer) Err() error { return w.err }

// value starts a value: the comma and new line before it, unless it is a
// key's value, after flushing a full buffer.
func (w *Writer) value() {
	if len(w.buf) >= flushAt {
		w.Flush()
	}
	if w.afterKey {
		w.afterKey = false
		return
	}
	if w.depth == 0 {
		return // a document of its own
	}
	if w.comma {
		w.buf = append(w.buf, ',')
	}
	if w.indent {
		w.newline()
	}
}

func (w *Writer) newline() {
	w.buf = append(w.buf, '\n')
	n := w.depth
	for n > len(spaces) {
		w.buf = append(w.buf, spaces...)
		n -= len(spaces)
	}
	w.buf = append(w.buf, spaces[:n]...)
}

// spaces indent a line, one a level.
const spaces = "                                                                "

// BeginObject starts an object: {.
func (w *Writer) BeginObject() { w.begin('{') }

// EndObject ends the object: }.
func (w *Writer) EndObject() { w.end('}') }

// BeginArray starts an array: [.
func (w *Writer) BeginArray() { w.begin('[') }

// EndArray ends the array: ].
func (w *Writer) EndArray() { w.end(']') }

func (w *Writer) begin(c byte) {
	w.value()
	w.buf = append(w.buf, c)
	w.depth++
	w.comma = false
}

func (w *Writer) end(c byte) {
	w.depth--
	if w.indent && w.comma { // an empty container stays {} or []
		w.newline()
	}
	w.buf = append(w.buf, c)
	w.comma = true
}

// Key writes the key of an object's next member; its value follows.
func (w *Writer) Key(k string) {
	w.value()
	w.buf = w.appendString(w.buf, k)
	if w.indent {
		w.buf = append(w.buf, ':', ' ')
	} else {
		w.buf = append(w.buf, ':')
	}
	w.afterKey = true
}

// String writes a string, escaped as json.Marshal escapes it (and as
// Options.Escape asks).
func (w *Writer) String(s string) {
	w.value()
	w.buf = w.appendString(w.buf, s)
	w.comma = true
}

// Float writes a number as json.Marshal writes a float64. NaN and ±Inf
// have no JSON form: they are an error (write Null instead).
func (w *Writer) Float(f float64) {
	w.value()
	w.buf = w.appendFloat(w.buf, f)
	w.comma = true
}

// AppendFloat appends f formatted as Float writes it, for a number written
// more than once (Number), formatted once.
func (w *Writer) AppendFloat(b []byte, f float64) []byte { return w.appendFloat(b, f) }

// Number writes a number AppendFloat formatted.
func (w *Writer) Number(b []byte) {
	w.value()
	w.buf = append(w.buf, b...)
	w.comma = true
}

// Int writes an integer.
func (w *Writer) Int(i int64) {
	w.value()
	w.buf = strconv.AppendInt(w.buf, i, 10)
	w.comma = true
}

// Bool writes true or false.
func (w *Writer) Bool(b bool) {
	w.value()
	w.buf = strconv.AppendBool(w.buf, b)
	w.comma = true
}

// Null writes null.
func (w *Writer) Null() {
	w.value()
	w.buf = append(w.buf, "null"...)
	w.comma = true
}

// Floats writes an array of numbers, or null for a nil slice, as
// json.Marshal writes a []float64.
func (w *Writer) Floats(xs []float64) {
	if xs == nil {
		w.Null()
		return
	}
	w.BeginArray()
	for _, x := range xs {
		w.Float(x)
	}
	w.EndArray()
}

// Strings writes an array of strings, or null for a nil slice, as
// json.Marshal writes a []string.
func (w *Writer) Strings(xs []string) {
	if xs == nil {
		w.Null()
		return
	}
	w.BeginArray()
	for _, x := range xs {
		w.String(x)
	}
	w.EndArray()
}

// Ints writes an array of integers, or null for a nil slice, as
// json.Marshal writes a slice of a signed integer type (a []int8 too).
func Ints[T ~int | ~int8 | ~int16 | ~int32 | ~int64](w *Writer, xs []T) {
	if xs == nil {
		w.Null()
		return
	}
	w.BeginArray()
	for _, x := range xs {
		w.Int(int64(x))
	}
	w.EndArray()
}

// Raw writes s as it is, outside the JSON structure: the text around a
// document (an HTML page's markup before and after it, a final new line).
// It does not count as a value.
func (w *Writer) Raw(s string) {
	if len(w.buf) >= flushAt {
		w.Flush()
	}
	if w.err == nil && len(s) > flushAt {
		w.Flush()
		if w.err == nil {
			_, w.err = io.WriteString(w.w, s)
		}
		return
	}
	w.buf = append(w.buf, s...)
}

// appendFloat appends f as encoding/json's float64 encoder does: as
// ECMAScript formats numbers, 'f' format between 1e-6 and 1e21, 'e'
// outside with no padding of the exponent (1e-7, not 1e-07).
func (w *Writer) appendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		if w.err == nil {
			w.err = fmt.Errorf("jsonwrite: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, 64))
		}
		return append(b, "null"...)
	}
	// Whole numbers below 2^53 (most of a profile's nanoseconds) are
	// their digits: no shorter decimal reads back as the same float.
	if f >= -maxExact && f <= maxExact && f == math.Trunc(f) && (f != 0 || !math.Signbit(f)) {
		return strconv.AppendInt(b, int64(f), 10)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// maxExact is 2^53: every whole float64 up to it is exact.
const maxExact = 1 << 53

const hex = "0123456789abcdef"

// plain holds the ASCII bytes a string holds as they are: all but control
// characters, the quote, the backslash and the HTML characters <, > and &.
var plain = func() (t [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = true
	}
	t['"'], t['\\'], t['<'], t['>'], t['&'] = false, false, false, false, false
	return t
}()

// appendString appends s quoted and escaped as encoding/json's
// appendString does with HTML escaping on, and with the runes of
// Options.Escape as \uXXXX.
func (w *Writer) appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plain[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default: // other control characters, <, > and &
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		case w.escape != nil && w.escape(r):
			b = append(b, s[start:i]...)
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				b = appendU(appendU(b, r1), r2)
			} else {
				b = appendU(b, r)
			}
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendU appends r (at most U+FFFF) as \uXXXX.
func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
