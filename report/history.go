package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/profdiff/profdiff/history"
	"github.com/profdiff/profdiff/internal/jsonwrite"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
)

// HistoryJSONVersion is the version of the history's JSON.
const HistoryJSONVersion = 1

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

// historyChangeName names a change's series: "on-CPU per run", "package
// path-to-regexp (self)", "function match (path-to-regexp, index.js)".
func historyChangeName(kind, name, pkg, file, metric, per string) string {
	switch kind {
	case history.KindHeadline:
		return "on-CPU per " + per
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

// historyVerdict is a change's verdict and p-value: "better p=0.004".
func historyVerdict(c history.Change) string {
	return strings.TrimSpace(c.Verdict + " " + units.PValue(c.P))
}

// historyDelta is a change's before → after and relative change.
func historyDelta(c history.Change) string {
	s := units.Duration(c.BeforeNs) + " → " + units.Duration(c.AfterNs)
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
	first, last := res.Records[0], res.Records[len(res.Records)-1]
	n := len(res.ChangePoints)
	return fmt.Sprintf("%d commits, %s (%s) … %s (%s); %d change %s among %d series tested",
		len(res.Records), first.Commit, historyDate(first.Date), last.Commit, historyDate(last.Date), n, plural(n, "point", "points"), res.Tested)
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
	return fmt.Sprintf("Times are per %s, the mean of each commit's runs. A change point is a commit where a series' mean shifts for real: "+
		"binary segmentation with a permutation test of the runs, the false-alarm rate held at α=%g across all %d series (max-T), "+
		"and a change of at least %g%% and %gpp of on-CPU time. Sparklines run oldest to newest, each scaled to its own range.",
		res.Per, o.Alpha, res.Tested, o.MinDeltaPct, o.MinDeltaPP)
}

// WriteHistoryText writes a history as text: its change points in commit
// order with what changed at each, then each changed series as a
// sparkline.
func WriteHistoryText(w io.Writer, res *history.Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "profdiff history: %s\n", historySpan(res))
	for _, cp := range res.ChangePoints {
		fmt.Fprintf(&b, "\n%s  %s  %s\n", termtext.Clean(cp.Commit), historyDate(cp.Date), termtext.Clean(cp.Message))
		for _, c := range cp.Changes {
			fmt.Fprintf(&b, "  %-60s  %-30s  %s\n", termtext.Fit(termtext.Clean(historyChangeName(c.Kind, c.Name, c.Package, c.File, c.Metric, res.Per)), 60, true),
				historyDelta(c), historyVerdict(c))
		}
	}
	if len(res.ChangePoints) == 0 {
		b.WriteString("\nNo change point: every series stayed within its noise.\n")
	}
	b.WriteString("\nSeries (oldest → newest)\n")
	all := append([]history.Series{res.Headline}, res.Changed...)
	for _, s := range all {
		fmt.Fprintf(&b, "  %-60s  %s  %s … %s\n", termtext.Fit(termtext.Clean(historyChangeName(s.Kind, s.Name, s.Package, s.File, s.Metric, res.Per)), 60, true),
			Sparkline(s.Means), units.Duration(s.Means[0]), units.Duration(s.Means[len(s.Means)-1]))
	}
	b.WriteString("\n" + historyLegend(res) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteHistoryMarkdown writes a history as GitHub markdown.
func WriteHistoryMarkdown(w io.Writer, res *history.Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### profdiff history: %s\n\n", EscapeMarkdown(historySpan(res)))
	if len(res.ChangePoints) == 0 {
		b.WriteString("No change point: every series stayed within its noise.\n")
	}
	for _, cp := range res.ChangePoints {
		fmt.Fprintf(&b, "#### %s\n\n", EscapeMarkdown(cp.Commit+" · "+historyDate(cp.Date)+" · "+cp.Message))
		b.WriteString("| what changed | before → after | verdict |\n|---|---:|---|\n")
		for _, c := range cp.Changes {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", EscapeMarkdown(termtext.Fit(historyChangeName(c.Kind, c.Name, c.Package, c.File, c.Metric, res.Per), markdownNameWidth, true)),
				unbroken(historyDelta(c)), "**"+c.Verdict+"** "+units.PValue(c.P))
		}
		b.WriteString("\n")
	}
	b.WriteString("#### Series (oldest → newest)\n\n| series | trend | first | last |\n|---|---|---:|---:|\n")
	for _, s := range append([]history.Series{res.Headline}, res.Changed...) {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", EscapeMarkdown(termtext.Fit(historyChangeName(s.Kind, s.Name, s.Package, s.File, s.Metric, res.Per), markdownNameWidth, true)),
			Sparkline(s.Means), unbroken(units.Duration(s.Means[0])), unbroken(units.Duration(s.Means[len(s.Means)-1])))
	}
	b.WriteString("\n_" + EscapeMarkdown(historyLegend(res)) + "_\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteHistoryJSON writes a history as JSON: the commits, the change
// points with their changes, and the series of what changed.
func WriteHistoryJSON(w io.Writer, res *history.Result) error {
	j := jsonwrite.New(w, jsonwrite.Options{Indent: true})
	num := func(v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			j.Null()
			return
		}
		j.Float(v)
	}
	j.BeginObject()
	j.Key("version")
	j.Int(HistoryJSONVersion)
	j.Key("per")
	j.String(res.Per)
	j.Key("series_tested")
	j.Int(int64(res.Tested))
	j.Key("alpha")
	num(res.Options.Alpha)
	j.Key("commits")
	j.BeginArray()
	for i, r := range res.Records {
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
		j.Int(int64(len(r.Runs)))
		j.Key("on_cpu_ns")
		num(res.Headline.Means[i])
		j.EndObject()
	}
	j.EndArray()
	j.Key("change_points")
	j.BeginArray()
	for _, cp := range res.ChangePoints {
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
			num(c.BeforeNs)
			j.Key("after_ns")
			num(c.AfterNs)
			j.Key("delta_pct")
			num(c.DeltaPct)
			j.Key("verdict")
			j.String(c.Verdict)
			j.Key("p")
			num(c.P)
			j.EndObject()
		}
		j.EndArray()
		j.EndObject()
	}
	j.EndArray()
	j.Key("series")
	j.BeginArray()
	for _, s := range append([]history.Series{res.Headline}, res.Changed...) {
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
		for _, v := range s.Means {
			num(v)
		}
		j.EndArray()
		j.Key("changes_at")
		jsonwrite.Ints(j, s.ChangesAt)
		j.EndObject()
	}
	j.EndArray()
	j.EndObject()
	return j.Flush()
}
