package tui

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
	"github.com/profdiff/profdiff/report"
)

var (
	styleTitle  = lipgloss.NewStyle().Bold(true)
	styleCursor = lipgloss.NewStyle().Reverse(true)
	styleDim    = lipgloss.NewStyle().Faint(true)
	styleBetter = lipgloss.NewStyle().Foreground(lipgloss.Color("2"))
	styleWorse  = lipgloss.NewStyle().Foreground(lipgloss.Color("1"))
)

// compactBelow is the terminal height under which the headline takes one
// line.
const compactBelow = 30

// frame is how a screen's rows are shared: the header lines, the table's
// rows, and the pane under it (a function's source, a path's steps).
type frame struct {
	header []string
	table  int
	pane   int
}

// layout shares the screen's height. A pane takes what the table does not
// need, and at least a third (two thirds while the source has focus).
func (m Model) layout() frame {
	hdr := m.headerLines()
	avail := m.height - len(hdr) - 1 - 2 // column titles; footer and keys
	f := frame{header: hdr, table: max(avail, 1)}
	s := m.top()
	want := false
	switch s.kind {
	case kindCalls:
		want = m.sourceShown()
	case kindPaths:
		want = len(m.report().Paths) > 0
	}
	if want && avail >= 8 {
		most := avail * 2 / 3
		if s.srcFocus {
			most = avail / 3
		}
		f.table = min(max(len(m.rows()), 1), most)
		f.pane = avail - f.table
	}
	return f
}

// View renders the screen.
func (m Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	return v
}

// Render returns the screen as text (with ANSI styles when Color is on).
func (m Model) Render() string {
	if m.overlay != overlayNone {
		return m.renderOverlay()
	}
	lay := m.layout()
	var b strings.Builder
	for _, l := range lay.header {
		b.WriteString(truncate(l, m.width) + "\n")
	}
	rows := m.rows()
	s := m.top()
	t := m.tableLayout(rows)
	b.WriteString(m.style(styleTitle, truncate(t.titleLine(), m.width)) + "\n")
	m.writeRows(&b, rows, t, lay.table)
	if lay.pane > 0 {
		var pane []string
		if s.kind == kindCalls {
			pane = m.sourcePane(s, lay.pane)
		} else {
			pane = m.stepsPane(rows, lay.pane)
		}
		for i := range lay.pane {
			if i < len(pane) {
				b.WriteString(truncate(pane[i], m.width))
			}
			b.WriteString("\n")
		}
	}
	b.WriteString(truncate(m.footer(rows), m.width) + "\n")
	b.WriteString(truncate(m.shortHelp(), m.width))
	return b.String()
}

// writeRows writes the h table rows around the cursor, padded to h lines.
func (m Model) writeRows(b *strings.Builder, rows []line, t table, h int) {
	s := m.top()
	offset := s.offset
	if s.cursor >= offset+h {
		offset = s.cursor - h + 1
	}
	offset = max(min(offset, len(rows)-h), 0)
	end := min(offset+h, len(rows))
	for i := offset; i < end; i++ {
		if r := rows[i]; r.header {
			b.WriteString(m.style(styleTitle, truncate(" "+r.names[0], m.width)) + "\n")
		} else {
			b.WriteString(m.rowLine(r, i == s.cursor && !s.srcFocus, t) + "\n")
		}
	}
	shown := end - offset
	if len(rows) == 0 {
		msg := " (no rows)"
		if s.kind == kindPaths {
			msg = " (no call path carries a change judged real)"
		}
		b.WriteString(msg + "\n")
		shown = 1
	}
	for ; shown < h; shown++ {
		b.WriteString("\n")
	}
}

// rowLine is one row of the table, cut to the width and styled by its
// verdict, or as the cursor.
func (m Model) rowLine(r line, cursor bool, t table) string {
	s := m.top()
	ln := " "
	if cursor {
		ln = "›" // the cursor, visible without colour too
	}
	for _, j := range t.keep {
		c := ""
		if j < len(r.cells) {
			c = r.cells[j]
		}
		ln += pad(c, t.w[j], true) + " "
	}
	for j := range t.names {
		n := ""
		if j < len(r.names) {
			n = r.names[j]
		}
		if j == 0 && t.dup[n] && r.key.File != "" {
			n += " (" + m.shortLocation(r) + ")"
		}
		n = termtext.Fit(n, t.nw[j], j > 0 && t.nameKinds[j] == report.KindLocation || s.kind == kindPaths)
		ln += pad(n, t.nw[j], false) + " "
	}
	ln = truncate(strings.TrimRight(ln, " "), m.width)
	switch {
	case cursor:
		return m.style(styleCursor, ln)
	case r.verdict == diff.VerdictBetter || r.verdict == diff.VerdictGone:
		return m.style(styleBetter, ln)
	case r.verdict == diff.VerdictWorse || r.verdict == diff.VerdictNew:
		return m.style(styleWorse, ln)
	case r.verdict == diff.VerdictSame:
		return m.style(styleDim, ln)
	}
	return ln
}

// table is how a screen's columns fit the width.
type table struct {
	titles []string // every numeric column's title, the sorted one marked
	keep   []int    // the numeric columns shown
	w      []int    // per numeric column
	names  []string // the name columns shown
	// nameKinds are the kinds of the name columns shown.
	nameKinds []report.Kind
	nw        []int
	// dup marks names shown more than once while the location column is
	// left out: they get a short location.
	dup map[string]bool
}

// titleLine is the line of the shown columns' titles.
func (t table) titleLine() string {
	head := " "
	for _, i := range t.keep {
		head += pad(t.titles[i], t.w[i], true) + " "
	}
	for j, n := range t.names {
		head += pad(n, t.nw[j], false) + " "
	}
	return strings.TrimRight(head, " ")
}

// room is the width left to the name columns in a screen width wide.
func (t table) room(width int) int {
	used := 1
	for _, i := range t.keep {
		used += t.w[i] + 1
	}
	return width - used - len(t.names)
}

// tableLayout sizes the columns: numeric columns fit their contents, and
// names share the rest. When the names would get too little room, the
// columns of dropOrder go, one by one, so that names shrink last.
func (m Model) tableLayout(rows []line) table {
	cols := m.columns()
	t := table{titles: slices.Clone(cols), names: m.nameColumns()}
	sorted, arrow := m.sortMark()
	if sorted >= 0 && sorted < len(cols) {
		t.titles[sorted] += arrow
	}
	t.w = make([]int, len(cols))
	for i, c := range t.titles {
		t.w[i] = termtext.Width(c)
	}
	for _, r := range rows {
		if r.header {
			continue
		}
		for i, c := range r.cells {
			if i < len(t.w) {
				t.w[i] = max(t.w[i], termtext.Width(c))
			}
		}
	}
	for i := range cols {
		t.keep = append(t.keep, i)
	}
	need := func() int { return []int{0, 28, 44, 66}[len(t.names)] }
	all := m.tableColumns()
	loc := locationColumn(all)
	named := make([]int, len(t.names)) // the name columns shown, by index into all
	for j := range named {
		named[j] = len(cols) + j
		t.nameKinds = append(t.nameKinds, all[len(cols)+j].Kind)
	}
	for _, d := range m.dropOrder() {
		if t.room(m.width) >= need() {
			break
		}
		if d < len(cols) {
			t.keep = slices.DeleteFunc(t.keep, func(i int) bool { return i == d })
		} else if j := slices.Index(named, d); j >= 0 {
			named = slices.Delete(named, j, j+1)
			t.names = slices.Delete(t.names, j, j+1)
			t.nameKinds = slices.Delete(t.nameKinds, j, j+1)
		}
	}
	hadLocation, lostLocation := loc >= 0, loc >= 0 && !slices.Contains(named, loc)
	if sorted == len(cols) && len(t.names) > 0 {
		t.names[0] += arrow
	}
	t.nw = nameWidths(widestNames(t.names, rows, hadLocation && len(t.names) < 3), max(t.room(m.width), 10))
	if lostLocation {
		t.dup = repeatedNames(rows)
	}
	return t
}

// sortMark returns the column the rows are sorted by (len(columns) for the
// names) and the arrow that marks its direction.
func (m Model) sortMark() (int, string) {
	s := m.top()
	sorted, desc := s.sortCol, true
	if sorted < 0 {
		sorted = m.defaultSortCol()
	} else if sorted == len(m.columns()) {
		desc = false // names: alphabetical
	}
	if s.sortRev {
		desc = !desc
	}
	if !desc {
		return sorted, "▲"
	}
	return sorted, "▼"
}

// widestNames is the width each name column's content asks for, with room
// for a short location after the first name when shortLoc.
func widestNames(names []string, rows []line, shortLoc bool) []int {
	widest := make([]int, len(names))
	for i, n := range names {
		widest[i] = termtext.Width(n)
	}
	for _, r := range rows {
		if r.header {
			continue
		}
		for i := range widest {
			if i < len(r.names) {
				extra := 0
				if i == 0 && shortLoc {
					extra = 12 // room for a short location
				}
				widest[i] = max(widest[i], termtext.Width(r.names[i])+extra)
			}
		}
	}
	return widest
}

// repeatedNames marks the names more than one selectable row shows.
func repeatedNames(rows []line) map[string]bool {
	seen := map[string]int{}
	for _, r := range rows {
		if r.selectable() && len(r.names) > 0 {
			seen[r.names[0]]++
		}
	}
	dup := map[string]bool{}
	for n, c := range seen {
		if c > 1 {
			dup[n] = true
		}
	}
	return dup
}

// shortLocation is a row's file name and line, to tell apart two
// functions of one name when the location column does not fit.
func (m Model) shortLocation(r line) string {
	loc := path.Base(m.view.File(r.key))
	if r.key.Line > 0 {
		loc += ":" + strconv.Itoa(int(r.key.Line))
	}
	return loc
}

// headerLines are the headline, the warnings, the tabs and where the
// drill-down stands. Short of rows, the headline takes one line.
func (m Model) headerLines() []string {
	r := m.report()
	compact := m.height < compactBelow
	hl := m.view.HeadlineTable()
	var out []string
	if hl.Sides() > 1 {
		if compact {
			out = append(out, m.compactHeadline(&hl))
		} else {
			out = append(out, m.sideLines()...)
			if mt := m.view.Matched(); mt != "" { // two checkouts: say where each side's files are
				out = append(out, mt)
			}
			out = append(out, headlineLines(&hl)...)
		}
	} else {
		if !compact {
			out = append(out, "profile: "+report.SideLine(r.Sides[0]))
		}
		out = append(out, headlineLine(&hl))
	}
	ws := r.Warnings
	if len(ws) > 0 && !compact {
		w := "warning: " + ws[0].String() + " (w)"
		if len(ws) > 1 {
			w = fmt.Sprintf("%d warnings (w lists them); first: %s", len(ws), ws[0])
		}
		out = append(out, termtext.Fit(termtext.Clean(w), max(m.width, 20), false))
	}
	var tabs []string
	for _, k := range m.tabKinds() {
		t := " " + kindNames[k] + " "
		if m.stack[0].kind == k {
			t = "[" + kindNames[k] + "]"
		}
		tabs = append(tabs, t)
	}
	state := "time: " + m.metric().String()
	if m.hideNoise {
		state += ", ~ hidden"
	}
	tabLine := strings.Join(tabs, " ") + "   " + state
	if termtext.Width(tabLine) > m.width {
		// Narrow: short tab names, so that the state stays in view.
		tabs = tabs[:0]
		for _, k := range m.tabKinds() {
			t := " " + shortKindNames[k] + " "
			if m.stack[0].kind == k {
				t = "[" + shortKindNames[k] + "]"
			}
			tabs = append(tabs, t)
		}
		tabLine = strings.Join(tabs, "") + "  " + state
	}
	out = append(out, tabLine)
	out = append(out, m.breadcrumb())
	return out
}

// compactHeadline is the headline on one line: on-CPU time before and
// after, its change and verdict, then the run counts and what else fits.
func (m Model) compactHeadline(hl *report.Table) string {
	r := m.report()
	ms, label := r.Headline.OnCPU, "on-CPU/run"
	if r.PerWork {
		ms, label = r.Headline.PerWork, "on-CPU/"+r.Options.WorkUnit
	}
	change := report.HeadlineChange(ms.Change)
	line := label + " " + units.Duration(ms.Mean[0]) + " → " + units.Duration(ms.Mean[1]) + " " + change
	if termtext.Width(line) > m.width {
		// Keep the verdict and p whole: leave out the absolute delta.
		if i := strings.IndexByte(change, ' '); i > 0 {
			if j := strings.IndexByte(change[i+1:], ' '); j > 0 {
				change = change[i+1+j+1:]
			}
		}
		line = "on-CPU " + units.Duration(ms.Mean[0]) + " → " + units.Duration(ms.Mean[1]) + " " + change
	}
	extra := []string{fmt.Sprintf("runs %d → %d", r.Sides[0].Runs, r.Sides[1].Runs)}
	for _, row := range hl.Rows {
		l := report.Texts(row.Cells)
		if l[0] == "GC share" || l[0] == "busy" {
			extra = append(extra, l[0]+" "+l[1]+" → "+l[2])
		}
	}
	for _, e := range extra {
		if termtext.Width(line)+3+termtext.Width(e) > m.width {
			break
		}
		line += " · " + e
	}
	return line
}

// headlineShown are the labels of the headline's rows the explorer's
// header shows: of two sides, the measures a reader checks first; of one,
// those of its one line.
var (
	headlineShown    = []string{"runs", "busy", "CPU / wall", "GC share", "maps", "unmapped", "narrowed"}
	headlineOneShown = []string{"wall", "on-CPU", "GC", "samples", "maps", "unmapped", "narrowed"}
)

// sideLines name the two sides: the base and the variant shown, exploring
// N sides; before and after.
func (m Model) sideLines() []string {
	r := m.report()
	if m.in.Several != nil {
		return []string{"base " + termtext.Clean(r.Sides[0].Name) + ": " + report.SideLine(r.Sides[0]),
			"variant " + termtext.Clean(r.Sides[1].Name) + ": " + report.SideLine(r.Sides[1])}
	}
	return []string{"before: " + report.SideLine(r.Sides[0]), "after:  " + report.SideLine(r.Sides[1])}
}

// headlineLines are a headline table of two sides' shown rows, a line
// each: the label, the sides' figures either side of an arrow, the
// change (its columns as the headline's kinds lay them out).
func headlineLines(hl *report.Table) []string {
	var out []string
	for _, row := range hl.Rows {
		l := report.Texts(row.Cells)
		if strings.HasPrefix(l[0], "on-CPU") || slices.Contains(headlineShown, l[0]) {
			out = append(out, strings.TrimRight(fmt.Sprintf("%-14s %16s → %-16s %s", l[0], l[1], l[2], l[3]), " "))
		}
	}
	return out
}

// headlineLine is a headline table of one side's shown rows on one line:
// each label and figure.
func headlineLine(hl *report.Table) string {
	var parts []string
	for _, row := range hl.Rows {
		l := report.Texts(row.Cells)
		switch {
		case l[0] == "narrowed":
			parts = append(parts, l[0]+" to "+l[1])
		case slices.Contains(headlineOneShown, l[0]):
			parts = append(parts, l[0]+" "+l[1])
		}
	}
	return strings.Join(parts, "  ")
}

func (m Model) breadcrumb() string {
	var parts []string
	for i, s := range m.stack {
		var p string
		switch s.kind {
		case kindPackage:
			p = termtext.Clean(s.pkg)
		case kindFile:
			p = m.view.File(s.file)
		case kindCalls:
			p = m.view.Name(m.report().Functions[s.fnRow].Key)
		default:
			p = kindNames[s.kind]
		}
		if s.filter != nil && i < len(m.stack)-1 {
			p += " (/" + termtext.Clean(s.filterSrc) + ")"
		}
		parts = append(parts, p)
	}
	crumb := strings.Join(parts, " › ")
	if s := m.top(); s.filter != nil {
		crumb += "   filter: " + termtext.Clean(s.filterSrc)
	}
	return termtext.Fit(crumb, max(m.width, 10), true)
}

// footer is the position in the rows, or the filter being typed, and the
// last message.
func (m Model) footer(rows []line) string {
	if m.editing {
		return " filter: " + termtext.Clean(m.draft) + "█   (enter keeps it, esc cancels)"
	}
	s := m.top()
	n, at := 0, 0
	for i, r := range rows {
		if r.selectable() {
			n++
			if i <= s.cursor {
				at = n
			}
		}
	}
	f := fmt.Sprintf(" %d/%d", at, n)
	if s.kind == kindCalls && m.sourceShown() {
		f += "   " + m.sourceLineLabel(s)
	} else if s.kind == kindCalls && m.in.SourceWhy != nil {
		if why := m.in.SourceWhy(m.report().Functions[s.fnRow].Key.File); why != "" {
			f += "   source not shown: " + termtext.Clean(why)
		}
	}
	if m.status != "" {
		f += "   " + m.status
	} else if ws := m.report().Warnings; len(ws) > 0 && m.height < compactBelow {
		f += "   " + units.Plural(len(ws), "warning", "warnings") + " (w)"
	}
	return f
}

// shortHelp is the line of keys that fit, for the screen shown.
func (m Model) shortHelp() string {
	s := m.top()
	var items [][2]string
	switch {
	case s.kind == kindCalls && s.srcFocus && m.sourceShown():
		items = [][2]string{{"↑/↓", "scroll"}, {"]/[", "hot lines"}, {"tab/esc", "leave source"}, {"?", "help"}, {"q", "quit"}}
	case s.kind == kindCalls && m.sourceShown():
		items = [][2]string{{"tab", "source"}, {"]/[", "hot lines"}, {"enter", "open"}, {"esc", "back"}, {"/", "filter"}, {"s/S", "sort"}, {"t", "self/total"}, {"?", "help"}, {"q", "quit"}}
	default:
		items = [][2]string{{"tab", "view"}, {"enter", "open"}, {"esc", "back"}, {"/", "filter"}, {"s/S", "sort"}, {"t", "self/total"}}
		if m.compares() {
			items = append(items, [2]string{"n", "hide ~"})
		}
		items = append(items, [2]string{"w", "warnings"}, [2]string{"H", "html"})
		if m.view.Responsiveness() != nil {
			items = append(items, [2]string{"r", "stalls"})
		}
		items = append(items, [2]string{"?", "help"}, [2]string{"q", "quit"})
	}
	out := ""
	for _, it := range items {
		p := it[0] + " " + it[1]
		if out != "" {
			p = " • " + p
		}
		if termtext.Width(out)+termtext.Width(p) > m.width {
			break
		}
		out += p
	}
	return out
}

// renderOverlay shows the help or the warnings over the whole screen,
// scrolled by ovOffset.
func (m Model) renderOverlay() string {
	var title string
	var body []string
	switch m.overlay {
	case overlayHelp:
		title = "profdiff: keys"
		body = m.helpGrid()
	case overlayStalls:
		title, body = m.stallsTitle(), m.stallsLines()
	case overlayWarnings:
		title = "profdiff: " + units.Plural(len(m.report().Warnings), "warning", "warnings")
		width := max(m.width-2, 10)
		for _, w := range m.report().Warnings {
			wrapped := strings.Split(ansi.Wrap(termtext.Clean(w.String()), width, " /,"), "\n")
			for i, l := range wrapped {
				lead := "  "
				if i == 0 {
					lead = "• "
				}
				body = append(body, lead+l)
			}
		}
	}
	room := max(m.height-3, 1)
	off := min(m.ovOffset, max(len(body)-room, 0))
	end := min(off+room, len(body))
	closeHint := "(esc closes"
	if len(body) > room {
		closeHint += fmt.Sprintf("; ↑/↓ scroll, lines %d-%d of %d", off+1, end, len(body))
	}
	closeHint += ")"
	var b strings.Builder
	b.WriteString(m.style(styleTitle, truncate(title, m.width)) + "\n")
	for _, l := range body[off:end] {
		b.WriteString(truncate(l, m.width) + "\n")
	}
	b.WriteString("\n" + truncate(closeHint, m.width))
	return b.String()
}

// helpGrid lays the key bindings out in as many columns as the width
// holds, filled down the columns.
func (m Model) helpGrid() []string {
	all := m.keys.all()
	kw, dw := 0, 0
	for _, b := range all {
		kw = max(kw, termtext.Width(b.Help().Key))
		dw = max(dw, termtext.Width(b.Help().Desc))
	}
	const gap = 3
	cell := kw + 1 + dw
	cols := max(1, (m.width+gap)/(cell+gap))
	nrows := (len(all) + cols - 1) / cols
	out := make([]string, nrows)
	for i, b := range all {
		r, c := i%nrows, i/nrows
		e := pad(b.Help().Key, kw, false) + " " + b.Help().Desc
		if c > 0 {
			out[r] = pad(out[r], c*(cell+gap)-gap, false) + strings.Repeat(" ", gap)
		}
		out[r] += e
	}
	return out
}

func (m Model) style(st lipgloss.Style, s string) string {
	if !m.in.Color {
		return s
	}
	return st.Render(s)
}

// nameWidths shares room among name columns by their contents (the
// widest cell of each): when all fit, each gets its widest; else the
// package and the location are capped and the name takes the rest.
func nameWidths(widest []int, room int) []int {
	n := len(widest)
	if n == 0 {
		return nil
	}
	w := slices.Clone(widest)
	sum := 0
	for _, x := range w {
		sum += x
	}
	if sum <= room {
		w[n-1] += room - sum
		return w
	}
	switch n {
	case 1:
		w[0] = room
	case 2:
		// The second (a package) takes up to a third; the row's own name
		// (a function, a file) keeps at least 18 cells while the second
		// has more than 6 to give.
		w[1] = min(w[1], room/3)
		if room-w[1] < 18 {
			w[1] = min(w[1], max(6, room-18))
		}
		w[0] = room - w[1]
	default:
		w[1] = min(w[1], min(max(room/6, 8), 24))
		w[2] = min(w[2], (room-w[1])/2)
		w[0] = room - w[1] - w[2]
	}
	return w
}

func pad(s string, w int, right bool) string { return termtext.Pad(s, w, right) }

// truncate cuts a line to width cells, leaving ANSI styles intact.
func truncate(s string, width int) string {
	if width <= 0 {
		return s
	}
	return ansi.Truncate(s, width, "")
}
