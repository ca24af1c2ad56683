package report

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
)

// MarkdownLimit is the size a markdown report stays under (GitHub refuses
// comments over 65,536 characters).
const MarkdownLimit = 60000

// markdownNameWidth bounds a name or path in the markdown of history and
// of several sides; longer ones are cut in the middle.
const markdownNameWidth = 100

// MarkdownOptions tune the markdown renderer.
type MarkdownOptions struct {
	// Top is how many rows the "top changes" table shows; 0 means
	// DefaultMarkdownTop.
	Top int
	// Files adds the table by file.
	Files bool
	// Sort is the metric the detail tables rank by.
	Sort diff.Metric
	// Commit and BaseCommit name the commits the compared side and the
	// base were built from; with either, or Previous, a comparison of two
	// sides keeps its headline in a hidden block for the next comment.
	Commit, BaseCommit string
	// Now is when the comparison ran, kept with its result.
	Now time.Time
	// Previous are the results an earlier comment kept (see
	// ParseCommentResults), newest first, listed as "Previous results".
	Previous []CommentResult
	// Environments are the machines the two sides ran on, where their
	// recordings say (nil: unknown); what differs is said first.
	Environments []SideEnvironment
}

// remembers reports whether the comment keeps its result for the next.
func (o MarkdownOptions) remembers() bool {
	return o.Commit != "" || o.BaseCommit != "" || o.Previous != nil
}

// WriteMarkdown writes the report as GitHub-flavoured markdown for a pull
// request comment or $GITHUB_STEP_SUMMARY. A comparison of two sides opens
// with a first screen that answers: what differs between the machines the
// sides ran on, broken --fail-on rules, the verdict in one sentence with
// its counts and p-value, the headline table, what a confirming run would
// take, and the top changes (Top rows); everything else (every row, the
// paths, stalls, lines, earlier results, warnings) is folded in <details>.
// Every table has at most 6 columns and long names are cut in the middle,
// the full name kept in the cell's title. Every name and path from a
// profile is escaped (see EscapeMarkdown) and the whole stays under
// MarkdownLimit characters, cutting rows from the detail tables with a
// note.
func WriteMarkdown(w io.Writer, r *diff.Report, opts MarkdownOptions) error {
	if opts.Top <= 0 {
		opts.Top = DefaultMarkdownTop
	}
	v := NewView(r)
	if v.Layout() == LayoutSides {
		_, err := io.WriteString(w, markdownSeveral(r, v, opts))
		return err
	}
	m := markdown{r: r, v: v, opts: opts}
	m.of = []TableOf{TablePackages, TableFunctions}
	if opts.Files {
		m.of = append(m.of, TableFiles)
	}
	if v.Layout() == LayoutPair {
		_, err := io.WriteString(w, m.pair())
		return err
	}
	head, top := m.head(), m.top()
	legend := "\n" + oneSideLegend + "\n"
	// The detail tables get what room is left, cut to fit.
	details := m.details(MarkdownLimit - len(head) - len(top) - len(legend) - 200)
	_, err := io.WriteString(w, head+top+details+legend)
	return err
}

// DefaultMarkdownTop is how many rows the top changes show by default.
const DefaultMarkdownTop = 5

// markdown is one markdown report being written: the report, its view and
// the tables of rows it lists.
type markdown struct {
	r    *diff.Report
	v    *View
	opts MarkdownOptions
	of   []TableOf
	// headlineDetails are the headline's rows folded in the run details.
	headlineDetails Table
}

// head is a single profile's top: broken rules and the headline table.
func (m *markdown) head() string {
	r, v := m.r, m.v
	var head strings.Builder
	for _, res := range r.Rules {
		if res.Broken {
			fmt.Fprintf(&head, "> **Failed:** `%s` — %s\n\n", strings.ReplaceAll(res.Rule.Text, "`", "'"), EscapeMarkdown(strings.Join(v.Offenders(res), "; ")))
		}
	}
	s := r.Sides[0]
	fmt.Fprintf(&head, "### profdiff: %s\n\n", EscapeMarkdown(sideName(s)))
	headline := v.HeadlineTable()
	head.WriteString(mdHeadline(&headline, false))
	head.WriteString(mdStalls(v))
	if v.Root() != "" {
		fmt.Fprintf(&head, "\n_Locations are relative to %s._\n", EscapeMarkdown(v.Root()))
	}
	if m := v.Matched(); m != "" {
		fmt.Fprintf(&head, "\n_%s._\n", EscapeMarkdown(capitalize(m)))
	}
	return head.String()
}

// top is a single profile's short tables of packages and functions, the
// top by self time.
func (m *markdown) top() string {
	v := m.v
	var top strings.Builder
	top.WriteString("\n#### Top by self time\n\n")
	for _, o := range m.of[:2] {
		t := v.RowsTable(RowsRequest{Of: o, By: diff.MetricSelf, Top: m.opts.Top})
		fmt.Fprintf(&top, "**%s**\n\n%s", capitalize(t.Title), mdHeader(&t, nil))
		for _, row := range t.Rows {
			top.WriteString(mdLine(&t, row, nil))
		}
		top.WriteString("\n")
	}
	return top.String()
}

// details is every row of each table inside <details>, and the warnings,
// in as many rows as fit in room characters, with a note of what was cut.
func (m *markdown) details(room int) string {
	var details strings.Builder
	for _, o := range m.of {
		t, body, shown := m.detailTable(o, room/len(m.of))
		merge := t.Changes()
		note := ""
		if shown < t.Total {
			note = fmt.Sprintf("\n_%d of %d rows shown to stay within GitHub's comment size; the JSON output has them all._\n", shown, t.Total)
		}
		by := fmt.Sprintf("by %s time", m.opts.Sort)
		if merge {
			by = fmt.Sprintf("by change in %s time", m.opts.Sort)
		}
		fmt.Fprintf(&details, "\n<details><summary>All %s (%d) %s</summary>\n\n%s%s\n</details>\n", t.Title, t.Total, by, body, note)
	}
	if len(m.r.Warnings) > 0 {
		details.WriteString("\n<details><summary>Warnings</summary>\n\n")
		for _, wn := range m.r.Warnings {
			line := "- " + EscapeMarkdown(wn.String()) + "\n"
			if details.Len()+len(line) > room {
				break
			}
			details.WriteString(line)
		}
		details.WriteString("\n</details>\n")
	}
	return details.String()
}

// mdHeadline lays out a headline table (HeadlineTable, or some of its
// rows), or a table of stalls or resources: labels, names and notes left,
// figures right, every text escaped, a note or measure whose change is
// real in bold; with unbreak a figure
// wraps between figures only (the first screen's narrow columns).
func mdHeadline(t *Table, unbreak bool) string {
	var b strings.Builder
	b.WriteString("|")
	for _, c := range t.Columns {
		if c.Header == "" {
			b.WriteString(" |")
		} else {
			b.WriteString(" " + EscapeMarkdown(c.Header) + " |")
		}
	}
	b.WriteString("\n|")
	for _, c := range t.Columns {
		if c.Kind.Numeric() {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, row := range t.Rows {
		b.WriteString("|")
		for i, c := range row.Cells {
			text := EscapeMarkdown(c.Text)
			switch k := t.Columns[i].Kind; {
			case k.Numeric() && unbreak:
				text = unbroken(text)
			case k == KindNote || k == KindMeasure: // a sentence's or a measure's verdict
				text = emphasize(text, c.Verdict)
			}
			b.WriteString(" " + text + " |")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// detailTable is a detail table of rows in as many rows as fit in room
// characters: the table asked of the builder, its markdown and how many
// of its rows that holds. It asks for a few rows first, then for as many
// as the lines so far say would fit, so that the rows cut are never
// formatted.
func (m *markdown) detailTable(o TableOf, room int) (t Table, body string, shown int) {
	want := mdFirstRows
	for {
		t = m.v.RowsTable(RowsRequest{Of: o, By: m.opts.Sort, Top: want})
		merged := mdMerged(t.Changes()) // before → after, the change in one cell
		var b strings.Builder
		b.WriteString(mdHeader(&t, merged))
		shown = 0
		for _, row := range t.Rows {
			l := mdLine(&t, row, merged)
			if b.Len()+len(l) > room {
				break
			}
			b.WriteString(l)
			shown++
		}
		if shown < len(t.Rows) || len(t.Rows) == t.Total {
			return t, b.String(), shown
		}
		per := max(b.Len()/max(shown, 1), 1)
		want = max(2*want, room/per*5/4+1)
	}
}

// mdFirstRows is how many rows detailTable asks for first.
const mdFirstRows = 32

// mdHeader is a table of rows' header and alignment rows: its figures'
// columns (merged's, when given) right aligned, then the name columns, a
// location sharing the first name's.
func mdHeader(t *Table, merged func([]Cell) ([]string, []string)) string {
	var head []string
	names := 0
	for _, c := range t.Columns {
		if c.Kind.Numeric() {
			head = append(head, c.Header)
		}
	}
	if merged != nil {
		head, _ = merged(nil)
	}
	numeric := len(head)
	for _, c := range t.Columns {
		switch {
		case c.Kind.Numeric():
		case c.Kind == KindLocation && names > 0:
			head[numeric] += " (location)"
		default:
			head = append(head, c.Header)
			names++
		}
	}
	var b strings.Builder
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|")
	for range numeric {
		b.WriteString("---:|")
	}
	for range names {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	return b.String()
}

// mdLine is one row of a table of rows: its figures, as markdown (merged
// into fewer cells when merged is given), then its names, escaped and cut
// in the middle (see mdName); locations and files keep more of their end,
// where the file's name is. A function's location goes under its name in
// the same cell, so that the table is as wide as the longer of the two,
// not both.
func mdLine(t *Table, row Row, merged func([]Cell) ([]string, []string)) string {
	var figures []Cell
	for i, c := range t.Columns {
		if c.Kind.Numeric() {
			figures = append(figures, row.Cells[i])
		}
	}
	var texts []string
	if merged != nil {
		_, texts = merged(figures)
	} else {
		texts = mdCells(figures)
	}
	first := len(texts)
	names := 0
	for i, c := range t.Columns {
		if c.Kind.Numeric() {
			continue
		}
		n := row.Cells[i].Text
		place := c.Kind == KindLocation
		width := mdDetailNameWidth
		switch {
		case place:
			width = mdDetailPlaceWidth
		case c.Kind == KindPackage:
			width = mdDetailPackageWidth
		}
		if place && names > 0 {
			if n != "-" && n != "" {
				texts[first] += "<br>" + mdName(n, width, place)
			}
			continue
		}
		texts = append(texts, mdName(n, width, place))
		names++
	}
	return "| " + strings.Join(texts, " | ") + " |\n"
}

// mdCells are cells as markdown: their texts, a verdict in bold.
func mdCells(cs []Cell) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = emphasize(strings.ReplaceAll(c.Text, "*", `\*`), c.Verdict)
	}
	return out
}

// mdMerged lays out the figures of a change table (ChangeCells) in a
// markdown detail table, when merge: before → after with their spread
// (wrapping at the arrow only), the change judged with its own p, and
// the change in share; with a table's names at most 6 columns. It
// returns the merged columns' headers and the figures' cells (none
// without figures). Nil without merge.
func mdMerged(merge bool) func([]Cell) ([]string, []string) {
	if !merge {
		return nil
	}
	return func(c []Cell) ([]string, []string) {
		head := []string{"before → after", "change", "Δshare"}
		if c == nil {
			return head, nil
		}
		return head, []string{unbroken(c[0].Text) + "\u00a0→ " + unbroken(c[1].Text), mdChangeOf(c[2], c[4], c[5], c[6]), c[3].Text}
	}
}

// mdChangeOf is mdChange (with the delta) of a change table's cells:
// delta, Δ%, verdict and p.
func mdChangeOf(delta, pct, verdict, p Cell) string {
	v := emphasize(verdict.Verdict.String(), verdict.Verdict)
	if !math.IsNaN(pct.Value) {
		v = pct.Text + "\u00a0" + v
	}
	parts := []string{unbroken(delta.Text), v}
	if ps := units.PValue(p.Value); ps != "" {
		parts = append(parts, ps)
	}
	return strings.Join(parts, " ")
}

// unbroken joins a figure's words with no-break spaces, so that a narrow
// column wraps between figures, not inside "6.65 µs ±12%".
func unbroken(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") }

// sideName names a side in a title: its one file's name, or its name and
// runs.
func sideName(s diff.SideSummary) string {
	if s.Formed != "" {
		return fmt.Sprintf("%s (%s)", s.Name, s.Formed) // a server query's runs: how they were formed
	}
	if len(s.Files) == 1 {
		return filepath.Base(s.Files[0])
	}
	return fmt.Sprintf("%s (%s)", s.Name, units.Plural(s.Runs, "run", "runs"))
}

// emphasize puts the text of a cell whose verdict says a change is real
// in bold.
func emphasize(text string, v diff.Verdict) string {
	if v.Real() {
		return "**" + text + "**"
	}
	return text
}

// oneSideLegend is the one-line legend under a single profile's tables.
const oneSideLegend = "_Percentages are of on-CPU time (all but (idle) and (program))._"

// markdownLegend is the one-line legend under a comparison's tables.
func markdownLegend(v *View, sort diff.Metric) string {
	r := v.r
	return fmt.Sprintf("_Times are %s, the mean over runs ± its standard deviation (σ) over runs; the detail tables rank by change in %s time. "+
		"Δshare is the change in share of %s, in percentage points. "+
		"better/worse: the change is real at α=%g %s and exceeds %gpp and %g%%; ~: within noise; p: corrected p-value._",
		v.Per(), sort, v.shareOf(), r.Options.Alpha, correction(r), r.Options.MinDeltaPP, r.Options.MinDeltaPct)
}

// EscapeMarkdown makes a name or path from a profile inert in GitHub
// markdown: it cannot break a table cell or start HTML, a link, an
// autolink, a mention (@user), an issue reference (#123), a code span,
// emphasis, strikethrough or math. It escapes only what GFM would read as
// markup, so that ordinary names read the same raw as rendered:
// node_modules/a.js, [gone], (anonymous), p<0.001 and ~ stay as they are.
// Control characters, line breaks and bidirectional controls are first
// shown as escapes by termtext.Clean (\x1b, \n, \u202e), as the text output
// shows them. One call's result is one inline context: text escaped in two
// calls and joined can pair a ~ or $ of each, so escape a line whole.
func EscapeMarkdown(s string) string {
	s = termtext.Clean(s) // controls and bidi overrides as visible escapes, as in text
	// Strikethrough (~) and math ($) need two of them: one alone is text.
	pairs := func(c string) bool { return strings.Count(s, c) >= 2 }
	tildes, dollars := pairs("~"), pairs("$")
	var b strings.Builder
	prev := rune(' ')
	for i, r := range s {
		next := rune(' ')
		if j := i + utf8.RuneLen(r); j < len(s) {
			next, _ = utf8.DecodeRuneInString(s[j:])
		}
		switch {
		case r == '&' && (isASCIILetter(next) || next == '#'):
			// Only "&name;" and "&#1;" are entities.
			b.WriteString("&amp;")
		case r == '<' && (isASCIILetter(next) || next == '/' || next == '!' || next == '?'):
			// Only these start a tag, a comment or an autolink.
			b.WriteString("&lt;")
		case r == '|' || r == '`' || r == '*',
			r == '\\' && isASCIIPunct(next),
			r == '_' && !(isWordRune(prev) && isWordRune(next)),     // an underscore inside a word is no emphasis
			r == '[' && i == 0,                                      // a task list's "[ ]"
			r == ']' && (next == '(' || next == '[' || next == ':'), // a link or a reference
			r == '~' && tildes, r == '$' && dollars:
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '@':
			// A zero-width space after it stops a mention and an email autolink.
			b.WriteString("@&#8203;")
		case r == '#' && next >= '0' && next <= '9':
			// A zero-width space stops an issue reference (#123); other
			// hashes, as in #privateMethod, stay as they are, for copy and
			// search.
			b.WriteString("#&#8203;")
		case r == ':' && strings.HasPrefix(s[i:], "://"):
			b.WriteString(":&#8203;")
		case r == '.' && i >= 3 && strings.HasSuffix(strings.ToLower(s[:i]), "www"):
			b.WriteString("&#8203;.")
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

func isASCIILetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// isASCIIPunct reports whether a backslash before r would escape it.
func isASCIIPunct(r rune) bool {
	return r < 128 && unicode.IsPunct(r) || r < 128 && unicode.IsSymbol(r)
}

// isWordRune reports whether r is a letter or digit, as GFM's flanking
// rules see it.
func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
