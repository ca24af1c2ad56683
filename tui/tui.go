// Package tui is profdiff's interactive terminal explorer over the same
// report values the text and markdown renderers write: tabs of packages,
// functions, files and the paths where the comparison changed; sorting,
// filtering as you type, hiding noise; drilling from a package or a file to
// its functions, from a function to its own time, its callers and callees
// and its source, and from a path to where it ends. Every screen keeps its
// own filter, sort and selected row, so that going back finds them as they
// were. Update and View are plain functions of the model, so that tests can
// drive them without a terminal.
//
// The explorer joins and judges nothing itself: it reads one judged
// diff.Report and formats its cells through diff.View.
package tui

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
)

// Input is what the explorer shows.
type Input struct {
	// Report is the judged comparison (or the one profile): its rows carry
	// self and total time, each judged, its calls the callers and callees,
	// its lines the per-line times, its paths where the change happened.
	Report *diff.Report
	// Sort is the metric shown first (t switches).
	Sort diff.Metric
	// Color styles verdicts and the cursor; false under NO_COLOR.
	Color bool
	// Source returns the text of a file named by a function row (from a
	// source map's sourcesContent or from disk); nil for none.
	Source func(file string) (string, bool)
	// SourceWhy says why Source has no text for a file ("outside the
	// profile's folders"); nil or "" for no reason to give.
	SourceWhy func(file string) string
	// Narrow, when set, compares again narrowed by flags on top of the
	// command's own ("--focus", "RE", "--ignore", "RE", ... in order) and
	// returns the new report: the f, i and x keys add the selected row as
	// a focus, ignore or hide filter, u takes the last one back.
	Narrow func(flags []string) (*diff.Report, error)
	// WriteHTML writes the HTML report of what the explorer shows and
	// returns the file's path; nil when this build cannot write one.
	WriteHTML func() (path string, err error)
}

// kind is what a screen lists.
type kind int

const (
	kindPackages  kind = iota
	kindFunctions      // every function
	kindFiles
	kindPaths   // the paths that carry the change
	kindPackage // the functions of one package
	kindFile    // the functions of one file
	kindCalls   // one function: its own time, callers, callees, source
)

var kindNames = [...]string{"packages", "functions", "files", "where it changed"}

// shortKindNames are the tabs' names on a narrow terminal.
var shortKindNames = [...]string{"pkgs", "funcs", "files", "changed"}

// overlay is what covers the screen, if anything.
type overlay int

const (
	overlayNone overlay = iota
	overlayHelp
	overlayWarnings
)

// screen is one level of the drill-down, with its own filter, sort,
// selection and (for a function) source pane.
type screen struct {
	kind   kind
	pkg    string      // kindPackage
	file   analyze.Key // kindFile: the file row's key
	fnRow  int32       // kindCalls: the function's row in the report
	cursor int
	offset int
	// sel is the key of the selected row when the screen was left for a
	// deeper one, to find it again on the way back.
	sel       analyze.Key
	selPath   int
	filter    *regexp.Regexp
	filterSrc string
	// sortCol is the column sorted by (numeric columns, then the name);
	// -1 for the report's order. sortRev reverses it.
	sortCol int
	sortRev bool
	// The source pane (kindCalls): focus, the selected line and the
	// first line shown (0: chosen so that the selection shows).
	srcFocus bool
	srcLine  int32
	srcTop   int32
}

// Model is the explorer's state.
type Model struct {
	in    Input
	view  *diff.View
	total bool
	stack []screen
	// tabs keeps each tab's screen while another tab is shown.
	tabs      map[kind]screen
	editing   bool // typing a filter
	draft     string
	before    string // the filter when typing began, for esc
	hideNoise bool
	width     int
	height    int
	overlay   overlay
	ovOffset  int
	// status is a one-time message in the footer, cleared by the next key.
	status string
	// narrowed are the flags the f, i and x keys added, in order.
	narrowed []string
	keys     keyMap
	src      *sourceCache
}

// keyMap holds the key bindings; the help screen is generated from it.
type keyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	NextTab, PrevTab, Enter, Back           key.Binding
	Filter, Sort, Reverse, Total, Noise     key.Binding
	NextHot, PrevHot, Warnings, HTML, Help  key.Binding
	Focus, Ignore, Hide, Undo               key.Binding
	Quit                                    key.Binding
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
		NextTab:  b([]string{"tab", "right", "l"}, "tab", "next view/source"),
		PrevTab:  b([]string{"shift+tab", "left", "h"}, "shift+tab", "previous view"),
		Enter:    b([]string{"enter"}, "enter", "open"),
		Back:     b([]string{"esc", "backspace"}, "esc", "back"),
		Filter:   b([]string{"/"}, "/", "filter (regexp)"),
		Sort:     b([]string{"s"}, "s", "sort: next column"),
		Reverse:  b([]string{"S"}, "S", "reverse the sort"),
		Total:    b([]string{"t"}, "t", "self/total time"),
		Noise:    b([]string{"n"}, "n", "hide ~ rows"),
		NextHot:  b([]string{"]"}, "]", "next hot line"),
		PrevHot:  b([]string{"["}, "[", "previous hot line"),
		Warnings: b([]string{"w"}, "w", "list warnings"),
		HTML:     b([]string{"H"}, "H", "write HTML report"),
		Focus:    b([]string{"f"}, "f", "focus on row"),
		Ignore:   b([]string{"i"}, "i", "ignore row"),
		Hide:     b([]string{"x"}, "x", "hide row frames"),
		Undo:     b([]string{"u"}, "u", "undo f/i/x"),
		Help:     b([]string{"?"}, "?", "help"),
		Quit:     b([]string{"q", "ctrl+c"}, "q", "quit"),
	}
}

// all lists every binding in the order the help shows them.
func (k keyMap) all() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom,
		k.NextTab, k.PrevTab, k.Enter, k.Back,
		k.Filter, k.Sort, k.Reverse, k.Total, k.Noise,
		k.NextHot, k.PrevHot, k.Warnings, k.HTML, k.Help, k.Quit, k.Focus, k.Ignore, k.Hide, k.Undo}
}

// New returns the explorer's model, opening on the packages.
func New(in Input) Model {
	return Model{in: in, view: diff.NewView(in.Report), total: in.Sort == diff.MetricTotal,
		stack: []screen{{kind: kindPackages, sortCol: -1}}, tabs: map[kind]screen{},
		width: 80, height: 24, keys: newKeyMap(), src: &sourceCache{files: map[string][]string{}}}
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

// tabKinds are the top-level views: "where it changed" only for a
// comparison.
func (m Model) tabKinds() []kind {
	if m.report().Compared() {
		return []kind{kindPackages, kindFunctions, kindFiles, kindPaths}
	}
	return []kind{kindPackages, kindFunctions, kindFiles}
}

// Update handles a message and returns the new model.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.stack = slices.Clone(m.stack) // models are values: never share the stack
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.MouseWheelMsg:
		d := 3
		if msg.Button == tea.MouseWheelUp {
			d = -3
		}
		if msg.Button == tea.MouseWheelUp || msg.Button == tea.MouseWheelDown {
			if s := m.top(); s.srcFocus {
				m.moveSource(int32(d))
			} else {
				m.move(d)
			}
		}
	case tea.PasteMsg:
		if m.editing {
			m.draft += msg.Content
			m.applyFilter(m.draft)
		}
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m Model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := msg.String()
	m.status = ""
	if m.editing {
		return m.editKey(msg)
	}
	if m.overlay != overlayNone {
		switch {
		case k == "ctrl+c":
			return m, tea.Quit
		case key.Matches(msg, m.keys.Up):
			m.ovOffset = max(m.ovOffset-1, 0)
		case key.Matches(msg, m.keys.Down):
			m.ovOffset++
		case key.Matches(msg, m.keys.PageDown):
			m.ovOffset += max(m.height-4, 1)
		case key.Matches(msg, m.keys.PageUp):
			m.ovOffset = max(m.ovOffset-max(m.height-4, 1), 0)
		case key.Matches(msg, m.keys.Help), key.Matches(msg, m.keys.Back), key.Matches(msg, m.keys.Quit),
			key.Matches(msg, m.keys.Warnings), key.Matches(msg, m.keys.Enter):
			m.overlay = overlayNone
		}
		return m, nil
	}
	s := m.top()
	if s.kind == kindCalls && s.srcFocus && m.sourceShown() {
		if done := m.sourceKey(msg); done {
			return m, nil
		}
	}
	page := max(m.layout().table-1, 1)
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m, tea.Quit
	case key.Matches(msg, m.keys.Help):
		m.overlay, m.ovOffset = overlayHelp, 0
	case key.Matches(msg, m.keys.Warnings):
		if len(m.report().Warnings) == 0 {
			m.status = "no warnings"
		} else {
			m.overlay, m.ovOffset = overlayWarnings, 0
		}
	case key.Matches(msg, m.keys.HTML):
		m.writeHTML()
	case key.Matches(msg, m.keys.Focus):
		m.narrowBy("--focus")
	case key.Matches(msg, m.keys.Ignore):
		m.narrowBy("--ignore")
	case key.Matches(msg, m.keys.Hide):
		m.narrowBy("--hide")
	case key.Matches(msg, m.keys.Undo):
		if len(m.narrowed) < 2 {
			m.status = "nothing to undo: f, i and x narrow by the selected row"
			break
		}
		m.renarrow(m.narrowed[:len(m.narrowed)-2])
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
	case key.Matches(msg, m.keys.NextHot), key.Matches(msg, m.keys.PrevHot):
		if s.kind == kindCalls && m.sourceShown() {
			s.srcFocus = true
			m.sourceKey(msg)
		}
	case key.Matches(msg, m.keys.NextTab), key.Matches(msg, m.keys.PrevTab):
		switch {
		case s.kind == kindCalls && k == "tab" && m.sourceShown():
			s.srcFocus = true
		case len(m.stack) == 1:
			m.switchTab(key.Matches(msg, m.keys.PrevTab))
		}
	case key.Matches(msg, m.keys.Enter):
		m.drill()
	case key.Matches(msg, m.keys.Back):
		switch {
		case s.filter != nil:
			m.setFilter("")
		case len(m.stack) > 1:
			m.pop()
		}
	case key.Matches(msg, m.keys.Filter):
		m.editing, m.draft, m.before = true, s.filterSrc, s.filterSrc
	case key.Matches(msg, m.keys.Sort):
		s.sortCol++
		s.sortRev = false
		if s.sortCol > len(m.columns()) { // the numeric columns, then the name
			s.sortCol = -1
		}
	case key.Matches(msg, m.keys.Reverse):
		s.sortRev = !s.sortRev
	case key.Matches(msg, m.keys.Total):
		m.total = !m.total
		m.clampCursor()
	case key.Matches(msg, m.keys.Noise):
		if !m.report().Compared() {
			m.status = "n: one profile has no noise to hide (hiding ~ rows needs two sides)"
			break
		}
		m.hideNoise = !m.hideNoise
		m.clampCursor()
	}
	return m, nil
}

// editKey handles a key while a filter is typed: the rows follow every
// key; enter keeps the filter, esc restores the one before.
func (m Model) editKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch k := msg.String(); k {
	case "enter":
		m.editing = false
		return m, nil
	case "esc":
		m.editing = false
		m.applyFilter(m.before)
		return m, nil
	case "ctrl+c":
		return m, tea.Quit
	case "backspace":
		if r := []rune(m.draft); len(r) > 0 {
			m.draft = string(r[:len(r)-1])
		}
	case "ctrl+u":
		m.draft = ""
	default:
		if t := msg.Key().Text; t != "" {
			m.draft += t
		} else if k == "space" {
			m.draft += " "
		} else {
			return m, nil
		}
	}
	m.applyFilter(m.draft)
	return m, nil
}

// switchTab moves to the next or previous tab, keeping each tab's screen.
func (m *Model) switchTab(back bool) {
	tabs := m.tabKinds()
	cur := slices.Index(tabs, m.stack[0].kind)
	d := 1
	if back {
		d = len(tabs) - 1
	}
	next := tabs[(cur+d)%len(tabs)]
	m.tabs[m.stack[0].kind] = m.stack[0]
	s, ok := m.tabs[next]
	if !ok {
		s = screen{kind: next, sortCol: -1}
	}
	m.stack[0] = s
	m.clampCursor()
}

func (m *Model) writeHTML() {
	if m.in.WriteHTML == nil {
		m.status = "HTML report: not available in this build"
		return
	}
	p, err := m.in.WriteHTML()
	if err != nil {
		m.status = "HTML report: " + diff.Clean(err.Error())
		return
	}
	m.status = "wrote the HTML report to " + diff.Clean(p)
}

// narrowBy compares again with the selected row's function, package or
// file as a focus, ignore or hide pattern.
func (m *Model) narrowBy(flag string) {
	if m.in.Narrow == nil {
		m.status = "narrowing: not available here"
		return
	}
	rows, s := m.rows(), m.top()
	if s.cursor < 0 || s.cursor >= len(rows) || !rows[s.cursor].selectable() {
		m.status = "narrowing: select a row first"
		return
	}
	l := rows[s.cursor]
	var pattern string
	switch {
	case l.fn >= 0 && l.key.Function != "":
		pattern = "^" + regexp.QuoteMeta(l.key.Function) + "$"
	case l.fn >= 0 && l.key.File != "": // an anonymous function: its place
		pattern = "^" + regexp.QuoteMeta(fmt.Sprintf("%s:%d", l.key.File, l.key.Line)) + "$"
	case s.kind == kindFiles && l.key.File != "":
		pattern = "^" + regexp.QuoteMeta(l.key.File) + "$"
	case s.kind == kindPackages && l.key.Package != "":
		pattern = "^" + regexp.QuoteMeta(l.key.Package) + "$"
	default:
		m.status = "narrowing: this row names no function, file or package"
		return
	}
	m.renarrow(append(slices.Clone(m.narrowed), flag, pattern))
}

// renarrow compares again narrowed by flags, and opens the new report on
// the tab shown.
func (m *Model) renarrow(flags []string) {
	rep, err := m.in.Narrow(flags)
	if err != nil {
		m.status = "narrowing: " + diff.Clean(err.Error())
		return
	}
	tab := m.stack[0].kind
	m.in.Report, m.view, m.narrowed = rep, diff.NewView(rep), flags
	m.stack, m.tabs = []screen{{kind: tab, sortCol: -1}}, map[kind]screen{}
	m.status = "narrowed: " + diff.Clean(strings.Join(flags, " ")) + " (u undoes)"
	if len(flags) == 0 {
		m.status = "no narrowing by the explorer"
	}
}

// setFilter applies a filter and puts the cursor on the first row.
func (m *Model) setFilter(src string) {
	m.applyFilter(src)
}

// applyFilter sets the screen's filter: a case-insensitive regular
// expression, or the text itself when it is not one.
func (m *Model) applyFilter(src string) {
	s := m.top()
	s.filterSrc = src
	s.filter = nil
	if src != "" {
		re, err := regexp.Compile("(?i)" + src)
		if err != nil {
			re = regexp.MustCompile("(?i)" + regexp.QuoteMeta(src))
		}
		s.filter = re
	}
	s.cursor, s.offset = 0, 0
	m.move(0)
}

// clampCursor keeps the cursor on a row after the rows changed.
func (m *Model) clampCursor() { m.move(0) }

func (m *Model) move(d int) {
	s := m.top()
	rows := m.rows()
	n := len(rows)
	if d == math.MaxInt32 || d == -math.MaxInt32 {
		s.cursor = 0
		if d > 0 {
			s.cursor = max(n-1, 0)
		}
	} else {
		s.cursor = min(max(s.cursor+d, 0), max(n-1, 0))
	}
	// Titles and a function's own rows are not rows to stand on.
	step := 1
	if d < 0 {
		step = -1
	}
	for i := 0; i < 2 && n > 0; i++ {
		for s.cursor >= 0 && s.cursor < n && !rows[s.cursor].selectable() {
			s.cursor += step
		}
		if s.cursor >= 0 && s.cursor < n {
			break
		}
		s.cursor = min(max(s.cursor, 0), n-1)
		step = -step
	}
	s.cursor = min(max(s.cursor, 0), max(n-1, 0))
	h := m.layout().table
	if s.cursor < s.offset {
		s.offset = s.cursor
	}
	if s.cursor >= s.offset+h {
		s.offset = s.cursor - h + 1
	}
	s.offset = max(min(s.offset, n-h), 0)
}

// drill opens what the selected row leads to: a package's or a file's
// functions, a function's calls, a path's last function.
func (m *Model) drill() {
	rows := m.rows()
	s := m.top()
	if len(rows) == 0 || s.cursor >= len(rows) || !rows[s.cursor].selectable() {
		return
	}
	r := rows[s.cursor]
	s.sel, s.selPath = r.key, r.path
	var next screen
	switch s.kind {
	case kindPackages:
		next = screen{kind: kindPackage, pkg: r.key.Package}
	case kindFiles:
		next = screen{kind: kindFile, file: r.key}
	default:
		if r.fn < 0 {
			return
		}
		next = m.callsScreen(r.fn)
	}
	next.sortCol = -1
	m.stack = append(m.stack, next)
	m.move(0)
}

// callsScreen opens a function: the cursor on its first caller, the
// source at its hottest line.
func (m *Model) callsScreen(fn int32) screen {
	s := screen{kind: kindCalls, fnRow: fn}
	s.srcLine = m.report().Functions[fn].Key.Line
	if hot := m.hotLines(fn); len(hot) > 0 {
		s.srcLine = hottest(hot)
	}
	s.srcLine = max(s.srcLine, 1)
	return s
}

// pop returns to the screen before, with its filter, sort and the row
// that was selected when it was left.
func (m *Model) pop() {
	m.stack = m.stack[:len(m.stack)-1]
	s := m.top()
	for i, r := range m.rows() {
		if r.selectable() && r.key == s.sel && r.path == s.selPath {
			s.cursor = i
			break
		}
	}
	m.move(0)
}
