package diff

import (
	"cmp"
	"slices"

	"github.com/profdiff/profdiff/analyze"
)

// lines fills r.Lines, r.LineTotals and r.BundledLines.
func (c *comparison) lines(r *Report) {
	for _, s := range c.sides {
		for _, t := range s.Tables {
			for _, b := range t.BundledLines {
				if fn, ok := c.fnIndex[b.Function]; ok {
					if r.BundledLines == nil {
						r.BundledLines = map[int32]bool{}
					}
					r.BundledLines[fn] = r.BundledLines[fn] || b.Minified
				}
			}
		}
	}
	r.Lines, r.LineTotals = c.joinLines(r.Functions)
	r.LinesBeforeStart = c.linesBeforeStart()
	if len(c.sides) == 2 && len(r.Lines) > 0 {
		self, total := 0, 0
		for i := range r.Lines {
			if c.eligible(&r.Lines[i].Self) {
				self++
			}
			if r.LineTotals && c.eligible(&r.Lines[i].Total) {
				total++
			}
		}
		r.lineJudge = newLineJudge(c, self, total)
	}
}

// linesBeforeStart sums, per function row, every run's self time on lines
// before the function's first line as that run records it (each side's
// own start: an edit above the function moves it); nil when there is none.
func (c *comparison) linesBeforeStart() map[int32]Measure {
	type early struct {
		fn int32
		m  Measure
	}
	keysOf := func(int, int) func(analyze.LineTime) (int32, int64, bool) {
		return func(lt analyze.LineTime) (int32, int64, bool) {
			fn, ok := c.fnIndex[lt.Function]
			return fn, lt.Self, ok && lt.Line > 0 && lt.Line < lt.Function.Line
		}
	}
	sums := sumByKey(c, func(t *analyze.Table) []analyze.LineTime { return t.Lines }, keysOf,
		func(fn int32, m Measure) early { return early{fn, m} }, func(e *early) *Measure { return &e.m })
	if len(sums) == 0 {
		return nil
	}
	out := make(map[int32]Measure, len(sums))
	for _, e := range sums {
		out[e.fn] = e.m
	}
	return out
}

// joinLines joins every run's per-line self and total times by function
// row and line, ordered by function and line, and with two sides judges
// them as the functions are judged (each line's self and total, corrected
// over the lines). It reports whether the lines carry totals: every run's
// table says so.
func (c *comparison) joinLines(functions []Row) ([]LineTime, bool) {
	type fl struct{ fn, line int32 }
	totals, any := true, false
	for _, s := range c.sides {
		for _, t := range s.Tables {
			any = any || len(t.Lines) > 0
			totals = totals && t.LineTotals
		}
	}
	if !any {
		return nil, false
	}
	keysOf := func(total bool) func(int, int) func(analyze.LineTime) (fl, int64, bool) {
		return func(int, int) func(analyze.LineTime) (fl, int64, bool) {
			return func(lt analyze.LineTime) (fl, int64, bool) {
				fn, ok := c.fnIndex[lt.Function]
				if total {
					return fl{fn, lt.Line}, lt.Total, ok
				}
				return fl{fn, lt.Line}, lt.Self, ok
			}
		}
	}
	part := func(t *analyze.Table) []analyze.LineTime { return t.Lines }
	newOut := func(k fl, m Measure) LineTime { return LineTime{Function: k.fn, Line: k.line, Self: m} }
	out := sumByKey(c, part, keysOf(false), newOut, func(l *LineTime) *Measure { return &l.Self })
	if totals {
		byKey := make(map[fl]int, len(out))
		for i, l := range out {
			byKey[fl{l.Function, l.Line}] = i
		}
		alloc := newMeasureBlocks(c)
		for _, t := range sumByKey(c, part, keysOf(true), newOut, func(l *LineTime) *Measure { return &l.Self }) {
			i, ok := byKey[fl{t.Function, t.Line}]
			if !ok {
				i = len(out)
				self := alloc.next()
				c.finish(&self)
				out = append(out, LineTime{Function: t.Function, Line: t.Line, Self: self})
			}
			out[i].Total = t.Self
		}
		for i := range out {
			if out[i].Total.Mean == nil {
				out[i].Total = alloc.next()
				c.finish(&out[i].Total)
			}
		}
	}
	out = c.unattributed(out, functions, totals)
	slices.SortFunc(out, func(a, b LineTime) int {
		if d := cmp.Compare(a.Function, b.Function); d != 0 {
			return d
		}
		return cmp.Compare(a.Line, b.Line)
	})
	if len(c.sides) == 2 {
		c.judgeLines(out, totals)
	}
	return out, totals
}

// unattributed sets, for every function with lines, its unattributed line
// (line 0) in each run to what its lines leave of its self time in that
// run, adding the line where it is missing, so that lines plus unattributed
// equal self for every function in every run. A run reads lines only for
// the functions whose nodes recorded some (positionTicks), so a run in
// which none of a function's nodes did had neither lines nor an
// unattributed line for it: its self time was on no line at all
// (lodash's arrayEach in testdata's router before run: lines 0 ns, self
// 0.787 ms, while the after run has its lines). The unattributed time's total, where lines carry totals, is its
// self time, as for the nodes that recorded no line.
func (c *comparison) unattributed(out []LineTime, functions []Row, totals bool) []LineTime {
	type fnLines struct {
		zero int         // out's line 0 of the function, or -1
		sum  [][]float64 // per side and run, its lines' self time
	}
	byFn := map[int32]*fnLines{}
	var order []int32 // functions in the order met, for deterministic appends
	for i, l := range out {
		a := byFn[l.Function]
		if a == nil {
			a = &fnLines{zero: -1, sum: make([][]float64, len(c.sides))}
			for si, s := range c.sides {
				a.sum[si] = make([]float64, len(s.Tables))
			}
			byFn[l.Function] = a
			order = append(order, l.Function)
		}
		if l.Line == 0 {
			a.zero = i
			continue
		}
		for si, runs := range l.Self.Runs {
			for ri, v := range runs {
				a.sum[si][ri] += v
			}
		}
	}
	alloc := newMeasureBlocks(c)
	for _, fn := range order {
		a, self := byFn[fn], functions[fn].Self.Runs
		left := make([][]float64, len(c.sides))
		any := false
		for si := range self {
			left[si] = make([]float64, len(self[si]))
			for ri, v := range self[si] {
				// The parts were split exactly from integer times: what
				// is below half a nanosecond is rounding.
				if d := v - a.sum[si][ri]; d > 0.5*c.scale[si] {
					left[si][ri], any = d, true
				}
			}
		}
		if a.zero < 0 {
			if !any {
				continue
			}
			l := LineTime{Function: fn, Line: 0, Self: alloc.next()}
			if totals {
				l.Total = alloc.next()
			}
			a.zero = len(out)
			out = append(out, l)
		}
		z := &out[a.zero]
		for si := range left {
			for ri, v := range left[si] {
				if totals && z.Self.Runs[si][ri] == 0 {
					z.Total.Runs[si][ri] += v // a run that had no unattributed line
				}
				z.Self.Runs[si][ri] = v
			}
		}
		c.finish(&z.Self)
		if totals {
			c.finish(&z.Total)
		}
	}
	return out
}

// judgeLines judges the lines' self times (and totals when there are),
// each a set corrected over the lines, with the prior of functions' time.
func (c *comparison) judgeLines(lines []LineTime, totals bool) {
	self, total := make([]*Measure, len(lines)), make([]*Measure, len(lines))
	for i := range lines {
		self[i], total[i] = &lines[i].Self, &lines[i].Total
	}
	has := func(ms []*Measure) func(i int) (bool, bool) {
		return func(i int) (bool, bool) { return ms[i].Mean[0] > 0, ms[i].Mean[1] > 0 }
	}
	c.judgeSet(self, has(self), func(i int) bool { return c.eligible(self[i]) }, true, 1)
	if totals {
		c.judgeSet(total, has(total), func(i int) bool { return c.eligible(total[i]) }, true, 1)
	}
}
