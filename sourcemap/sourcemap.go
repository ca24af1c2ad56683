package sourcemap

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"

	"github.com/profdiff/profdiff/internal/jsonscan"
)

// Map is a decoded source map: a regular map or an index map with sections.
//
// A Map is safe for concurrent use. It keeps references into the bytes given
// to Parse (the mappings and the raw sourcesContent entries), which must
// not be modified afterwards.
type Map struct {
	File string // the "file" field, "" if absent
	// Sources are the source names, each prefixed with sourceRoot (with "/"
	// appended when missing; an empty sourceRoot adds nothing), "" for a null
	// source. They are NOT resolved against any base URL: the caller does
	// that. For an index map, the sources of all sections, concatenated.
	Sources []string
	Names   []string // for an index map, the names of all sections, concatenated
	// Ignored[i] reports whether Sources[i] is listed in "ignoreList", or in
	// "x_google_ignoreList" when "ignoreList" is absent.
	Ignored []bool

	sections []section
	content  *contentCache
	cpEvery  int // bytes of mappings between checkpoints
}

// section is one regular map: the whole of a regular map, or one section of
// an index map.
type section struct {
	line, col   int // offset of the section in the generated file
	mappings    []byte
	nsrc, nname int // number of sources and names of this section
	srcBase     int // index of this section's first source in Map.Sources
	nameBase    int // index of this section's first name in Map.Names
	lines       int // number of generated lines in mappings (";" count + 1)
	// lastLine and lastCol: the greatest generated position of a mapping
	// (section-relative line, column as decoded); lastLine -1 when none.
	lastLine, lastCol int
	checkpoints       []checkpoint
}

// checkpoint is the decoder state at the start of a generated line.
type checkpoint struct {
	line, pos              int
	src, oline, ocol, name int64
}

// checkpointEvery is the distance in bytes of mappings between checkpoints
// (tests make it small through parse).
const checkpointEvery = 64 << 10

// contentCache holds the raw sourcesContent entries and decodes them on
// demand.
type contentCache struct {
	mu   sync.Mutex
	raw  [][]byte // per source: the raw JSON value, nil when absent
	done []bool
	str  []string
	// inPlace lets an entry be decoded into its own raw bytes (the text
	// is never longer than its JSON form): set when the map's data belongs
	// to the map alone, it saves a copy of megabytes of source. A decoded
	// entry's raw bytes are not read again.
	inPlace bool
}

// Position is a mapping's original position. Source and Name are indexes
// into Map.Sources / Map.Names, -1 for none.
type Position struct {
	GenLine, GenColumn int // 0-based generated position of the mapping
	Source             int // -1: the segment is unmapped (1-field segment)
	Line, Column       int // 0-based original position (valid when Source >= 0)
	Name               int // -1: no name
}

// Query is a 0-based generated position. Column < 0 means unknown.
type Query struct{ Line, Column int }

// Answer is what is known about a query, all on the query's generated line.
// When several mappings share a generated position, the last one in input
// order stands for it (for Exact, Before and First alike).
type Answer struct {
	Exact  *Position // the mapping exactly at (Line, Column), nil if none
	Before *Position // the last mapping strictly before Column on the same line, nil if none
	First  *Position // the first mapping on the line (smallest column), nil if the line has none
}

// Parse decodes and validates a source map (JSON bytes). A leading ")]}'"
// line and a UTF-8 byte order mark are stripped. The Map keeps references
// into data, which must not be modified afterwards. Every error is one short
// line, such as "mappings: invalid base64 character '=' at byte 3" or
// "sections: overlap at section 1".
//
// Optional fields ("file", "sourceRoot", "names", "sourcesContent",
// "ignoreList") that are JSON null are treated as absent.
func Parse(data []byte) (*Map, error) { return parse(data, checkpointEvery) }

// parse is Parse with checkpoints every cpEvery bytes of mappings.
func parse(data []byte, cpEvery int) (*Map, error) {
	// JSON errors give byte offsets in data itself: skip, don't reslice.
	sc := jsonscan.NewWalker(data, prefixLen(data))
	if c := sc.Next(); c != '{' {
		if c == 0 && sc.Pos() >= len(data) {
			return nil, errors.New("not a source map: empty input")
		}
		if err := sc.Skip(); err != nil {
			return nil, err
		}
		return nil, errors.New("not a source map: not a JSON object")
	}
	top, err := readFields(sc)
	if err != nil {
		return nil, err
	}
	if sc.Pos() != len(data) {
		return nil, fmt.Errorf("json: unexpected data after the top-level object at byte %d", sc.Pos())
	}
	m := &Map{content: &contentCache{}, cpEvery: cpEvery}
	if top.sections != nil {
		err = m.parseIndex(top)
	} else {
		err = m.parseRegular(top, 0, 0, "")
	}
	if err != nil {
		return nil, err
	}
	m.content.done = make([]bool, len(m.Sources))
	m.content.str = make([]string, len(m.Sources))
	return m, nil
}

// prefixLen returns the length of a UTF-8 BOM and a leading ")]}'" line
// (the XSSI guard; the spec's fetch step strips it) at the start of data.
func prefixLen(data []byte) int {
	n := 0
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		n = 3
	}
	if bytes.HasPrefix(data[n:], []byte(")]}'")) {
		n += 4
		if i := bytes.IndexByte(data[n:], '\n'); i >= 0 {
			n += i + 1
		}
	}
	return n
}

// rawFields are the raw JSON values of the fields of a map; nil when absent.
// For the big lists the elements are collected during the one scan.
type rawFields struct {
	version, file, sourceRoot, sources, sourcesContent, names, mappings,
	ignoreList, xIgnoreList, sections []byte
	sourcesElems, contentElems, namesElems [][]byte
}

// readFields reads the object at the walker's position into rawFields,
// ignoring unknown keys. For duplicate keys the last one wins, as in
// JavaScript.
func readFields(s *jsonscan.Walker) (rawFields, error) {
	var f rawFields
	collect := func(dst *[][]byte) func(int, []byte) error {
		*dst = (*dst)[:0]
		return func(_ int, v []byte) error {
			*dst = append(*dst, v)
			return nil
		}
	}
	collectList := func(key []byte) func(int, []byte) error {
		switch k, _ := jsonscan.DecodeString(key); k {
		case "sources":
			return collect(&f.sourcesElems)
		case "sourcesContent":
			return collect(&f.contentElems)
		case "names":
			return collect(&f.namesElems)
		}
		return nil
	}
	fields := map[string]*[]byte{"version": &f.version, "file": &f.file, "sourceRoot": &f.sourceRoot,
		"sources": &f.sources, "sourcesContent": &f.sourcesContent, "names": &f.names, "mappings": &f.mappings,
		"ignoreList": &f.ignoreList, "x_google_ignoreList": &f.xIgnoreList, "sections": &f.sections}
	err := s.Object(func(key, val []byte) error {
		k, err := jsonscan.DecodeString(key)
		if err != nil {
			return err
		}
		if dst := fields[k]; dst != nil {
			*dst = val
		}
		return nil
	}, collectList)
	return f, err
}

// kind returns the JSON type of a validated raw value: '"', '[', '{', 'n'
// (null), 't' (true or false) or '0' (number). Absent values have kind 0.
func kind(raw []byte) byte {
	if len(raw) == 0 {
		return 0
	}
	switch c := raw[0]; c {
	case '"', '[', '{', 'n':
		return c
	case 't', 'f':
		return 't'
	}
	return '0'
}

// optional returns raw, or nil when raw is JSON null.
func optional(raw []byte) []byte {
	if kind(raw) == 'n' {
		return nil
	}
	return raw
}

func checkVersion(raw []byte) error {
	switch kind(raw) {
	case 0:
		return errors.New("version: missing")
	case '0':
		if v, err := strconv.ParseFloat(string(raw), 64); err == nil && v == 3 {
			return nil
		}
		return fmt.Errorf("version: unsupported version %.20s (want 3)", raw)
	}
	return errors.New("version: not a number")
}

// parseRegular decodes a regular map into m, appending its sources and names.
// offLine and offCol are the section offset; prefix prefixes error messages.
func (m *Map) parseRegular(f rawFields, offLine, offCol int, prefix string) error {
	if err := m.decodeRegular(f, offLine, offCol, prefix == ""); err != nil {
		return errors.New(prefix + err.Error())
	}
	return nil
}

// decodeRegular does parseRegular's work; top says the map is not a
// section, whose "file" is kept.
func (m *Map) decodeRegular(f rawFields, offLine, offCol int, top bool) error {
	root, err := m.readHeader(f, top)
	if err != nil {
		return err
	}
	srcBase, nameBase := len(m.Sources), len(m.Names)
	if err := m.appendSources(f, root); err != nil {
		return err
	}
	nsrc := len(m.Sources) - srcBase
	if err := m.appendNames(f); err != nil {
		return err
	}
	if err := m.appendContent(f, nsrc); err != nil {
		return err
	}
	if err := m.appendIgnored(f, nsrc); err != nil {
		return err
	}
	mappings, err := rawMappings(f.mappings)
	if err != nil {
		return err
	}
	sec := section{
		line: offLine, col: offCol, mappings: mappings,
		nsrc: nsrc, nname: len(m.Names) - nameBase, srcBase: srcBase, nameBase: nameBase,
	}
	if err := sec.validate(m.cpEvery); err != nil {
		return err
	}
	m.sections = append(m.sections, sec)
	return nil
}

// readHeader checks a regular map's version, kind and "mappings" type,
// keeps its "file" when top, and returns its sourceRoot ending in "/"
// ("" for none).
func (m *Map) readHeader(f rawFields, top bool) (string, error) {
	if err := checkVersion(f.version); err != nil {
		return "", err
	}
	if f.sections != nil {
		return "", errors.New("nested index maps are not allowed")
	}
	switch kind(f.mappings) {
	case 0:
		return "", errors.New("mappings: missing")
	case '"':
	default:
		return "", errors.New("mappings: not a string")
	}
	file, err := optString(f.file)
	if err != nil {
		return "", fmt.Errorf("file: %v", err)
	}
	if top { // a section's "file" is irrelevant; only the top level's is kept
		m.File = file
	}
	root, err := optString(f.sourceRoot)
	if err != nil {
		return "", fmt.Errorf("sourceRoot: %v", err)
	}
	if root != "" && root[len(root)-1] != '/' {
		root += "/"
	}
	return root, nil
}

// appendSources appends the map's sources, prefixed with root.
func (m *Map) appendSources(f rawFields, root string) error {
	switch kind(f.sources) {
	case 0:
		return errors.New("sources: missing")
	case '[':
	default:
		return errors.New("sources: not a list")
	}
	return eachCollected(f.sourcesElems, func(i int, v []byte) error {
		switch kind(v) {
		case 'n':
			m.Sources = append(m.Sources, "")
		case '"':
			s, err := jsonscan.DecodeString(v)
			if err != nil {
				return err
			}
			m.Sources = append(m.Sources, root+s)
		default:
			return fmt.Errorf("sources: entry %d is not a string or null", i)
		}
		return nil
	})
}

// appendNames appends the map's names, if any.
func (m *Map) appendNames(f rawFields) error {
	names := optional(f.names)
	if names == nil {
		return nil
	}
	if kind(names) != '[' {
		return errors.New("names: not a list")
	}
	return eachCollected(f.namesElems, func(i int, v []byte) error {
		if kind(v) != '"' {
			return fmt.Errorf("names: entry %d is not a string", i)
		}
		s, err := jsonscan.DecodeString(v)
		if err != nil {
			return err
		}
		m.Names = append(m.Names, s)
		return nil
	})
}

// appendContent appends the raw sourcesContent entries of the map's nsrc
// sources: validated now, decoded on demand.
func (m *Map) appendContent(f rawFields, nsrc int) error {
	raws := make([][]byte, nsrc)
	if sc := optional(f.sourcesContent); sc != nil {
		if kind(sc) != '[' {
			return errors.New("sourcesContent: not a list")
		}
		err := eachCollected(f.contentElems, func(i int, v []byte) error {
			switch kind(v) {
			case '"':
				if i < nsrc {
					raws[i] = v
				}
			case 'n':
			default:
				return fmt.Errorf("sourcesContent: entry %d is not a string or null", i)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	m.content.raw = append(m.content.raw, raws...)
	return nil
}

// appendIgnored appends whether each of the map's nsrc sources is in its
// ignoreList (or, without one, its x_google_ignoreList).
func (m *Map) appendIgnored(f rawFields, nsrc int) error {
	ignored := make([]bool, nsrc)
	if il := optional(f.ignoreList); il != nil {
		if kind(il) != '[' {
			return errors.New("ignoreList: not a list")
		}
		err := jsonscan.EachElem(il, func(i int, v []byte) error {
			if kind(v) == 'n' {
				return nil // the spec tolerates null entries
			}
			x, ok := arrayIndex(v)
			if !ok {
				return fmt.Errorf("ignoreList: entry %d is not a non-negative integer", i)
			}
			if x >= nsrc {
				return fmt.Errorf("ignoreList: index %d out of range (%d sources)", x, nsrc)
			}
			ignored[x] = true
			return nil
		})
		if err != nil {
			return err
		}
	} else if xl := optional(f.xIgnoreList); kind(xl) == '[' {
		// Deprecated and outside the spec: used leniently, bad entries skipped.
		_ = jsonscan.EachElem(xl, func(_ int, v []byte) error {
			if x, ok := arrayIndex(v); ok && x < nsrc {
				ignored[x] = true
			}
			return nil
		})
	}
	m.Ignored = append(m.Ignored, ignored...)
	return nil
}

// rawMappings returns the text of the raw JSON string "mappings", in place
// unless it has escapes (unusual but valid JSON).
func rawMappings(raw []byte) ([]byte, error) {
	mappings := raw[1 : len(raw)-1]
	if bytes.IndexByte(mappings, '\\') < 0 {
		return mappings, nil
	}
	str, err := jsonscan.DecodeString(raw)
	if err != nil {
		return nil, fmt.Errorf("mappings: %v", err)
	}
	return []byte(str), nil
}

// optString decodes an optional string field.
func optString(raw []byte) (string, error) {
	switch kind(raw) {
	case 0, 'n':
		return "", nil
	case '"':
		return jsonscan.DecodeString(raw)
	}
	return "", errors.New("not a string")
}

// arrayIndex parses a JSON number that must be a non-negative integer that
// fits in 32 bits (1.0 counts as 1, as in JavaScript).
func arrayIndex(raw []byte) (int, bool) {
	if kind(raw) != '0' {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
		return 0, false
	}
	return int(v), true
}

// parseIndex decodes an index map.
func (m *Map) parseIndex(f rawFields) error {
	if err := checkVersion(f.version); err != nil {
		return err
	}
	if f.mappings != nil {
		return errors.New("index map: must not have both sections and mappings")
	}
	file, err := optString(f.file)
	if err != nil {
		return fmt.Errorf("file: %v", err)
	}
	m.File = file
	if kind(f.sections) != '[' {
		return errors.New("sections: not a list")
	}
	prevLine, prevCol := -1, -1 // end of the previous section's last mapping
	prevOffLine, prevOffCol := 0, 0
	return jsonscan.EachElem(f.sections, func(i int, v []byte) error {
		line, col, mp, err := readSection(i, v)
		if err != nil {
			return err
		}
		if i > 0 && (line < prevOffLine || line == prevOffLine && col < prevOffCol) {
			return fmt.Errorf("sections: not sorted at section %d", i)
		}
		if line < prevLine || line == prevLine && col <= prevCol {
			return fmt.Errorf("sections: overlap at section %d", i)
		}
		sf, err := readFields(jsonscan.NewWalker(mp, 0))
		if err != nil {
			return err
		}
		if err := m.parseRegular(sf, line, col, fmt.Sprintf("section %d: ", i)); err != nil {
			return err
		}
		prevOffLine, prevOffCol = line, col
		if s := &m.sections[len(m.sections)-1]; s.lastLine >= 0 {
			prevLine = line + s.lastLine
			prevCol = s.lastCol
			if s.lastLine == 0 {
				prevCol += col
			}
		}
		return nil
	})
}

// readSection reads section i of an index map (raw JSON v): its offset and
// its raw map object.
func readSection(i int, v []byte) (line, col int, mp []byte, err error) {
	if kind(v) != '{' {
		return 0, 0, nil, fmt.Errorf("section %d: not an object", i)
	}
	var offset, url []byte
	if err = pickFields(v, map[string]*[]byte{"offset": &offset, "map": &mp, "url": &url}); err != nil {
		return 0, 0, nil, err
	}
	if url != nil {
		return 0, 0, nil, fmt.Errorf("section %d: url sections are not supported", i)
	}
	if line, col, err = readOffset(i, offset); err != nil {
		return 0, 0, nil, err
	}
	switch kind(mp) {
	case 0:
		return 0, 0, nil, fmt.Errorf("section %d: map missing", i)
	case '{':
	default:
		return 0, 0, nil, fmt.Errorf("section %d: map is not an object", i)
	}
	return line, col, mp, nil
}

// readOffset reads the offset object of section i.
func readOffset(i int, offset []byte) (line, col int, err error) {
	switch kind(offset) {
	case 0:
		return 0, 0, fmt.Errorf("section %d: offset missing", i)
	case '{':
	default:
		return 0, 0, fmt.Errorf("section %d: offset is not an object", i)
	}
	var rawLine, rawCol []byte
	if err = pickFields(offset, map[string]*[]byte{"line": &rawLine, "column": &rawCol}); err != nil {
		return 0, 0, err
	}
	if rawLine == nil {
		return 0, 0, fmt.Errorf("section %d: offset line missing", i)
	}
	if rawCol == nil {
		return 0, 0, fmt.Errorf("section %d: offset column missing", i)
	}
	line, ok := arrayIndex(rawLine)
	if !ok {
		return 0, 0, fmt.Errorf("section %d: offset line is not a non-negative integer", i)
	}
	col, ok = arrayIndex(rawCol)
	if !ok {
		return 0, 0, fmt.Errorf("section %d: offset column is not a non-negative integer", i)
	}
	return line, col, nil
}

// OwnData tells m that the bytes given to Parse belong to it alone: a
// sourcesContent entry is then decoded into its own bytes, which saves a
// copy of megabytes of source. Call it before m is shared.
func (m *Map) OwnData() { m.content.inPlace = true }

// SourceContent returns sourcesContent[i] and whether it is present
// (non-null). Entries are decoded on first request and cached.
func (m *Map) SourceContent(i int) (string, bool) {
	c := m.content
	if c == nil || i < 0 || i >= len(c.raw) || c.raw[i] == nil {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.done[i] {
		s, ok := "", false
		if c.inPlace {
			s, ok = jsonscan.DecodeInPlace(c.raw[i])
		}
		if !ok {
			var err error
			if s, err = jsonscan.DecodeString(c.raw[i]); err != nil { // cannot happen: validated by Parse
				return "", false
			}
		}
		c.str[i] = s
		c.done[i] = true
	}
	return c.str[i], true
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// eachCollected calls fn for each collected element.
func eachCollected(elems [][]byte, fn func(i int, val []byte) error) error {
	for i, v := range elems {
		if err := fn(i, v); err != nil {
			return err
		}
	}
	return nil
}

// pickFields sets *dst[key] to the raw value of each member of the
// validated JSON object obj that dst names; the last of duplicate keys
// wins, as in JavaScript.
func pickFields(obj []byte, dst map[string]*[]byte) error {
	return jsonscan.EachField(obj, func(key, val []byte) error {
		k, err := jsonscan.DecodeString(key)
		if err != nil {
			return err
		}
		if d := dst[k]; d != nil {
			*d = val
		}
		return nil
	})
}
