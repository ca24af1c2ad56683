package tui

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
	"github.com/profdiff/profdiff/report"
)

// sourceCache keeps the text of source files once read and the
// functions' listings once built, shared by the copies of a model.
type sourceCache struct {
	mu       sync.Mutex
	files    map[sideFile][]string // nil: not available
	texts    map[textKey]*diff.SourceText
	listings map[listingKey]*diff.SourceListing
}

// textKey is a file's texts in two sides (indices for Input.Source).
type textKey struct {
	sides [2]int
	file  string
}

type sideFile struct {
	side int
	file string
}

type listingKey struct {
	r  *diff.Report
	fn int32
}

func newSourceCache() *sourceCache {
	return &sourceCache{files: map[sideFile][]string{}, texts: map[textKey]*diff.SourceText{}, listings: map[listingKey]*diff.SourceListing{}}
}

// inputSide returns the index Input.Source takes for side si of the
// report shown: with Several, the pair's base and variant among all sides.
func (m Model) inputSide(si int) int {
	sev := m.in.Several
	if sev == nil || !sev.Judged() {
		return si
	}
	if si == 0 {
		return sev.Base
	}
	return sev.Variants()[m.in.Variant].Side
}

// sourceLines returns side si's lines of a file (si indexes the report
// shown), read once through Input.Source; nil when the file is not at
// hand.
func (m Model) sourceLines(si int, file string) []string {
	if m.in.Source == nil || file == "" || m.src == nil {
		return nil
	}
	k := sideFile{m.inputSide(si), file}
	m.src.mu.Lock()
	ls, ok := m.src.files[k]
	m.src.mu.Unlock()
	if ok {
		return ls
	}
	if text, ok := m.in.Source(k.side, file); ok {
		ls = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	}
	m.src.mu.Lock()
	m.src.files[k] = ls
	m.src.mu.Unlock()
	return ls
}

// listing returns a function's annotated source (diff.SourceListing: the
// first and the last side's texts, aligned when they differ), built once.
func (m Model) listing(fn int32) *diff.SourceListing {
	r := m.report()
	if m.src == nil {
		l := r.SourceListing(fn, nil)
		return &l
	}
	k := listingKey{r, fn}
	m.src.mu.Lock()
	l, ok := m.src.listings[k]
	m.src.mu.Unlock()
	if ok {
		return l
	}
	file := r.Functions[fn].Key.File
	last := len(r.Sides) - 1
	tk := textKey{[2]int{m.inputSide(0), m.inputSide(last)}, file}
	m.src.mu.Lock()
	t, ok := m.src.texts[tk]
	m.src.mu.Unlock()
	if !ok {
		t = diff.NewSourceText(m.sourceLines(0, file), m.sourceLines(last, file))
		m.src.mu.Lock()
		m.src.texts[tk] = t
		m.src.mu.Unlock()
	}
	built := r.SourceListing(fn, t)
	m.src.mu.Lock()
	m.src.listings[k] = &built
	m.src.mu.Unlock()
	return &built
}

// sourceShown reports whether the function's screen has a source pane.
func (m Model) sourceShown() bool {
	s := m.top()
	if s.kind != kindCalls {
		return false
	}
	l := m.listing(s.fnRow)
	return l.HasText && l.Len() > 0
}

// sourceRows is how many lines of code the pane shows.
func (m Model) sourceRows() int { return max(m.layout().pane-2, 1) }

// startRow returns the row (1-based) of a function's first line in its
// listing.
func (m Model) startRow(fn int32) int32 {
	start := max(m.report().Functions[fn].Key.Line, 1)
	l := m.listing(fn)
	if !l.Aligned {
		return start
	}
	// The function's start is a line of either text: the row of it
	// nearest above the first row with time, as --source starts.
	if first, _ := l.Span(start, 0); first >= 0 {
		return int32(first + 1)
	}
	return 1
}

// srcTopFor returns the first row the pane shows: the function's start
// when the selected row fits under it, else a window with the selected
// row in its upper third; then as the user scrolled.
func (m Model) srcTopFor(s *screen, rows, n int) int32 {
	start := m.startRow(s.fnRow)
	top := s.srcTop
	if top == 0 {
		top = start
		if s.srcLine < top || s.srcLine >= top+int32(rows) {
			top = s.srcLine - int32(rows/3)
		}
	}
	if s.srcLine < top {
		top = s.srcLine
	}
	if s.srcLine >= top+int32(rows) {
		top = s.srcLine - int32(rows) + 1
	}
	return max(min(top, int32(n-rows+1)), 1)
}

// hotRows are the rows (1-based) of a function's listing with self time
// (the pane's columns).
func (m Model) hotRows(fn int32) []int32 {
	l := m.listing(fn)
	var out []int32
	for _, i := range l.HotRows() {
		row := l.Row(i)
		if slices.ContainsFunc(rowSelf(m.report(), &row), func(v float64) bool { return v > 0 }) {
			out = append(out, int32(i+1))
		}
	}
	return out
}

// rowSelf returns a row's self time on each side (the first side's from
// the before line, the last's from the after line; 0 where none).
func rowSelf(r *diff.Report, row *diff.SourceRow) []float64 {
	v := make([]float64, len(r.Sides))
	last := len(r.Sides) - 1
	for si := range v {
		lt := row.Time[0]
		if si == last {
			lt = row.Time[1]
		} else if si > 0 && row.Time[0] != row.Time[1] {
			lt = nil
		}
		if lt != nil {
			v[si] = lt.Self.Mean[si]
		}
	}
	return v
}

// hottestRow returns the row (1-based) with the most self time on either
// side (the first such on a tie), 0 when none has time.
func (m Model) hottestRow(fn int32) int32 {
	l := m.listing(fn)
	best, most := int32(0), -1.0
	for _, i := range m.hotRows(fn) {
		row := l.Row(int(i - 1))
		if v := slices.Max(rowSelf(m.report(), &row)); v > most {
			best, most = i, v
		}
	}
	return best
}

// sourceKey handles a key while the source pane has focus; false for the
// keys it leaves to the screen.
func (m *Model) sourceKey(msg tea.KeyPressMsg) bool {
	s := m.top()
	n := m.listing(s.fnRow).Len()
	rows := m.sourceRows()
	k := m.keys
	switch {
	case key.Matches(msg, k.Up):
		m.moveSource(-1)
	case key.Matches(msg, k.Down):
		m.moveSource(1)
	case key.Matches(msg, k.PageUp):
		m.moveSource(-int32(max(rows-1, 1)))
	case key.Matches(msg, k.PageDown):
		m.moveSource(int32(max(rows-1, 1)))
	case key.Matches(msg, k.Top):
		m.moveSource(-int32(n))
	case key.Matches(msg, k.Bottom):
		m.moveSource(int32(n))
	case key.Matches(msg, k.NextHot), key.Matches(msg, k.PrevHot):
		hot := m.hotRows(s.fnRow)
		next := key.Matches(msg, k.NextHot)
		target := int32(-1)
		for _, row := range hot {
			if next && row > s.srcLine {
				target = row
				break
			}
			if !next && row < s.srcLine {
				target = row
			}
		}
		switch {
		case len(hot) == 0:
			m.status = "no line of this function has per-line time"
		case target < 0 && next:
			m.status = "no hot line below"
		case target < 0:
			m.status = "no hot line above"
		default:
			m.moveSource(target - s.srcLine)
		}
	case key.Matches(msg, k.Back), key.Matches(msg, k.NextTab), key.Matches(msg, k.PrevTab):
		s.srcFocus = false
	case key.Matches(msg, k.Enter):
	default:
		return false
	}
	return true
}

// moveSource moves the pane's selected row, the window following it.
func (m *Model) moveSource(d int32) {
	s := m.top()
	n := m.listing(s.fnRow).Len()
	rows := m.sourceRows()
	s.srcTop = m.srcTopFor(s, rows, n)
	s.srcLine = max(min(s.srcLine+d, int32(n)), 1)
	s.srcTop = m.srcTopFor(s, rows, n)
}

// sourceLineLabel names the selected row's line for the footer: "line N",
// or with the texts aligned the line of each build ("line 12 → 14", "line
// 12 (before only)").
func (m Model) sourceLineLabel(s *screen) string {
	l := m.listing(s.fnRow)
	i := int(s.srcLine) - 1
	if i < 0 || i >= l.Len() {
		return fmt.Sprintf("source line %d", s.srcLine)
	}
	row := l.Row(i)
	switch {
	case !l.Aligned:
		return fmt.Sprintf("source line %d", row.Line[1])
	case row.Op == diff.SourceRemoved:
		return fmt.Sprintf("source line %d (before only)", row.Line[0])
	case row.Op == diff.SourceAdded:
		return fmt.Sprintf("source line %d (after only)", row.Line[1])
	case row.Line[0] != row.Line[1]:
		return fmt.Sprintf("source line %d → %d", row.Line[0], row.Line[1])
	}
	return fmt.Sprintf("source line %d", row.Line[1])
}

// sourcePane shows a function's source with the self time each line had
// on each side, where the profile records lines; when the function's text
// differs between the builds, both texts aligned as a line diff (lines
// only before marked -, only after +, each with its own side's time, a
// moved line with both line numbers and its verdict). The rows are the
// report's table of the listing (report.SourceTable, self time only) for
// the window shown; a title says what it shows, or why there are no
// per-line times.
func (m Model) sourcePane(s *screen, height int) []string {
	l := m.listing(s.fnRow)
	rows := max(height-2, 1)
	top := m.srcTopFor(s, rows, l.Len())
	var shown []int
	for i := int(top); i <= l.Len() && len(shown) < height-2; i++ {
		shown = append(shown, i-1)
	}
	t := report.SourceTable(m.report(), l, shown, report.SourceTableOptions{SelfOnly: true, ShownOnly: true, Tab: "  "})
	out := []string{termtext.Fit(m.sourceTitle(s, l), m.width, false), sourceHead(&t)}
	for k, row := range t.Rows {
		out = append(out, m.sourceLine(&t, row.Cells, int32(shown[k]+1) == s.srcLine && s.srcFocus))
	}
	return out
}

// sourceTitle heads the source pane: the function's file and line, and
// what the keys do or why there are no lines.
func (m Model) sourceTitle(s *screen, l *diff.SourceListing) string {
	f := m.report().Functions[s.fnRow].Key
	hot := m.hotRows(s.fnRow)
	title := fmt.Sprintf("── %s:%d", m.view.File(f), max(f.Line, 1))
	switch {
	case len(hot) == 0:
		title += " · " + m.noLinesReason(s.fnRow)
	case s.srcFocus:
		title += " · ↑/↓ scroll, ]/[ next/previous hot line, tab or esc leaves"
	default:
		top := l.Row(int(m.hottestRow(s.fnRow) - 1)).Line
		hottest := fmt.Sprint(top[1])
		if top[1] == 0 {
			hottest = fmt.Sprint(top[0])
		}
		title += fmt.Sprintf(" · %s with time, hottest %s (tab: scroll, ]/[: hot lines)", units.Plural(len(hot), "line", "lines"), hottest)
		if n := len(l.Outside); n > 0 {
			title += fmt.Sprintf(" · %s past the file's end (code V8 inlined from another script)", units.Plural(n, "line", "lines"))
		}
	}
	return title
}

// sourceLabels name the source pane's time columns (the table's columns
// of durations): before and after, or with one side self.
func sourceLabels(t *report.Table) []string {
	if len(report.ColumnsOf(t.Columns, report.KindDuration)) == 2 {
		return []string{"before", "after"}
	}
	return []string{"self"}
}

// sourceHead is the source pane's header line: line numbers (old and new
// when the two sides' texts are aligned), times, change.
func sourceHead(t *report.Table) string {
	aligned := len(report.ColumnsOf(t.Columns, report.KindCount)) == 2
	head := fmt.Sprintf("  %5s", "line")
	if aligned {
		head = fmt.Sprintf("  %4s %4s", "old", "new")
	}
	for _, l := range sourceLabels(t) {
		head += " " + pad(l, 9, true)
	}
	if t.Changes() {
		head += " " + pad("change", 9, true) + " " + pad("", 6, false)
	}
	head += " │"
	if aligned {
		head += " texts differ (-old +new)"
	}
	return head
}

// sourceLine lays out one row of the source table: cursor, line numbers,
// each side's self time (blank for none), the change and its verdict
// (blank unless real), then the mark and text, coloured when the line was
// added or removed.
func (m Model) sourceLine(t *report.Table, cells []report.Cell, cursor bool) string {
	mark := " "
	if cursor {
		mark = "›"
	}
	var nums, figures, op, text string
	for i, c := range t.Columns {
		cell := cells[i]
		switch c.Kind {
		case report.KindCount:
			w := 5
			if nums != "" || len(report.ColumnsOf(t.Columns, report.KindCount)) == 2 {
				w = 4
			}
			if nums != "" {
				nums += " "
			}
			nums += fmt.Sprintf("%*s", w, cell.Text)
		case report.KindDuration:
			if cell.Value <= 0 {
				cell.Text = ""
			}
			figures += " " + pad(cell.Text, 9, true)
		case report.KindChange:
			figures += " " + pad(cell.Text, 9, true)
		case report.KindVerdict:
			if !cell.Verdict.Real() {
				cell.Text = ""
			}
			figures += " " + pad(cell.Text, 6, false)
		case report.KindLabel:
			op = cell.Text
		case report.KindNote:
			text = cell.Text
		}
	}
	line := fmt.Sprintf("%s %s%s │%s%s", mark, nums, figures, op, text)
	switch {
	case cursor:
		return m.style(styleCursor, truncate(line, m.width))
	case op == string(diff.SourceRemoved.Mark()):
		return m.style(styleWorse, truncate(line, m.width))
	case op == string(diff.SourceAdded.Mark()):
		return m.style(styleBetter, truncate(line, m.width))
	}
	return line
}

// noLinesReason says why a function shows no per-line times.
func (m Model) noLinesReason(fn int32) string {
	r := m.report()
	if minified, ok := r.BundledLines[fn]; ok {
		if minified {
			return "no per-line times: " + report.MinifiedLinesNote
		}
		return "no per-line times: " + report.BundledLinesNote
	}
	for _, sd := range r.Sides {
		if sy := sd.Symbolication; sy != nil && sy.MappedScripts > 0 {
			return "no per-line times: lines were recorded in the bundle, not in this source"
		}
	}
	if len(r.Lines) == 0 {
		return "no per-line times: the profile records no lines"
	}
	return "no per-line times: no sample of this function recorded its line"
}

// stepsPane shows the selected path's steps, one a line, with the change
// where it enters and where it ends.
func (m Model) stepsPane(rows []line, height int) []string {
	s := m.top()
	if s.cursor >= len(rows) || rows[s.cursor].path < 0 {
		return nil
	}
	p := m.report().Paths[rows[s.cursor].path]
	steps := m.view.Steps(p)
	out := []string{termtext.Fit(fmt.Sprintf("── path %d: %s, ends in %s (enter opens %s)", rows[s.cursor].path+1,
		units.Plural(len(steps), "step", "steps"), p.End, steps[len(steps)-1].Name), m.width, false)}
	first := 0
	if len(steps) > height-1 {
		first = len(steps) - (height - 2)
		out = append(out, fmt.Sprintf("   … %d steps above", first))
	}
	nameW := 0
	for _, st := range steps[first:] {
		nameW = max(nameW, termtext.Width(st.Name))
	}
	nameW = min(nameW, max(m.width/2, 20))
	for i := first; i < len(steps); i++ {
		st := steps[i]
		out = append(out, strings.TrimRight(fmt.Sprintf(" %3d %s  %s", i+1, pad(termtext.Fit(st.Name, nameW, false), nameW, false), st.Change), " "))
	}
	return out
}
