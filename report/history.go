package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/profdiff/profdiff/history"
	"github.com/profdiff/profdiff/internal/jsonwrite"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
)

// HistoryJSONVersion is the version of the history's JSON. Version 2
// added censoring: a series' mean is null where the commit's record had
// the row below its floor, and below_floor_ns holds that floor there;
// a change says before_below/after_below; a commit its floor_share; and
// the headlines are several (on-CPU, then process CPU when recorded).
const HistoryJSONVersion = 2

// belowMark is a sparkline's mark for a commit whose record had the row
// below its floor.
const belowMark = '·'

// sparkBars are the heights of a sparkline, lowest first.
var sparkBars = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws values as one bar each, scaled from the series' least
// to its greatest (all at the lowest bar when they are equal); a NaN is a
// space.
func Sparkline(values []float64) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	var b strings.Builder
	for _, v := range values {
		switch {
		case math.IsNaN(v):
			b.WriteRune(' ')
		case hi <= lo:
			b.WriteRune(sparkBars[0])
		default:
			b.WriteRune(sparkBars[int(math.Round((v-lo)/(hi-lo)*float64(len(sparkBars)-1)))])
		}
	}
	return b.String()
}

// sparkWidth is the most bars a history's sparkline has: a longer
// series is drawn a bar per sparkCommits(n) commits, so that a store of
// 2,000 commits still reads on one line.
const sparkWidth = 60

// sparkCommits is how many commits each bar of a sparkline of n commits
// stands for.
func sparkCommits(n int) int {
	return max(1, (n+sparkWidth-1)/sparkWidth)
}

// sparkSeries returns the series seriesOf draws: one value per
// sparkCommits(len(values)) commits, the mean of those measured there,
// below only where all were below.
func sparkSeries(values []float64, below []bool) ([]float64, []bool) {
	per := sparkCommits(len(values))
	if per == 1 {
		return values, below
	}
	var vs []float64
	var bs []bool
	for lo := 0; lo < len(values); lo += per {
		hi := min(lo+per, len(values))
		var sum float64
		n, under := 0, 0
		for i := lo; i < hi; i++ {
			switch {
			case below != nil && below[i]:
				under++
			case !math.IsNaN(values[i]):
				sum += values[i]
				n++
			}
		}
		v := math.NaN()
		if n > 0 {
			v = sum / float64(n)
		}
		vs = append(vs, v)
		bs = append(bs, n == 0 && under > 0)
	}
	if below == nil {
		bs = nil
	}
	return vs, bs
}

// SparklineBelow is Sparkline with the commits marked in below drawn as
// belowMark and left out of the scale (nil below: none); a series longer
// than sparkWidth is drawn a bar per sparkCommits commits.
func SparklineBelow(values []float64, below []bool) string {
	values, below = sparkSeries(values, below)
	if below == nil {
		return Sparkline(values)
	}
	vs := make([]float64, len(values))
	for i, v := range values {
		vs[i] = v
		if below[i] {
			vs[i] = math.NaN()
		}
	}
	out := []rune(Sparkline(vs))
	for i := range out {
		if below[i] {
			out[i] = belowMark
		}
	}
	return string(out)
}

// sparkScale says, for a history drawn a bar per several commits, how
// many: ", a bar per 34 commits"; "" when a bar is a commit.
func sparkScale(res *history.Result) string {
	if n := sparkCommits(len(res.Commits)); n > 1 {
		return fmt.Sprintf(", a bar per %d commits", n)
	}
	return ""
}

// belowText is how a value below a record's floor reads: "below 0.1%
// here".
func belowText(share float64) string {
	if share <= 0 {
		return "below the floor here"
	}
	return "below " + strconvPct(100*share) + "% here"
}

// strconvPct writes a percentage with the digits it needs (0.1, 0.25, 2).
func strconvPct(v float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", v), "0"), ".")
}

// seriesValue is a series' value at commit i: its mean, or that it was
// below the floor there.
func seriesValue(res *history.Result, s history.Series, i int) string {
	if s.Below != nil && s.Below[i] {
		return belowText(res.Commits[i].FloorShare)
	}
	return units.Duration(s.Means[i])
}

// historyChangeName names a change's series: "on-CPU per run", "package
// path-to-regexp (self)", "function match (path-to-regexp, index.js)".
func historyChangeName(kind, name, pkg, file, metric, per string) string {
	switch kind {
	case history.KindHeadline:
		return name + " per " + per
	case history.KindFunction:
		where := pkg
		if file != "" {
			where += ", " + shortFile(file)
		}
		return fmt.Sprintf("function %s (%s) %s", name, where, metric)
	}
	return fmt.Sprintf("%s %s %s", kind, name, metric)
}

// shortFile keeps a path's last two elements.
func shortFile(file string) string {
	parts := strings.Split(file, "/")
	if len(parts) > 2 {
		return "…/" + strings.Join(parts[len(parts)-2:], "/")
	}
	return file
}

// historyDelta is a change's before → after and relative change; a side
// below the floor reads so ("below 0.1% here"), not as a time.
func historyDelta(res *history.Result, cp history.ChangePoint, c history.Change) string {
	before, after := units.Duration(c.BeforeNs), units.Duration(c.AfterNs)
	if c.BeforeBelow {
		before = belowText(res.Commits[max(cp.Index-1, 0)].FloorShare)
	}
	if c.AfterBelow {
		after = belowText(res.Commits[cp.Index].FloorShare)
	}
	s := before + " → " + after
	if !math.IsNaN(c.DeltaPct) {
		s += " " + units.SignedPct(c.DeltaPct)
	}
	return s
}

// historyDate is a record's date as a reader wants it: "2026-11-01 06:00".
func historyDate(d string) string {
	t, err := time.Parse(time.RFC3339, d)
	if err != nil {
		return d
	}
	return t.UTC().Format("2006-01-02 15:04")
}

// historySpan is the title's account of the commits.
func historySpan(res *history.Result) string {
	first, last := res.Commits[0], res.Commits[len(res.Commits)-1]
	n := len(res.ChangePoints)
	return fmt.Sprintf("%d commits, %s (%s) … %s (%s); %d change %s among %d series tested",
		len(res.Commits), first.Commit, historyDate(first.Date), last.Commit, historyDate(last.Date), n, plural(n, "point", "points"), res.Tested)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// historyLegend says how changes were judged.
func historyLegend(res *history.Result) string {
	o := res.Options
	method := fmt.Sprintf("binary segmentation with a permutation test of the runs, the false-alarm rate held at α=%g across all %d series (max-T)", o.Alpha, res.Tested)
	if res.Method == "windows" {
		method = fmt.Sprintf("binary segmentation of the commits' means in windows of %d commits overlapping by half, "+
			"a t-test held at α=%g across every split, series (up to %d a window) and window (Bonferroni)", history.WindowCommits, o.Alpha, res.Tested)
	}
	return fmt.Sprintf("Times are per %s, the mean of each commit's runs. A change point is a commit where a series' mean shifts for real: "+
		"%s, and a change of at least %g%% and %gpp of on-CPU time. A row a record left out is below its floor there (%c in sparklines, a pale bar up to the floor in charts), "+
		"between 0 and the floor, never 0; a change counts only as far as it holds wherever in that range the row was. "+
		"Sparklines run oldest to newest, each scaled to its own range.",
		res.Per, method, o.MinDeltaPct, o.MinDeltaPP, belowMark)
}

// WriteHistoryText writes a history as text: its change points in commit
// order with what changed at each, then each changed series as a
// sparkline.
func WriteHistoryText(w io.Writer, res *history.Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "profdiff history: %s\n", historySpan(res))
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", termtext.Clean(w))
	}
	for _, cp := range res.ChangePoints {
		fmt.Fprintf(&b, "\n%s  %s  %s\n", termtext.Clean(cp.Commit), historyDate(cp.Date), termtext.Clean(cp.Message))
		t := HistoryChangesTable(res, cp)
		for _, row := range t.Rows {
			c := row.Cells
			fmt.Fprintf(&b, "  %-60s  %-30s  %s\n", termtext.Fit(c[0].Text, 60, true), c[1].Text, strings.TrimSpace(c[2].Text+" "+c[3].Text))
		}
	}
	if len(res.ChangePoints) == 0 {
		b.WriteString("\nNo change point: every series stayed within its noise.\n")
	}
	b.WriteString("\nSeries (oldest → newest" + sparkScale(res) + ")\n")
	series := HistorySeriesTable(res)
	for _, row := range series.Rows {
		c := row.Cells
		fmt.Fprintf(&b, "  %-60s  %s  %s … %s\n", termtext.Fit(c[0].Text, 60, true), c[1].Text, c[2].Text, c[3].Text)
	}
	b.WriteString("\n" + historyLegend(res) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteHistoryMarkdown writes a history as GitHub markdown.
func WriteHistoryMarkdown(w io.Writer, res *history.Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### profdiff history: %s\n\n", EscapeMarkdown(historySpan(res)))
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "> **warning:** %s\n\n", EscapeMarkdown(w))
	}
	if len(res.ChangePoints) == 0 {
		b.WriteString("No change point: every series stayed within its noise.\n")
	}
	for _, cp := range res.ChangePoints {
		fmt.Fprintf(&b, "#### %s\n\n", EscapeMarkdown(cp.Commit+" · "+historyDate(cp.Date)+" · "+cp.Message))
		b.WriteString("| what changed | before → after | verdict |\n|---|---:|---|\n")
		t := HistoryChangesTable(res, cp)
		for _, row := range t.Rows {
			c := row.Cells
			fmt.Fprintf(&b, "| %s | %s | %s |\n", EscapeMarkdown(termtext.Fit(c[0].Text, markdownNameWidth, true)), unbroken(c[1].Text), "**"+c[2].Text+"** "+c[3].Text)
		}
		b.WriteString("\n")
	}
	b.WriteString("#### Series (oldest → newest" + sparkScale(res) + ")\n\n| series | trend | first | last |\n|---|---|---:|---:|\n")
	series := HistorySeriesTable(res)
	for _, row := range series.Rows {
		c := row.Cells
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", EscapeMarkdown(termtext.Fit(c[0].Text, markdownNameWidth, true)), c[1].Text, unbroken(c[2].Text), unbroken(c[3].Text))
	}
	b.WriteString("\n_" + EscapeMarkdown(historyLegend(res)) + "_\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteHistoryJSON writes a history as JSON: the commits, the change
// points with their changes, and the series of what changed.
func WriteHistoryJSON(w io.Writer, res *history.Result) error {
	j := historyJSON{jsonwrite.New(w, jsonwrite.Options{Indent: true})}
	j.BeginObject()
	j.Key("version")
	j.Int(HistoryJSONVersion)
	j.Key("per")
	j.String(res.Per)
	j.Key("series_tested")
	j.Int(int64(res.Tested))
	j.Key("alpha")
	j.num(res.Options.Alpha)
	j.Key("method")
	j.String(res.Method)
	j.Key("warnings")
	j.BeginArray() // [] when there are none, never null
	for _, w := range res.Warnings {
		j.String(w)
	}
	j.EndArray()
	j.Key("commits")
	j.BeginArray()
	for i, r := range res.Commits {
		j.commit(r, res.Headlines[0].Means[i])
	}
	j.EndArray()
	j.Key("change_points")
	j.BeginArray()
	for _, cp := range res.ChangePoints {
		j.changePoint(cp)
	}
	j.EndArray()
	j.Key("series")
	j.BeginArray()
	for _, s := range append(slices.Clone(res.Headlines), res.Changed...) {
		j.series(s)
	}
	j.EndArray()
	j.EndObject()
	return j.Flush()
}

// historyJSON writes the parts of a history's JSON.
type historyJSON struct{ *jsonwrite.Writer }

// num writes a number, null for NaN and ±Inf.
func (j historyJSON) num(v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		j.Null()
		return
	}
	j.Float(v)
}

// commit writes a commit with its on-CPU mean.
func (j historyJSON) commit(r history.Commit, onCPU float64) {
	j.BeginObject()
	j.Key("commit")
	j.String(r.Commit)
	j.Key("date")
	j.String(r.Date)
	j.Key("branch")
	j.String(r.Branch)
	j.Key("message")
	j.String(r.Message)
	j.Key("runs")
	j.Int(int64(r.Runs))
	j.Key("floor_share")
	if r.FloorShare > 0 {
		j.num(r.FloorShare)
	} else {
		j.Null()
	}
	j.Key("on_cpu_ns")
	j.num(onCPU)
	j.EndObject()
}

// changePoint writes a change point and its changes.
func (j historyJSON) changePoint(cp history.ChangePoint) {
	j.BeginObject()
	j.Key("commit")
	j.String(cp.Commit)
	j.Key("date")
	j.String(cp.Date)
	j.Key("message")
	j.String(cp.Message)
	j.Key("changes")
	j.BeginArray()
	for _, c := range cp.Changes {
		j.BeginObject()
		j.Key("kind")
		j.String(c.Kind)
		j.Key("name")
		j.String(c.Name)
		j.Key("package")
		j.String(c.Package)
		j.Key("file")
		j.String(c.File)
		j.Key("metric")
		j.String(c.Metric)
		j.Key("before_ns")
		j.num(c.BeforeNs)
		j.Key("after_ns")
		j.num(c.AfterNs)
		j.Key("before_below")
		j.Bool(c.BeforeBelow)
		j.Key("after_below")
		j.Bool(c.AfterBelow)
		j.Key("delta_pct")
		j.num(c.DeltaPct)
		j.Key("verdict")
		j.String(c.Verdict)
		j.Key("p")
		j.num(c.P)
		j.EndObject()
	}
	j.EndArray()
	j.EndObject()
}

// series writes a series: its means (null where below the floor), the
// floor where it was below it, and where it changed.
func (j historyJSON) series(s history.Series) {
	j.BeginObject()
	j.Key("kind")
	j.String(s.Kind)
	j.Key("name")
	j.String(s.Name)
	j.Key("package")
	j.String(s.Package)
	j.Key("file")
	j.String(s.File)
	j.Key("metric")
	j.String(s.Metric)
	j.Key("means_ns")
	j.BeginArray()
	for i, v := range s.Means {
		if s.Below != nil && s.Below[i] {
			j.Null()
			continue
		}
		j.num(v)
	}
	j.EndArray()
	if s.Below != nil {
		j.Key("below_floor_ns")
		j.BeginArray()
		for i, v := range s.Means {
			if s.Below[i] {
				j.num(v)
			} else {
				j.Null()
			}
		}
		j.EndArray()
	}
	j.Key("changes_at")
	jsonwrite.Ints(j.Writer, s.ChangesAt)
	j.EndObject()
}
