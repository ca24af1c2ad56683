package tui

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/report"
)

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

// key handles a key press outside the filter prompt: in an overlay, in
// the source pane, or on the table.
func (m Model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	m.status = ""
	if m.editing {
		return m.editKey(msg)
	}
	if m.overlay != overlayNone {
		return m, m.overlayKey(msg)
	}
	s := m.top()
	if s.kind == kindCalls && s.srcFocus && m.sourceShown() {
		if done := m.sourceKey(msg); done {
			return m, nil
		}
	}
	if key.Matches(msg, m.keys.Quit) {
		return m, tea.Quit
	}
	// In the order of the help: commands, moves, then the view's keys.
	if !m.commandKey(msg) && !m.moveKey(msg) {
		m.viewKey(msg)
	}
	return m, nil
}

// overlayKey handles a key while the help or the warnings are shown: it
// scrolls them or closes them.
func (m *Model) overlayKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case msg.String() == "ctrl+c":
		return tea.Quit
	case key.Matches(msg, m.keys.Up):
		m.ovOffset = max(m.ovOffset-1, 0)
	case key.Matches(msg, m.keys.Down):
		m.ovOffset++
	case key.Matches(msg, m.keys.PageDown):
		m.ovOffset += max(m.height-4, 1)
	case key.Matches(msg, m.keys.PageUp):
		m.ovOffset = max(m.ovOffset-max(m.height-4, 1), 0)
	case key.Matches(msg, m.keys.Help), key.Matches(msg, m.keys.Back), key.Matches(msg, m.keys.Quit),
		key.Matches(msg, m.keys.Warnings), key.Matches(msg, m.keys.Enter), key.Matches(msg, m.keys.Stalls):
		m.overlay = overlayNone
	}
	return nil
}

// commandKey handles the keys that act beyond the table (help, warnings,
// the HTML page, narrowing and its undo) and reports whether msg was one.
func (m *Model) commandKey(msg tea.KeyPressMsg) bool {
	switch {
	case key.Matches(msg, m.keys.Help):
		m.overlay, m.ovOffset = overlayHelp, 0
	case key.Matches(msg, m.keys.Warnings):
		if len(m.report().Warnings) == 0 {
			m.status = "no warnings"
		} else {
			m.overlay, m.ovOffset = overlayWarnings, 0
		}
	case key.Matches(msg, m.keys.Stalls):
		if m.view.Responsiveness() == nil {
			m.status = "no stalls: the profiles record no sample times"
		} else {
			m.overlay, m.ovOffset = overlayStalls, 0
		}
	case key.Matches(msg, m.keys.HTML):
		m.writeHTML()
	case key.Matches(msg, m.keys.Focus):
		m.narrowBy("--focus")
	case key.Matches(msg, m.keys.Ignore):
		m.narrowBy("--ignore")
	case key.Matches(msg, m.keys.Hide):
		m.narrowBy("--hide")
	case key.Matches(msg, m.keys.Variant):
		m.nextVariant()
	case key.Matches(msg, m.keys.Base):
		m.nextBase()
	case key.Matches(msg, m.keys.Undo):
		if len(m.narrowed) < 2 {
			m.status = "nothing to undo: f, i and x narrow by the selected row"
			break
		}
		m.renarrow(m.narrowed[:len(m.narrowed)-2])
	default:
		return false
	}
	return true
}

// moveKey handles the keys that move the cursor (and the hot-line keys,
// which move into the source pane) and reports whether msg was one.
func (m *Model) moveKey(msg tea.KeyPressMsg) bool {
	page := max(m.layout().table-1, 1)
	switch {
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
		if s := m.top(); s.kind == kindCalls && m.sourceShown() {
			s.srcFocus = true
			m.sourceKey(msg)
		}
	default:
		return false
	}
	return true
}

// viewKey handles the keys that change what the table shows: tabs,
// drilling in and out, filter, sort, self or total, noise.
func (m *Model) viewKey(msg tea.KeyPressMsg) {
	s := m.top()
	switch {
	case key.Matches(msg, m.keys.NextTab), key.Matches(msg, m.keys.PrevTab):
		switch {
		case s.kind == kindCalls && msg.String() == "tab" && m.sourceShown():
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
		if !m.compares() {
			m.status = "n: one profile has no noise to hide (hiding ~ rows needs two sides)"
			break
		}
		m.hideNoise = !m.hideNoise
		m.clampCursor()
	}
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
		m.status = "HTML report: " + termtext.Clean(err.Error())
		return
	}
	m.status = "wrote the HTML report to " + termtext.Clean(p)
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
		m.status = "narrowing: " + termtext.Clean(err.Error())
		return
	}
	m.narrowed = flags
	if v := report.NewView(rep); v.Layout() == report.LayoutSides {
		m.showSides(rep, m.in.Variant)
	} else {
		tab := m.stack[0].kind
		m.in.Report, m.view = rep, v
		m.stack, m.tabs = []screen{{kind: tab, sortCol: -1}}, map[kind]screen{}
	}
	m.status = "narrowed: " + termtext.Clean(strings.Join(flags, " ")) + " (u undoes)"
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
	s.srcLine = m.startRow(fn)
	if hot := m.hottestRow(fn); hot > 0 {
		s.srcLine = hot
	}
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
