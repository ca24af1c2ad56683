// Package tui is profdiff's interactive terminal explorer over the same
// report values the text and markdown renderers write: tabs of packages,
// functions and files, sorting, filtering, hiding noise, and drilling from a
// package to its functions and from a function to its callers and callees.
// Update and View are plain functions of the model, so that tests can drive
// them without a terminal.
package tui

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
)

// Input is what the explorer shows.
type Input struct {
	// Report is the judged comparison (or the one profile): its rows carry
	// self and total time, each judged, its calls the callers and callees,
	// its lines the per-line times.
	Report *diff.Report
	// Sort is the metric shown first (t switches).
	Sort diff.Metric
	// Color styles verdicts and the cursor; false under NO_COLOR.
	Color bool
	// Source returns the text of a file named by a function row (from a
	// source map's sourcesContent or from disk); nil for none.
	Source func(file string) (string, bool)
}

// kind is what a screen lists.
type kind int

const (
	kindPackages kind = iota
	kindFunctions
	kindFiles
	kindPackage // the functions of one package
	kindCalls   // the callers and callees of one function
)

var tabNames = []string{"packages", "functions", "files"}

// screen is one level of the drill-down.
type screen struct {
	kind   kind
	pkg    string      // kindPackage
	fn     analyze.Key // kindCalls
	fnRow  int32       // kindCalls: the function's row in the report
	cursor int
	offset int
}

// Model is the explorer's state.
type Model struct {
	in        Input
	view      *diff.View
	total     bool
	stack     []screen
	filter    *regexp.Regexp
	filterSrc string
	editing   bool // typing a filter
	draft     string
	hideNoise bool
	sortCol   int // -1: the report's order (by size of change)
	width     int
	height    int
	showHelp  bool
	keys      keyMap
	help      help.Model
}

// keyMap holds the key bindings; the help screen is generated from it.
type keyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	NextTab, PrevTab, Enter, Back           key.Binding
	Filter, Sort, Total, Noise, Help, Quit  key.Binding
}

func newKeyMap() keyMap {
	b := func(keys []string, k, d string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, d))
	}
	return keyMap{
		Up:       b([]string{"up", "k"}, "↑/k", "up"),
		Down:     b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:   b([]string{"pgup", "ctrl+b"}, "pgup", "page up"),
		PageDown: b([]string{"pgdown", "ctrl+f", "space"}, "pgdn", "page down"),
		Top:      b([]string{"home", "g"}, "g", "top"),
		Bottom:   b([]string{"end", "G"}, "G", "bottom"),
		NextTab:  b([]string{"tab", "right", "l"}, "tab", "next view"),
		PrevTab:  b([]string{"shift+tab", "left", "h"}, "shift+tab", "previous view"),
		Enter:    b([]string{"enter"}, "enter", "drill down"),
		Back:     b([]string{"esc", "backspace"}, "esc", "back"),
		Filter:   b([]string{"/"}, "/", "filter (text or regexp)"),
		Sort:     b([]string{"s"}, "s", "sort by next column"),
		Total:    b([]string{"t"}, "t", "self/total time"),
		Noise:    b([]string{"n"}, "n", "hide/show ~ rows"),
		Help:     b([]string{"?"}, "?", "help"),
		Quit:     b([]string{"q", "ctrl+c"}, "q", "quit"),
	}
}

// ShortHelp and FullHelp make keyMap a help.KeyMap.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.NextTab, k.Enter, k.Back, k.Filter, k.Sort, k.Total, k.Noise, k.Help, k.Quit}
}

// FullHelp lists every binding, in columns.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.NextTab, k.PrevTab, k.Enter, k.Back},
		{k.Filter, k.Sort, k.Total, k.Noise, k.Help, k.Quit},
	}
}

// New returns the explorer's model, opening on the packages.
func New(in Input) Model {
	h := help.New()
	if !in.Color {
		h.Styles = help.Styles{} // plain
	}
	return Model{in: in, view: diff.NewView(in.Report), total: in.Sort == diff.MetricTotal, stack: []screen{{kind: kindPackages}}, sortCol: -1, width: 80, height: 24, keys: newKeyMap(), help: h}
}

// Run runs the explorer on a terminal until the user quits. A width and
// height of 0 take the terminal's size; others fix it (for output that is no
// terminal).
func Run(in Input, input io.Reader, output io.Writer, width, height int) error {
	opts := []tea.ProgramOption{tea.WithInput(input), tea.WithOutput(output)}
	if width > 0 && height > 0 {
		opts = append(opts, tea.WithWindowSize(width, height))
	}
	_, err := tea.NewProgram(New(in), opts...).Run()
	return err
}

// Init starts nothing.
func (m Model) Init() tea.Cmd { return nil }

func (m Model) report() *diff.Report { return m.in.Report }

// metric is the time the rows show and judge: self, or total.
func (m Model) metric() diff.Metric {
	if m.total {
		return diff.MetricTotal
	}
	return diff.MetricSelf
}

func (m Model) top() *screen { return &m.stack[len(m.stack)-1] }

// Update handles a message and returns the new model.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.stack = slices.Clone(m.stack) // models are values: never share the stack
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.SetWidth(msg.Width)
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.move(-3)
		case tea.MouseWheelDown:
			m.move(3)
		}
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m Model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := msg.String()
	if m.editing {
		switch k {
		case "enter":
			m.editing = false
			m.setFilter(m.draft)
		case "esc":
			m.editing = false
		case "backspace":
			if r := []rune(m.draft); len(r) > 0 {
				m.draft = string(r[:len(r)-1])
			}
		case "ctrl+c":
			return m, tea.Quit
		default:
			if t := msg.Key().Text; t != "" {
				m.draft += t
			} else if k == "space" {
				m.draft += " "
			}
		}
		return m, nil
	}
	if m.showHelp {
		switch {
		case key.Matches(msg, m.keys.Quit) && k == "ctrl+c":
			return m, tea.Quit
		case key.Matches(msg, m.keys.Help), key.Matches(msg, m.keys.Back), key.Matches(msg, m.keys.Quit):
			m.showHelp = false
		}
		return m, nil
	}
	page := max(m.tableHeight()-1, 1)
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m, tea.Quit
	case key.Matches(msg, m.keys.Help):
		m.showHelp = true
	case key.Matches(msg, m.keys.Up):
		m.move(-1)
	case key.Matches(msg, m.keys.Down):
		m.move(1)
	case key.Matches(msg, m.keys.PageUp):
		m.move(-page)
	case key.Matches(msg, m.keys.PageDown):
		m.move(page)
	case key.Matches(msg, m.keys.Top):
		m.move(-math.MaxInt32)
	case key.Matches(msg, m.keys.Bottom):
		m.move(math.MaxInt32)
	case key.Matches(msg, m.keys.NextTab), key.Matches(msg, m.keys.PrevTab):
		if len(m.stack) == 1 {
			d := 1
			if key.Matches(msg, m.keys.PrevTab) {
				d = len(tabNames) - 1
			}
			m.stack[0] = screen{kind: kind((int(m.stack[0].kind) + d) % len(tabNames))}
			m.sortCol = -1
		}
	case key.Matches(msg, m.keys.Enter):
		m.drill()
	case key.Matches(msg, m.keys.Back):
		switch {
		case m.filter != nil:
			m.setFilter("")
		case len(m.stack) > 1:
			m.stack = m.stack[:len(m.stack)-1]
		}
	case key.Matches(msg, m.keys.Filter):
		m.editing, m.draft = true, m.filterSrc
	case key.Matches(msg, m.keys.Sort):
		m.sortCol++
		if m.sortCol >= len(m.columns()) {
			m.sortCol = -1
		}
	case key.Matches(msg, m.keys.Total):
		m.total = !m.total
	case key.Matches(msg, m.keys.Noise):
		m.hideNoise = !m.hideNoise
		m.top().cursor, m.top().offset = 0, 0
	}
	return m, nil
}

// setFilter applies a filter: a case-insensitive regular expression, or
// the text itself when it is not one.
func (m *Model) setFilter(src string) {
	m.filterSrc = src
	m.filter = nil
	if src != "" {
		re, err := regexp.Compile("(?i)" + src)
		if err != nil {
			re = regexp.MustCompile("(?i)" + regexp.QuoteMeta(src))
		}
		m.filter = re
	}
	m.top().cursor, m.top().offset = 0, 0
}

func (m *Model) move(d int) {
	s := m.top()
	rows := m.rows()
	n := len(rows)
	s.cursor = min(max(s.cursor+d, 0), max(n-1, 0))
	// Section titles are not rows to stand on.
	for s.cursor < n && rows[s.cursor].header {
		if d < 0 && s.cursor > 0 {
			s.cursor--
		} else if s.cursor+1 < n {
			s.cursor++
		} else {
			break
		}
	}
	h := m.tableHeight()
	if s.cursor < s.offset {
		s.offset = s.cursor
	}
	if s.cursor >= s.offset+h {
		s.offset = s.cursor - h + 1
	}
}

// drill opens the selected package's functions or function's calls.
func (m *Model) drill() {
	rows := m.rows()
	s := m.top()
	if len(rows) == 0 || s.cursor >= len(rows) {
		return
	}
	r := rows[s.cursor]
	switch {
	case s.kind == kindPackages:
		m.stack = append(m.stack, screen{kind: kindPackage, pkg: r.key.Package})
	case s.kind == kindFunctions || s.kind == kindPackage || (s.kind == kindCalls && !r.header):
		if r.fn < 0 {
			return
		}
		m.stack = append(m.stack, screen{kind: kindCalls, fn: r.key, fnRow: r.fn, cursor: 1}) // row 0 is a title
	default:
		return
	}
	m.filter, m.filterSrc = nil, ""
	m.sortCol = -1
}

// line is one row of a screen.
type line struct {
	key     analyze.Key
	fn      int32    // the function's row in the report; -1 for none
	cells   []string // numeric cells
	names   []string // name columns
	verdict diff.Verdict
	sort    []float64 // per numeric column, for sorting
	header  bool      // a section title ("callers", "callees")
}

// columns names a screen's numeric columns.
func (m Model) columns() []string {
	if m.top().kind == kindCalls {
		if m.report().Compared() {
			return diff.ChangeHeaders
		}
		return []string{"time"}
	}
	if m.report().Compared() {
		return diff.ChangeHeaders
	}
	return diff.OneSideHeaders
}

func (m Model) nameColumns() []string {
	switch m.top().kind {
	case kindPackages:
		return []string{"package"}
	case kindFiles:
		return []string{"file", "package"}
	}
	return []string{"function", "package", "location"}
}

// rows returns the current screen's rows after filter, noise and sort.
func (m Model) rows() []line {
	s := m.top()
	if s.kind == kindCalls {
		return m.calls(s.fnRow)
	}
	r := m.report()
	var src []diff.Row
	switch s.kind {
	case kindPackages:
		src = r.Packages
	case kindFiles:
		src = r.Files
	default:
		src = r.Functions
	}
	var out []line
	metric := m.metric()
	for _, i := range m.view.Order(src, metric) {
		row := &src[i]
		if s.kind == kindPackage && row.Key.Package != s.pkg {
			continue
		}
		ms := metric.Of(row)
		if m.hideNoise && r.Compared() && ms.Change.Verdict == diff.VerdictSame {
			continue
		}
		l := line{key: row.Key, fn: -1, verdict: ms.Change.Verdict}
		if r.Compared() {
			l.cells = diff.ChangeCells(ms)
		} else {
			l.cells = m.view.OneSideCells(row)
		}
		switch s.kind {
		case kindPackages:
			l.names = []string{diff.Clean(row.Key.Package)}
		case kindFiles:
			l.names = []string{m.view.File(row.Key), diff.Clean(row.Key.Package)}
		default:
			l.fn = int32(i)
			l.names = []string{m.view.RowName(row), diff.Clean(row.Key.Package), m.view.Location(row.Key)}
		}
		if m.filter != nil && !m.filter.MatchString(strings.Join(l.names, " ")) {
			continue
		}
		l.sort = sortValues(r, row, metric)
		out = append(out, l)
	}
	if m.sortCol >= 0 {
		col := m.sortCol
		slices.SortStableFunc(out, func(a, b line) int {
			if col < len(a.sort) {
				return cmp.Compare(b.sort[col], a.sort[col])
			}
			return cmp.Compare(strings.Join(a.names, " "), strings.Join(b.names, " "))
		})
	}
	return out
}

// sortValues are a row's numbers in the order of its numeric columns.
func sortValues(r *diff.Report, row *diff.Row, metric diff.Metric) []float64 {
	if !r.Compared() {
		return []float64{row.Self.Mean[0], row.Self.Mean[0], row.Total.Mean[0], row.Total.Mean[0]}
	}
	ms := metric.Of(row)
	c := ms.Change
	abs := func(v float64) float64 {
		if math.IsNaN(v) {
			return math.Inf(1)
		}
		return math.Abs(v)
	}
	return []float64{ms.Mean[0], ms.Mean[1], abs(c.Delta), abs(c.DeltaPP), abs(c.DeltaPct), float64(c.Verdict), -c.P}
}

// calls lists the callers and the callees of a function with the time
// flowing along each call, as the comparison joined and judged them.
func (m Model) calls(fn int32) []line {
	r := m.report()
	var out []line
	for _, sec := range []struct {
		title   string
		callers bool
	}{{"callers of " + m.view.Name(r.Functions[fn].Key), true}, {"callees of " + m.view.Name(r.Functions[fn].Key), false}} {
		out = append(out, line{header: true, fn: -1, names: []string{sec.title}})
		for i := range r.Calls {
			c := &r.Calls[i]
			other := c.Callee
			if sec.callers {
				if c.Callee != fn {
					continue
				}
				other = c.Caller
			} else if c.Caller != fn {
				continue
			}
			row := &r.Functions[other]
			l := line{key: row.Key, fn: other, verdict: c.Total.Change.Verdict,
				names: []string{m.view.RowName(row), diff.Clean(row.Key.Package), m.view.Location(row.Key)}}
			if m.filter != nil && !m.filter.MatchString(strings.Join(l.names, " ")) {
				continue
			}
			if r.Compared() {
				l.cells = diff.ChangeCells(&c.Total)
			} else {
				l.cells = []string{diff.Duration(c.Total.Mean[0])}
			}
			out = append(out, l)
		}
	}
	return out
}

// tableHeight is how many rows fit under the header and above the footer
// (and above the source pane on a function's screen).
func (m Model) tableHeight() int {
	return max(m.height-len(m.headerLines())-4-m.sourceHeight(), 3)
}

// sourceHeight is the height of the source pane: a third of the screen on
// a function's screen when its source is at hand.
func (m Model) sourceHeight() int {
	if m.top().kind != kindCalls || m.height < 20 {
		return 0
	}
	if _, ok := m.sourceText(m.top().fn); !ok {
		return 0
	}
	return m.height / 3
}

func (m Model) sourceText(fn analyze.Key) (string, bool) {
	if m.in.Source == nil || fn.File == "" {
		return "", false
	}
	return m.in.Source(fn.File)
}

// sourcePane shows a function's lines from its start, with the self time
// each line had on each side where the profile records lines.
func (m Model) sourcePane(fn analyze.Key, height int) []string {
	text, _ := m.sourceText(fn)
	lines := strings.Split(text, "\n")
	start := fn.Line
	r := m.report()
	nsides := len(r.Sides)
	perLine := map[int32][]float64{}
	for _, lt := range r.Lines {
		if lt.Function == m.top().fnRow {
			perLine[lt.Line] = lt.Self.Mean
		}
	}
	if start < 1 {
		start = 1
	}
	out := []string{diff.Fit(diff.Clean(fmt.Sprintf("── %s:%d", fn.File, start)), m.width, true)}
	for l := start; int(l) <= len(lines) && len(out) < height; l++ {
		var cells []string
		for _, v := range perLine[l] {
			c := ""
			if v > 0 {
				c = diff.Duration(v)
			}
			cells = append(cells, pad(c, 8, true))
		}
		for len(cells) < nsides {
			cells = append(cells, pad("", 8, true))
		}
		src := diff.Clean(strings.ReplaceAll(lines[l-1], "\t", "  "))
		out = append(out, truncate(fmt.Sprintf("%5d %s │ %s", l, strings.Join(cells, " "), src), m.width))
	}
	return out
}

var (
	styleTitle  = lipgloss.NewStyle().Bold(true)
	styleCursor = lipgloss.NewStyle().Reverse(true)
	styleDim    = lipgloss.NewStyle().Faint(true)
	styleBetter = lipgloss.NewStyle().Foreground(lipgloss.Color("2"))
	styleWorse  = lipgloss.NewStyle().Foreground(lipgloss.Color("1"))
)

// headerLines are the headline and the tabs.
func (m Model) headerLines() []string {
	r := m.report()
	var out []string
	hl := m.view.HeadlineRows()
	if r.Compared() {
		// Compact: on-CPU, busy, GC share and (when given) per unit of
		// work, each "label before → after delta".
		for _, l := range hl {
			switch {
			case strings.HasPrefix(l[0], "on-CPU"), l[0] == "busy", l[0] == "GC share", l[0] == "maps":
				out = append(out, strings.TrimRight(fmt.Sprintf("%-14s %16s → %-16s %s", l[0], l[1], l[2], l[3]), " "))
			}
		}
	} else {
		var parts []string
		for _, l := range hl {
			switch l[0] {
			case "wall", "on-CPU", "GC", "samples", "maps":
				parts = append(parts, l[0]+" "+l[1])
			}
		}
		out = append(out, strings.Join(parts, "  "))
	}
	if ws := r.Warnings; len(ws) > 0 {
		w := "warning: " + ws[0]
		if len(ws) > 1 {
			w = fmt.Sprintf("%d warnings; first: %s", len(ws), ws[0])
		}
		out = append(out, diff.Fit(diff.Clean(w), max(m.width, 20), false))
	}
	var tabs []string
	for i, name := range tabNames {
		t := " " + name + " "
		if len(m.stack) > 0 && int(m.stack[0].kind) == i {
			t = "[" + name + "]"
		}
		tabs = append(tabs, t)
	}
	metric := "self"
	if m.total {
		metric = "total"
	}
	state := "time: " + metric
	if m.hideNoise {
		state += ", ~ hidden"
	}
	out = append(out, strings.Join(tabs, " ")+"   "+state)
	out = append(out, m.breadcrumb())
	return out
}

func (m Model) breadcrumb() string {
	var parts []string
	for _, s := range m.stack {
		switch s.kind {
		case kindPackage:
			parts = append(parts, s.pkg)
		case kindCalls:
			parts = append(parts, m.view.Name(s.fn))
		default:
			parts = append(parts, tabNames[s.kind])
		}
	}
	crumb := strings.Join(parts, " › ")
	if m.filter != nil {
		crumb += "   filter: " + m.filterSrc
	}
	return diff.Fit(crumb, max(m.width, 10), true)
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
	if m.showHelp {
		return "profdiff: keys\n\n" + m.help.FullHelpView(m.keys.FullHelp()) + "\n\n(? or esc to close)"
	}
	var b strings.Builder
	for _, l := range m.headerLines() {
		b.WriteString(truncate(l, m.width) + "\n")
	}
	rows := m.rows()
	cols := m.columns()
	names := m.nameColumns()
	// Widths: numeric columns fit their contents; names share the rest.
	w := make([]int, len(cols))
	for i, c := range cols {
		w[i] = diff.Width(c)
	}
	for _, r := range rows {
		for i, c := range r.cells {
			if i < len(w) {
				w[i] = max(w[i], diff.Width(c))
			}
		}
	}
	used := 1
	for _, x := range w {
		used += x + 1
	}
	room := max(m.width-used-len(names), 10)
	// A narrow terminal drops the location, then the package, before
	// cutting names to nothing.
	for len(names) > 1 && room < 22*len(names) {
		names = names[:len(names)-1]
		room++
	}
	nw := nameWidths(len(names), room)
	head := " "
	for i, c := range cols {
		head += pad(c, w[i], true) + " "
	}
	for i, n := range names {
		head += pad(n, nw[i], false) + " "
	}
	b.WriteString(m.style(styleTitle, truncate(strings.TrimRight(head, " "), m.width)) + "\n")
	s := m.top()
	h := m.tableHeight()
	end := min(s.offset+h, len(rows))
	for i := s.offset; i < end; i++ {
		r := rows[i]
		var ln string
		if r.header {
			ln = " " + r.names[0]
			b.WriteString(m.style(styleTitle, truncate(ln, m.width)) + "\n")
			continue
		}
		ln = " "
		if i == s.cursor {
			ln = "›" // the cursor, visible without colour too
		}
		for j := range cols {
			c := ""
			if j < len(r.cells) {
				c = r.cells[j]
			}
			ln += pad(c, w[j], true) + " "
		}
		for j := range names {
			n := ""
			if j < len(r.names) {
				n = r.names[j]
			}
			n = diff.Fit(n, nw[j], j == 2)
			ln += pad(n, nw[j], false) + " "
		}
		ln = truncate(strings.TrimRight(ln, " "), m.width)
		switch {
		case i == s.cursor:
			ln = m.style(styleCursor, ln)
		case r.verdict == diff.VerdictBetter || r.verdict == diff.VerdictGone:
			ln = m.style(styleBetter, ln)
		case r.verdict == diff.VerdictWorse || r.verdict == diff.VerdictNew:
			ln = m.style(styleWorse, ln)
		case r.verdict == diff.VerdictSame:
			ln = m.style(styleDim, ln)
		}
		b.WriteString(ln + "\n")
	}
	if len(rows) == 0 {
		b.WriteString(" (no rows)\n")
	}
	for i := end - s.offset; i < h && len(rows) > 0; i++ {
		b.WriteString("\n")
	}
	if sh := m.sourceHeight(); sh > 0 {
		for _, l := range m.sourcePane(s.fn, sh) {
			b.WriteString(l + "\n")
		}
	}
	footer := fmt.Sprintf(" %d/%d", min(s.cursor+1, len(rows)), len(rows))
	if m.editing {
		footer = " filter: " + m.draft + "█"
	}
	b.WriteString(truncate(footer, m.width) + "\n")
	b.WriteString(truncate(m.help.ShortHelpView(m.keys.ShortHelp()), m.width))
	return b.String()
}

func (m Model) style(st lipgloss.Style, s string) string {
	if !m.in.Color {
		return s
	}
	return st.Render(s)
}

// nameWidths shares room among name columns: the first (the name) and the
// last (a location) take more.
func nameWidths(n, room int) []int {
	switch n {
	case 1:
		return []int{room}
	case 2:
		return []int{room * 2 / 3, room - room*2/3}
	}
	pkg := min(max(room/6, 8), 24)
	first := (room - pkg) * 2 / 5
	return []int{first, pkg, room - pkg - first}
}

func pad(s string, w int, right bool) string { return diff.Pad(s, w, right) }

// truncate cuts a line to width cells, leaving ANSI styles intact.
func truncate(s string, width int) string {
	if width <= 0 {
		return s
	}
	return ansi.Truncate(s, width, "")
}
