package diff

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/profdiff/profdiff/analyze"
)

// TextOptions tune the text renderer.
type TextOptions struct {
	// Top is how many rows each table shows; 0 or less shows all.
	Top int
	// Color marks verdicts with ANSI colours (the caller decides: only on a
	// terminal, never under NO_COLOR).
	Color bool
	// Files adds the table by file.
	Files bool
}

// WriteText writes the report as aligned plain text for a terminal: the
// headline, then top packages by self time, top functions by self time and
// top functions by total time. Percentages are of on-CPU time.
func WriteText(w io.Writer, r *Report, opts TextOptions) error {
	if r.Compared() {
		return writeTextCompare(w, r, opts)
	}
	tw := &textWriter{w: w}
	s := r.Sides[0]
	tw.headline(s)
	onCPU := s.OnCPUNs
	tw.table(fmt.Sprintf("Top %s by self time", count(len(r.Packages), opts.Top, "packages")),
		[]string{"self", "self%", "total", "total%", "package"}, clip(r.Packages, opts.Top),
		func(row Row) []string {
			return append(selfTotal(row, onCPU), fitName(row.Key.Package))
		})
	tw.table(fmt.Sprintf("Top %s by self time", count(len(r.Functions), opts.Top, "functions")),
		[]string{"self", "self%", "total", "total%", "function", "package", "location"}, clip(r.Functions, opts.Top),
		func(row Row) []string {
			return append(selfTotal(row, onCPU), fitName(FunctionName(row.Key)), fitName(row.Key.Package), fitPath(Location(row.Key)))
		})
	tw.table(fmt.Sprintf("Top %s by total time", count(len(r.Functions), opts.Top, "functions")),
		[]string{"total", "total%", "self", "self%", "function", "package", "location"}, clip(ByTotal(r.Functions), opts.Top),
		func(row Row) []string {
			st := selfTotal(row, onCPU)
			return []string{st[2], st[3], st[0], st[1], fitName(FunctionName(row.Key)), fitName(row.Key.Package), fitPath(Location(row.Key))}
		})
	if len(r.Warnings) > 0 {
		tw.printf("\nWarnings:\n")
		for _, wn := range r.Warnings {
			tw.printf("  - %s\n", wn)
		}
	}
	return tw.err
}

type textWriter struct {
	w   io.Writer
	err error
}

func (t *textWriter) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, args...)
	}
}

func (t *textWriter) headline(s SideSummary) {
	t.printf("%s (%s)\n", strings.Join(s.Files, ", "), s.Format.Describe())
	if s.Runs > 1 {
		t.printf("%d runs: every figure is the mean per run\n", s.Runs)
	}
	for _, th := range s.Threads {
		t.printf("thread: %s\n", th)
	}
	if s.SampleType != "" {
		t.printf("sample type: %s\n", s.SampleType)
	}
	pct := func(part, whole int64) string {
		if whole == 0 {
			return ""
		}
		return fmt.Sprintf("%5.1f%%", 100*float64(part)/float64(whole))
	}
	lines := [][]string{
		{"wall", Duration(s.WallNs), ""},
		{"sampled", Duration(s.SampledNs), ""},
		{"on-CPU", Duration(s.OnCPUNs), pct(s.OnCPUNs, s.SampledNs) + " busy"},
		{"idle", Duration(s.IdleNs), pct(s.IdleNs, s.SampledNs) + " of sampled"},
		{"program", Duration(s.ProgramNs), pct(s.ProgramNs, s.SampledNs) + " of sampled"},
		{"GC", Duration(s.GCNs), pct(s.GCNs, s.OnCPUNs) + " of on-CPU"},
		{"samples", Count(s.Samples), "mean interval " + Duration(s.IntervalNs)},
	}
	if sy := s.Symbolication; sy != nil && sy.Scripts > 0 {
		line := []string{"maps", strings.TrimSpace(pct(sy.OnCPUMappedNs, sy.OnCPUJSNs)),
			fmt.Sprintf("of JavaScript on-CPU time mapped to sources (%d of %d scripts)", sy.MappedScripts, sy.Scripts)}
		if sy.OnCPUJSNs == 0 {
			line[1], line[2] = "-", fmt.Sprintf("no JavaScript on-CPU time (%d of %d scripts mapped)", sy.MappedScripts, sy.Scripts)
		}
		lines = append(lines, line)
	}
	t.printf("\n")
	for _, l := range lines {
		t.printf("%s\n", strings.TrimRight(fmt.Sprintf("  %-8s %10s  %s", l[0], l[1], strings.TrimSpace(l[2])), " "))
	}
}

// table writes a titled table whose first four columns (the numbers)
// align right.
func (t *textWriter) table(title string, header []string, rows []Row, cells func(Row) []string) {
	t.printf("\n%s\n", title)
	if len(rows) == 0 {
		t.printf("  (no on-CPU samples)\n")
		return
	}
	var body [][]string
	for _, r := range rows {
		body = append(body, cells(r))
	}
	t.plainTable(header, body, 4, TextOptions{}, false)
}

// Column widths of names and locations in text tables: long ones are cut in
// the middle, keeping the start of a name and the tail of a path.
const (
	nameWidth = 48
	pathWidth = 64
)

// fitName makes a name printable on one line and at most nameWidth runes:
// control characters (regular expressions hold newlines) become escapes and
// the middle of a long name gives way to "…".
func fitName(s string) string { return cutMiddle(printable(elideShapes(s)), nameWidth, nameWidth/2) }

// elideShapes shows Go's generic instantiations as pprof does:
// slices.SortFunc[go.shape.struct { ... }] reads slices.SortFunc[...].
func elideShapes(s string) string {
	i := strings.Index(s, "[go.shape.")
	if i < 0 {
		return s
	}
	var b strings.Builder
	for i >= 0 {
		b.WriteString(s[:i])
		depth, j := 0, i
		for ; j < len(s); j++ {
			if s[j] == '[' {
				depth++
			} else if s[j] == ']' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		if j == len(s) { // unbalanced: leave the rest alone
			b.WriteString(s[i:])
			return b.String()
		}
		b.WriteString("[...]")
		s = s[j+1:]
		i = strings.Index(s, "[go.shape.")
	}
	b.WriteString(s)
	return b.String()
}

// fitPath is fitName for locations, keeping more of the tail.
func fitPath(s string) string { return cutMiddle(printable(s), pathWidth, pathWidth/4) }

func printable(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) < 0 {
		return s
	}
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// cutMiddle shortens s to width runes, keeping head runes from the start and
// the rest from the end.
func cutMiddle(s string, width, head int) string {
	r := []rune(s)
	if len(r) <= width {
		return s
	}
	if width < 2 {
		return string(r[:max(width, 0)])
	}
	tail := width - head - 1
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

func count(n, top int, what string) string {
	if top > 0 && n > top {
		return fmt.Sprintf("%d of %d %s", top, n, what)
	}
	return fmt.Sprintf("%d %s", n, what)
}

func clip(rows []Row, top int) []Row {
	if top > 0 && len(rows) > top {
		return rows[:top]
	}
	return rows
}

// selfTotal formats a one-sided row's self, self%, total and total%.
func selfTotal(row Row, onCPU int64) []string {
	p := func(v int64) string {
		if onCPU == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(v)/float64(onCPU))
	}
	return []string{Duration(row.Self[0]), p(row.Self[0]), Duration(row.Total[0]), p(row.Total[0])}
}

// Location returns "file:line:column" for a function key, leaving out what
// is unknown, and "-" when there is no file.
func Location(k analyze.Key) string {
	switch {
	case k.File == "":
		return "-"
	case k.Line > 0 && k.Column > 0:
		return k.File + ":" + strconv.Itoa(int(k.Line)) + ":" + strconv.Itoa(int(k.Column))
	case k.Line > 0:
		return k.File + ":" + strconv.Itoa(int(k.Line))
	}
	return k.File
}

// Duration formats nanoseconds for people: "1.23 s", "45.6 ms", "789 µs".
func Duration(ns int64) string {
	neg := ""
	if ns < 0 {
		neg, ns = "-", -ns
	}
	f := float64(ns)
	switch {
	case ns == 0:
		return "0"
	case ns >= 1e9:
		return neg + strconv.FormatFloat(f/1e9, 'f', 2, 64) + " s"
	case ns >= 100e6:
		return neg + strconv.FormatFloat(f/1e6, 'f', 0, 64) + " ms"
	case ns >= 1e6:
		return neg + strconv.FormatFloat(f/1e6, 'f', 1, 64) + " ms"
	case ns >= 1e3:
		return neg + strconv.FormatFloat(f/1e3, 'f', 0, 64) + " µs"
	}
	return neg + strconv.FormatInt(ns, 10) + " ns"
}

// Count formats an integer with thousands separators: 14,305.
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
