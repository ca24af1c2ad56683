package sourcemap

import (
	"fmt"
	"math"
)

// This file decodes "mappings": base64 VLQ segments, validated once by
// Parse and decoded again, in one streaming pass, by each Lookup.

// b64 maps a base64 character to its value, -1 for others.
var b64 = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := range len(alphabet) {
		t[alphabet[i]] = int8(i)
	}
	return t
}()

// decoder walks a mappings string segment by segment. After next returns
// stSeg, the fields col, src, oline, ocol and name describe the segment
// (src -1: unmapped; name -1: none); src, oline, ocol and name also carry
// the running values of the relative fields (lastSrc...).
type decoder struct {
	s    []byte
	pos  int
	line int   // generated line at pos
	col  int64 // generated column of the last segment on this line
	// running values of the fields relative across the map
	lastSrc, lastOline, lastOcol, lastName int64
	// the segment just decoded
	src, oline, ocol, name int64
	nsrc, nname            int64
	needSeg                bool // a ',' was consumed: a segment must follow
	err                    error
}

// next results.
const (
	stSeg     = iota // a segment was decoded
	stLineEnd        // a ';' was consumed: d.line is the next line
	stEnd            // end of mappings
	stErr            // d.err is set
)

// fail records an error of the mappings at byte at and returns stErr.
func (d *decoder) fail(at int, format string, args ...any) int {
	d.err = fmt.Errorf("mappings: %s at byte %d", fmt.Sprintf(format, args...), at)
	return stErr
}

// next decodes the next segment or line separator.
func (d *decoder) next() int {
	s, pos := d.s, d.pos
	if pos >= len(s) {
		if d.needSeg {
			return d.fail(pos, "empty segment")
		}
		return stEnd
	}
	start := pos
	switch s[pos] {
	case ';':
		if d.needSeg {
			return d.fail(start, "empty segment")
		}
		d.pos++
		d.line++
		d.col = 0
		return stLineEnd
	case ',':
		return d.fail(start, "empty segment")
	}
	var f [5]int64
	nf := 0
	for pos < len(s) {
		b := b64[s[pos]]
		if b < 0 && (s[pos] == ',' || s[pos] == ';') {
			break
		}
		if nf == 5 {
			return d.fail(start, "segment has more than 5 fields")
		}
		var raw int64
		switch {
		case b&32 == 0: // b >= 0 and a single digit: the common case
			raw = int64(b)
			pos++
		case b >= 0 && pos+1 < len(s) && b64[s[pos+1]]&32 == 0: // two digits
			raw = int64(b&31) | int64(b64[s[pos+1]])<<5
			pos += 2
		default:
			d.pos = pos
			v, ok := d.vlq()
			if !ok {
				return stErr
			}
			raw, pos = v, d.pos
		}
		v := raw >> 1
		if raw&1 != 0 {
			v = -v
			if v == 0 {
				v = math.MinInt32
			}
		}
		f[nf] = v
		nf++
	}
	d.needSeg = pos < len(s) && s[pos] == ','
	if d.needSeg {
		pos++
	}
	d.pos = pos
	if nf != 1 && nf != 4 && nf != 5 {
		return d.fail(start, "segment has %d fields (want 1, 4 or 5)", nf)
	}
	d.col += f[0]
	if d.col < 0 {
		return d.fail(start, "negative generated column %d", d.col)
	}
	if d.col > math.MaxInt32 {
		return d.fail(start, "generated column exceeds 32 bits")
	}
	d.src, d.name = -1, -1
	if nf == 1 {
		return stSeg
	}
	return d.original(start, &f, nf == 5)
}

// original applies the relative original fields of the segment at start
// (f[1:4], and the name f[4] when named) and checks their range.
func (d *decoder) original(start int, f *[5]int64, named bool) int {
	src, oline, ocol := d.lastSrc+f[1], d.lastOline+f[2], d.lastOcol+f[3]
	d.lastSrc, d.lastOline, d.lastOcol = src, oline, ocol
	if uint64(src) >= uint64(d.nsrc) || oline < 0 || oline > math.MaxInt32 || ocol < 0 || ocol > math.MaxInt32 {
		return d.originalRangeError(start, src, oline, ocol)
	}
	d.src, d.oline, d.ocol = src, oline, ocol
	if named {
		name := d.lastName + f[4]
		d.lastName = name
		if uint64(name) >= uint64(d.nname) {
			return d.fail(start, "name index %d out of range (%d names)", name, d.nname)
		}
		d.name = name
	}
	return stSeg
}

// originalRangeError reports which original field of the segment at start
// is out of range.
func (d *decoder) originalRangeError(start int, src, oline, ocol int64) int {
	switch {
	case src < 0 || src >= d.nsrc:
		return d.fail(start, "source index %d out of range (%d sources)", src, d.nsrc)
	case oline < 0:
		return d.fail(start, "negative original line %d", oline)
	case oline > math.MaxInt32:
		return d.fail(start, "original line exceeds 32 bits")
	case ocol < 0:
		return d.fail(start, "negative original column %d", ocol)
	default:
		return d.fail(start, "original column exceeds 32 bits")
	}
}

// vlq decodes one base64 VLQ at d.pos and returns its raw value (sign in
// bit 0). Values are limited to 32 bits: the magnitude must be below 2^31
// (the spec decodes "-0" as -2^31). Leading zero digits are allowed.
func (d *decoder) vlq() (int64, bool) {
	start := d.pos
	var v uint64
	shift := uint(0)
	for {
		if d.pos >= len(d.s) {
			d.fail(start, "VLQ missing continuation digits")
			return 0, false
		}
		c := d.s[d.pos]
		b := b64[c]
		if b < 0 {
			switch {
			case c == ',' || c == ';':
				d.fail(start, "VLQ missing continuation digits")
			case c >= 0x20 && c < 0x7f:
				d.fail(d.pos, "invalid base64 character %q", c)
			default:
				d.fail(d.pos, "invalid base64 character 0x%02x", c)
			}
			return 0, false
		}
		d.pos++
		if digit := uint64(b & 31); digit != 0 {
			if shift >= 32 {
				d.fail(start, "VLQ value exceeds 32 bits")
				return 0, false
			}
			v |= digit << shift
			if v > math.MaxUint32 {
				d.fail(start, "VLQ value exceeds 32 bits")
				return 0, false
			}
		}
		if b&32 == 0 {
			return int64(v), true
		}
		if shift < 35 {
			shift += 5
		}
	}
}

// validate decodes every segment once, recording the line count, the
// position of the last mapping (for the index-map overlap check) and
// checkpoints every cpEvery bytes.
func (s *section) validate(cpEvery int) error {
	d := decoder{s: s.mappings, nsrc: int64(s.nsrc), nname: int64(s.nname)}
	s.lastLine, s.lastCol = -1, -1
	lastCP := 0
	for {
		switch d.next() {
		case stErr:
			return d.err
		case stEnd:
			s.lines = d.line + 1
			return nil
		case stLineEnd:
			if d.pos-lastCP >= cpEvery {
				s.checkpoints = append(s.checkpoints, checkpoint{
					line: d.line, pos: d.pos,
					src: d.lastSrc, oline: d.lastOline, ocol: d.lastOcol, name: d.lastName,
				})
				lastCP = d.pos
			}
		case stSeg:
			if d.line > s.lastLine {
				s.lastLine, s.lastCol = d.line, int(d.col)
			} else if int(d.col) > s.lastCol {
				s.lastCol = int(d.col)
			}
		}
	}
}
