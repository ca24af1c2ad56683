package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
	"github.com/profdiff/profdiff/report"
)

// sourceLines returns a file's lines, read once through Input.Source; nil
// when the file is not at hand.
func (m Model) sourceLines(file string) []string {
	if m.in.Source == nil || file == "" || m.src == nil {
		return nil
	}
	m.src.mu.Lock()
	defer m.src.mu.Unlock()
	if ls, ok := m.src.files[file]; ok {
		return ls
	}
	var ls []string
	if text, ok := m.in.Source(file); ok {
		ls = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	}
	m.src.files[file] = ls
	return ls
}

// sourceShown reports whether the function's screen has a source pane.
func (m Model) sourceShown() bool {
	s := m.top()
	if s.kind != kindCalls {
		return false
	}
	return len(m.sourceLines(m.report().Functions[s.fnRow].Key.File)) > 0
}

// sourceRows is how many lines of code the pane shows.
func (m Model) sourceRows() int { return max(m.layout().pane-2, 1) }

// srcTopFor returns the first line the pane shows: the function's start
// when the selected line fits under it, else a window with the selected
// line in its upper third; then as the user scrolled.
func (m Model) srcTopFor(s *screen, rows, n int) int32 {
	start := max(m.report().Functions[s.fnRow].Key.Line, 1)
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

// sourceKey handles a key while the source pane has focus; false for the
// keys it leaves to the screen.
func (m *Model) sourceKey(msg tea.KeyPressMsg) bool {
	s := m.top()
	n := len(m.sourceLines(m.report().Functions[s.fnRow].Key.File))
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
		hot := m.hotLines(s.fnRow)
		next := key.Matches(msg, k.NextHot)
		target := int32(-1)
		for _, lt := range hot {
			if next && lt.Line > s.srcLine {
				target = lt.Line
				break
			}
			if !next && lt.Line < s.srcLine {
				target = lt.Line
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

// moveSource moves the pane's selected line, the window following it.
func (m *Model) moveSource(d int32) {
	s := m.top()
	n := len(m.sourceLines(m.report().Functions[s.fnRow].Key.File))
	rows := m.sourceRows()
	s.srcTop = m.srcTopFor(s, rows, n)
	s.srcLine = max(min(s.srcLine+d, int32(n)), 1)
	s.srcTop = m.srcTopFor(s, rows, n)
}

// sourcePane shows a function's source with the self time each line had
// on each side, where the profile records lines; a title says what it
// shows, or why there are no per-line times.
func (m Model) sourcePane(s *screen, height int) []string {
	r := m.report()
	f := r.Functions[s.fnRow].Key
	lines := m.sourceLines(f.File)
	perLine := map[int32][]float64{}
	verdicts := map[int32]string{}
	hot := m.hotLines(s.fnRow)
	for _, lt := range hot {
		perLine[lt.Line] = lt.Self.Mean
		if v := lt.Self.Change.Verdict; v.Real() {
			verdicts[lt.Line] = v.String()
		}
	}
	title := fmt.Sprintf("── %s:%d", m.view.File(f), max(f.Line, 1))
	if len(hot) == 0 {
		title += " · " + m.noLinesReason(s.fnRow)
	} else if s.srcFocus {
		title += " · ↑/↓ scroll, ]/[ next/previous hot line, tab or esc leaves"
	} else {
		title += fmt.Sprintf(" · %s with time, hottest %d (tab: scroll, ]/[: hot lines)", units.Plural(len(hot), "line", "lines"), hottest(hot))
	}
	labels := []string{"self"}
	if r.Compared() {
		labels = []string{"before", "after"}
	}
	head := fmt.Sprintf("  %5s", "line")
	for _, l := range labels {
		head += " " + pad(l, 9, true)
	}
	if r.Compared() {
		head += " " + pad("change", 9, true) + " " + pad("", 6, false)
	}
	out := []string{termtext.Fit(title, m.width, false), head + " │"}
	rows := max(height-2, 1)
	top := m.srcTopFor(s, rows, len(lines))
	for l := top; int(l) <= len(lines) && len(out) < height; l++ {
		mark := " "
		if l == s.srcLine && s.srcFocus {
			mark = "›"
		}
		cells := ""
		for i := range labels {
			c := ""
			if v := perLine[l]; i < len(v) && v[i] > 0 {
				c = units.Duration(v[i])
			}
			cells += " " + pad(c, 9, true)
		}
		if r.Compared() {
			c := ""
			if v := perLine[l]; len(v) == 2 {
				c = units.SignedDuration(v[1] - v[0])
			}
			cells += " " + pad(c, 9, true) + " " + pad(verdicts[l], 6, false)
		}
		src := termtext.Clean(strings.ReplaceAll(lines[l-1], "\t", "  "))
		text := fmt.Sprintf("%s %5d%s │ %s", mark, l, cells, src)
		if l == s.srcLine && s.srcFocus {
			text = m.style(styleCursor, truncate(text, m.width))
		}
		out = append(out, text)
	}
	return out
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
