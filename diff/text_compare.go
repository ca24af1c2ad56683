package diff

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/profdiff/profdiff/analyze"
)

// writeTextCompare writes a two-sided report: the broken rules, the
// headline with deltas, then packages and functions (and files) by the
// size of their change, each with its verdict and p-value.
func writeTextCompare(w io.Writer, r *Report, opts TextOptions) error {
	tw := &textWriter{w: w}
	for _, res := range r.Rules {
		if res.Broken {
			tw.printf("FAILED %s: %s\n", res.Rule.Text, strings.Join(res.Offenders, "; "))
		}
	}
	a, b := r.Sides[0], r.Sides[1]
	tw.printf("before: %s\n", describeSide(a))
	tw.printf("after:  %s\n", describeSide(b))
	tw.printf("\n")
	lines := headlineLines(r)
	tw.plainTable([]string{"", "before", "after", "delta"}, lines, 3, opts, true)

	metric := "self"
	if r.Options.SortTotal {
		metric = "total"
	}
	per := "per run"
	if a.Work > 0 && b.Work > 0 {
		per = "per " + r.Options.WorkUnit
	}
	cols := []string{"before", "after", "delta", "Δpp", "Δ%", "verdict", "p"}
	tables := []struct {
		what string
		rows []Row
		name func(Row) []string
		head []string
	}{
		{"packages", r.Packages, func(x Row) []string { return []string{fitName(x.Key.Package)} }, []string{"package"}},
		{"functions", r.Functions, func(x Row) []string {
			return []string{fitName(FunctionName(x.Key)), fitName(x.Key.Package), fitPath(Location(x.Key))}
		}, []string{"function", "package", "location"}},
	}
	if opts.Files {
		tables = append(tables, struct {
			what string
			rows []Row
			name func(Row) []string
			head []string
		}{"files", r.Files, func(x Row) []string { return []string{fitPath(FileName(x.Key)), fitName(x.Key.Package)} }, []string{"file", "package"}})
	}
	for _, t := range tables {
		tw.printf("\n%s by change in %s time (%s; %s)\n", capitalize(count(len(t.rows), opts.Top, t.what)), metric, per, legendShort)
		var body [][]string
		for _, row := range clip(t.rows, opts.Top) {
			body = append(body, append(changeCells(row, r), t.name(row)...))
		}
		tw.plainTable(append(cols, t.head...), body, 7, opts, false)
	}
	if len(r.Warnings) > 0 {
		tw.printf("\nWarnings:\n")
		for _, wn := range r.Warnings {
			tw.printf("  - %s\n", wn)
		}
	}
	return tw.err
}

const legendShort = "verdicts after Holm correction; ~ = within noise"

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// describeSide names a side's files and how many runs they are.
func describeSide(s SideSummary) string {
	files := s.Files
	if len(files) > 3 {
		files = append(files[:2:2], fmt.Sprintf("… %d more", len(s.Files)-2))
	}
	d := fmt.Sprintf("%s (%s", strings.Join(files, ", "), s.Format.Describe())
	if s.Runs > 1 {
		d += fmt.Sprintf(", %d runs", s.Runs)
	}
	if len(s.Threads) > 0 {
		d += ", " + s.Threads[0]
	}
	return d + ")"
}

// headlineLines are the rows of the two-sided headline.
func headlineLines(r *Report) [][]string {
	a, b := r.Sides[0], r.Sides[1]
	pct := func(part, whole int64) string {
		if whole == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(whole))
	}
	ppDelta := func(pa, wa, pb, wb int64) string {
		if wa == 0 || wb == 0 {
			return ""
		}
		return fmt.Sprintf("%+.1fpp", 100*(float64(pb)/float64(wb)-float64(pa)/float64(wa)))
	}
	lines := [][]string{
		{"runs", Count(int64(a.Runs)), Count(int64(b.Runs)), ""},
		{"wall / run", Duration(a.WallNs), Duration(b.WallNs), ""},
		{"on-CPU / run", Duration(a.OnCPUNs), Duration(b.OnCPUNs), headlineDelta(r.Headline.OnCPU)},
	}
	if r.Headline.PerWork.Verdict != VerdictNone {
		lines = append(lines, []string{"on-CPU / " + r.Options.WorkUnit, Duration(int64(a.OnCPUPerWork())), Duration(int64(b.OnCPUPerWork())), headlineDelta(r.Headline.PerWork)})
	}
	lines = append(lines,
		[]string{"busy", pct(a.OnCPUNs, a.SampledNs), pct(b.OnCPUNs, b.SampledNs), ppDelta(a.OnCPUNs, a.SampledNs, b.OnCPUNs, b.SampledNs)},
		[]string{"GC share", pct(a.GCNs, a.OnCPUNs), pct(b.GCNs, b.OnCPUNs), ppDelta(a.GCNs, a.OnCPUNs, b.GCNs, b.OnCPUNs)},
		[]string{"samples / run", Count(a.Samples), Count(b.Samples), ""},
		[]string{"mean interval", Duration(a.IntervalNs), Duration(b.IntervalNs), ""},
	)
	if mapped(a.Symbolication) || mapped(b.Symbolication) {
		lines = append(lines, []string{"maps", coverage(a.Symbolication), coverage(b.Symbolication), ""})
	}
	return lines
}

func mapped(s *analyze.Symbolication) bool { return s != nil && s.MappedScripts > 0 }

// coverage writes a side's source-map coverage: "99.6%", or "-".
func coverage(s *analyze.Symbolication) string {
	if s == nil || s.OnCPUJSNs == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(s.OnCPUMappedNs)/float64(s.OnCPUJSNs))
}

// headlineDelta writes a headline change: "-1.71 s -28.2% better p<0.001".
func headlineDelta(c Change) string {
	s := signedDuration(c.Delta)
	if !math.IsNaN(c.DeltaPct) {
		s += fmt.Sprintf(" %+.1f%%", c.DeltaPct)
	}
	p := FormatP(c.P)
	if !strings.HasPrefix(p, "<") {
		p = "=" + p
	}
	return s + " " + c.Verdict.String() + " p" + p
}

// changeCells are a row's before, after, delta, Δpp, Δ%, verdict and p.
func changeCells(row Row, r *Report) []string {
	total := r.Options.SortTotal
	c := row.Change
	pp, pct := "-", "-"
	if !math.IsNaN(c.DeltaPP) {
		pp = fmt.Sprintf("%+.1f", c.DeltaPP)
	}
	if !math.IsNaN(c.DeltaPct) {
		pct = fmt.Sprintf("%+.1f%%", c.DeltaPct)
	}
	return []string{rowValue(r, row, 0, total), rowValue(r, row, 1, total), signedDuration(c.Delta), pp, pct, c.Verdict.String(), FormatP(c.P)}
}

// rowValue is a row's metric on a side: per run, or per unit of work.
func rowValue(r *Report, row Row, side int, total bool) string {
	v := float64(metric(row, side, total))
	if s := r.Sides[side]; s.Work > 0 && r.Sides[1-side].Work > 0 {
		v /= s.Work
	}
	return Duration(int64(math.Round(v)))
}

func signedDuration(ns float64) string {
	if ns > 0 {
		return "+" + Duration(int64(math.Round(ns)))
	}
	return Duration(int64(math.Round(ns)))
}

// plainTable writes an aligned table whose first numeric columns align
// right (but for a first column of labels); verdict cells are coloured when
// asked.
func (t *textWriter) plainTable(header []string, rows [][]string, numeric int, opts TextOptions, labels bool) {
	if len(rows) == 0 {
		t.printf("  (no rows)\n")
		return
	}
	all := append([][]string{header}, rows...)
	width := make([]int, len(header))
	for _, line := range all {
		for i, c := range line {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	verdictCol := -1
	for i, h := range header {
		if h == "verdict" {
			verdictCol = i
		}
	}
	for li, line := range all {
		var b strings.Builder
		b.WriteString(" ")
		for i, c := range line {
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			b.WriteString(" ")
			cell := c
			if opts.Color && li > 0 && i == verdictCol {
				cell = colorVerdict(c)
			}
			switch {
			case labels && i == 0:
				b.WriteString(cell + pad)
			case i < numeric:
				b.WriteString(pad + cell)
			case i == len(line)-1:
				b.WriteString(cell)
			default:
				b.WriteString(cell + pad)
			}
		}
		t.printf("%s\n", strings.TrimRight(b.String(), " "))
	}
}

func colorVerdict(v string) string {
	switch v {
	case "better", "gone":
		return "\x1b[32m" + v + "\x1b[0m"
	case "worse", "new":
		return "\x1b[31m" + v + "\x1b[0m"
	case "~":
		return "\x1b[2m" + v + "\x1b[0m"
	}
	return v
}

// Cells returns a row's numeric cells as the text and markdown reports
// write them: before, after, delta, Δpp, Δ%, verdict and p when two sides
// are compared; self, self%, total and total% for one side.
func Cells(r *Report, row Row) []string {
	if r.Compared() {
		return changeCells(row, r)
	}
	return selfTotal(row, r.Sides[0].OnCPUNs)
}

// CellHeaders names the columns Cells returns.
func CellHeaders(r *Report) []string {
	if r.Compared() {
		return []string{"before", "after", "delta", "Δpp", "Δ%", "verdict", "p"}
	}
	return []string{"self", "self%", "total", "total%"}
}

// HeadlineLines returns the headline as the text report writes it: label,
// before, after and delta for two sides; label and value for one.
func HeadlineLines(r *Report) [][]string {
	if r.Compared() {
		return headlineLines(r)
	}
	s := r.Sides[0]
	pct := func(part, whole int64) string {
		if whole == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(whole))
	}
	lines := [][]string{
		{"wall", Duration(s.WallNs)},
		{"on-CPU", Duration(s.OnCPUNs)},
		{"busy", pct(s.OnCPUNs, s.SampledNs)},
		{"GC share", pct(s.GCNs, s.OnCPUNs)},
		{"samples", Count(s.Samples)},
	}
	if mapped(s.Symbolication) {
		lines = append(lines, []string{"maps", coverage(s.Symbolication)})
	}
	return lines
}

// FitName and FitPath cut names and locations in the middle to width
// runes, as the text report does.
func FitName(s string, width int) string { return cutMiddle(printable(elideShapes(s)), width, width/2) }

// FitPath keeps the tail of a path, where the file name is.
func FitPath(s string, width int) string { return cutMiddle(printable(s), width, width/4) }
