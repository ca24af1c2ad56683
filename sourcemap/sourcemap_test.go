package sourcemap

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
)

// tseg is a segment in absolute values, as a test writes it. src -1 makes a
// 1-field (unmapped) segment; name -1 a 4-field one.
type tseg struct{ col, src, line, ocol, name int }

const b64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

func vlqEncode(v int) string {
	u := uint64(v) << 1
	if v < 0 {
		u = uint64(-v)<<1 | 1
	}
	var b []byte
	for {
		d := u & 31
		u >>= 5
		if u > 0 {
			d |= 32
		}
		b = append(b, b64Alphabet[d])
		if u == 0 {
			return string(b)
		}
	}
}

// encodeMappings encodes lines of segments, in the order given, with the
// relative encoding of the spec.
func encodeMappings(lines [][]tseg) string {
	var sb strings.Builder
	var src, line, ocol, name int
	for li, segs := range lines {
		if li > 0 {
			sb.WriteByte(';')
		}
		col := 0
		for si, s := range segs {
			if si > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(vlqEncode(s.col - col))
			col = s.col
			if s.src < 0 {
				continue
			}
			sb.WriteString(vlqEncode(s.src - src))
			sb.WriteString(vlqEncode(s.line - line))
			sb.WriteString(vlqEncode(s.ocol - ocol))
			src, line, ocol = s.src, s.line, s.ocol
			if s.name >= 0 {
				sb.WriteString(vlqEncode(s.name - name))
				name = s.name
			}
		}
	}
	return sb.String()
}

// regularMap returns the JSON of a regular map with n sources s0.js… and
// names n0…
func regularMap(nsrc, nname int, mappings string) string {
	srcs, names := make([]string, nsrc), make([]string, nname)
	for i := range srcs {
		srcs[i] = fmt.Sprintf("s%d.js", i)
	}
	for i := range names {
		names[i] = fmt.Sprintf("n%d", i)
	}
	b, _ := json.Marshal(map[string]any{"version": 3, "sources": srcs, "names": names, "mappings": mappings})
	return string(b)
}

func mustParse(t testing.TB, js string) *Map {
	t.Helper()
	m, err := Parse([]byte(js))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, js)
	}
	return m
}

// original returns the spec's single answer for a position: the Exact
// mapping if any, else Before (the greatest lower bound on the line). It
// returns ok=false when neither exists or the chosen segment is unmapped (1
// field).
func original(m *Map, line, column int) (Position, bool) {
	a := m.Lookup([]Query{{Line: line, Column: column}})[0]
	p := a.Exact
	if p == nil {
		p = a.Before
	}
	if p == nil || p.Source < 0 {
		return Position{}, false
	}
	return *p, true
}

// fmtPos formats a *Position compactly for comparisons.
func fmtPos(p *Position) string {
	if p == nil {
		return "nil"
	}
	if p.Source < 0 {
		return fmt.Sprintf("%d:%d->unmapped", p.GenLine, p.GenColumn)
	}
	return fmt.Sprintf("%d:%d->s%d:%d:%d/n%d", p.GenLine, p.GenColumn, p.Source, p.Line, p.Column, p.Name)
}

func fmtAnswer(a Answer) string {
	return fmt.Sprintf("exact=%s before=%s first=%s", fmtPos(a.Exact), fmtPos(a.Before), fmtPos(a.First))
}

// refSeg is a mapping with absolute generated position, for the reference.
type refSeg struct {
	Position
	order int // input order
}

// refLookup answers a query from a full table of mappings: what Lookup must
// compute without one.
func refLookup(all []refSeg, q Query) Answer {
	var a Answer
	better := func(cur *Position, curOrder int, s refSeg, less bool) bool {
		return cur == nil || less || s.GenColumn == cur.GenColumn && s.order > curOrder
	}
	var exO, beO, fiO int
	for _, s := range all {
		if s.GenLine != q.Line || q.Line < 0 {
			continue
		}
		p := s.Position
		if better(a.First, fiO, s, a.First != nil && s.GenColumn < a.First.GenColumn) {
			a.First, fiO = &p, s.order
		}
		if q.Column < 0 {
			continue
		}
		switch {
		case s.GenColumn == q.Column:
			if a.Exact == nil || s.order > exO {
				a.Exact, exO = &p, s.order
			}
		case s.GenColumn < q.Column:
			if better(a.Before, beO, s, a.Before != nil && s.GenColumn > a.Before.GenColumn) {
				a.Before, beO = &p, s.order
			}
		}
	}
	if q.Column < 0 {
		a.Exact, a.Before = nil, nil
	}
	return a
}

// refLookupSorted answers a query from the segments of its line sorted
// stably by column: the last of a run of equal columns is the last in input
// order.
func refLookupSorted(segs []refSeg, q Query) Answer {
	var a Answer
	if len(segs) == 0 || q.Line < 0 {
		return a
	}
	lastOfRun := func(i int) *Position {
		for i+1 < len(segs) && segs[i+1].GenColumn == segs[i].GenColumn {
			i++
		}
		p := segs[i].Position
		return &p
	}
	a.First = lastOfRun(0)
	if q.Column < 0 {
		return a
	}
	lb := sort.Search(len(segs), func(i int) bool { return segs[i].GenColumn >= q.Column })
	ub := sort.Search(len(segs), func(i int) bool { return segs[i].GenColumn > q.Column })
	if lb > 0 {
		p := segs[lb-1].Position
		a.Before = &p
	}
	if ub > lb {
		p := segs[ub-1].Position
		a.Exact = &p
	}
	return a
}

// decodeAll builds the full table of a parsed map with the package's
// decoder (used on fuzzed maps, whose segments the test does not know).
func decodeAll(m *Map) []refSeg {
	var all []refSeg
	for _, sec := range m.sections {
		d := decoder{s: sec.mappings, nsrc: int64(sec.nsrc), nname: int64(sec.nname)}
		for {
			st := d.next()
			if st == stEnd || st == stErr {
				break
			}
			if st != stSeg {
				continue
			}
			p := Position{GenLine: sec.line + d.line, GenColumn: int(d.col), Source: -1, Name: -1}
			if d.line == 0 {
				p.GenColumn += sec.col
			}
			if d.src >= 0 {
				p.Source, p.Line, p.Column = sec.srcBase+int(d.src), int(d.oline), int(d.ocol)
			}
			if d.name >= 0 {
				p.Name = sec.nameBase + int(d.name)
			}
			all = append(all, refSeg{p, len(all)})
		}
	}
	return all
}

// tableOf turns test segments into the reference table.
func tableOf(lines [][]tseg, offLine, offCol, srcBase, nameBase int, order *int) []refSeg {
	var all []refSeg
	for li, segs := range lines {
		for _, s := range segs {
			p := Position{GenLine: li + offLine, GenColumn: s.col, Source: -1, Name: -1}
			if li == 0 {
				p.GenColumn += offCol
			}
			if s.src >= 0 {
				p.Source, p.Line, p.Column = s.src+srcBase, s.line, s.ocol
				if s.name >= 0 {
					p.Name = s.name + nameBase
				}
			}
			all = append(all, refSeg{p, *order})
			*order++
		}
	}
	return all
}

func checkLookup(t *testing.T, m *Map, all []refSeg, qs []Query) {
	t.Helper()
	got := m.Lookup(qs)
	if len(got) != len(qs) {
		t.Fatalf("Lookup returned %d answers for %d queries", len(got), len(qs))
	}
	var line []refSeg
	for i, q := range qs {
		want := refLookup(all, q)
		if g, w := fmtAnswer(got[i]), fmtAnswer(want); g != w {
			t.Errorf("query %d %+v:\n got %s\nwant %s", i, q, g, w)
		}
		line = line[:0]
		for _, s := range all {
			if s.GenLine == q.Line {
				line = append(line, s)
			}
		}
		slices.SortStableFunc(line, func(a, b refSeg) int { return a.GenColumn - b.GenColumn })
		if g, w := fmtAnswer(refLookupSorted(line, q)), fmtAnswer(want); g != w {
			t.Fatalf("the references disagree on %+v:\n sorted %s\n linear %s", q, g, w)
		}
	}
}

func TestLookupLine(t *testing.T) {
	// Line 0, in input order: col 10, col 0, col 5 (unmapped), col 20 twice
	// (the later one wins), col 30 named. Line 1 is empty. Line 2 has one.
	lines := [][]tseg{
		{{10, 0, 0, 5, -1}, {0, 0, 2, 0, -1}, {5, -1, 0, 0, 0}, {20, 0, 7, 7, -1}, {20, 1, 8, 8, -1}, {30, 1, 9, 1, 1}},
		{},
		{{4, 0, 3, 3, 0}},
	}
	m := mustParse(t, regularMap(2, 2, encodeMappings(lines)))
	order := 0
	all := tableOf(lines, 0, 0, 0, 0, &order)

	tests := []struct {
		q    Query
		want string
	}{
		// Unsorted input: col 0 is found although it comes second.
		{Query{0, 0}, "exact=0:0->s0:2:0/n-1 before=nil first=0:0->s0:2:0/n-1"},
		{Query{0, 3}, "exact=nil before=0:0->s0:2:0/n-1 first=0:0->s0:2:0/n-1"},
		{Query{0, 7}, "exact=nil before=0:5->unmapped first=0:0->s0:2:0/n-1"},
		{Query{0, 12}, "exact=nil before=0:10->s0:0:5/n-1 first=0:0->s0:2:0/n-1"},
		// Two segments at col 20: the last in input order.
		{Query{0, 20}, "exact=0:20->s1:8:8/n-1 before=0:10->s0:0:5/n-1 first=0:0->s0:2:0/n-1"},
		{Query{0, 25}, "exact=nil before=0:20->s1:8:8/n-1 first=0:0->s0:2:0/n-1"},
		{Query{0, 99}, "exact=nil before=0:30->s1:9:1/n1 first=0:0->s0:2:0/n-1"},
		// Unknown column: only First.
		{Query{0, -1}, "exact=nil before=nil first=0:0->s0:2:0/n-1"},
		{Query{1, 3}, "exact=nil before=nil first=nil"},
		{Query{2, 0}, "exact=nil before=nil first=2:4->s0:3:3/n0"},
		{Query{3, 0}, "exact=nil before=nil first=nil"},
		{Query{-1, 0}, "exact=nil before=nil first=nil"},
	}
	var qs []Query
	for _, tc := range tests {
		qs = append(qs, tc.q)
	}
	// Repeated and unordered queries, in one batch: each answer as alone.
	qs = append(qs, qs[4], qs[0], qs[9], qs[4])
	got := m.Lookup(qs)
	for i, tc := range tests {
		if g := fmtAnswer(got[i]); g != tc.want {
			t.Errorf("Lookup %+v:\n got %s\nwant %s", tc.q, g, tc.want)
		}
		if g := fmtAnswer(m.Lookup([]Query{tc.q})[0]); g != tc.want {
			t.Errorf("Lookup alone %+v:\n got %s\nwant %s", tc.q, g, tc.want)
		}
	}
	for i, j := range []int{4, 0, 9, 4} {
		if g, w := fmtAnswer(got[len(tests)+i]), tests[j].want; g != w {
			t.Errorf("repeated query %+v:\n got %s\nwant %s", tests[j].q, g, w)
		}
	}
	// Answers do not share Positions.
	if got[4].Exact == got[len(tests)].Exact {
		t.Error("repeated queries share a *Position")
	}
	checkLookup(t, m, all, qs)

	// Original: Exact, else Before; unmapped gives false.
	for _, tc := range []struct {
		line, col int
		want      string
	}{
		{0, 0, "s0:2:0"}, {0, 3, "s0:2:0"}, {0, 5, "none"}, {0, 7, "none"},
		{0, 12, "s0:0:5"}, {0, 20, "s1:8:8"}, {2, 3, "none"}, {2, 9, "s0:3:3"},
	} {
		p, ok := original(m, tc.line, tc.col)
		got := "none"
		if ok {
			got = fmt.Sprintf("s%d:%d:%d", p.Source, p.Line, p.Column)
		}
		if got != tc.want {
			t.Errorf("Original(%d, %d) = %s, want %s", tc.line, tc.col, got, tc.want)
		}
	}
}

func TestOneFieldSegments(t *testing.T) {
	// "AAAA,E,CACC": col 0 -> 0:0; col 2 unmapped (does not inherit); col 3:
	// source/line/column relative to the last 4-field segment, not reset.
	m := mustParse(t, regularMap(2, 0, "AAAA,E,CACC"))
	if p, ok := original(m, 0, 2); ok {
		t.Errorf("Original(0, 2) = %+v, true; want unmapped", p)
	}
	a := m.Lookup([]Query{{0, 2}})[0]
	if a.Exact == nil || a.Exact.Source != -1 || a.Exact.Name != -1 {
		t.Errorf("Exact = %s, want unmapped", fmtPos(a.Exact))
	}
	if p, ok := original(m, 0, 3); !ok || p.Source != 0 || p.Line != 1 || p.Column != 1 {
		t.Errorf("Original(0, 3) = %+v, %v; want s0:1:1", p, ok)
	}
	if p, ok := original(m, 0, 1); !ok || p.Line != 0 || p.Column != 0 {
		t.Errorf("Original(0, 1) = %+v, %v; want s0:0:0", p, ok)
	}
}

func TestRelativeAcrossLines(t *testing.T) {
	// The original fields stay relative across ';'; the column resets.
	// Line 0: col 1 -> s1:1:1 n1. Line 1: col 2, source, line and name
	// unchanged (deltas 0), original column +1.
	m := mustParse(t, regularMap(2, 2, "CCCCC;EAACA"))
	p, ok := original(m, 1, 2)
	if !ok || p.Source != 1 || p.Line != 1 || p.Column != 2 || p.Name != 1 || p.GenColumn != 2 {
		t.Errorf("Original(1, 2) = %+v, %v", p, ok)
	}
}

func TestEmptyMappings(t *testing.T) {
	for _, mappings := range []string{"", ";;;"} {
		m := mustParse(t, regularMap(1, 0, mappings))
		if _, ok := original(m, 0, 0); ok {
			t.Errorf("%q: Original(0, 0) found a mapping", mappings)
		}
		a := m.Lookup([]Query{{0, 0}, {2, -1}, {10, 10}})
		for _, x := range a {
			if x.Exact != nil || x.Before != nil || x.First != nil {
				t.Errorf("%q: %s, want nothing", mappings, fmtAnswer(x))
			}
		}
	}
	if a := mustParse(t, regularMap(1, 0, "AAAA")).Lookup(nil); len(a) != 0 {
		t.Errorf("Lookup(nil) = %v", a)
	}
}

// indexMap builds an index map from sections of test segments; each section
// has its own sources (2) and names (2).
func indexMap(secs []struct {
	line, col int
	lines     [][]tseg
}) (string, []refSeg) {
	type sec struct {
		Offset struct {
			Line   int `json:"line"`
			Column int `json:"column"`
		} `json:"offset"`
		Map json.RawMessage `json:"map"`
	}
	var out []sec
	var all []refSeg
	order := 0
	for i, s := range secs {
		var x sec
		x.Offset.Line, x.Offset.Column = s.line, s.col
		b, _ := json.Marshal(map[string]any{
			"version": 3, "sources": []string{fmt.Sprintf("a%d.js", i), fmt.Sprintf("b%d.js", i)},
			"names": []string{fmt.Sprintf("x%d", i), fmt.Sprintf("y%d", i)}, "mappings": encodeMappings(s.lines),
		})
		x.Map = b
		out = append(out, x)
		all = append(all, tableOf(s.lines, s.line, s.col, 2*i, 2*i, &order)...)
	}
	b, _ := json.Marshal(map[string]any{"version": 3, "file": "out.js", "sections": out})
	return string(b), all
}

func TestIndexMap(t *testing.T) {
	js, all := indexMap([]struct {
		line, col int
		lines     [][]tseg
	}{
		{0, 0, [][]tseg{{{0, 0, 0, 0, -1}, {3, 1, 1, 1, 1}}}},
		// Starts at line 0 column 100; its second line is line 1 and its
		// columns there are NOT shifted by 100.
		{0, 100, [][]tseg{{{0, 0, 5, 0, 0}, {10, 0, 5, 10, -1}}, {{3, 1, 6, 3, -1}}}},
		{1, 50, [][]tseg{{{0, 0, 9, 0, -1}}}},
	})
	m := mustParse(t, js)
	if m.File != "out.js" {
		t.Errorf("File = %q", m.File)
	}
	if want := "a0.js b0.js a1.js b1.js a2.js b2.js"; strings.Join(m.Sources, " ") != want {
		t.Errorf("Sources = %q, want %q", m.Sources, want)
	}
	if want := "x0 y0 x1 y1 x2 y2"; strings.Join(m.Names, " ") != want {
		t.Errorf("Names = %q, want %q", m.Names, want)
	}
	tests := []struct {
		line, col int
		want      string
	}{
		// Line 0 col 5 lies before section 1 (col 100): section 0 answers.
		{0, 5, "s1:1:1/n1"},
		{0, 100, "s2:5:0/n2"},
		{0, 109, "s2:5:0/n2"},
		{0, 110, "s2:5:10/n-1"},
		// Section 1's second line: column offset not applied.
		{1, 3, "s3:6:3/n-1"},
		{1, 4, "s3:6:3/n-1"},
		{1, 2, "none"},
		{1, 50, "s4:9:0/n-1"},
		{1, 60, "s4:9:0/n-1"},
	}
	for _, tc := range tests {
		p, ok := original(m, tc.line, tc.col)
		got := "none"
		if ok {
			got = fmt.Sprintf("s%d:%d:%d/n%d", p.Source, p.Line, p.Column, p.Name)
		}
		if got != tc.want {
			t.Errorf("Original(%d, %d) = %s, want %s", tc.line, tc.col, got, tc.want)
		}
	}
	var qs []Query
	for l := -1; l < 4; l++ {
		for c := -1; c < 120; c++ {
			qs = append(qs, Query{l, c})
		}
	}
	checkLookup(t, m, all, qs)
}

func TestIndexMapSectionEmptyAtSameOffset(t *testing.T) {
	// An empty section may share its offset with the next (an empty file in
	// a concatenation); a non-empty one may not.
	js, _ := indexMap([]struct {
		line, col int
		lines     [][]tseg
	}{
		{0, 0, nil},
		{0, 0, [][]tseg{{{0, 0, 0, 0, -1}}}},
		{2, 0, [][]tseg{{{0, 0, 0, 0, -1}}}},
	})
	m := mustParse(t, js)
	if p, ok := original(m, 2, 0); !ok || p.Source != 4 {
		t.Errorf("Original(2, 0) = %+v, %v", p, ok)
	}
}

func TestRandomMapsAgainstTable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	randLines := func(n int) [][]tseg {
		lines := make([][]tseg, n)
		for i := range lines {
			for range r.IntN(6) {
				s := tseg{col: r.IntN(30), src: r.IntN(3) - 1, line: r.IntN(20), ocol: r.IntN(20), name: r.IntN(3) - 1}
				lines[i] = append(lines[i], s)
			}
		}
		return lines
	}
	for iter := range 300 {
		var js string
		var all []refSeg
		if iter%2 == 0 {
			lines := randLines(1 + r.IntN(8))
			for i := range lines { // sources 0..1, names 0..1
				for j := range lines[i] {
					lines[i][j].src = min(lines[i][j].src, 1)
					lines[i][j].name = min(lines[i][j].name, 1)
				}
			}
			js = regularMap(2, 2, encodeMappings(lines))
			order := 0
			all = tableOf(lines, 0, 0, 0, 0, &order)
		} else {
			var secs []struct {
				line, col int
				lines     [][]tseg
			}
			line, col := 0, 0
			for range 1 + r.IntN(4) {
				ls := randLines(1 + r.IntN(3))
				for i := range ls {
					for j := range ls[i] {
						ls[i][j].src = min(ls[i][j].src, 1)
						ls[i][j].name = min(ls[i][j].name, 1)
					}
				}
				secs = append(secs, struct {
					line, col int
					lines     [][]tseg
				}{line, col, ls})
				// The next section starts after this one's last mapping.
				endLine, endCol := line+len(ls)-1, 0
				for _, s := range ls[len(ls)-1] {
					endCol = max(endCol, s.col+1)
				}
				if len(ls) == 1 {
					endCol += col
				}
				line, col = endLine, endCol+r.IntN(5)
				if r.IntN(2) == 0 {
					line, col = line+1, r.IntN(10)
				}
			}
			js, all = indexMap(secs)
		}
		m, err := parse([]byte(js), 16) // exercise the checkpoint jumps
		if err != nil {
			t.Fatalf("Parse: %v\n%s", err, js)
		}
		var qs []Query
		for range 40 {
			qs = append(qs, Query{r.IntN(12) - 1, r.IntN(60) - 1})
		}
		checkLookup(t, m, all, qs)
		if t.Failed() {
			t.Fatalf("map: %s", js)
		}
	}
}

func TestIgnoreList(t *testing.T) {
	tests := []struct {
		extra string
		want  string
	}{
		{`"ignoreList": [0, 2]`, "true false true"},
		{`"x_google_ignoreList": [1]`, "false true false"},
		// ignoreList present (even empty): x_google_ignoreList is not read.
		{`"ignoreList": [2], "x_google_ignoreList": [1]`, "false false true"},
		{`"ignoreList": [], "x_google_ignoreList": [1]`, "false false false"},
		// x_google_ignoreList is deprecated: bad entries are skipped, not errors.
		{`"x_google_ignoreList": [7, "x", 1]`, "false true false"},
		{`"x_google_ignoreList": "junk"`, "false false false"},
		{`"ignoreList": null`, "false false false"},
		{`"ignoreList": [1.0]`, "false true false"},
	}
	for _, tc := range tests {
		js := `{"version": 3, "sources": ["a", "b", "c"], "mappings": "", ` + tc.extra + `}`
		m := mustParse(t, js)
		if got := strings.Trim(fmt.Sprint(m.Ignored), "[]"); got != tc.want {
			t.Errorf("%s: Ignored = %s, want %s", tc.extra, got, tc.want)
		}
	}
	// Index maps: per section, concatenated.
	m := mustParse(t, `{"version": 3, "sections": [
		{"offset": {"line": 0, "column": 0}, "map": {"version": 3, "sources": ["a", "b"], "mappings": "", "ignoreList": [1]}},
		{"offset": {"line": 1, "column": 0}, "map": {"version": 3, "sources": ["c"], "mappings": "", "x_google_ignoreList": [0]}}]}`)
	if got := fmt.Sprint(m.Ignored); got != "[false true true]" {
		t.Errorf("index map Ignored = %s", got)
	}
}

func TestPrefixAndSourceRoot(t *testing.T) {
	body := `{"version": 3, "sourceRoot": "%s", "sources": ["a.js", null, "../b.js"], "mappings": "AAAA"}`
	for _, tc := range []struct {
		prefix, root, want string
	}{
		{")]}'\n", "", "a.js||../b.js"},
		{")]}' junk\r\n", "src", "src/a.js||src/../b.js"},
		{")]}'", "src/", "src/a.js||src/../b.js"},
		{"\xef\xbb\xbf", "http://x/y", "http://x/y/a.js||http://x/y/../b.js"},
		{"", "/", "/a.js||/../b.js"},
	} {
		m := mustParse(t, tc.prefix+fmt.Sprintf(body, tc.root))
		if got := strings.Join(m.Sources, "|"); got != tc.want {
			t.Errorf("prefix %q root %q: Sources = %q, want %q", tc.prefix, tc.root, got, tc.want)
		}
	}
}

func TestSourceContentLazy(t *testing.T) {
	js := `{"version": 3, "sources": ["a", "b", "c", "d"],
		"sourcesContent": ["x\n\"y\"\u0041\ud83d\ude00", null, "plain"], "mappings": ""}`
	m := mustParse(t, js)
	for i, done := range m.content.done {
		if done {
			t.Errorf("content %d decoded before any request", i)
		}
	}
	for _, tc := range []struct {
		i    int
		want string
		ok   bool
	}{
		{0, "x\n\"y\"A\U0001F600", true},
		{1, "", false},
		{2, "plain", true},
		{3, "", false}, // beyond sourcesContent
		{4, "", false},
		{-1, "", false},
	} {
		got, ok := m.SourceContent(tc.i)
		if got != tc.want || ok != tc.ok {
			t.Errorf("SourceContent(%d) = %q, %v; want %q, %v", tc.i, got, ok, tc.want, tc.ok)
		}
	}
	if !m.content.done[0] || m.content.done[3] {
		t.Errorf("decoded = %v, want only the requested present entries", m.content.done)
	}
	if got, _ := m.SourceContent(0); got != "x\n\"y\"A\U0001F600" {
		t.Errorf("cached SourceContent(0) = %q", got)
	}
	if _, ok := mustParse(t, `{"version":3,"sources":["a"],"mappings":""}`).SourceContent(0); ok {
		t.Error("SourceContent present without sourcesContent")
	}
	// Index maps: per section, by global source index.
	m = mustParse(t, `{"version": 3, "sections": [
		{"offset": {"line": 0, "column": 0}, "map": {"version": 3, "sources": ["a", "b"], "mappings": ""}},
		{"offset": {"line": 1, "column": 0}, "map": {"version": 3, "sources": ["c"], "sourcesContent": ["C"], "mappings": ""}}]}`)
	if got, ok := m.SourceContent(2); got != "C" || !ok {
		t.Errorf("index map SourceContent(2) = %q, %v", got, ok)
	}
}

func TestParseErrors(t *testing.T) {
	reg := func(extra string) string {
		return `{"version": 3, "sources": ["a.js"], "names": ["n"], ` + extra + `}`
	}
	sec := func(s string) string { return `{"version": 3, "sections": [` + s + `]}` }
	const okMap = `{"version": 3, "sources": ["a"], "mappings": "AAAA"}`
	tests := []struct {
		js, want string
	}{
		// JSON
		{``, "not a source map: empty input"},
		{`[]`, "not a source map: not a JSON object"},
		{`{"version": 3,}`, "json: expected object key at byte 14"},
		{")]}'\n{\"version\": 3,}", "json: expected object key at byte 19"}, // offsets count the prefix
		{`{"version": 3} x`, "json: unexpected data after the top-level object at byte 15"},
		{"{\"a\": \"\x01\"}", "json: control character in string at byte 7"},
		{`{"a": "\q"}`, "json: invalid escape at byte 7"},
		{`{"a": 01}`, "json: expected ',' or '}' at byte 7"},
		{`{"a": tru}`, "json: invalid literal at byte 6"},
		{strings.Repeat("[", 20000), "json: nesting too deep at byte 10000"},
		// fields
		{`{"sources": [], "mappings": ""}`, "version: missing"},
		{`{"version": "3", "sources": [], "mappings": ""}`, "version: not a number"},
		{`{"version": 2, "sources": [], "mappings": ""}`, "version: unsupported version 2 (want 3)"},
		{`{"version": 3, "sources": []}`, "mappings: missing"},
		{`{"version": 3, "sources": [], "mappings": null}`, "mappings: not a string"},
		{`{"version": 3, "mappings": ""}`, "sources: missing"},
		{`{"version": 3, "sources": "a", "mappings": ""}`, "sources: not a list"},
		{`{"version": 3, "sources": ["a", 1], "mappings": ""}`, "sources: entry 1 is not a string or null"},
		{reg(`"mappings": "", "file": 1`), "file: not a string"},
		{reg(`"mappings": "", "sourceRoot": []`), "sourceRoot: not a string"},
		{reg(`"mappings": "", "names": {}`), "names: not a list"},
		{reg(`"mappings": "", "names": [null]`), "names: entry 0 is not a string"},
		{reg(`"mappings": "", "sourcesContent": "x"`), "sourcesContent: not a list"},
		{reg(`"mappings": "", "sourcesContent": [null, 1]`), "sourcesContent: entry 1 is not a string or null"},
		{reg(`"mappings": "", "ignoreList": 0`), "ignoreList: not a list"},
		{reg(`"mappings": "", "ignoreList": [-1]`), "ignoreList: entry 0 is not a non-negative integer"},
		{reg(`"mappings": "", "ignoreList": [0.5]`), "ignoreList: entry 0 is not a non-negative integer"},
		{reg(`"mappings": "", "ignoreList": [0, 1]`), "ignoreList: index 1 out of range (1 sources)"},
		// mappings
		{reg(`"mappings": "AAAA,A=AA"`), "mappings: invalid base64 character '=' at byte 6"},
		{reg(`"mappings": "AAAA.AAAA"`), "mappings: invalid base64 character '.' at byte 4"},
		{reg(`"mappings": "AAAA\u00e9"`), "mappings: invalid base64 character 0xc3 at byte 4"},
		{reg(`"mappings": "AAAg"`), "mappings: VLQ missing continuation digits at byte 3"},
		{reg(`"mappings": "AAAg;"`), "mappings: VLQ missing continuation digits at byte 3"},
		{reg(`"mappings": "ggggggE"`), "mappings: VLQ value exceeds 32 bits at byte 0"},
		{reg(`"mappings": "ggggggggggggggggB"`), "mappings: VLQ value exceeds 32 bits at byte 0"},
		{reg(`"mappings": "AAAA,,AAAA"`), "mappings: empty segment at byte 5"},
		{reg(`"mappings": ",AAAA"`), "mappings: empty segment at byte 0"},
		{reg(`"mappings": "AAAA,"`), "mappings: empty segment at byte 5"},
		{reg(`"mappings": "AAAA,;"`), "mappings: empty segment at byte 5"},
		{reg(`"mappings": "AA"`), "mappings: segment has 2 fields (want 1, 4 or 5) at byte 0"},
		{reg(`"mappings": "AAA"`), "mappings: segment has 3 fields (want 1, 4 or 5) at byte 0"},
		{reg(`"mappings": "AAAAAA"`), "mappings: segment has more than 5 fields at byte 0"},
		{reg(`"mappings": "C,F"`), "mappings: negative generated column -1 at byte 2"},
		{reg(`"mappings": "B"`), "mappings: negative generated column -2147483648 at byte 0"},
		{reg(`"mappings": "ACAA"`), "mappings: source index 1 out of range (1 sources) at byte 0"},
		{reg(`"mappings": "AAAA,ADAA"`), "mappings: source index -1 out of range (1 sources) at byte 5"},
		{reg(`"mappings": "AACA;AAFA"`), "mappings: negative original line -1 at byte 5"},
		{reg(`"mappings": "AAAC,AAAF"`), "mappings: negative original column -1 at byte 5"},
		{reg(`"mappings": "AAAAC"`), "mappings: name index 1 out of range (1 names) at byte 0"},
		{reg(`"mappings": "AAAAA,AAAAD"`), "mappings: name index -1 out of range (1 names) at byte 6"},
		{reg(`"mappings": "+/////D,+/////D"`), "mappings: generated column exceeds 32 bits at byte 8"},
		// index maps
		{sec(``) + `x`, "json: unexpected data after the top-level object at byte 30"},
		{`{"version": 3, "sections": {}}`, "sections: not a list"},
		{`{"version": 3, "mappings": "", "sections": []}`, "index map: must not have both sections and mappings"},
		{`{"version": 4, "sections": []}`, "version: unsupported version 4 (want 3)"},
		{`{"version": 3, "file": 1, "sections": []}`, "file: not a string"},
		{sec(`1`), "section 0: not an object"},
		{sec(`{"map": ` + okMap + `}`), "section 0: offset missing"},
		{sec(`{"offset": [], "map": ` + okMap + `}`), "section 0: offset is not an object"},
		{sec(`{"offset": {"column": 0}, "map": ` + okMap + `}`), "section 0: offset line missing"},
		{sec(`{"offset": {"line": 0}, "map": ` + okMap + `}`), "section 0: offset column missing"},
		{sec(`{"offset": {"line": -1, "column": 0}, "map": ` + okMap + `}`), "section 0: offset line is not a non-negative integer"},
		{sec(`{"offset": {"line": 0, "column": 1.5}, "map": ` + okMap + `}`), "section 0: offset column is not a non-negative integer"},
		{sec(`{"offset": {"line": 0, "column": 0}}`), "section 0: map missing"},
		{sec(`{"offset": {"line": 0, "column": 0}, "map": "x"}`), "section 0: map is not an object"},
		{sec(`{"offset": {"line": 0, "column": 0}, "url": "a.map"}`), "section 0: url sections are not supported"},
		{sec(`{"offset": {"line": 0, "column": 0}, "map": {"version": 3, "sections": []}}`), "section 0: nested index maps are not allowed"},
		{sec(`{"offset": {"line": 0, "column": 0}, "map": {"version": 3, "sources": [], "mappings": "AAAA"}}`), "section 0: mappings: source index 0 out of range (0 sources) at byte 0"},
		{sec(`{"offset": {"line": 0, "column": 0}, "map": ` + okMap + `}, {"offset": {"line": 0, "column": 0}, "map": ` + okMap + `}`), "sections: overlap at section 1"},
		// The first section's mapping at line 1 column 5 reaches past the second's start.
		{sec(`{"offset": {"line": 0, "column": 0}, "map": {"version": 3, "sources": ["a"], "mappings": ";KAAA"}}, {"offset": {"line": 1, "column": 5}, "map": ` + okMap + `}`), "sections: overlap at section 1"},
		{sec(`{"offset": {"line": 1, "column": 0}, "map": ` + okMap + `}, {"offset": {"line": 0, "column": 9}, "map": ` + okMap + `}`), "sections: not sorted at section 1"},
	}
	for _, tc := range tests {
		m, err := Parse([]byte(tc.js))
		if err == nil {
			t.Errorf("Parse(%.80s) = %v, nil; want error %q", tc.js, m, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("Parse(%.80s):\n got error %q\nwant error %q", tc.js, err, tc.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("error %q spans lines", err)
		}
	}
	// Just inside the limits: valid.
	for _, js := range []string{
		reg(`"mappings": "+/////D"`),                   // column 2^31-1
		reg(`"mappings": "AAAA,C,DAAA"`),               // columns 0, 1, 0: unsorted is fine
		reg(`"mappings": "igggggggggggggggggggggggA"`), // leading zero digits
		sec(`{"offset": {"line": 0, "column": 0}, "map": {"version": 3, "sources": ["a"], "mappings": ";KAAA"}}, {"offset": {"line": 1, "column": 6}, "map": ` + okMap + `}`),
	} {
		if _, err := Parse([]byte(js)); err != nil {
			t.Errorf("Parse(%.80s): %v", js, err)
		}
	}
}

// TestHugeLineBoundedMemory checks that neither Parse nor Lookup
// allocates per segment: a line of 2 million segments (10 MB).
func TestHugeLineBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	mappings := "AAAA" + strings.Repeat(",CAAC", 2_000_000)
	js := []byte(regularMap(1, 0, mappings))
	measure := func(f func()) uint64 {
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	var m *Map
	if n := measure(func() {
		var err error
		if m, err = Parse(js); err != nil {
			t.Fatal(err)
		}
	}); n > 64<<10 {
		t.Errorf("Parse allocated %d bytes for 2M segments", n)
	}
	var ans []Answer
	if n := measure(func() { ans = m.Lookup([]Query{{0, 2_000_000}, {0, 1}, {0, -1}, {1, 0}}) }); n > 16<<10 {
		t.Errorf("Lookup allocated %d bytes for 2M segments", n)
	}
	if p := ans[0].Exact; p == nil || p.Column != 2_000_000 {
		t.Errorf("last segment: %s", fmtPos(p))
	}
	if p := ans[1].Before; p == nil || p.GenColumn != 0 {
		t.Errorf("Before(0,1): %s", fmtPos(p))
	}
	if p := ans[2].First; p == nil || p.GenColumn != 0 {
		t.Errorf("First(0): %s", fmtPos(p))
	}
}

// tscQueries returns the map of the large tsc corpus and queries at the
// distinct function starts of its profile (V8 callFrames are 0-based).
func tscQueries(tb testing.TB) ([]byte, []Query) {
	const dir = "../../shared/corpus/large/"
	data, err := os.ReadFile(dir + "bundle-tsc/tsc.min.js.map")
	if err != nil {
		tb.Skipf("corpus absent (../shared/corpus beside this repository): %v", err)
	}
	pb, err := os.ReadFile(dir + "tsc-rxjs-bundled.cpuprofile")
	if err != nil {
		tb.Skipf("corpus absent (../shared/corpus beside this repository): %v", err)
	}
	var prof struct {
		Nodes []struct {
			CallFrame struct {
				URL                      string
				LineNumber, ColumnNumber int
			}
		}
	}
	if err := json.Unmarshal(pb, &prof); err != nil {
		tb.Fatal(err)
	}
	seen := map[Query]bool{}
	var qs []Query
	for _, n := range prof.Nodes {
		if cf := n.CallFrame; strings.HasSuffix(cf.URL, "tsc.min.js") {
			q := Query{cf.LineNumber, cf.ColumnNumber}
			if !seen[q] {
				seen[q] = true
				qs = append(qs, q)
			}
		}
	}
	return data, qs
}

func TestLargeMapAgainstTable(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	data, qs := tscQueries(t)
	m, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Names) != 18070 || len(m.Sources) != 1 {
		t.Errorf("%d names, %d sources", len(m.Names), len(m.Sources))
	}
	// The table, by line, each sorted stably by column: a second,
	// independent reference (binary search in sorted segments).
	byLine := map[int][]refSeg{}
	for _, s := range decodeAll(m) {
		byLine[s.GenLine] = append(byLine[s.GenLine], s)
	}
	for _, segs := range byLine {
		slices.SortStableFunc(segs, func(a, b refSeg) int { return a.GenColumn - b.GenColumn })
	}
	got := m.Lookup(qs)
	mapped := 0
	for i, q := range qs {
		want := refLookupSorted(byLine[q.Line], q)
		if g, w := fmtAnswer(got[i]), fmtAnswer(want); g != w {
			t.Fatalf("query %+v:\n got %s\nwant %s", q, g, w)
		}
		if got[i].Exact != nil || got[i].Before != nil {
			mapped++
		}
	}
	t.Logf("%d queries, %d with a mapping at or before them", len(qs), mapped)
	if _, ok := m.SourceContent(0); !ok {
		t.Error("no sourcesContent")
	}
}

func BenchmarkLookupLargeMap(b *testing.B) {
	data, qs := tscQueries(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		m, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		if a := m.Lookup(qs); len(a) != len(qs) {
			b.Fatal("short answer")
		}
	}
	b.ReportMetric(float64(len(qs)), "queries")
}
