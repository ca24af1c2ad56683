package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
	"github.com/profdiff/profdiff/report"
)

// The responsiveness view (the r key): the report's stall figures per
// side, a timeline strip of each run with its long stretches marked, and
// the longest stalls with what ran in them, over the whole screen as the
// help is.

// stallsTitle is the responsiveness overlay's title.
func (m Model) stallsTitle() string {
	return "profdiff: responsiveness (per run, " + m.view.SourceText() + ")"
}

// stallsLines are the responsiveness overlay's lines, wrapped to the width.
func (m Model) stallsLines() []string {
	v := m.view
	rs := v.Responsiveness()
	width := max(m.width-2, 10)
	wrap := func(lead, s string) []string {
		var out []string
		for i, l := range strings.Split(ansi.Wrap(termtext.Clean(s), width-termtext.Width(lead), " /,"), "\n") {
			if i > 0 {
				lead = strings.Repeat(" ", termtext.Width(lead))
			}
			out = append(out, lead+l)
		}
		return out
	}
	var lines []string
	if !rs.HasLong() {
		lines = append(lines, wrap("", v.NoLongStalls())...)
	}
	// The figures' table.
	t := v.ResponsivenessTable()
	head := t.Headers()
	table := [][]string{head}
	for _, row := range t.Rows {
		table = append(table, report.Texts(row.Cells))
	}
	widths := make([]int, len(head))
	for _, r := range table {
		for i, c := range r {
			widths[i] = max(widths[i], termtext.Width(c))
		}
	}
	for ri, r := range table {
		var b strings.Builder
		for i, c := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(pad(c, widths[i], t.Columns[i].Kind.Numeric()))
		}
		line := strings.TrimRight(b.String(), " ")
		if ri == 0 {
			line = m.style(styleTitle, line)
		}
		lines = append(lines, line)
	}
	lines = append(lines, "")
	lines = append(lines, m.stallsTimeline(width)...)
	lines = append(lines, "")
	lines = append(lines, wrap("", v.StallsUncertainty())...)
	if long := v.LongStallsTable(); len(long.Rows) > 0 {
		lines = append(lines, "")
		lines = append(lines, wrap("", "Longest, with the functions that ran most in them (self time) and the stack they started in:")...)
		note := report.ColumnsOf(long.Columns, report.KindNote)[0]
		for i, row := range long.Rows {
			lines = append(lines, wrap(fmt.Sprintf("%d. ", i+1), row.Cells[note].Text)...)
		}
	}
	return lines
}

// Timeline marks: a cell with a stretch over 50 ms, one over 16 ms, none.
const (
	markLong  = '█'
	markFrame = '▒'
	markNone  = '·'
)

// stallsTimeline draws one strip a run, all on one time scale, each cell
// marked by the longest stretch over 16 ms that overlaps it.
func (m Model) stallsTimeline(width int) []string {
	rs := m.view.Responsiveness()
	r := m.report()
	var labels []string
	var runs []*analyze.Stalls
	var lo, hi int64
	for si, side := range rs.Runs {
		for ri, st := range side {
			label := r.Sides[si].Name
			if len(side) > 1 {
				label += fmt.Sprintf(" %d", ri+1)
			}
			labels = append(labels, label)
			runs = append(runs, st)
			hi = max(hi, st.EndNs)
			for _, s := range st.Long {
				lo, hi = min(lo, s.Start), max(hi, s.Start+s.Duration)
			}
		}
	}
	lw := 0
	for _, l := range labels {
		lw = max(lw, termtext.Width(l))
	}
	lw = min(lw, width/3)
	cells := width - lw - 3
	if cells < 8 || hi <= lo {
		return nil
	}
	lines := []string{fmt.Sprintf("Timeline, %s to %s: %c over 50 ms, %c over 16 ms",
		units.Duration(float64(lo)), units.Duration(float64(hi)), markLong, markFrame)}
	for i, st := range runs {
		lines = append(lines, pad(truncate(labels[i], lw), lw, false)+" |"+strip(st.Long, lo, hi, cells)+"|")
	}
	return lines
}

// strip draws spans on cells cells covering lo to hi.
func strip(spans []analyze.Span, lo, hi int64, cells int) string {
	row := []rune(strings.Repeat(string(markNone), cells))
	span := float64(hi - lo)
	for _, s := range spans {
		mark := markFrame
		if s.Duration > analyze.LongStallNs {
			mark = markLong
		}
		a := int(float64(s.Start-lo) / span * float64(cells))
		b := int(float64(s.Start+s.Duration-lo) / span * float64(cells))
		for c := max(a, 0); c <= min(b, cells-1); c++ {
			if row[c] != markLong {
				row[c] = mark
			}
		}
	}
	return string(row)
}
