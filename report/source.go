package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
)

// MinifiedLinesNote is what the annotated source says of a function whose
// lines were recorded in a minified bundle.
const MinifiedLinesNote = "the bundle is minified: lines are not recorded finely enough; build with a non-minified bundle or record unbundled"

// BundledLinesNote is what the annotated source says of a function whose
// lines were recorded in a bundle that is not minified.
const BundledLinesNote = "lines were recorded in the bundle, and are not mapped to the original source"

// SourceOptions say which functions WriteSource annotates and where their
// source comes from.
type SourceOptions struct {
	// Match picks the functions by name (as pprof -list does).
	Match *regexp.Regexp
	// Source returns side si's text of a file, or why it is not read
	// ("" when it is simply not at hand). Nil: no text.
	Source func(side int, file string) (text, why string)
	// Context is how many lines to show around the lines with time.
	Context int
}

// ErrNoSourceMatch is WriteSource's error when no function matches.
type ErrNoSourceMatch struct{ Pattern string }

func (e ErrNoSourceMatch) Error() string {
	return fmt.Sprintf("--source %q: no function with time matches", e.Pattern)
}

// maxSourceFunctions bounds the functions WriteSource annotates.
const maxSourceFunctions = 50

// maxWhole is the most rows shown without eliding any.
const maxWhole = 80

// maxGap is the longest run of lines without time shown whole; longer
// runs are elided to one line.
const maxGap = 8

// WriteSource writes, for each function whose name matches, its source
// with the self and total time of each line on each side, as go tool pprof
// -list does; with two sides, the change of each line's self time and its
// verdict. When the function's text differs between the two sides (it was
// edited or moved), the two texts are aligned as a line diff: lines only
// before are marked "-", lines only after "+", each with its own side's
// times. Functions are in order of the last side's total time, heaviest
// first.
func WriteSource(w io.Writer, r *diff.Report, opts SourceOptions) error {
	bw := bufio.NewWriter(w)
	v := NewView(r)
	var fns []int32
	for i := range r.Functions {
		if opts.Match.MatchString(diff.FunctionName(r.Functions[i].Key)) {
			fns = append(fns, int32(i))
		}
	}
	last := len(r.Sides) - 1
	slices.SortStableFunc(fns, func(a, b int32) int {
		x, y := &r.Functions[a].Total, &r.Functions[b].Total
		return -cmpFloat(x.Mean[last]+x.Mean[0], y.Mean[last]+y.Mean[0])
	})
	fns = slices.DeleteFunc(fns, func(fn int32) bool { return zeroRow(&r.Functions[fn]) })
	if len(fns) == 0 {
		return ErrNoSourceMatch{opts.Match.String()}
	}
	more := 0
	if len(fns) > maxSourceFunctions {
		more, fns = len(fns)-maxSourceFunctions, fns[:maxSourceFunctions]
	}
	for i, fn := range fns {
		if i > 0 {
			fmt.Fprintln(bw)
		}
		writeFunctionSource(bw, v, fn, opts)
	}
	if more > 0 {
		fmt.Fprintf(bw, "\n(%d more functions match; narrow the expression)\n", more)
	}
	return bw.Flush()
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sourceRow is one row of an annotated listing: a line of each side (0
// where the side has none), a mark (' ', '-', '+') and the text.
type sourceRow struct {
	line [2]int32
	mark byte
	text string
	gap  int // an elided run of this many lines
}

// writeFunctionSource writes one function's annotated source.
func writeFunctionSource(w io.Writer, v *View, fn int32, opts SourceOptions) {
	r := v.Report()
	row := &r.Functions[fn]
	k := row.Key
	compared := len(r.Sides) == 2
	fmt.Fprintf(w, "ROUTINE %s  %s\n", v.Name(k), termtext.Clean(v.Location(k)))
	fmt.Fprintf(w, "  self %s, total %s\n", measureText(r, &row.Self), measureText(r, &row.Total))
	lo, hi := functionLineRange(r.Lines, fn)
	lines := r.Lines[lo:hi]
	byLine := map[int32]*diff.LineTime{}
	var unattributed *diff.LineTime
	for i := range lines {
		if lines[i].Line == 0 {
			unattributed = &lines[i]
		} else {
			byLine[lines[i].Line] = &lines[i]
		}
	}
	if len(byLine) == 0 {
		if minified, ok := r.BundledLines[fn]; ok {
			if minified {
				fmt.Fprintf(w, "  %s\n", MinifiedLinesNote)
			} else {
				fmt.Fprintf(w, "  %s\n", BundledLinesNote)
			}
		} else {
			fmt.Fprintln(w, "  "+noLinesNote(r, row))
		}
		return
	}
	// The texts of each side, and the region of each with time.
	var texts [2][]string
	var notes []string
	sides := min(len(r.Sides), 2)
	for si := range sides {
		side := si
		if si == 1 {
			side = len(r.Sides) - 1
		}
		if opts.Source == nil {
			continue
		}
		text, why := opts.Source(side, k.File)
		switch {
		case text != "":
			texts[si] = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		case why != "":
			notes = append(notes, termtext.Clean(why))
		}
	}
	if texts[0] == nil && texts[1] == nil {
		if len(notes) == 0 {
			notes = append(notes, termtext.Clean(k.File)+" is not at hand")
		}
	}
	for _, n := range slices.Compact(notes) {
		fmt.Fprintf(w, "  (source: %s)\n", n)
	}
	hot := func(si int) []int32 {
		var out []int32
		for _, l := range lines {
			if l.Line > 0 && (l.Self.Mean[si] > 0 || (r.LineTotals && l.Total.Mean[si] > 0)) {
				out = append(out, l.Line)
			}
		}
		return out
	}
	var rows []sourceRow
	edited := compared && texts[0] != nil && texts[1] != nil && !slices.Equal(texts[0], texts[1])
	if edited {
		rows = alignedRows(texts, [2][]int32{hot(0), hot(1)}, k.Line, opts.Context)
	}
	if rows == nil {
		edited = false
		text := texts[1]
		if text == nil {
			text = texts[0]
		}
		rows = plainRows(text, hot(0), hot(len(r.Sides)-1), k.Line, opts.Context)
	}
	writeSourceRows(w, r, rows, byLine, unattributed, edited)
}

// plainRows are the rows of one text, from the function's start (or its
// first line with time) to its last line with time, with context.
func plainRows(text []string, a, b []int32, start int32, context int) []sourceRow {
	hot := slices.Concat(a, b)
	slices.Sort(hot)
	hot = slices.Compact(hot)
	if len(hot) == 0 {
		return nil
	}
	lo, hi := hot[0], hot[len(hot)-1]
	if start > 0 && start <= lo && lo-start < 200 {
		lo = start // from the function's first line, as pprof -list
	} else {
		lo = max(1, lo-int32(context))
	}
	hi += int32(context)
	if text != nil {
		hi = min(hi, int32(len(text)))
		lo = min(lo, hi)
	} else {
		// Without the text, only the lines with time.
		var rows []sourceRow
		for _, l := range hot {
			rows = append(rows, sourceRow{line: [2]int32{l, l}, mark: ' '})
		}
		return rows
	}
	var rows []sourceRow
	for l := lo; l <= hi; l++ {
		rows = append(rows, sourceRow{line: [2]int32{l, l}, mark: ' ', text: text[l-1]})
	}
	return elide(rows, func(row sourceRow) bool { _, ok := slices.BinarySearch(hot, row.line[0]); return ok }, context)
}

// elide replaces runs of more than maxGap rows without time, beyond
// context rows from a row with time, by one gap row.
func elide(rows []sourceRow, hot func(sourceRow) bool, context int) []sourceRow {
	if len(rows) <= maxWhole {
		return rows
	}
	near := make([]bool, len(rows))
	near[0] = true // the function's first line
	for i, row := range rows {
		if hot(row) {
			for j := max(0, i-context); j <= min(len(rows)-1, i+context); j++ {
				near[j] = true
			}
		}
	}
	var out []sourceRow
	for i := 0; i < len(rows); {
		if near[i] {
			out = append(out, rows[i])
			i++
			continue
		}
		j := i
		for j < len(rows) && !near[j] {
			j++
		}
		if j-i > maxGap {
			out = append(out, sourceRow{gap: j - i})
		} else {
			out = append(out, rows[i:j]...)
		}
		i = j
	}
	return out
}

// alignedRows aligns the two texts (a line diff) and keeps the rows from
// the first to the last with time on either side, with context; nil when
// the texts are too far apart to align cheaply.
func alignedRows(texts [2][]string, hot [2][]int32, start int32, context int) []sourceRow {
	all := alignLines(texts[0], texts[1])
	if all == nil {
		return nil
	}
	isHot := func(row sourceRow) bool {
		for si := range 2 {
			if _, ok := slices.BinarySearch(hot[si], row.line[si]); ok && row.line[si] > 0 {
				return true
			}
		}
		return false
	}
	first, last := -1, -1
	for i, row := range all {
		if isHot(row) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return nil
	}
	found := false
	if start > 0 {
		for i := first; i >= 0 && i >= first-200; i-- {
			if all[i].line[0] == start || all[i].line[1] == start {
				first, found = i, true // from the function's first line, as pprof -list
				break
			}
		}
	}
	if !found {
		first = max(0, first-context)
	}
	last = min(len(all)-1, last+context)
	return elide(all[first:last+1], isHot, context)
}

// maxAlign bounds the cells of the table the line diff fills.
const maxAlign = 4 << 20

// alignLines returns the rows of a line diff of a and b: common lines
// with both line numbers, lines of a only ('-') and of b only ('+'). The
// common prefix and suffix are matched first; the rest by the longest
// common subsequence, when small enough, else nil.
func alignLines(a, b []string) []sourceRow {
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
	rows := make([]sourceRow, 0, len(a)+len(b)-pre-suf)
	for i := range pre {
		rows = append(rows, sourceRow{line: [2]int32{int32(i + 1), int32(i + 1)}, mark: ' ', text: a[i]})
	}
	i, j := 0, 0
	for i < len(ma) || j < len(mb) {
		switch {
		case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
			rows = append(rows, sourceRow{line: [2]int32{int32(pre + i + 1), int32(pre + j + 1)}, mark: ' ', text: ma[i]})
			i++
			j++
		case j == len(mb) || (i < len(ma) && lcs[(i+1)*n+j] >= lcs[i*n+j+1]):
			rows = append(rows, sourceRow{line: [2]int32{int32(pre + i + 1), 0}, mark: '-', text: ma[i]})
			i++
		default:
			rows = append(rows, sourceRow{line: [2]int32{0, int32(pre + j + 1)}, mark: '+', text: mb[j]})
			j++
		}
	}
	for s := range suf {
		ia, ib := len(a)-suf+s, len(b)-suf+s
		rows = append(rows, sourceRow{line: [2]int32{int32(ia + 1), int32(ib + 1)}, mark: ' ', text: a[ia]})
	}
	return rows
}

// writeSourceRows writes the rows as a table: the line number (two, before
// and after, when the texts are aligned), each side's self and total time,
// with two sides the change of self time and its verdict, and the text.
func writeSourceRows(w io.Writer, r *diff.Report, rows []sourceRow, byLine map[int32]*diff.LineTime, unattributed *diff.LineTime, edited bool) {
	compared := len(r.Sides) == 2
	var header []string
	if edited {
		header = append(header, "before", "after")
	} else {
		header = append(header, "line")
	}
	nums := len(header)
	for _, s := range r.Sides {
		name := ""
		if len(r.Sides) > 1 {
			name = " " + termtext.Fit(termtext.Clean(s.Name), 16, false)
		}
		header = append(header, "self"+name)
		if r.LineTotals {
			header = append(header, "total"+name)
		}
	}
	if compared {
		header = append(header, "Δ self", "verdict")
	}
	table := [][]string{header}
	var marks, texts []string
	dur := func(x float64) string {
		if x == 0 || math.IsNaN(x) {
			return "."
		}
		return units.Duration(x)
	}
	cellsOf := func(lt [2]*diff.LineTime, lineNums []string) []string {
		cells := lineNums
		for si := range r.Sides {
			l := lt[0]
			if si == len(r.Sides)-1 {
				l = lt[1]
			} else if si > 0 && lt[0] != lt[1] {
				l = nil
			}
			if l == nil {
				cells = append(cells, ".")
				if r.LineTotals {
					cells = append(cells, ".")
				}
				continue
			}
			cells = append(cells, dur(l.Self.Mean[si]))
			if r.LineTotals {
				cells = append(cells, dur(l.Total.Mean[si]))
			}
		}
		if compared {
			var before, after float64
			if lt[0] != nil {
				before = lt[0].Self.Mean[0]
			}
			if lt[1] != nil {
				after = lt[1].Self.Mean[1]
			}
			d, verdict := "", ""
			if before != 0 || after != 0 {
				d = units.SignedDuration(after - before)
			}
			if lt[0] != nil && lt[0] == lt[1] {
				verdict = lt[0].Self.Change.Verdict.String()
				if c := lt[0].Total.Change; r.LineTotals && !lt[0].Self.Change.Verdict.Real() && c.Verdict.Real() {
					verdict = c.Verdict.String() + " (total)"
				}
			}
			cells = append(cells, d, verdict)
		}
		return cells
	}
	num := func(l int32) string {
		if l == 0 {
			return ""
		}
		return fmt.Sprint(l)
	}
	for _, row := range rows {
		if row.gap > 0 {
			table = append(table, nil)
			marks = append(marks, " ")
			texts = append(texts, fmt.Sprintf("⋮ (%d lines)", row.gap))
			continue
		}
		lt := [2]*diff.LineTime{byLine[row.line[0]], byLine[row.line[1]]}
		var lineNums []string
		if edited {
			lineNums = []string{num(row.line[0]), num(row.line[1])}
		} else {
			lineNums = []string{num(row.line[0])}
		}
		if row.line[0] == 0 {
			lt[0] = nil
		}
		if row.line[1] == 0 {
			lt[1] = nil
		}
		table = append(table, cellsOf(lt, lineNums))
		marks = append(marks, string(row.mark))
		texts = append(texts, termtext.Clean(strings.ReplaceAll(row.text, "\t", "    ")))
	}
	if unattributed != nil {
		lineNums := []string{""}
		if edited {
			lineNums = append(lineNums, "")
		}
		table = append(table, cellsOf([2]*diff.LineTime{unattributed, unattributed}, lineNums))
		marks = append(marks, " ")
		texts = append(texts, "(unattributed: samples that recorded no line)")
	}
	widths := make([]int, len(header))
	for _, cells := range table {
		for i, c := range cells {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for ri, cells := range table {
		var b strings.Builder
		b.WriteString(" ")
		for i := range header {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			b.WriteString(" ")
			if i < nums || i < len(header)-1 || !compared {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad) // the verdict, left-aligned
			}
		}
		if ri == 0 {
			fmt.Fprintf(w, "%s\n", strings.TrimRight(b.String(), " "))
			continue
		}
		fmt.Fprintf(w, "%s\n", strings.TrimRight(b.String()+" "+marks[ri-1]+" "+texts[ri-1], " "))
	}
}

// measureText is a measure as "a -> b (change, verdict)" with two sides,
// each side's mean otherwise.
func measureText(r *diff.Report, m *diff.Measure) string {
	if len(r.Sides) == 2 {
		s := units.Duration(m.Mean[0]) + " -> " + units.Duration(m.Mean[1])
		if c := m.Change; !math.IsNaN(c.DeltaPct) {
			s += " (" + units.SignedPct(c.DeltaPct)
			if v := c.Verdict.String(); v != "" {
				s += ", " + v
			}
			s += ")"
		}
		return s
	}
	var parts []string
	for si := range r.Sides {
		parts = append(parts, units.Duration(m.Mean[si]))
	}
	return strings.Join(parts, " | ")
}

// noLinesNote says why a function has no per-line times.
func noLinesNote(r *diff.Report, row *diff.Row) string {
	self := false
	for si := range r.Sides {
		self = self || row.Self.Mean[si] > 0
	}
	if !self && !r.LineTotals {
		return "no per-line times: no self time, and the profile records the line only of the function on top of the stack"
	}
	return "no per-line times: no sample of this function recorded its line"
}
