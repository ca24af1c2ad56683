package analyze

import (
	"errors"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// This file decodes pprof's protobuf (profile.proto) straight into the
// compact form readPprof converts, without github.com/google/pprof/profile's
// tree of structs: a Go profile of 79k samples made that library allocate
// 131 MB. The wire format is read with protowire, one decoder per message
// as the library's own encode.go has them (Profile, Sample, Location, Line,
// Function, Mapping, ValueType), with the library's checks: wire types,
// reserved and repeated ids, string indices, value counts. Its errors are
// final; only the legacy formats, which are not protobuf, go to the library
// (parsePprofData in pprof.go). TestPprofWireMatchesLibrary and
// FuzzPprofWire hold the decoder and the library to the same result.

// pprofData is what profdiff takes from a pprof profile. Locations are
// numbered in the order they were read; samples refer to them by number,
// leaf first.
type pprofData struct {
	sampleTypes   []pprofValueType
	periodType    *pprofValueType
	period        int64
	durationNanos int64
	functionNames []string // every function's name, for telling Node profiles
	mappings      []pprofMapping
	locs          []pprofLoc
	lines         []pprofLine // of all locations; a location's are [lineStart, lineEnd)
	// Sample i has locations locIdx[locStart[i]:locStart[i+1]] and values
	// vals[valStart[i]:valStart[i+1]].
	locStart, valStart []int32
	locIdx             []int32
	vals               []int64
}

// pprofValueType is a sample or period type, as "cpu", "nanoseconds".
type pprofValueType struct{ typ, unit string }

// pprofLoc is a location: its address, its mapping (an index into
// pprofData.mappings, -1 for none) and its lines, which are
// pprofData.lines[lineStart:lineEnd], the innermost (inlined) first.
type pprofLoc struct {
	address            uint64
	mapping            int32
	lineStart, lineEnd int32
}

// pprofMapping is what profdiff takes from a mapping: its file and build
// ID, which say a frame's package and kind in a profile profdiff wrote
// (see PprofFrameBuildID).
type pprofMapping struct{ file, buildID string }

// pprofLine is one line of a location: a function (or an inlined one) and
// the position in it.
type pprofLine struct {
	name, file   string
	startLine    int64
	line, column int64
	noFunction   bool // the library's Line without a Function: no frame position
}

// samples returns how many samples the profile has.
func (d *pprofData) samples() int { return len(d.locStart) - 1 }

// sampleLocs returns sample i's locations by number, leaf first.
func (d *pprofData) sampleLocs(i int) []int32 { return d.locIdx[d.locStart[i]:d.locStart[i+1]] }

// sampleValues returns sample i's values, one per sample type.
func (d *pprofData) sampleValues(i int) []int64 { return d.vals[d.valStart[i]:d.valStart[i+1]] }

var (
	// errWire marks input that is not a well-formed profile.proto message.
	errWire = errors.New("malformed protobuf")
	// errPprofBound marks input refused for holding more than a real
	// profile could: final, never a reason to try the library instead
	// (which would allocate whatever the input claims).
	errPprofBound = errors.New("pprof input refused")
)

// wireErrorf words a malformed-protobuf error.
func wireErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errWire, fmt.Sprintf(format, args...))
}

// wireMsg is a protobuf message being read field by field; its first
// error ends the reading.
type wireMsg struct {
	b   []byte
	err error
}

// fail records the message's first error and stops reading it.
func (m *wireMsg) fail(err error) {
	if m.err == nil {
		m.err = err
	}
	m.b = nil
}

// failCode records a protowire error code.
func (m *wireMsg) failCode(n int) { m.fail(wireErrorf("%v", protowire.ParseError(n))) }

// next reads a field's tag; it returns false at the end of the message or
// after an error. Field numbers protobuf reserves (0, and past 2^31) come
// back as 0, to be skipped as the library skips them.
func (m *wireMsg) next() (protowire.Number, protowire.Type, bool) {
	if len(m.b) == 0 || m.err != nil {
		return 0, 0, false
	}
	x, n := protowire.ConsumeVarint(m.b)
	if n < 0 {
		m.failCode(n)
		return 0, 0, false
	}
	m.b = m.b[n:]
	num, _ := protowire.DecodeTag(x)
	return max(num, 0), protowire.Type(x & 7), true
}

// varint reads the value of field num, which must have the varint wire
// type, as the library checks.
func (m *wireMsg) varint(num protowire.Number, typ protowire.Type) uint64 {
	if typ != protowire.VarintType {
		m.fail(wireErrorf("field %d has wire type %d, not a varint", num, typ))
		return 0
	}
	v, n := protowire.ConsumeVarint(m.b)
	if n < 0 {
		m.failCode(n)
		return 0
	}
	m.b = m.b[n:]
	return v
}

// bytes reads the body of length-delimited field num: a message or a
// string.
func (m *wireMsg) bytes(num protowire.Number, typ protowire.Type) []byte {
	if typ != protowire.BytesType {
		m.fail(wireErrorf("field %d has wire type %d, not a message or string", num, typ))
		return nil
	}
	v, n := protowire.ConsumeBytes(m.b)
	if n < 0 {
		m.failCode(n)
		return nil
	}
	m.b = m.b[n:]
	return v
}

// varints appends the values of repeated varint field num, packed or not.
func (m *wireMsg) varints(num protowire.Number, typ protowire.Type, dst []uint64) []uint64 {
	if typ == protowire.VarintType {
		return append(dst, m.varint(num, typ))
	}
	for p := m.bytes(num, typ); len(p) > 0; {
		v, n := protowire.ConsumeVarint(p)
		if n < 0 {
			m.failCode(n)
			return dst
		}
		dst = append(dst, v)
		p = p[n:]
	}
	return dst
}

// skip passes over a field profdiff does not read. Groups, which
// profile.proto has none of and the library refuses, are refused.
func (m *wireMsg) skip(num protowire.Number, typ protowire.Type) {
	if typ == protowire.StartGroupType || typ == protowire.EndGroupType {
		m.fail(wireErrorf("field %d has wire type %d, a group", num, typ))
		return
	}
	n := protowire.ConsumeFieldValue(num, typ, m.b)
	if n < 0 {
		m.failCode(n)
		return
	}
	m.b = m.b[n:]
}

// scalars reads a message of varint fields (ValueType, Line, Function,
// Mapping): field n goes to *into[n-1] when that is not nil. Every field
// numbered up to len(into) must be a varint, as the library checks; later
// fields are skipped.
func scalars(b []byte, into ...*uint64) error {
	m := wireMsg{b: b}
	for num, typ, ok := m.next(); ok; num, typ, ok = m.next() {
		switch {
		case num < 1 || int(num) > len(into):
			m.skip(num, typ)
		case into[num-1] != nil:
			*into[num-1] = m.varint(num, typ)
		default:
			m.varint(num, typ)
		}
	}
	return m.err
}

// rawValueType is a ValueType: its type and unit as string-table indices.
type rawValueType struct{ typ, unit uint64 }

// decodeValueType reads a ValueType message.
func decodeValueType(b []byte) (rawValueType, error) {
	var vt rawValueType
	err := scalars(b, &vt.typ, &vt.unit)
	return vt, err
}

// rawLine is a Line: a function by id, and the position in it.
type rawLine struct{ function, line, column uint64 }

// decodeLine reads a Line message.
func decodeLine(b []byte) (rawLine, error) {
	var ln rawLine
	err := scalars(b, &ln.function, &ln.line, &ln.column)
	return ln, err
}

// rawFunc is a Function: its id, name and file (string-table indices) and
// start line.
type rawFunc struct{ id, name, file, startLine uint64 }

// decodeFunction reads a Function message (its system name is not used).
func decodeFunction(b []byte) (rawFunc, error) {
	var f rawFunc
	err := scalars(b, &f.id, &f.name, nil, &f.file, &f.startLine)
	if err == nil && f.id == 0 {
		err = wireErrorf("a function has the reserved id 0")
	}
	return f, err
}

// rawMapping is a Mapping: its id, and its file and build ID as
// string-table indices.
type rawMapping struct{ id, file, buildID uint64 }

// decodeMapping reads a Mapping message's id, file and build ID; its
// addresses and flags are not used.
func decodeMapping(b []byte) (rawMapping, error) {
	var m rawMapping
	err := scalars(b, &m.id, nil, nil, nil, &m.file, &m.buildID, nil, nil, nil, nil)
	if err == nil && m.id == 0 {
		err = wireErrorf("a mapping has the reserved id 0")
	}
	return m, err
}

// rawLoc is a Location: its id, mapping id and address, and its lines,
// which are pprofDecoder.lines[lineStart:lineEnd].
type rawLoc struct {
	id, mapping, address uint64
	lineStart, lineEnd   int32
}

// pprofDecoder gathers a Profile message's parts as they are read, by id
// and string-table index, for resolve to join.
type pprofDecoder struct {
	data         []byte      // the message, which strs point into
	strs         [][2]uint32 // each string's span in data, read on use
	sampleTypes  []rawValueType
	periodType   *rawValueType
	period, dur  uint64
	timeNanos    uint64
	mappings     []rawMapping
	mappingIDs   map[uint64]bool
	funcs        []rawFunc
	locs         []rawLoc
	lines        []rawLine
	sampleLocIDs []uint64
	locStart     []int32
	valStart     []int32
	vals         []int64
	scratch      []uint64
}

// field reads field num of the Profile message.
func (d *pprofDecoder) field(m *wireMsg, num protowire.Number, typ protowire.Type) error {
	switch num {
	case 1: // sample_type
		vt, err := decodeValueType(m.bytes(num, typ))
		d.sampleTypes = append(d.sampleTypes, vt)
		return err
	case 2:
		return d.decodeSample(m.bytes(num, typ))
	case 3:
		return d.addMapping(m.bytes(num, typ))
	case 4:
		return d.decodeLocation(m.bytes(num, typ))
	case 5:
		f, err := decodeFunction(m.bytes(num, typ))
		d.funcs = append(d.funcs, f)
		return err
	case 6: // string_table
		b := m.bytes(num, typ)
		start := uint32(len(d.data) - len(m.b) - len(b))
		d.strs = append(d.strs, [2]uint32{start, start + uint32(len(b))})
	case 9: // time_nanos: a second one is a second profile appended
		if d.timeNanos != 0 {
			return wireErrorf("concatenated profiles (a second time_nanos)")
		}
		d.timeNanos = m.varint(num, typ)
	case 10:
		d.dur = m.varint(num, typ)
	case 11:
		vt, err := decodeValueType(m.bytes(num, typ))
		d.periodType = &vt
		return err
	case 12:
		d.period = m.varint(num, typ)
	default: // drop/keep frames, comments, default sample type, doc link
		m.skip(num, typ)
	}
	return nil
}

// addMapping reads a Mapping and checks that its id is new.
func (d *pprofDecoder) addMapping(b []byte) error {
	m, err := decodeMapping(b)
	if err != nil {
		return err
	}
	if d.mappingIDs[m.id] {
		return wireErrorf("two mappings have the id %d", m.id)
	}
	if d.mappingIDs == nil {
		d.mappingIDs = map[uint64]bool{}
	}
	d.mappingIDs[m.id] = true
	d.mappings = append(d.mappings, m)
	return nil
}

// decodeSample reads a Sample: its location ids and values go at the ends
// of d's lists; its labels are passed over.
func (d *pprofDecoder) decodeSample(b []byte) error {
	m := wireMsg{b: b}
	for num, typ, ok := m.next(); ok; num, typ, ok = m.next() {
		switch num {
		case 1:
			d.sampleLocIDs = m.varints(num, typ, d.sampleLocIDs)
		case 2:
			d.scratch = m.varints(num, typ, d.scratch[:0])
			for _, v := range d.scratch {
				d.vals = append(d.vals, int64(v))
			}
		case 3: // label
			m.bytes(num, typ)
		default:
			m.skip(num, typ)
		}
	}
	if m.err != nil {
		return m.err
	}
	d.locStart = append(d.locStart, int32(len(d.sampleLocIDs)))
	d.valStart = append(d.valStart, int32(len(d.vals)))
	return nil
}

// decodeLocation reads a Location: its id, mapping id, address and lines
// (their functions and its mapping are found by resolve); its is_folded
// is not used.
func (d *pprofDecoder) decodeLocation(b []byte) error {
	m := wireMsg{b: b}
	l := rawLoc{lineStart: int32(len(d.lines))}
	for num, typ, ok := m.next(); ok; num, typ, ok = m.next() {
		switch num {
		case 1:
			l.id = m.varint(num, typ)
		case 2:
			l.mapping = m.varint(num, typ)
		case 5: // is_folded
			m.varint(num, typ)
		case 3:
			l.address = m.varint(num, typ)
		case 4:
			ln, err := decodeLine(m.bytes(num, typ))
			if err != nil {
				return err
			}
			d.lines = append(d.lines, ln)
		default:
			m.skip(num, typ)
		}
	}
	if m.err != nil {
		return m.err
	}
	if l.id == 0 {
		return wireErrorf("a location has the reserved id 0")
	}
	l.lineEnd = int32(len(d.lines))
	d.locs = append(d.locs, l)
	return nil
}

// decodePprofWire decodes uncompressed profile.proto bytes. Its errors are
// final: errWire for input that is no well-formed profile.proto message,
// errPprofBound for input larger than a real profile could be.
func decodePprofWire(data []byte) (*pprofData, error) {
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		// Parse undid one gzip layer within its bounds; the library would
		// undo a second without any.
		return nil, fmt.Errorf("%w: gzip inside gzip", errPprofBound)
	}
	c, err := countEntries(data)
	if err != nil {
		return nil, err
	}
	d := &pprofDecoder{
		data:         data,
		strs:         make([][2]uint32, 0, c.strs),
		sampleLocIDs: make([]uint64, 0, c.locs),
		vals:         make([]int64, 0, c.vals),
		locStart:     make([]int32, 1, c.samples+1),
		valStart:     make([]int32, 1, c.samples+1),
	}
	m := wireMsg{b: data}
	for num, typ, ok := m.next(); ok; num, typ, ok = m.next() {
		err := d.field(&m, num, typ)
		if m.err != nil {
			return nil, m.err
		}
		if err != nil {
			return nil, err
		}
	}
	if m.err != nil {
		return nil, m.err
	}
	return d.resolve()
}

// resolve joins what the decoders read into a pprofData: strings by index,
// functions and locations by id, each checked as the library checks them.
func (d *pprofDecoder) resolve() (*pprofData, error) {
	if len(d.strs) == 0 || d.strs[0][0] != d.strs[0][1] {
		return nil, wireErrorf("the string table does not begin with the empty string")
	}
	for i := 0; i+1 < len(d.valStart); i++ {
		if n := int(d.valStart[i+1] - d.valStart[i]); n != len(d.sampleTypes) {
			return nil, wireErrorf("sample %d has %d values for %d sample types", i, n, len(d.sampleTypes))
		}
	}
	out := &pprofData{period: int64(d.period), durationNanos: int64(d.dur), locStart: d.locStart, valStart: d.valStart, vals: d.vals}
	var err error
	if out.sampleTypes, out.periodType, err = d.valueTypes(); err != nil {
		return nil, err
	}
	funcs, err := d.functions()
	if err != nil {
		return nil, err
	}
	for _, f := range funcs {
		out.functionNames = append(out.functionNames, f.name)
	}
	if out.lines, err = d.resolveLines(funcs); err != nil {
		return nil, err
	}
	if out.mappings, err = d.resolveMappings(); err != nil {
		return nil, err
	}
	mappingByID, err := indexPprofIDs(len(d.mappings), func(i int) uint64 { return d.mappings[i].id }, "mappings")
	if err != nil {
		return nil, err
	}
	out.locs = make([]pprofLoc, len(d.locs))
	for i, l := range d.locs {
		// A location naming no mapping, or one that does not exist, has
		// none, as the library leaves it.
		mi, ok := mappingByID.find(l.mapping)
		if !ok {
			mi = -1
		}
		out.locs[i] = pprofLoc{address: l.address, mapping: mi, lineStart: l.lineStart, lineEnd: l.lineEnd}
	}
	if out.locIdx, err = d.sampleLocations(); err != nil {
		return nil, err
	}
	return out, nil
}

// str returns string-table entry i.
func (d *pprofDecoder) str(i uint64) (string, error) {
	if i >= uint64(len(d.strs)) {
		return "", wireErrorf("string index %d beyond the table's %d strings", i, len(d.strs))
	}
	return string(d.data[d.strs[i][0]:d.strs[i][1]]), nil
}

// valueType returns a ValueType's strings.
func (d *pprofDecoder) valueType(vt rawValueType) (pprofValueType, error) {
	t, err := d.str(vt.typ)
	if err != nil {
		return pprofValueType{}, err
	}
	u, err := d.str(vt.unit)
	return pprofValueType{t, u}, err
}

// valueTypes returns the sample types and the period type, nil when the
// profile has none.
func (d *pprofDecoder) valueTypes() ([]pprofValueType, *pprofValueType, error) {
	var types []pprofValueType
	for _, vt := range d.sampleTypes {
		t, err := d.valueType(vt)
		if err != nil {
			return nil, nil, err
		}
		types = append(types, t)
	}
	if d.periodType == nil {
		return types, nil, nil
	}
	pt, err := d.valueType(*d.periodType)
	return types, &pt, err
}

// resolveMappings returns every mapping's file and build ID, in the order
// read.
func (d *pprofDecoder) resolveMappings() ([]pprofMapping, error) {
	out := make([]pprofMapping, len(d.mappings))
	for i, m := range d.mappings {
		file, err := d.str(m.file)
		if err != nil {
			return nil, err
		}
		buildID, err := d.str(m.buildID)
		if err != nil {
			return nil, err
		}
		out[i] = pprofMapping{file, buildID}
	}
	return out, nil
}

// functions returns every function's name, file and start line, in the
// order read, with an index by id.
func (d *pprofDecoder) functions() ([]pprofLine, error) {
	out := make([]pprofLine, len(d.funcs))
	for i, f := range d.funcs {
		name, err := d.str(f.name)
		if err != nil {
			return nil, err
		}
		file, err := d.str(f.file)
		if err != nil {
			return nil, err
		}
		out[i] = pprofLine{name: name, file: file, startLine: int64(f.startLine)}
	}
	return out, nil
}

// resolveLines returns the locations' lines with their functions'
// names, files and start lines.
func (d *pprofDecoder) resolveLines(funcs []pprofLine) ([]pprofLine, error) {
	byID, err := indexPprofIDs(len(d.funcs), func(i int) uint64 { return d.funcs[i].id }, "functions")
	if err != nil {
		return nil, err
	}
	lines := make([]pprofLine, len(d.lines))
	for i, ln := range d.lines {
		fi, ok := byID.find(ln.function)
		if !ok {
			return nil, wireErrorf("a line names function %d, which does not exist", ln.function)
		}
		lines[i] = funcs[fi]
		lines[i].line, lines[i].column = int64(ln.line), int64(ln.column)
	}
	return lines, nil
}

// sampleLocations returns the samples' locations by number.
func (d *pprofDecoder) sampleLocations() ([]int32, error) {
	byID, err := indexPprofIDs(len(d.locs), func(i int) uint64 { return d.locs[i].id }, "locations")
	if err != nil {
		return nil, err
	}
	idx := make([]int32, len(d.sampleLocIDs))
	for i, id := range d.sampleLocIDs {
		li, ok := byID.find(id)
		if !ok {
			return nil, wireErrorf("a sample names location %d, which does not exist", id)
		}
		idx[i] = li
	}
	return idx, nil
}

// pprofIDs finds entries by their pprof ids: a slice for the usual small ids, a
// map for others.
type pprofIDs struct {
	small []int32 // by id: the entry's index + 1, 0 for none
	large map[uint64]int32
}

// indexPprofIDs indexes n entries by the ids id(i) gives; what names the
// entries in the error for an id given twice.
func indexPprofIDs(n int, id func(int) uint64, what string) (pprofIDs, error) {
	x := pprofIDs{small: make([]int32, n+1)}
	for i := range n {
		if !x.add(id(i), int32(i)) {
			return x, wireErrorf("two %s have the id %d", what, id(i))
		}
	}
	return x, nil
}

// add records that entry i has the id; it returns false if the id is taken.
func (x *pprofIDs) add(id uint64, i int32) bool {
	if id < uint64(len(x.small)) {
		if x.small[id] != 0 {
			return false
		}
		x.small[id] = i + 1
		return true
	}
	if _, dup := x.large[id]; dup {
		return false
	}
	if x.large == nil {
		x.large = map[uint64]int32{}
	}
	x.large[id] = i
	return true
}

// find returns the entry with the id.
func (x *pprofIDs) find(id uint64) (int32, bool) {
	if id < uint64(len(x.small)) {
		return x.small[id] - 1, x.small[id] != 0
	}
	i, ok := x.large[id]
	return i, ok
}

// pprofCounts is how many entries a profile's lists will hold.
type pprofCounts struct{ samples, locs, vals, strs int }

// stringTableSlack is how many string-table entries a profile may hold
// beyond one per byte of the rest of the message.
const stringTableSlack = 1 << 16

// countEntries counts a profile's samples, the location ids and values
// they hold, and its strings, so that their lists are allocated once at
// their size (growing lists of millions of entries step by step
// page-faults several times their size). It refuses counts no real
// profile reaches, and string tables larger than the rest of the message
// could refer to: every string a profile uses is named by an index of at
// least a byte elsewhere, so millions of entries beside a small profile are
// padding meant to exhaust memory.
func countEntries(data []byte) (pprofCounts, error) {
	var c pprofCounts
	strBytes := 0
	m := wireMsg{b: data}
	for num, typ, ok := m.next(); ok; num, typ, ok = m.next() {
		switch {
		case num == 2 && typ == protowire.BytesType:
			c.samples++
			if err := c.countSample(m.bytes(num, typ)); err != nil {
				m.fail(err)
			}
		case num == 6 && typ == protowire.BytesType:
			before := len(m.b)
			m.bytes(num, typ)
			c.strs++
			strBytes += before - len(m.b) + 1 // and a tag of a byte
		default:
			m.skip(num, typ)
		}
	}
	// The bounds hold of what was counted before any error: a bomb with a
	// flaw at its end is still a bomb.
	switch {
	case len(data) > math.MaxUint32 || max(c.samples, c.locs, c.vals) >= math.MaxInt32:
		return c, fmt.Errorf("%w: %d bytes holding %d samples of %d locations and %d values in all, beyond any real profile", errPprofBound, len(data), c.samples, c.locs, c.vals)
	case c.strs > len(data)-strBytes+stringTableSlack:
		return c, fmt.Errorf("%w: %d string-table entries for %d bytes of profile that could refer to them", errPprofBound, c.strs, len(data)-strBytes)
	}
	return c, m.err
}

// countSample adds a Sample's location ids and values to the counts.
func (c *pprofCounts) countSample(b []byte) error {
	m := wireMsg{b: b}
	for num, typ, ok := m.next(); ok; num, typ, ok = m.next() {
		n := &c.locs
		switch {
		case num == 2:
			n = &c.vals
		case num != 1:
			m.skip(num, typ)
			continue
		}
		switch typ {
		case protowire.VarintType:
			m.varint(num, typ)
			*n++
		case protowire.BytesType:
			for _, b := range m.bytes(num, typ) {
				if b < 0x80 { // the last byte of each varint
					*n++
				}
			}
		default:
			m.skip(num, typ)
		}
	}
	return m.err
}
