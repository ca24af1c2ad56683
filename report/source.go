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

// writeFunctionSource writes one function's annotated source.
func writeFunctionSource(w io.Writer, v *View, fn int32, opts SourceOptions) {
	r := v.Report()
	row := &r.Functions[fn]
	k := row.Key
	fmt.Fprintf(w, "ROUTINE %s  %s\n", v.Name(k), termtext.Clean(v.Location(k)))
	fmt.Fprintf(w, "  self %s, total %s\n", measureText(r, &row.Self), measureText(r, &row.Total))
	lines := r.FunctionLines(fn)
	if m, ok := r.LinesBeforeStart[fn]; ok {
		fmt.Fprintf(w, "  %s\n", inlinedLinesNote(r, m))
	}
	if !slices.ContainsFunc(lines, func(l diff.LineTime) bool { return l.Line > 0 }) {
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
	// The texts of each side (the first's and the last's).
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
	listing := r.SourceListing(fn, diff.NewSourceText(texts[0], texts[1]))
	first, last := listing.Span(k.Line, opts.Context)
	if first < 0 && listing.HasText {
		notes = append(notes, termtext.Clean(k.File)+" has fewer lines than the profile records")
		listing = r.SourceListing(fn, nil)
		first, last = listing.Span(k.Line, opts.Context)
	}
	for _, n := range slices.Compact(notes) {
		fmt.Fprintf(w, "  (source: %s)\n", n)
	}
	writeSourceRows(w, r, &listing, elide(&listing, first, last, opts.Context))
}

// elide returns the listing's rows from first to last as indices, with
// runs of more than maxGap rows without time, beyond context rows from a
// row with time, each replaced by one gap: -n for n rows elided. Up to
// maxWhole rows are kept whole.
func elide(l *diff.SourceListing, first, last, context int) []int {
	var out []int
	if first < 0 {
		return nil
	}
	if last-first+1 <= maxWhole {
		for i := first; i <= last; i++ {
			out = append(out, i)
		}
		return out
	}
	n := last - first + 1
	near := make([]bool, n)
	near[0] = true // the function's first line
	for i := range n {
		if l.Hot(first + i) {
			for j := max(0, i-context); j <= min(n-1, i+context); j++ {
				near[j] = true
			}
		}
	}
	for i := 0; i < n; {
		if near[i] {
			out = append(out, first+i)
			i++
			continue
		}
		j := i
		for j < n && !near[j] {
			j++
		}
		if j-i > maxGap {
			out = append(out, -(j - i))
		} else {
			for x := i; x < j; x++ {
				out = append(out, first+x)
			}
		}
		i = j
	}
	return out
}

// writeSourceRows writes the rows (indices of the listing's rows, -n for
// a gap of n rows) as SourceTable lays them out: its figures padded to
// their columns' widths, right-aligned but for the verdict, then each
// row's mark and text.
func writeSourceRows(w io.Writer, r *diff.Report, l *diff.SourceListing, shown []int) {
	t := SourceTable(r, l, shown, SourceTableOptions{})
	figures := slices.IndexFunc(t.Columns, func(c Column) bool { return c.Kind == KindLabel }) // the mark and text follow
	widths := make([]int, figures)
	for i, c := range t.Columns[:figures] {
		widths[i] = utf8.RuneCountInString(c.Header)
	}
	for _, row := range t.Rows {
		for i, c := range row.Cells[:figures] {
			widths[i] = max(widths[i], utf8.RuneCountInString(c.Text))
		}
	}
	line := func(texts func(i int) string) string {
		var b strings.Builder
		b.WriteString(" ")
		for i, c := range t.Columns[:figures] {
			text := texts(i)
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(text))
			if c.Kind == KindVerdict {
				b.WriteString(" " + text + pad) // the verdict, left-aligned before the text
			} else {
				b.WriteString(" " + pad + text)
			}
		}
		return b.String()
	}
	fmt.Fprintf(w, "%s\n", strings.TrimRight(line(func(i int) string { return t.Columns[i].Header }), " "))
	for _, row := range t.Rows {
		figs := line(func(i int) string { return row.Cells[i].Text })
		fmt.Fprintf(w, "%s\n", strings.TrimRight(figs+" "+row.Cells[figures].Text+" "+row.Cells[figures+1].Text, " "))
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

// inlinedLinesNote says how much of a function's self time, m, the
// profile records on lines before the function's first line: lines of
// other functions that the engine inlined into it.
func inlinedLinesNote(r *diff.Report, m diff.Measure) string {
	m.Change.DeltaPct = math.NaN() // the amounts, not a judged change
	return fmt.Sprintf("%s of the self time is on lines before the function's first line: code of other functions inlined into it, recorded on its lines",
		measureText(r, &m))
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
