package diff

import (
	"cmp"
	"math"
	"slices"
)

// This file is the model of a function's annotated source that every
// renderer reads (the text listing of --source, the explorer's source
// pane, the HTML page): the two builds' texts aligned as a line diff when
// they differ, each row with its own side's per-line times and a judged
// change, so that none of them aligns or judges lines on its own.

// SourceOp says which builds' text holds a source row.
type SourceOp uint8

// The ops of a source row.
const (
	SourceSame    SourceOp = iota // in both builds' text (perhaps at other line numbers)
	SourceRemoved                 // only in the before build's text
	SourceAdded                   // only in the after build's text
)

// Mark returns the op as a line diff marks it: ' ', '-' or '+'.
func (o SourceOp) Mark() byte { return " -+"[o] }

// SourceRow is one row of a function's annotated source.
type SourceRow struct {
	// Line is the row's line in the before and in the after text
	// (1-based), 0 where that text has no such line. Without alignment
	// both are the same line.
	Line [2]int32
	Op   SourceOp
	// Text is the line as in the file ("" when the text is not at hand).
	Text string
	// Time is the per-line time of the before line (Time[0]) and of the
	// after line (Time[1]): the same LineTime when the line kept its
	// number; when it moved, or only one build has it, each side's own
	// line's where it has time on that side, else nil. Read side 0's
	// values from Time[0] and the last side's from Time[1].
	Time [2]*LineTime
	// Self and Total compare the row's before and after times with two
	// sides: for a line that kept its number, its LineTime's changes; for
	// a line that moved (the same text at other numbers), a change judged
	// on the pair, each side's runs of its own line, corrected as the
	// lines are (see Report.SourceListing). Verdict is VerdictNone where
	// nothing is compared: one side, a row only one build has, a row
	// without time, or Total without Report.LineTotals.
	Self, Total Change
}

// Moved reports whether the row is one line of both texts at different
// numbers.
func (r *SourceRow) Moved() bool {
	return r.Op == SourceSame && r.Line[0] != r.Line[1] && r.Line[0] > 0 && r.Line[1] > 0
}

// SourceText is a file's text in the before and the after build, aligned
// once as a line diff when they differ, and shared by the listings of the
// functions in the file (a file of thousands of functions is aligned
// once, and no listing copies it).
type SourceText struct {
	rows    []textRow
	aligned bool
	// rowOf maps each side's line to its row + 1 (0: none), when aligned.
	rowOf [2][]int32
}

// textRow is a row of a SourceText: its line in each text, op and text.
type textRow struct {
	line [2]int32
	op   SourceOp
	text string
}

// NewSourceText aligns a file's before and after texts, split into lines
// (either nil where not at hand: the other stands for both); nil when
// neither is at hand. When both are and differ they are aligned as a line
// diff (AlignLines); when they are too far apart to align cheaply, the
// after text alone is kept.
func NewSourceText(before, after []string) *SourceText {
	if before == nil {
		before = after
	}
	if after == nil {
		after = before
	}
	if after == nil {
		return nil
	}
	t := &SourceText{}
	if !slices.Equal(before, after) {
		if rows := AlignLines(before, after); rows != nil {
			t.aligned = true
			t.rows = make([]textRow, len(rows))
			t.rowOf = [2][]int32{make([]int32, len(before)+1), make([]int32, len(after)+1)}
			for i, r := range rows {
				t.rows[i] = textRow{line: r.Line, op: r.Op, text: r.Text}
				for si := range 2 {
					if r.Line[si] > 0 {
						t.rowOf[si][r.Line[si]] = int32(i + 1)
					}
				}
			}
			return t
		}
	}
	t.rows = make([]textRow, len(after))
	for i, text := range after {
		t.rows[i] = textRow{line: [2]int32{int32(i + 1), int32(i + 1)}, text: text}
	}
	return t
}

// Aligned reports whether the texts differ and are aligned as a line
// diff.
func (t *SourceText) Aligned() bool { return t != nil && t.aligned }

// row returns the row (0-based) of side si's line, -1 for none.
func (t *SourceText) row(si int, line int32) int {
	if t.aligned {
		if line > 0 && int(line) < len(t.rowOf[si]) {
			return int(t.rowOf[si][line]) - 1
		}
		return -1
	}
	if line > 0 && int(line) <= len(t.rows) {
		return int(line) - 1
	}
	return -1
}

// SourceListing is a function's annotated source: the rows of its file's
// text (both builds' aligned when they differ; see SourceText), or,
// without the text, the lines with time alone; each row read with Row.
type SourceListing struct {
	// Aligned says the two builds' texts differ and the rows are their
	// line diff; otherwise they are one text's lines (the after build's
	// when both are at hand), Line[0] == Line[1].
	Aligned bool
	// HasText says the rows carry the text; false: no text was at hand,
	// and the rows are the lines with time only.
	HasText bool
	// Unattributed is the function's time on no recorded line, nil when
	// there is none.
	Unattributed *LineTime
	// Lines are the function's lines in Report.Lines (line 0 first when
	// there is one).
	Lines []LineTime
	// Outside are the function's lines with time that its side's text
	// does not have (past its end), in line order: V8 records the ticks
	// of code it inlined from another script on that script's lines
	// (measured: a src/handlers.js function of the corpus's workload with
	// time on "lines" 1304 and 11432). Read them with OutsideRow.
	Outside []*LineTime

	r      *Report
	rows   []textRow // the text's rows, or the lines with time
	byLine map[int32]*LineTime
	hot    []int // the rows with time, in order
}

// Len returns how many rows the listing has.
func (l *SourceListing) Len() int { return len(l.rows) }

// HotRows returns the rows with time on a side shown (the first or the
// last), in order.
func (l *SourceListing) HotRows() []int { return l.hot }

// Hot reports whether row i has time on a side shown.
func (l *SourceListing) Hot(i int) bool {
	_, ok := slices.BinarySearch(l.hot, i)
	return ok
}

// Span returns the rows a listing of the function shows: from its first
// line (start, when it lies at most maxLead rows above the first row with
// time; else context rows above that row) to context rows below the last
// row with time; first < 0 when no row has time.
func (l *SourceListing) Span(start int32, context int) (first, last int) {
	const maxLead = 200
	if len(l.hot) == 0 {
		return -1, -1
	}
	first, last = l.hot[0], l.hot[len(l.hot)-1]
	found := false
	if start > 0 {
		for i := first; i >= 0 && i >= first-maxLead; i-- {
			if r := &l.rows[i]; r.line[0] == start || r.line[1] == start {
				first, found = i, true
				break
			}
		}
	}
	if !found {
		first = max(0, first-context)
	}
	return first, min(len(l.rows)-1, last+context)
}

// has reports whether lt has time on side si.
func (l *SourceListing) has(lt *LineTime, si int) bool {
	return lt != nil && (lt.Self.Mean[si] > 0 || (l.r.LineTotals && lt.Total.Mean != nil && lt.Total.Mean[si] > 0))
}

// Row returns row i with its times and judged changes.
func (l *SourceListing) Row(i int) SourceRow {
	tr := &l.rows[i]
	row := SourceRow{Line: tr.line, Op: tr.op, Text: tr.text, Self: noChange(), Total: noChange()}
	last := len(l.r.Sides) - 1
	if row.Line[0] == row.Line[1] {
		row.Time[0] = l.byLine[row.Line[0]]
		row.Time[1] = row.Time[0]
	} else {
		// A moved, removed or added line: each side's time from its own
		// line, where it has any.
		if lt := l.byLine[row.Line[0]]; row.Line[0] > 0 && l.has(lt, 0) {
			row.Time[0] = lt
		}
		if lt := l.byLine[row.Line[1]]; row.Line[1] > 0 && l.has(lt, last) {
			row.Time[1] = lt
		}
	}
	r := l.r
	switch {
	case len(r.Sides) != 2 || row.Op != SourceSame || (row.Time[0] == nil && row.Time[1] == nil):
	case row.Time[0] == row.Time[1]:
		row.Self = row.Time[0].Self.Change
		if r.LineTotals {
			row.Total = row.Time[0].Total.Change
		}
	case r.lineJudge != nil:
		row.Self = r.lineJudge.pair(row.Time, func(lt *LineTime) *Measure { return &lt.Self }, r.lineJudge.selfTests)
		if r.LineTotals {
			row.Total = r.lineJudge.pair(row.Time, func(lt *LineTime) *Measure { return &lt.Total }, r.lineJudge.totalTests)
		}
	}
	return row
}

// FunctionLines returns function fn's lines in r.Lines (ordered by line,
// line 0, the unattributed rest, first).
func (r *Report) FunctionLines(fn int32) []LineTime {
	lo, _ := slices.BinarySearchFunc(r.Lines, fn, func(l LineTime, fn int32) int { return cmp.Compare(l.Function, fn) })
	hi := lo
	for hi < len(r.Lines) && r.Lines[hi].Function == fn {
		hi++
	}
	return r.Lines[lo:hi]
}

// maxAlign bounds the cells of the table the line diff fills.
const maxAlign = 4 << 20

// SourceListing returns function fn's annotated source over its file's
// text t (NewSourceText of the first and the last side's texts; nil when
// not at hand). A row whose line moved between the builds is judged on the
// pair of lines: the before line's runs on the first side against the
// after line's on the second, Bonferroni-corrected over the lines the
// comparison tested (at least as strict as the Holm correction the lines
// that kept their numbers got). It costs the function's lines, not the
// file's.
func (r *Report) SourceListing(fn int32, t *SourceText) SourceListing {
	lines := r.FunctionLines(fn)
	l := SourceListing{Lines: lines, r: r, byLine: make(map[int32]*LineTime, len(lines))}
	for i := range lines {
		if lines[i].Line == 0 {
			l.Unattributed = &lines[i]
		} else {
			l.byLine[lines[i].Line] = &lines[i]
		}
	}
	last := len(r.Sides) - 1
	if t == nil {
		for i := range lines {
			if n := lines[i].Line; n > 0 && (l.has(&lines[i], 0) || l.has(&lines[i], last)) {
				l.rows = append(l.rows, textRow{line: [2]int32{n, n}})
				l.hot = append(l.hot, len(l.rows)-1)
			}
		}
		return l
	}
	l.Aligned, l.HasText, l.rows = t.aligned, true, t.rows
	for i := range lines {
		if lines[i].Line == 0 {
			continue
		}
		if l.has(&lines[i], 0) {
			if row := t.row(0, lines[i].Line); row >= 0 {
				l.hot = append(l.hot, row)
			}
		}
		if l.has(&lines[i], last) {
			if row := t.row(1, lines[i].Line); row >= 0 {
				l.hot = append(l.hot, row)
			}
		}
	}
	slices.Sort(l.hot)
	l.hot = slices.Compact(l.hot)
	for i := range lines {
		n := lines[i].Line
		if n > 0 && ((l.has(&lines[i], 0) && t.row(0, n) < 0) || (l.has(&lines[i], last) && t.row(1, n) < 0)) {
			l.Outside = append(l.Outside, &lines[i])
		}
	}
	return l
}

// OutsideRow returns Outside[i] as a row: its line on both sides, no
// text, its times and changes.
func (l *SourceListing) OutsideRow(i int) SourceRow {
	lt := l.Outside[i]
	row := SourceRow{Line: [2]int32{lt.Line, lt.Line}, Time: [2]*LineTime{lt, lt}, Self: noChange(), Total: noChange()}
	if len(l.r.Sides) == 2 {
		row.Self = lt.Self.Change
		if l.r.LineTotals {
			row.Total = lt.Total.Change
		}
	}
	return row
}

// OutsideNote is what the listings say of a line past the end of the
// text (SourceListing.Outside).
const OutsideNote = "(past the end of the text: V8 puts code it inlined from another script on that script's lines)"

// noChange is a change that compared nothing.
func noChange() Change {
	return Change{DeltaPP: math.NaN(), DeltaPct: math.NaN(), P: math.NaN()}
}

// AlignLines returns the rows of a line diff of a (the before text) and b
// (the after text): common lines with both line numbers, lines of a only
// (SourceRemoved) and of b only (SourceAdded), without times. The common
// prefix and suffix are matched first; the rest by the longest common
// subsequence, when small enough (maxAlign cells), else nil.
func AlignLines(a, b []string) []SourceRow {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if (len(ma)+1)*(len(mb)+1) > maxAlign {
		return nil
	}
	// lcs[i][j]: the longest common subsequence of ma[i:] and mb[j:].
	n := len(mb) + 1
	lcs := make([]int32, (len(ma)+1)*n)
	for i := len(ma) - 1; i >= 0; i-- {
		for j := len(mb) - 1; j >= 0; j-- {
			if ma[i] == mb[j] {
				lcs[i*n+j] = lcs[(i+1)*n+j+1] + 1
			} else {
				lcs[i*n+j] = max(lcs[(i+1)*n+j], lcs[i*n+j+1])
			}
		}
	}
	rows := make([]SourceRow, 0, len(a)+len(b)-pre-suf)
	for i := range pre {
		rows = append(rows, SourceRow{Line: [2]int32{int32(i + 1), int32(i + 1)}, Text: a[i]})
	}
	i, j := 0, 0
	for i < len(ma) || j < len(mb) {
		switch {
		case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
			rows = append(rows, SourceRow{Line: [2]int32{int32(pre + i + 1), int32(pre + j + 1)}, Text: ma[i]})
			i++
			j++
		case j == len(mb) || (i < len(ma) && lcs[(i+1)*n+j] >= lcs[i*n+j+1]):
			rows = append(rows, SourceRow{Line: [2]int32{int32(pre + i + 1), 0}, Op: SourceRemoved, Text: ma[i]})
			i++
		default:
			rows = append(rows, SourceRow{Line: [2]int32{0, int32(pre + j + 1)}, Op: SourceAdded, Text: mb[j]})
			j++
		}
	}
	for s := range suf {
		ia, ib := len(a)-suf+s, len(b)-suf+s
		rows = append(rows, SourceRow{Line: [2]int32{int32(ia + 1), int32(ib + 1)}, Text: a[ia]})
	}
	return rows
}

// lineJudge is what judging a pair of lines after the comparison needs:
// the comparison's options, units and on-CPU times, and how many lines it
// tested (the correction's size).
type lineJudge struct {
	c                     comparison // opts, scale, interval, onCPU only
	selfTests, totalTests int
	runs                  [2]int
}

// newLineJudge keeps what judging lines needs of c, for tests lines
// tested.
func newLineJudge(c *comparison, selfTests, totalTests int) *lineJudge {
	j := &lineJudge{c: comparison{opts: c.opts, scale: c.scale, interval: c.interval, onCPU: c.onCPU}, selfTests: selfTests, totalTests: totalTests}
	for si := range 2 {
		j.runs[si] = len(c.sides[si].Tables)
	}
	return j
}

// pair judges the before line's measure (lt[0], first side) against the
// after line's (lt[1], second side), either nil for no time.
func (j *lineJudge) pair(lt [2]*LineTime, of func(*LineTime) *Measure, tests int) Change {
	m := Measure{Mean: make([]float64, 2), Runs: make([][]float64, 2)}
	for si := range 2 {
		if lt[si] != nil && of(lt[si]).Runs != nil {
			m.Runs[si] = of(lt[si]).Runs[si]
		} else {
			m.Runs[si] = make([]float64, j.runs[si])
		}
		m.Mean[si] = mean(m.Runs[si])
	}
	if m.Mean[0] == 0 && m.Mean[1] == 0 {
		return noChange()
	}
	c := &j.c
	p := math.NaN()
	if c.eligible(&m) {
		p = math.Min(1, c.pValue(&m, true)*float64(max(tests, 1)))
	}
	return c.judge(&m, p)
}
