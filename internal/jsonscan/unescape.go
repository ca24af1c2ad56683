package jsonscan

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Errors of Unescape.
var (
	errBadEscape  = errors.New("bad escape in string")
	errBadUEscape = errors.New("bad \\u escape in string")
)

// Unescape appends the text of the JSON string body (without its quotes) to
// dst. dst may be body[:0]: each escape decodes to no more bytes than it
// takes and is read whole before its bytes are written, so it decodes in
// place. A lone surrogate becomes U+FFFD, as in encoding/json.
func Unescape(dst, body []byte) ([]byte, error) {
	for i := 0; i < len(body); {
		j := bytes.IndexByte(body[i:], '\\')
		if j < 0 {
			dst = append(dst, body[i:]...)
			break
		}
		dst = append(dst, body[i:i+j]...)
		i += j
		if i+1 >= len(body) {
			return nil, errBadEscape
		}
		c := body[i+1]
		i += 2
		switch c {
		case '"', '\\', '/':
			dst = append(dst, c)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, n, ok := unicodeEscape(body[i:])
			if !ok {
				return nil, errBadUEscape
			}
			i += n
			dst = utf8.AppendRune(dst, r)
		default:
			return nil, fmt.Errorf("bad escape \\%c in string", c)
		}
	}
	return dst, nil
}

// unicodeEscape reads the four hex digits after a \u, and the low half of a
// surrogate pair when one follows; it returns the rune (U+FFFD for a lone
// surrogate) and the bytes read.
func unicodeEscape(b []byte) (rune, int, bool) {
	r, ok := hex4(b)
	if !ok {
		return 0, 0, false
	}
	if !utf16.IsSurrogate(r) {
		return r, 4, true
	}
	if len(b) >= 6 && b[4] == '\\' && b[5] == 'u' {
		if r2, ok := hex4(b[6:]); ok {
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				return d, 10, true
			}
		}
	}
	return utf8.RuneError, 4, true
}

// hex4 reads four hex digits.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 16)
	return rune(v), err == nil
}
