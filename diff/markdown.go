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
}

// WriteMarkdown writes the report as GitHub-flavoured markdown for a pull
// request comment or $GITHUB_STEP_SUMMARY: broken --fail-on rules first, a
// headline table, the top changes, every row inside <details>, and a
// legend. Every name and path from a profile is escaped (see EscapeMarkdown)
// and the whole stays under MarkdownLimit characters, cutting rows from the
// detail tables with a note.
func WriteMarkdown(w io.Writer, r *Report, opts MarkdownOptions) error {
	if opts.Top <= 0 {
		opts.Top = 10
	}
	var head strings.Builder
	compared := r.Compared()
	for _, res := range r.Rules {
		if res.Broken {
			fmt.Fprintf(&head, "> **Failed:** `%s` — %s\n\n", strings.ReplaceAll(res.Rule.Text, "`", "'"), EscapeMarkdown(strings.Join(res.Offenders, "; ")))
		}
	}
	if compared {
		fmt.Fprintf(&head, "### profdiff: %s → %s\n\n", EscapeMarkdown(sideName(r.Sides[0])), EscapeMarkdown(sideName(r.Sides[1])))
		head.WriteString("| | before | after | delta |\n|---|---:|---:|---|\n")
		for _, l := range headlineLines(r) {
			fmt.Fprintf(&head, "| %s | %s | %s | %s |\n", EscapeMarkdown(l[0]), EscapeMarkdown(l[1]), EscapeMarkdown(l[2]), emphasizeVerdict(EscapeMarkdown(l[3])))
		}
	} else {
		s := r.Sides[0]
		fmt.Fprintf(&head, "### profdiff: %s\n\n", EscapeMarkdown(sideName(s)))
		head.WriteString("| | |\n|---|---:|\n")
		for _, l := range [][2]string{
			{"wall", Duration(s.WallNs)}, {"on-CPU", Duration(s.OnCPUNs)},
			{"busy", fmt.Sprintf("%.1f%%", 100*s.Busy())}, {"GC share", fmt.Sprintf("%.1f%%", 100*s.GCShare())},
			{"samples", Count(s.Samples)},
		} {
			fmt.Fprintf(&head, "| %s | %s |\n", l[0], l[1])
		}
	}

	type table struct {
		title string
		rows  []Row
		name  func(Row) []string
		cols  []string
	}
	tables := []table{
		{"packages", r.Packages, func(x Row) []string { return []string{x.Key.Package} }, []string{"package"}},
		{"functions", r.Functions, func(x Row) []string { return []string{FunctionName(x.Key), x.Key.Package, Location(x.Key)} }, []string{"function", "package", "location"}},
	}
	if opts.Files {
		tables = append(tables, table{"files", r.Files, func(x Row) []string { return []string{FileName(x.Key), x.Key.Package} }, []string{"file", "package"}})
	}
	// header renders a table's header; line one row.
	header := func(t table) string {
		var cols []string
		if compared {
			cols = []string{"before", "after", "delta", "Δpp", "Δ%", "verdict", "p"}
		} else {
			cols = []string{"self", "self %", "total", "total %"}
		}
		cols = append(cols, t.cols...)
		var b strings.Builder
		b.WriteString("| " + strings.Join(cols, " | ") + " |\n|")
		for i := range cols {
			if i < len(cols)-len(t.cols) {
				b.WriteString("---:|")
			} else {
				b.WriteString("---|")
			}
		}
		b.WriteString("\n")
		return b.String()
	}
	line := func(t table, row Row) string {
		var cells []string
		if compared {
			cells = changeCells(row, r)
			cells[5] = emphasizeVerdict(cells[5])
		} else {
			cells = selfTotal(row, r.Sides[0].OnCPUNs)
		}
		for _, n := range t.name(row) {
			cells = append(cells, EscapeMarkdown(cutMiddle(n, markdownNameWidth, markdownNameWidth/2)))
		}
		return "| " + strings.Join(cells, " | ") + " |\n"
	}
	render := func(t table, rows []Row) string {
		var b strings.Builder
		b.WriteString(header(t))
		for _, row := range rows {
			b.WriteString(line(t, row))
		}
		return b.String()
	}
	var top strings.Builder
	top.WriteString("\n#### Top changes\n\n")
	if !compared {
		top.Reset()
		top.WriteString("\n#### Top by self time\n\n")
	}
	for _, t := range tables[:2] {
		fmt.Fprintf(&top, "**%s**\n\n%s\n", capitalize(t.title), render(t, clip(t.rows, opts.Top)))
	}
	legend := "\n" + markdownLegend(r) + "\n"

	// The detail tables get what room is left, cut to fit.
	room := MarkdownLimit - head.Len() - top.Len() - len(legend) - 200
	var details strings.Builder
	for _, t := range tables {
		// As many rows as fit in the table's share of the room, each
		// rendered once.
		var body strings.Builder
		body.WriteString(header(t))
		shown := 0
		for _, row := range t.rows {
			l := line(t, row)
			if body.Len()+len(l) > room/len(tables) {
				break
			}
			body.WriteString(l)
			shown++
		}
		note := ""
		if shown < len(t.rows) {
			note = fmt.Sprintf("\n_%d of %d rows shown to stay within GitHub's comment size; the JSON output has them all._\n", shown, len(t.rows))
		}
		fmt.Fprintf(&details, "\n<details><summary>All %s (%d)</summary>\n\n%s%s\n</details>\n", t.title, len(t.rows), body.String(), note)
	}
	if len(r.Warnings) > 0 {
		details.WriteString("\n<details><summary>Warnings</summary>\n\n")
		for _, wn := range r.Warnings {
			line := "- " + EscapeMarkdown(wn) + "\n"
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
func markdownLegend(r *Report) string {
	if !r.Compared() {
		return "_Percentages are of on-CPU time (all but (idle) and (program))._"
	}
	per := "per run"
	if r.Headline.PerWork.Verdict != VerdictNone {
		per = "per " + r.Options.WorkUnit
	}
	metric := "self"
	if r.Options.SortTotal {
		metric = "total"
	}
	return fmt.Sprintf("_Before and after are %s time %s; Δpp is the change in share of on-CPU time; "+
		"better/worse: the change is real at α=%g after Holm correction and exceeds %gpp and %g%%; ~: within noise; p: corrected p-value._",
		metric, per, r.Options.Alpha, r.Options.MinDeltaPP, r.Options.MinDeltaPct)
}

// EscapeMarkdown makes a name or path from a profile inert in GitHub
// markdown: it cannot break a table cell or start HTML, a link, an
// autolink, a mention (@user), an issue reference (#123), a code span,
// emphasis or math. Line breaks become spaces and bidirectional controls
// U+FFFD.
func EscapeMarkdown(s string) string {
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
		case r == '@' || r == '#':
			// A zero-width space after it stops mentions and references.
			b.WriteRune(r)
			b.WriteString("&#8203;")
		case r == ':' && strings.HasPrefix(s[i:], "://"):
			b.WriteString(":&#8203;")
		case r == '.' && i >= 3 && strings.HasSuffix(strings.ToLower(s[:i]), "www"):
			b.WriteString("&#8203;.")
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		case (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c:
			// Bidirectional controls could make a name read as another.
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
