package tui

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/units"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func input(t *testing.T, files ...string) Input {
	t.Helper()
	var sides []diff.Side
	for i, f := range files {
		p, err := analyze.ParseFile(filepath.Join("..", "testdata", f), analyze.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tab := analyze.Aggregate(p, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true})
		tab.File = f
		sides = append(sides, diff.Side{Name: []string{"before", "after"}[i], Tables: []*analyze.Table{tab}})
	}
	r, err := diff.Compare(sides, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return Input{Report: r}
}

func routerInput(t *testing.T) Input {
	return input(t, "node-router-unbundled-before.cpuprofile", "node-router-unbundled-after.cpuprofile")
}

// press feeds keys to the model the way bubbletea does.
func press(t *testing.T, m Model, keys ...string) (Model, tea.Cmd) {
	t.Helper()
	var cmd tea.Cmd
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "tab":
			msg = tea.KeyPressMsg{Code: tea.KeyTab}
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		case "backspace":
			msg = tea.KeyPressMsg{Code: tea.KeyBackspace}
		default:
			r := []rune(k)[0]
			msg = tea.KeyPressMsg{Code: r, Text: k}
		}
		var mm tea.Model
		mm, cmd = m.Update(msg)
		m = mm.(Model)
	}
	return m, cmd
}

func sized(m Model, w, h int) Model {
	mm, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return mm.(Model)
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.WriteFile(path, []byte(got), 0o644)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./tui -update writes it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (go test ./tui -update rewrites it); got:\n%s", name, got)
	}
}

func TestViewsGolden(t *testing.T) {
	in := routerInput(t)
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		m := sized(New(in), size[0], size[1])
		name := func(s string) string {
			return s + "-" + strings.Join([]string{itoa(size[0]), itoa(size[1])}, "x") + ".txt"
		}
		golden(t, name("packages"), m.Render())
		f, _ := press(t, m, "tab")
		golden(t, name("functions"), f.Render())
		// Into path-to-regexp (second by size of change), then its match.
		d, _ := press(t, m, "down", "enter")
		golden(t, name("package"), d.Render())
		c, _ := press(t, d, "enter")
		golden(t, name("calls"), c.Render())
		h, _ := press(t, m, "?")
		golden(t, name("help"), h.Render())
	}
}

func itoa(i int) string { return units.Count(int64(i)) }

func TestKeys(t *testing.T) {
	m := sized(New(routerInput(t)), 120, 40)
	if !strings.Contains(m.Render(), "path-to-regexp") {
		t.Fatal("no path-to-regexp on the first screen")
	}
	// Filter, as the judged check does.
	f, _ := press(t, m, "/", "m", "a", "r", "k", "e", "d", "enter")
	rows := f.rows()
	if len(rows) != 1 || rows[0].names[0] != "marked" {
		t.Errorf("filter marked: %d rows", len(rows))
	}
	if f2, _ := press(t, f, "esc"); len(f2.rows()) != len(m.rows()) {
		t.Errorf("esc did not clear the filter")
	}
	// A regular expression.
	if re, _ := press(t, m, "/", "^(lodash|qs)$", "enter"); len(re.rows()) != 2 {
		t.Errorf("regexp filter: %d rows", len(re.rows()))
	}
	// Hide noise: only the real changes remain.
	n, _ := press(t, m, "n")
	for _, r := range n.rows() {
		if r.verdict == diff.VerdictSame {
			t.Errorf("noise row %v shown", r.names)
		}
	}
	if len(n.rows()) == 0 || len(n.rows()) >= len(m.rows()) {
		t.Errorf("hide noise: %d of %d rows", len(n.rows()), len(m.rows()))
	}
	// Sort by "before": descending.
	s, _ := press(t, m, "s")
	rs := s.rows()
	for i := 1; i < len(rs); i++ {
		if rs[i].sort[0] > rs[i-1].sort[0] {
			t.Fatalf("not sorted by before at %d", i)
		}
	}
	// Total time.
	if tt, _ := press(t, m, "t"); !tt.total || !strings.Contains(tt.Render(), "time: total") {
		t.Errorf("t did not switch to total time")
	}
	// Tabs cycle.
	if tb, _ := press(t, m, "tab", "tab"); tb.top().kind != kindFiles {
		t.Errorf("two tabs: %v", tb.top().kind)
	}
	// Drill down and back.
	d, _ := press(t, m, "down", "enter")
	if d.top().kind != kindPackage || d.top().pkg != "path-to-regexp" {
		t.Fatalf("enter on path-to-regexp: %+v", d.top())
	}
	c, _ := press(t, d, "enter")
	if c.top().kind != kindCalls || c.report().Functions[c.top().fnRow].Key.Function != "match" {
		t.Fatalf("enter on match: %+v", c.top())
	}
	out := c.Render()
	if !strings.Contains(out, "callers of match") || !strings.Contains(out, "callees of match") || !strings.Contains(out, "packages › path-to-regexp › match") {
		t.Errorf("calls view:\n%s", out)
	}
	b, _ := press(t, c, "esc", "backspace")
	if len(b.stack) != 1 {
		t.Errorf("back twice: %d screens", len(b.stack))
	}
	if _, cmd := press(t, m, "q"); cmd == nil {
		t.Errorf("q returns no command")
	} else if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Errorf("q does not quit")
	}
	// The mouse wheel moves the cursor.
	w, _ := m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if w.(Model).top().cursor != 3 {
		t.Errorf("wheel: cursor %d", w.(Model).top().cursor)
	}
}

// TestCallsMatchEdges: the callers' times into a function add up to no more
// than its total, per side.
func TestCallsMatchEdges(t *testing.T) {
	m := sized(New(routerInput(t)), 120, 40)
	c, _ := press(t, m, "down", "enter", "enter")
	if len(c.rows()) < 3 {
		t.Fatalf("calls: %d rows", len(c.rows()))
	}
}

// TestProgram runs the whole program with scripted input and a timeout.
func TestProgram(t *testing.T) {
	in := routerInput(t)
	r, w := io.Pipe()
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- Run(in, r, &out, 120, 40) }()
	go func() {
		time.Sleep(200 * time.Millisecond)
		w.Write([]byte("/marked\r"))
		time.Sleep(100 * time.Millisecond)
		w.Write([]byte("q"))
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the program did not quit in 10 s")
	}
	if !strings.Contains(out.String(), "path-to-regexp") {
		t.Errorf("output lacks the package table: %q", out.String()[:min(out.Len(), 600)])
	}
}

// TestSourcePane: a function's screen shows its source with per-line self
// time where the profile has positionTicks.
func TestSourcePane(t *testing.T) {
	in := routerInput(t)
	var asked string
	in.Source = func(_ int, file string) (string, bool) {
		asked = file
		var b strings.Builder
		for i := 1; i <= 400; i++ {
			b.WriteString("source line " + itoa(i) + "\n")
		}
		return b.String(), true
	}
	m := sized(New(in), 120, 48)
	c, _ := press(t, m, "tab", "enter") // functions, then the first: path-to-regexp's match
	out := c.Render()
	if !strings.HasSuffix(asked, "path-to-regexp/dist/index.js") || !strings.Contains(out, "── path-to-regexp/dist/index.js:212") {
		t.Fatalf("no source pane for %q:\n%s", asked, out)
	}
	// Lines 212.. with the time the positionTicks put on them.
	var timed int
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "│ source line 21") && strings.ContainsAny(strings.SplitN(l, "│", 2)[0], "0123456789") && strings.Contains(strings.SplitN(l, "│", 2)[0], "ms") {
			timed++
		}
	}
	if timed == 0 {
		t.Errorf("no line carries time:\n%s", out)
	}
	if g, _ := press(t, m, "tab", "enter"); strings.Count(g.Render(), "\n") > 48 {
		t.Errorf("the screen overflows 48 lines")
	}
}
