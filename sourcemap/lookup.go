package sourcemap

import "slices"

// slot is the best segment found so far for some role, in absolute
// generated coordinates and Map-wide indexes.
type slot struct {
	ok                          bool
	col                         int
	src, oline, ocol, name, sec int
}

// lookupPlan is a batch of queries ordered for one pass: each distinct line
// gets an index li, and each distinct known column on it an index into cols.
type lookupPlan struct {
	lines    []int   // distinct requested lines, ascending
	colStart []int   // cols[colStart[li]:colStart[li+1]] are line li's columns
	cols     []int   // distinct known columns per line, ascending
	qLine    []int32 // per query: its line's index
	qCol     []int32 // per query: its column's index, -1 for an unknown column
}

// lookupSlots are the slots one pass fills: per line the first mapping, and
// per column the exact mapping and the greatest one in the gap below it
// (gap[j]: cols[j-1] <= col < cols[j]).
type lookupSlots struct {
	first, exact, gap []slot
}

// Lookup answers a batch of queries in one streaming pass over the mappings,
// in the order given. Queries may come in any order and may repeat.
//
// No table of mappings is built, not even for the requested lines: for each
// distinct requested line it keeps the first mapping, and for each distinct
// column asked on it the exact mapping and the best mapping in the gap below
// it, so memory is O(len(qs)) whatever the size of the map. Unrequested
// lines are skipped by jumping to checkpoints recorded by Parse.
//
// For an index map the generated line is that of the whole file: a line
// shared by several sections sees the mappings of all of them (the spec
// flattens sections into one list of mappings).
func (m *Map) Lookup(qs []Query) []Answer {
	if len(qs) == 0 {
		return make([]Answer, 0)
	}
	plan := planLookup(qs)
	sl := lookupSlots{
		first: make([]slot, len(plan.lines)),
		exact: make([]slot, len(plan.cols)),
		gap:   make([]slot, len(plan.cols)),
	}
	for si := range m.sections {
		m.scanSection(si, &plan, &sl)
	}
	// Before(cols[j]) is the best gap at or below j.
	for li := range plan.lines {
		gp := sl.gap[plan.colStart[li]:plan.colStart[li+1]]
		for j := 1; j < len(gp); j++ {
			if !gp[j].ok {
				gp[j] = gp[j-1]
			}
		}
	}
	return m.answers(qs, &plan, &sl)
}

// planLookup orders the queries by (line, column) and indexes their
// distinct lines and columns.
func planLookup(qs []Query) lookupPlan {
	order := make([]int32, 0, len(qs))
	for i, q := range qs {
		if q.Line >= 0 {
			order = append(order, int32(i))
		}
	}
	slices.SortFunc(order, func(a, b int32) int {
		qa, qb := qs[a], qs[b]
		if qa.Line != qb.Line {
			return cmpInt(qa.Line, qb.Line)
		}
		return cmpInt(qa.Column, qb.Column)
	})
	p := lookupPlan{qLine: make([]int32, len(qs)), qCol: make([]int32, len(qs))}
	for _, i := range order {
		q := qs[i]
		if len(p.lines) == 0 || p.lines[len(p.lines)-1] != q.Line {
			p.lines = append(p.lines, q.Line)
			p.colStart = append(p.colStart, len(p.cols))
		}
		p.qLine[i] = int32(len(p.lines) - 1)
		p.qCol[i] = -1
		if q.Column >= 0 {
			if len(p.cols) == p.colStart[len(p.colStart)-1] || p.cols[len(p.cols)-1] != q.Column {
				p.cols = append(p.cols, q.Column)
			}
			p.qCol[i] = int32(len(p.cols) - 1)
		}
	}
	p.colStart = append(p.colStart, len(p.cols))
	return p
}

// scanSection decodes the requested lines of section si into the slots.
func (m *Map) scanSection(si int, plan *lookupPlan, sl *lookupSlots) {
	sec := &m.sections[si]
	// The requested lines this section can have mappings on.
	lo, _ := slices.BinarySearch(plan.lines, sec.line)
	hi, _ := slices.BinarySearch(plan.lines, sec.line+sec.lines)
	d := decoder{s: sec.mappings, nsrc: int64(sec.nsrc), nname: int64(sec.nname)}
	for li := lo; li < hi; li++ {
		rel := plan.lines[li] - sec.line
		if !d.seekLine(sec, rel) {
			return
		}
		colAdj := 0
		if rel == 0 {
			colAdj = sec.col
		}
		if !d.scanLine(si, colAdj, plan, sl, li) {
			return
		}
	}
}

// seekLine moves d to the start of section-relative line rel, jumping to
// the last checkpoint at or before it when that is ahead. It reports false
// at the end of the mappings or on an error.
func (d *decoder) seekLine(sec *section, rel int) bool {
	if k, _ := slices.BinarySearchFunc(sec.checkpoints, rel+1, func(c checkpoint, t int) int {
		return cmpInt(c.line, t)
	}); k > 0 {
		if cp := sec.checkpoints[k-1]; cp.line > d.line {
			d.pos, d.line, d.col, d.needSeg = cp.pos, cp.line, 0, false
			d.lastSrc, d.lastOline, d.lastOcol, d.lastName = cp.src, cp.oline, cp.ocol, cp.name
		}
	}
	for d.line < rel {
		if st := d.next(); st == stEnd || st == stErr {
			return false
		}
	}
	return true
}

// scanLine decodes the segments of line li (of section si, whose columns
// shift by colAdj) into the slots. It reports false when the mappings end
// or fail before the line does.
func (d *decoder) scanLine(si, colAdj int, plan *lookupPlan, sl *lookupSlots, li int) bool {
	qc := plan.cols[plan.colStart[li]:plan.colStart[li+1]]
	ex := sl.exact[plan.colStart[li]:plan.colStart[li+1]]
	gp := sl.gap[plan.colStart[li]:plan.colStart[li+1]]
	fs := &sl.first[li]
	hint := 0
	for {
		st := d.next()
		if st == stLineEnd {
			return true
		}
		if st != stSeg {
			return false
		}
		c := int(d.col) + colAdj
		s := slot{ok: true, col: c, src: int(d.src), oline: int(d.oline), ocol: int(d.ocol), name: int(d.name), sec: si}
		if !fs.ok || c <= fs.col {
			*fs = s
		}
		if len(qc) == 0 {
			continue
		}
		// idx = the first query column >= c; segments are usually
		// sorted, so try the previous answer and the next first.
		var idx int
		switch {
		case hint < len(qc) && qc[hint] >= c && (hint == 0 || qc[hint-1] < c):
			idx = hint
		case hint+1 < len(qc) && qc[hint+1] >= c && qc[hint] < c:
			idx = hint + 1
		case c > qc[len(qc)-1]:
			idx = len(qc)
		default:
			idx, _ = slices.BinarySearch(qc, c)
		}
		hint = idx
		g := idx
		if idx < len(qc) && qc[idx] == c {
			ex[idx] = s
			g = idx + 1
		}
		if g < len(qc) && (!gp[g].ok || c >= gp[g].col) {
			gp[g] = s
		}
	}
}

// answers turns the filled slots into each query's Answer.
func (m *Map) answers(qs []Query, plan *lookupPlan, sl *lookupSlots) []Answer {
	ans := make([]Answer, len(qs))
	n := 0
	for i := range qs {
		if qs[i].Line >= 0 {
			n++
		}
	}
	buf := make([]Position, 0, 3*n)
	pos := func(line int, s *slot) *Position {
		if !s.ok {
			return nil
		}
		buf = append(buf, m.position(line, s))
		return &buf[len(buf)-1]
	}
	for i, q := range qs {
		if q.Line < 0 {
			continue
		}
		a := &ans[i]
		a.First = pos(q.Line, &sl.first[plan.qLine[i]])
		if j := plan.qCol[i]; j >= 0 {
			a.Exact = pos(q.Line, &sl.exact[j])
			a.Before = pos(q.Line, &sl.gap[j])
		}
	}
	return ans
}

// position is the Position of the segment in s, found on generated line.
func (m *Map) position(line int, s *slot) Position {
	p := Position{GenLine: line, GenColumn: s.col, Source: -1, Line: 0, Column: 0, Name: -1}
	sec := &m.sections[s.sec]
	if s.src >= 0 {
		p.Source = sec.srcBase + s.src
		p.Line, p.Column = s.oline, s.ocol
	}
	if s.name >= 0 {
		p.Name = sec.nameBase + s.name
	}
	return p
}
