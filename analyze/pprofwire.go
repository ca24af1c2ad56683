package analyze

import (
	"encoding/binary"
	"errors"
	"math"
)

// This file decodes pprof's protobuf (profile.proto) straight into the
// compact form readPprof converts, without github.com/google/pprof/profile's
// tree of structs: a Go profile of 79k samples made that library allocate
// 131 MB. Anything this decoder does not take (the legacy formats, or input
// it finds malformed) goes to the library (parsePprofData in pprof.go), which
// reads it or words the error; TestPprofWireMatchesLibrary and FuzzPprofWire
// hold the two to the same result.

// pprofData is what profdiff takes from a pprof profile. Locations are
// numbered in the order they were read; samples refer to them by number,
// leaf first.
type pprofData struct {
	sampleTypes   []pprofValueType
	periodType    *pprofValueType
	period        int64
	durationNanos int64
	functionNames []string // every function's name, for telling Node profiles
	locs          []pprofLoc
	lines         []pprofLine // of all locations; a location's are [lineStart, lineEnd)
	// Sample i has locations locIdx[locStart[i]:locStart[i+1]] and values
	// vals[valStart[i]:valStart[i+1]].
	locStart, valStart []int32
	locIdx             []int32
	vals               []int64
}

type pprofValueType struct{ typ, unit string }

type pprofLoc struct {
	address            uint64
	lineStart, lineEnd int32
}

// pprofLine is one line of a location: a function (or an inlined one) and
// the position in it.
type pprofLine struct {
	name, file   string
	startLine    int64
	line, column int64
	noFunction   bool // the library's Line without a Function: no frame position
}

func (d *pprofData) samples() int               { return len(d.locStart) - 1 }
func (d *pprofData) sampleLocs(i int) []int32   { return d.locIdx[d.locStart[i]:d.locStart[i+1]] }
func (d *pprofData) sampleValues(i int) []int64 { return d.vals[d.valStart[i]:d.valStart[i+1]] }

// wire is a protobuf message being read.
type wire struct {
	b   []byte
	err error
}

var errWire = errors.New("malformed protobuf")

func (w *wire) varint() uint64 {
	v, n := binary.Uvarint(w.b)
	if n <= 0 {
		w.err, w.b = errWire, nil
		return 0
	}
	w.b = w.b[n:]
	return v
}

// field reads a field's tag; it returns false at the end of the message.
func (w *wire) field() (num int, typ int, ok bool) {
	if len(w.b) == 0 || w.err != nil {
		return 0, 0, false
	}
	t := w.varint()
	if w.err != nil || t>>3 == 0 || t>>3 > math.MaxInt32 {
		w.err, w.b = errWire, nil
		return 0, 0, false
	}
	return int(t >> 3), int(t & 7), true
}

// bytes reads a length-delimited field's body.
func (w *wire) bytes() []byte {
	n := w.varint()
	if w.err != nil || n > uint64(len(w.b)) {
		w.err, w.b = errWire, nil
		return nil
	}
	v := w.b[:n]
	w.b = w.b[n:]
	return v
}

// skip passes over a field of wire type typ.
func (w *wire) skip(typ int) {
	switch typ {
	case 0:
		w.varint()
	case 1:
		w.fixed(8)
	case 2:
		w.bytes()
	case 5:
		w.fixed(4)
	default:
		w.err, w.b = errWire, nil
	}
}

func (w *wire) fixed(n int) {
	if len(w.b) < n {
		w.err, w.b = errWire, nil
		return
	}
	w.b = w.b[n:]
}

// number reads a varint field, which must have wire type 0.
func (w *wire) number(typ int) uint64 {
	if typ != 0 {
		w.err, w.b = errWire, nil
		return 0
	}
	return w.varint()
}

// numbers appends a repeated varint field, packed (wire type 2) or not.
func (w *wire) numbers(typ int, dst []uint64) []uint64 {
	if typ == 0 {
		return append(dst, w.varint())
	}
	if typ != 2 {
		w.err, w.b = errWire, nil
		return dst
	}
	p := wire{b: w.bytes()}
	for len(p.b) > 0 && p.err == nil {
		dst = append(dst, p.varint())
	}
	if p.err != nil {
		w.err = p.err
	}
	return dst
}

// scalars decodes a message whose fields of interest are varints: field
// n goes to *into[n-1] when that is not nil, other fields are skipped.
func scalars(b []byte, into ...*uint64) error {
	m := wire{b: b}
	for num, typ, ok := m.field(); ok; num, typ, ok = m.field() {
		if num <= len(into) && into[num-1] != nil {
			*into[num-1] = m.number(typ)
		} else {
			m.skip(typ)
		}
	}
	return m.err
}

// decodePprofWire decodes uncompressed profile.proto bytes (gzip is undone
// by the caller or here). It returns an error for anything it does not
// take, which sends the input to the library.
func decodePprofWire(data []byte) (*pprofData, error) {
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		return nil, errors.New("gzipped") // the library undoes it
	}
	type rawLoc struct {
		id, address        uint64
		lineStart, lineEnd int32
	}
	type rawLine struct{ function, line, column uint64 }
	type rawFunc struct{ name, file, startLine uint64 }
	var (
		strs         [][2]uint32 // each string's span in data, read on use
		sampleTypes  [][2]uint64
		periodType   *[2]uint64
		period, dur  uint64
		locs         []rawLoc
		lines        []rawLine
		funcs        = map[uint64]rawFunc{}
		funcOrder    []uint64
		sampleLocIDs []uint64
		locStart     []int32
		valStart     []int32
		vals         []int64
		scratch      []uint64
		valueTypeOf  func([]byte) [2]uint64
		w            = wire{b: data}
		malformed    = func() (*pprofData, error) { return nil, errWire }
	)
	valueTypeOf = func(b []byte) [2]uint64 {
		var vt [2]uint64
		if err := scalars(b, &vt[0], &vt[1]); err != nil {
			w.err = err
		}
		return vt
	}
	// Count the samples' location ids and values first, so that their
	// lists are allocated once at their size: growing lists of millions of
	// entries step by step page-faults several times their size.
	nSamples, nLocs, nVals, nStrs, err := countSampleEntries(data)
	if err != nil {
		return nil, err
	}
	strs = make([][2]uint32, 0, nStrs)
	sampleLocIDs = make([]uint64, 0, nLocs)
	vals = make([]int64, 0, nVals)
	locStart = make([]int32, 1, nSamples+1)
	valStart = make([]int32, 1, nSamples+1)
	for num, typ, ok := w.field(); ok; num, typ, ok = w.field() {
		switch num {
		case 1: // sample_type
			if typ != 2 {
				return malformed()
			}
			sampleTypes = append(sampleTypes, valueTypeOf(w.bytes()))
		case 2: // sample
			if typ != 2 {
				return malformed()
			}
			m := wire{b: w.bytes()}
			for num, typ, ok := m.field(); ok; num, typ, ok = m.field() {
				switch num {
				case 1:
					sampleLocIDs = m.numbers(typ, sampleLocIDs)
				case 2:
					scratch = m.numbers(typ, scratch[:0])
					for _, v := range scratch {
						vals = append(vals, int64(v))
					}
				default: // labels
					m.skip(typ)
				}
			}
			if m.err != nil || len(sampleLocIDs) > math.MaxInt32 || len(vals) > math.MaxInt32 {
				return malformed()
			}
			locStart = append(locStart, int32(len(sampleLocIDs)))
			valStart = append(valStart, int32(len(vals)))
		case 4: // location
			if typ != 2 {
				return malformed()
			}
			m := wire{b: w.bytes()}
			l := rawLoc{lineStart: int32(len(lines))}
			for num, typ, ok := m.field(); ok; num, typ, ok = m.field() {
				switch num {
				case 1:
					l.id = m.number(typ)
				case 3:
					l.address = m.number(typ)
				case 4:
					if typ != 2 {
						return malformed()
					}
					var ln rawLine
					if scalars(m.bytes(), &ln.function, &ln.line, &ln.column) != nil {
						return malformed()
					}
					lines = append(lines, ln)
				default:
					m.skip(typ)
				}
			}
			if m.err != nil || l.id == 0 {
				return malformed()
			}
			l.lineEnd = int32(len(lines))
			locs = append(locs, l)
		case 5: // function
			if typ != 2 {
				return malformed()
			}
			var id uint64
			var f rawFunc
			err := scalars(w.bytes(), &id, &f.name, nil, &f.file, &f.startLine) // 3: system name
			if _, dup := funcs[id]; err != nil || id == 0 || dup {
				return malformed()
			}
			funcs[id] = f
			funcOrder = append(funcOrder, id)
		case 6: // string_table
			if typ != 2 {
				return malformed()
			}
			b := w.bytes()
			start := uint32(len(data) - len(w.b) - len(b))
			strs = append(strs, [2]uint32{start, start + uint32(len(b))})
		case 10:
			dur = w.number(typ)
		case 11:
			if typ != 2 {
				return malformed()
			}
			vt := valueTypeOf(w.bytes())
			periodType = &vt
		case 12:
			period = w.number(typ)
		default: // mappings, drop/keep frames, time, comments, default sample type
			w.skip(typ)
		}
	}
	if w.err != nil || len(strs) == 0 || strs[0][0] != strs[0][1] {
		return malformed()
	}
	for i := 0; i+1 < len(valStart); i++ {
		if int(valStart[i+1]-valStart[i]) != len(sampleTypes) {
			return malformed() // the library words this one
		}
	}
	str := func(i uint64) (string, bool) {
		if i >= uint64(len(strs)) {
			return "", false
		}
		return string(data[strs[i][0]:strs[i][1]]), true
	}
	d := &pprofData{period: int64(period), durationNanos: int64(dur), locStart: locStart, valStart: valStart}
	for _, vt := range sampleTypes {
		t, ok1 := str(vt[0])
		u, ok2 := str(vt[1])
		if !ok1 || !ok2 {
			return malformed()
		}
		d.sampleTypes = append(d.sampleTypes, pprofValueType{t, u})
	}
	if periodType != nil {
		t, ok1 := str(periodType[0])
		u, ok2 := str(periodType[1])
		if !ok1 || !ok2 {
			return malformed()
		}
		d.periodType = &pprofValueType{t, u}
	}
	for _, id := range funcOrder {
		name, ok := str(funcs[id].name)
		if !ok {
			return malformed()
		}
		d.functionNames = append(d.functionNames, name)
	}
	// Locations by id: a slice for the usual small ids, a map otherwise.
	byID := make([]int32, len(locs)+1) // index+1
	var byMap map[uint64]int32
	for i, l := range locs {
		if l.id < uint64(len(byID)) && byID[l.id] == 0 {
			byID[l.id] = int32(i + 1)
			continue
		}
		if l.id < uint64(len(byID)) {
			return malformed() // a repeated id
		}
		if byMap == nil {
			byMap = map[uint64]int32{}
		}
		if _, dup := byMap[l.id]; dup {
			return malformed()
		}
		byMap[l.id] = int32(i)
	}
	d.locs = make([]pprofLoc, len(locs))
	d.lines = make([]pprofLine, len(lines))
	for i, l := range locs {
		d.locs[i] = pprofLoc{address: l.address, lineStart: l.lineStart, lineEnd: l.lineEnd}
	}
	for i, ln := range lines {
		f, ok := funcs[ln.function]
		if !ok {
			return malformed()
		}
		name, ok1 := str(f.name)
		file, ok2 := str(f.file)
		if !ok1 || !ok2 {
			return malformed()
		}
		d.lines[i] = pprofLine{name: name, file: file, startLine: int64(f.startLine), line: int64(ln.line), column: int64(ln.column)}
	}
	d.locIdx = make([]int32, len(sampleLocIDs))
	for i, id := range sampleLocIDs {
		var li int32
		if id < uint64(len(byID)) && byID[id] > 0 {
			li = byID[id] - 1
		} else if x, ok := byMap[id]; ok {
			li = x
		} else {
			return malformed() // a sample names no location
		}
		d.locIdx[i] = li
	}
	d.vals = vals
	return d, nil
}

// countSampleEntries counts a profile's samples and the location ids and
// values they hold, and its strings.
func countSampleEntries(data []byte) (samples, locs, vals, strs int, err error) {
	w := wire{b: data}
	for num, typ, ok := w.field(); ok; num, typ, ok = w.field() {
		if num == 6 {
			strs++
		}
		if num != 2 || typ != 2 {
			w.skip(typ)
			continue
		}
		samples++
		m := wire{b: w.bytes()}
		for num, typ, ok := m.field(); ok; num, typ, ok = m.field() {
			var n *int
			switch num {
			case 1:
				n = &locs
			case 2:
				n = &vals
			default:
				m.skip(typ)
				continue
			}
			switch typ {
			case 0:
				m.varint()
				*n++
			case 2:
				for _, c := range m.bytes() {
					if c < 0x80 { // the last byte of each varint
						*n++
					}
				}
			default:
				m.skip(typ)
			}
		}
		if m.err != nil {
			return 0, 0, 0, 0, m.err
		}
	}
	if w.err != nil || samples >= math.MaxInt32 || locs >= math.MaxInt32 || vals >= math.MaxInt32 || len(data) > math.MaxUint32 {
		return 0, 0, 0, 0, errWire
	}
	return samples, locs, vals, strs, nil
}
