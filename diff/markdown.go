package diff

import (
	"fmt"
	"io"
	"strings"
)

// MarkdownLimit is the size a markdown report stays under (GitHub refuses
// comments over 65,536 characters).
const MarkdownLimit = 60000

// markdownNameWidth bounds a name or path in a markdown cell; longer ones
// are cut in the middle.
const markdownNameWidth = 200

// MarkdownOptions tune the markdown renderer.
type MarkdownOptions struct {
	// Top is how many rows the "top changes" tables show; 0 means 10.
	Top int
	// Files adds the table by file.
	Files bool
	// Sort is the metric the detail tables rank by.
	Sort Metric
}

// WriteMarkdown writes the report as GitHub-flavoured markdown for a pull
// request comment or $GITHUB_STEP_SUMMARY: broken --fail-on rules first, a
// headline table, where in the call tree it changed, the top changes
// judged on self and total time, every row inside <details>, and a legend.
// Every name and path from a profile is escaped (see EscapeMarkdown) and
// the whole stays under MarkdownLimit characters, cutting rows from the
// detail tables with a note.
func WriteMarkdown(w io.Writer, r *Report, opts MarkdownOptions) error {
	if opts.Top <= 0 {
		opts.Top = 10
	}
	v := NewView(r)
	var head strings.Builder
	compared := r.Compared()
	for _, res := range r.Rules {
		if res.Broken {
			fmt.Fprintf(&head, "> **Failed:** `%s` — %s\n\n", strings.ReplaceAll(res.Rule.Text, "`", "'"), EscapeMarkdown(strings.Join(res.Offenders, "; ")))
		}
	}
	if compared {
		fmt.Fprintf(&head, "### profdiff: %s → %s\n\n", EscapeMarkdown(sideName(r.Sides[0])), EscapeMarkdown(sideName(r.Sides[1])))
		head.WriteString("| | before | after | change |\n|---|---:|---:|---|\n")
		for _, l := range v.HeadlineRows() {
			fmt.Fprintf(&head, "| %s | %s | %s | %s |\n", EscapeMarkdown(l[0]), EscapeMarkdown(l[1]), EscapeMarkdown(l[2]), emphasizeVerdict(EscapeMarkdown(l[3])))
		}
		if note := v.RunsNote(); note != "" {
			fmt.Fprintf(&head, "\n_%s_\n", EscapeMarkdown(note))
		}
		fmt.Fprintf(&head, "\n#### Where it changed\n\n_%s._\n\n", EscapeMarkdown(v.PathsSummary()))
		for i, p := range r.Paths {
			fmt.Fprintf(&head, "%d. %s\n", i+1, EscapeMarkdown(v.PathText(p)))
		}
	} else {
		s := r.Sides[0]
		fmt.Fprintf(&head, "### profdiff: %s\n\n", EscapeMarkdown(sideName(s)))
		head.WriteString("| measure | value | detail |\n|---|---:|---|\n")
		for _, l := range v.HeadlineRows() {
			fmt.Fprintf(&head, "| %s | %s | %s |\n", EscapeMarkdown(l[0]), EscapeMarkdown(l[1]), EscapeMarkdown(l[2]))
		}
	}
	if v.Root() != "" {
		fmt.Fprintf(&head, "\n_Locations are relative to %s._\n", EscapeMarkdown(v.Root()))
	}

	type table struct {
		title string
		rows  []Row
		name  func(*Row) []string
		cols  []string
	}
	tables := []table{
		{"packages", r.Packages, func(x *Row) []string { return []string{x.Key.Package} }, []string{"package"}},
		{"functions", r.Functions, func(x *Row) []string { return []string{v.RowName(x), x.Key.Package, v.Location(x.Key)} }, []string{"function", "package", "location"}},
	}
	if opts.Files {
		tables = append(tables, table{"files", r.Files, func(x *Row) []string { return []string{v.File(x.Key), x.Key.Package} }, []string{"file", "package"}})
	}
	header := func(numeric, names []string) string {
		var b strings.Builder
		b.WriteString("| " + strings.Join(append(append([]string{}, numeric...), names...), " | ") + " |\n|")
		for range numeric {
			b.WriteString("---:|")
		}
		for range names {
			b.WriteString("---|")
		}
		b.WriteString("\n")
		return b.String()
	}
	line := func(t table, cells []string, row *Row) string {
		for i, c := range cells {
			cells[i] = emphasizeVerdict(strings.ReplaceAll(c, "*", `\*`))
		}
		for _, n := range t.name(row) {
			cells = append(cells, EscapeMarkdown(Fit(n, markdownNameWidth, false)))
		}
		return "| " + strings.Join(cells, " | ") + " |\n"
	}
	var top strings.Builder
	var detailCols []string
	var cellsOf func(*Row) []string
	if compared {
		top.WriteString("\n#### Top changes\n\n")
		for _, t := range tables[:2] {
			fmt.Fprintf(&top, "**%s** (%s; self and total time each judged, * marks the one that makes the change real)\n\n%s", capitalize(t.title), v.Per(), header(TopHeaders, t.cols))
			rows := v.TopChanges(t.rows, opts.Top)
			for i := range rows {
				top.WriteString(line(t, TopCells(&rows[i]), &rows[i]))
			}
			top.WriteString("\n")
		}
		detailCols = ChangeHeaders
		cellsOf = func(x *Row) []string { return ChangeCells(opts.Sort.Of(x)) }
	} else {
		top.WriteString("\n#### Top by self time\n\n")
		for _, t := range tables[:2] {
			fmt.Fprintf(&top, "**%s**\n\n%s", capitalize(t.title), header(OneSideHeaders, t.cols))
			rows := clip(v.Sorted(t.rows, MetricSelf), opts.Top)
			for i := range rows {
				top.WriteString(line(t, v.OneSideCells(&rows[i]), &rows[i]))
			}
			top.WriteString("\n")
		}
		detailCols = OneSideHeaders
		cellsOf = v.OneSideCells
	}
	legend := "\n" + markdownLegend(v, opts.Sort) + "\n"

	// The detail tables get what room is left, cut to fit.
	room := MarkdownLimit - head.Len() - top.Len() - len(legend) - 200
	var details strings.Builder
	for _, t := range tables {
		// As many rows as fit in the table's share of the room, each
		// rendered once.
		rows := v.Sorted(t.rows, opts.Sort)
		var body strings.Builder
		body.WriteString(header(detailCols, t.cols))
		shown := 0
		for i := range rows {
			l := line(t, cellsOf(&rows[i]), &rows[i])
			if body.Len()+len(l) > room/len(tables) {
				break
			}
			body.WriteString(l)
			shown++
		}
		note := ""
		if shown < len(rows) {
			note = fmt.Sprintf("\n_%d of %d rows shown to stay within GitHub's comment size; the JSON output has them all._\n", shown, len(rows))
		}
		by := fmt.Sprintf("by %s time", opts.Sort)
		if compared {
			by = fmt.Sprintf("by change in %s time", opts.Sort)
		}
		fmt.Fprintf(&details, "\n<details><summary>All %s (%d) %s</summary>\n\n%s%s\n</details>\n", t.title, len(rows), by, body.String(), note)
	}
	if len(r.Warnings) > 0 {
		details.WriteString("\n<details><summary>Warnings</summary>\n\n")
		for _, wn := range r.Warnings {
			line := "- " + EscapeMarkdown(wn.String()) + "\n"
			if details.Len()+len(line) > room {
				break
			}
			details.WriteString(line)
		}
		details.WriteString("\n</details>\n")
	}
	_, err := io.WriteString(w, head.String()+top.String()+details.String()+legend)
	return err
}

func sideName(s SideSummary) string {
	if len(s.Files) == 1 {
		return s.Files[0]
	}
	return fmt.Sprintf("%s (%d runs)", s.Name, s.Runs)
}

func emphasizeVerdict(s string) string {
	switch {
	case strings.Contains(s, "worse"), strings.Contains(s, "better"), strings.Contains(s, "new"), strings.Contains(s, "gone"):
		return "**" + s + "**"
	}
	return s
}

// markdownLegend is the one-line legend under the tables.
func markdownLegend(v *View, sort Metric) string {
	r := v.r
	if !r.Compared() {
		return "_Percentages are of on-CPU time (all but (idle) and (program))._"
	}
	return fmt.Sprintf("_Times are %s, the mean over runs ± the half-width of its 95%% interval; the detail tables rank by change in %s time. "+
		"Δshare is the change in share of on-CPU time, in percentage points. "+
		"better/worse: the change is real at α=%g after Holm correction and exceeds %gpp and %g%%; ~: within noise; p: corrected p-value._",
		v.Per(), sort, r.Options.Alpha, r.Options.MinDeltaPP, r.Options.MinDeltaPct)
}

// EscapeMarkdown makes a name or path from a profile inert in GitHub
// markdown: it cannot break a table cell or start HTML, a link, an
// autolink, a mention (@user), an issue reference (#123), a code span,
// emphasis or math. Control characters, line breaks and bidirectional
// controls are first shown as escapes by Clean (\x1b, \n, \u202e), as the
// text output shows them.
func EscapeMarkdown(s string) string {
	s = Clean(s) // controls and bidi overrides as visible escapes, as in text
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '`':
			b.WriteString("&#96;")
		case r == '|' || r == '\\' || r == '*' || r == '_' || r == '~' || r == '[' || r == ']' ||
			r == '(' || r == ')' || r == '!' || r == '$' || r == '{' || r == '}':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '@':
			// A zero-width space after it stops a mention.
			b.WriteString("@&#8203;")
		case r == '#' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
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
	}
	return b.String()
}
