package tui

import (
	"errors"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/report"
)

const ms = int64(1e6)

// movedTables are two builds of one app in which render's start line moved
// from 6 to 9 and its time fell: main calls render.
func movedTables() (before, after *analyze.Table) {
	mk := func(file string, line int32, renderNs int64) *analyze.Table {
		main := analyze.Key{Package: "app", Function: "main", File: "/src/app/main.js", Line: 1, Column: 1}
		render := analyze.Key{Package: "app", Function: "render", File: "/src/app/render.js", Line: line, Column: 1}
		on := 10*ms + renderNs
		wall := max(on, 500*ms) // the runs last alike: no warning
		return &analyze.Table{
			Format: analyze.FormatCPUProfile, File: file,
			Summary:   analyze.Summary{WallNs: wall, SampledNs: on, OnCPUNs: on, Samples: on / ms, IntervalNs: ms},
			Packages:  []analyze.Row{{Key: analyze.Key{Package: "app"}, Self: on, Total: on}},
			Functions: []analyze.Row{{Key: main, Self: 10 * ms, Total: on}, {Key: render, Self: renderNs, Total: renderNs}},
			Files: []analyze.Row{{Key: analyze.Key{Package: "app", File: main.File}, Self: 10 * ms, Total: on},
				{Key: analyze.Key{Package: "app", File: render.File}, Self: renderNs, Total: renderNs}},
			Edges: []analyze.Edge{{Caller: 0, Callee: 1, Total: renderNs}},
			Tree: analyze.CallTreeOf([]analyze.CallNode{{Parent: -1, Function: -1}, {Parent: 0, Function: 0, Self: 10 * ms},
				{Parent: 1, Function: 1, Self: renderNs}}),
		}
	}
	return mk("before.cpuprofile", 6, 900*ms), mk("after.cpuprofile", 9, 80*ms)
}

func compare(t *testing.T, before, after *analyze.Table) *diff.Report {
	t.Helper()
	sides := []diff.Side{{Name: "before", Tables: []*analyze.Table{before}}}
	if after != nil {
		sides = append(sides, diff.Side{Name: "after", Tables: []*analyze.Table{after}})
	}
	r, err := diff.Compare(sides, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func compareMoved(t *testing.T) *diff.Report {
	b, a := movedTables()
	return compare(t, b, a)
}

// find moves the cursor to the first row whose name is name.
func find(t *testing.T, m Model, name string) Model {
	t.Helper()
	for i, r := range m.rows() {
		if r.selectable() && len(r.names) > 0 && r.names[0] == name {
			m.top().cursor = i
			return m
		}
	}
	t.Fatalf("no row %q in %v", name, m.rows())
	return m
}

// TestCallsViewOwnTimeAndMovedLine: a function whose start line moved
// between builds is one row in the table and in the calls view, and the
// calls view shows its own self and total time, judged, as the table does.
func TestCallsViewOwnTimeAndMovedLine(t *testing.T) {
	r := compareMoved(t)
	m := sized(New(Input{Report: r}), 120, 40)
	f, _ := press(t, m, "tab")
	var renders []line
	for _, l := range f.rows() {
		if l.names[0] == "render" {
			renders = append(renders, l)
		}
	}
	if len(renders) != 1 {
		t.Fatalf("the table has %d render rows", len(renders))
	}
	c, _ := press(t, find(t, f, "render"), "enter")
	rows := c.rows()
	var self, total *line
	var callers []string
	section := ""
	for i := range rows {
		l := &rows[i]
		switch {
		case l.header:
			section = l.names[0]
		case strings.Contains(l.names[0], "self (own time)"):
			self = l
		case strings.Contains(l.names[0], "total (with callees)"):
			total = l
		case strings.HasPrefix(section, "callers"):
			callers = append(callers, l.names[0])
		}
	}
	if self == nil || total == nil {
		t.Fatalf("the calls view shows no own time:\n%s", c.Render())
	}
	fn := &r.Functions[c.top().fnRow]
	if !slices.Equal(self.cells, report.Texts(report.ChangeCells(&fn.Self))) || !slices.Equal(self.cells, renders[0].cells) {
		t.Errorf("own self %v, table %v", self.cells, renders[0].cells)
	}
	if !slices.Equal(total.cells, report.Texts(report.ChangeCells(&fn.Total))) || total.verdict != fn.Total.Change.Verdict {
		t.Errorf("own total %v, want %v", total.cells, report.Texts(report.ChangeCells(&fn.Total)))
	}
	if !slices.Equal(callers, []string{"main"}) {
		t.Errorf("callers %v, want [main]", callers)
	}
	out := c.Render()
	for _, want := range []string{"self (own time)", "total (with callees)", "callers of render", "callees of render", fn.Total.Change.Verdict.String()} {
		if !strings.Contains(out, want) {
			t.Errorf("calls view lacks %q:\n%s", want, out)
		}
	}
	// From main, render is one callee.
	mc, _ := press(t, find(t, f, "main"), "enter")
	var callees int
	for _, l := range mc.rows() {
		if l.selectable() && l.names[0] == "render" {
			callees++
		}
	}
	if callees != 1 {
		t.Errorf("main has %d render callees", callees)
	}
}

// TestPathsTab: "where it changed" lists the report's paths; the steps of
// the selected one show under it; enter opens the path's last function.
func TestPathsTab(t *testing.T) {
	in := routerInput(t)
	r := in.Report
	if len(r.Paths) == 0 {
		t.Fatal("the router comparison has no paths")
	}
	m := sized(New(in), 120, 40)
	p, _ := press(t, m, "tab", "tab", "tab")
	if p.top().kind != kindPaths || len(p.rows()) != len(r.Paths) {
		t.Fatalf("paths tab: kind %v, %d rows for %d paths", p.top().kind, len(p.rows()), len(r.Paths))
	}
	out := p.Render()
	last := r.Paths[0].Nodes[len(r.Paths[0].Nodes)-1]
	steps := p.view.Steps(r.Paths[0])
	if !strings.Contains(out, "[where it changed]") || !strings.Contains(out, "── path 1:") || !strings.Contains(out, steps[len(steps)-1].Change) {
		t.Errorf("paths screen:\n%s", out)
	}
	c, _ := press(t, p, "enter")
	if c.top().kind != kindCalls || c.top().fnRow != r.Tree[last].Function {
		t.Errorf("enter on a path: %+v", c.top())
	}
	if b, _ := press(t, c, "esc"); b.top().kind != kindPaths {
		t.Errorf("esc from the path's function: %v", b.top().kind)
	}
}

// TestEscKeepsFilterAndRow: back from a drill-down finds the filtered list
// with the same row selected; the filter follows every key typed.
func TestEscKeepsFilterAndRow(t *testing.T) {
	m := sized(New(routerInput(t)), 120, 40)
	f, _ := press(t, m, "tab", "/", "b", "a", "s", "e")
	if !f.editing || len(f.rows()) == 0 || len(f.rows()) >= len(m.rows())+100 {
		t.Fatalf("typing a filter: editing %v, %d rows", f.editing, len(f.rows()))
	}
	for _, r := range f.rows() {
		if !strings.Contains(strings.ToLower(strings.Join(r.names, " ")), "base") {
			t.Fatalf("row %v does not match the filter being typed", r.names)
		}
	}
	f, _ = press(t, f, "enter", "down", "down")
	want := f.rows()[f.top().cursor]
	c, _ := press(t, f, "enter")
	if c.top().kind != kindCalls {
		t.Fatalf("enter: %v", c.top().kind)
	}
	c, _ = press(t, c, "down", "/", "x", "enter") // the deeper screen has its own filter
	b, _ := press(t, c, "esc", "esc")
	if b.top().kind != kindFunctions || b.top().filterSrc != "base" {
		t.Fatalf("back: kind %v, filter %q", b.top().kind, b.top().filterSrc)
	}
	if got := b.rows()[b.top().cursor]; got.key != want.key {
		t.Errorf("back on %v, want %v", got.names, want.names)
	}
	if !strings.Contains(b.Render(), "›"+want.cells[0]) && !strings.Contains(b.Render(), want.names[0]) {
		t.Errorf("the selected row is not shown")
	}
	// esc while typing restores the filter before.
	e, _ := press(t, b, "/", "z", "z", "esc")
	if e.top().filterSrc != "base" || e.editing {
		t.Errorf("esc while typing: filter %q", e.top().filterSrc)
	}
}

// goSourceInput is the Go router profile, with a source of 600 numbered
// lines for every file.
func goSourceInput(t *testing.T) Input {
	in := input(t, "go-router-before.pprof")
	in.Source = func(_ int, file string) (string, bool) {
		var b strings.Builder
		for i := 1; i <= 600; i++ {
			b.WriteString("code of line " + itoa(i) + "\n")
		}
		return b.String(), true
	}
	return in
}

// TestSourcePaneHottestLine: the source pane opens at the function's
// hottest line even when it lies below the pane (regexp.doOnePass: line
// 432, 490 ms per go tool pprof -list, 35 lines under the start), takes
// focus, scrolls and jumps between hot lines.
func TestSourcePaneHottestLine(t *testing.T) {
	m := sized(New(goSourceInput(t)), 120, 40)
	c, _ := press(t, m, "tab", "/", "doOnePass", "enter")
	c, _ = press(t, find(t, c, "regexp.(*Regexp).doOnePass"), "enter")
	if c.top().kind != kindCalls {
		t.Fatalf("not on doOnePass: %v", c.rows())
	}
	fn := c.report().Functions[c.top().fnRow]
	if fn.Key.Line != 397 || c.top().srcLine != 432 {
		t.Fatalf("doOnePass at %d opens at line %d, want 432", fn.Key.Line, c.top().srcLine)
	}
	out := c.Render()
	var hot string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "│ code of line 432") {
			hot = l
		}
	}
	if !strings.Contains(hot, "490 ms") {
		t.Fatalf("line 432 without its 490 ms:\n%s", out)
	}
	if !strings.Contains(out, "line      self │") {
		t.Errorf("no column label over the per-line times:\n%s", out)
	}
	// Focus, jump to the next hot line, scroll.
	f, _ := press(t, c, "tab")
	if !f.top().srcFocus {
		t.Fatal("tab does not focus the source")
	}
	n, _ := press(t, f, "]")
	if n.top().srcLine <= 432 || !regexp.MustCompile(`›\s+`+itoa(int(n.top().srcLine))+" ").MatchString(n.Render()) {
		t.Errorf("] went to line %d:\n%s", n.top().srcLine, n.Render())
	}
	p, _ := press(t, n, "[", "[")
	if p.top().srcLine >= 432 {
		t.Errorf("[ [ went to line %d", p.top().srcLine)
	}
	d, _ := press(t, f, "G")
	if d.top().srcLine != 600 || !strings.Contains(d.Render(), "│ code of line 600") {
		t.Errorf("G in the source: line %d", d.top().srcLine)
	}
	u, _ := press(t, d, "esc")
	if u.top().srcFocus || u.top().kind != kindCalls {
		t.Errorf("esc leaves the source: focus %v, kind %v", u.top().srcFocus, u.top().kind)
	}
}

// TestSourcePaneComparisonLabels: a comparison labels the per-line
// columns; a function of a mapped bundle says why it has no per-line
// times.
func TestSourcePaneComparisonLabels(t *testing.T) {
	in := routerInput(t)
	in.Source = goSourceInput(t).Source
	c, _ := press(t, sized(New(in), 120, 48), "tab", "enter")
	out := c.Render()
	if !strings.Contains(out, "line    before     after    change") {
		t.Errorf("no before/after/change labels:\n%s", out)
	}
	if !regexp.MustCompile(`213 +290 ms +88\.2 ms +-201 ms`).MatchString(out) {
		t.Errorf("no change on line 213:\n%s", out)
	}
	b, a := movedTables()
	for _, tb := range []*analyze.Table{b, a} {
		tb.Symbolication = &analyze.Symbolication{Scripts: 1, MappedScripts: 1}
	}
	in = Input{Report: compare(t, b, a), Source: in.Source}
	c, _ = press(t, sized(New(in), 120, 40), "tab")
	c, _ = press(t, find(t, c, "render"), "enter")
	if out := c.Render(); !strings.Contains(out, "no per-line times: lines were recorded in the bundle") {
		t.Errorf("no reason for the missing per-line times:\n%s", out)
	}
	// A function whose lines were a minified bundle's says so.
	in.Report.BundledLines = map[int32]bool{}
	for i := range in.Report.Functions {
		in.Report.BundledLines[int32(i)] = true
	}
	c, _ = press(t, sized(New(in), 200, 40), "tab")
	c, _ = press(t, find(t, c, "render"), "enter")
	if out := c.Render(); !strings.Contains(out, "no per-line times: the bundle is minified") {
		t.Errorf("a minified bundle's function does not say so:\n%s", out)
	}
}

// TestSortIndicator: the sorted column is marked, s moves it, S reverses.
func TestSortIndicator(t *testing.T) {
	m := sized(New(routerInput(t)), 160, 40)
	if !strings.Contains(m.Render(), "delta▼") {
		t.Errorf("no indicator on the default sort:\n%s", m.Render())
	}
	s, _ := press(t, m, "s")
	if !strings.Contains(s.Render(), "before▼") {
		t.Errorf("s: no before▼")
	}
	r, _ := press(t, s, "S")
	if !strings.Contains(r.Render(), "before▲") {
		t.Errorf("S: no before▲")
	}
	rows := r.rows()
	for i := 1; i < len(rows); i++ {
		if rows[i].sort[0] < rows[i-1].sort[0] {
			t.Fatalf("S: not ascending at %d", i)
		}
	}
	n, _ := press(t, m, "s", "s", "s", "s", "s", "s", "s", "s")
	if !strings.Contains(n.Render(), "package▲") || n.rows()[0].names[0] > n.rows()[1].names[0] {
		t.Errorf("sort by name:\n%s", n.Render())
	}
}

// TestNoiseOneProfile: n on one profile hides nothing and says why.
func TestNoiseOneProfile(t *testing.T) {
	m := sized(New(input(t, "go-router-before.pprof")), 120, 40)
	n, _ := press(t, m, "n")
	out := n.Render()
	if n.hideNoise || strings.Contains(out, "~ hidden") || !strings.Contains(out, "one profile has no noise to hide") {
		t.Errorf("n on one profile:\n%s", out)
	}
}

// TestWarningsOverlay: w lists every warning, whole.
func TestWarningsOverlay(t *testing.T) {
	b, a := movedTables()
	long := "a warning long enough to need wrapping at sixty columns, " + strings.Repeat("word ", 20) + "END"
	b.Warnings = []analyze.Warning{{Message: "first warning"}, {Message: "second warning"}, {Message: long}}
	m := sized(New(Input{Report: compare(t, b, a)}), 60, 20)
	if !strings.Contains(m.Render(), itoa(len(m.report().Warnings))+" warnings (w)") {
		t.Errorf("no warning count:\n%s", m.Render())
	}
	w, _ := press(t, m, "w")
	out := w.Render()
	for _, want := range []string{"first warning", "second warning", "END", itoa(len(m.report().Warnings)) + " warnings"} {
		if !strings.Contains(out, want) {
			t.Errorf("warnings overlay lacks %q:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if termtext.Width(l) > 60 {
			t.Errorf("line wider than 60: %q", l)
		}
	}
	if c, _ := press(t, w, "esc"); c.overlay != overlayNone {
		t.Errorf("esc does not close the warnings")
	}
	if n, _ := press(t, sized(New(Input{Report: compareMoved(t)}), 80, 24), "w"); !strings.Contains(n.Render(), "no warnings") {
		t.Errorf("w without warnings says nothing")
	}
}

// TestFilesDrill: enter on a file lists its functions.
func TestFilesDrill(t *testing.T) {
	m := sized(New(routerInput(t)), 120, 40)
	f, _ := press(t, m, "tab", "tab")
	sel := f.rows()[f.top().cursor].key
	d, _ := press(t, f, "enter")
	if d.top().kind != kindFile || len(d.rows()) == 0 {
		t.Fatalf("enter on a file: %v, %d rows", d.top().kind, len(d.rows()))
	}
	for _, r := range d.rows() {
		if r.key.File != sel.File || r.fn < 0 {
			t.Errorf("row %v of another file", r.names)
		}
	}
	if !strings.Contains(d.Render(), "files › "+filepath.Base(sel.File)) && !strings.Contains(d.Render(), "files › ") {
		t.Errorf("breadcrumb:\n%s", d.Render())
	}
	c, _ := press(t, d, "enter")
	if c.top().kind != kindCalls {
		t.Errorf("enter on a file's function: %v", c.top().kind)
	}
}

// TestLayoutSmall: at 60x20 the help fits, the headline is one line with
// its p-value whole, and names keep room while numeric columns go.
func TestLayoutSmall(t *testing.T) {
	m := sized(New(routerInput(t)), 60, 20)
	fits := func(name, out string) {
		t.Helper()
		ls := strings.Split(out, "\n")
		if len(ls) > 20 {
			t.Errorf("%s: %d lines", name, len(ls))
		}
		for _, l := range ls {
			if termtext.Width(l) > 60 {
				t.Errorf("%s: line wider than 60: %q", name, l)
			}
		}
	}
	h, _ := press(t, m, "?")
	out := h.Render()
	fits("help", out)
	for _, b := range h.keys.all() {
		if !strings.Contains(out, b.Help().Desc) {
			t.Errorf("help at 60x20 lacks %q:\n%s", b.Help().Desc, out)
		}
	}
	f, _ := press(t, m, "tab")
	out = f.Render()
	fits("functions", out)
	ls := strings.Split(out, "\n")
	if !regexp.MustCompile(`p=\d\.\d{3}$`).MatchString(ls[0]) || !strings.HasPrefix(ls[1], " pkgs [funcs]") || !strings.HasSuffix(ls[1], "time: self") {
		t.Errorf("headline not on one line with p whole:\n%s", out)
	}
	if strings.Contains(ls[3], " p ") || strings.Contains(ls[3], "Δshare") || !strings.Contains(ls[4], "serializeResponse") && !strings.Contains(ls[4], "match") {
		t.Errorf("numeric columns kept before names:\n%s", out)
	}
	// The package column stays (names are never dropped, issue 26); the
	// function's name keeps at least 18 cells, so the short ones are whole.
	for _, l := range ls[4:10] {
		if !strings.HasSuffix(l, " deploy") && !strings.Contains(l, " pa") && !strings.HasSuffix(l, " lodash") {
			t.Errorf("no package: %q", l)
		}
		whole := false
		for _, n := range []string{"match", "handle", "main", "serializeResponse", "(anonymo", "parseRequest"} {
			whole = whole || strings.Contains(l, n)
		}
		if !whole {
			t.Errorf("a name is cut short: %q", l)
		}
	}
}

// TestLayoutLarge: at 200x60 the source pane follows the callees without a
// gap; the headline names the inputs and run counts; at 120 columns two
// functions of one name stay apart.
func TestLayoutLarge(t *testing.T) {
	in := routerInput(t)
	in.Source = goSourceInput(t).Source
	m := sized(New(in), 200, 60)
	out := m.Render()
	for _, want := range []string{"before: node-router-unbundled-before.cpuprofile", "after:  node-router-unbundled-after.cpuprofile", "runs                          1 → 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("headline lacks %q:\n%s", want, out)
		}
	}
	// In router.js's match, whose callers and callees are few.
	f, _ := press(t, m, "tab")
	c, _ := press(t, find(t, f, "match"), "down", "enter")
	if c.top().kind != kindCalls {
		t.Fatal("not in a calls view")
	}
	ls := strings.Split(c.Render(), "\n")
	for i, l := range ls {
		if strings.HasPrefix(l, "── ") {
			if strings.TrimSpace(ls[i-1]) == "" {
				t.Errorf("a blank line before the source pane:\n%s", strings.Join(ls, "\n"))
			}
			break
		}
	}
	w, _ := press(t, sized(New(routerInput(t)), 120, 40), "tab")
	out = w.Render()
	if strings.Contains(out, "location") || !strings.Contains(out, "match (index.js:212)") || !strings.Contains(out, "match (router.js:11)") {
		t.Errorf("two match rows cannot be told apart:\n%s", out)
	}
}

// TestHostileText: no control character, escape or bidi override from an
// input reaches the screen, wherever the text appears.
func TestHostileText(t *testing.T) {
	evil := "x\x1b]0;pwned\a\x1b[2J\u009b31m\u202e\x00y"
	b, a := movedTables()
	for _, tb := range []*analyze.Table{b, a} {
		tb.Thread = analyze.Thread{Name: "Main" + evil, ProcessName: evil, ProfileID: evil}
		tb.Warnings = []analyze.Warning{{File: evil, Message: "no source map for /srv/" + evil + ".js", Advice: evil}}
		for i := range tb.Functions {
			tb.Functions[i].Key.Function += evil
			tb.Functions[i].Key.Package += evil
			tb.Functions[i].Key.File += evil
		}
		for i := range tb.Packages {
			tb.Packages[i].Key.Package += evil
		}
		for i := range tb.Files {
			tb.Files[i].Key.Package += evil
			tb.Files[i].Key.File += evil
		}
		tb.Lines = []analyze.LineTime{{Function: tb.Functions[1].Key, Line: 2, Self: ms}}
	}
	in := Input{Report: compare(t, b, a), Source: func(int, string) (string, bool) { return "line one " + evil + "\nline two " + evil + "\n", true }}
	m := sized(New(in), 160, 48)
	screens := map[string]Model{"packages": m}
	screens["package"], _ = press(t, m, "enter")
	screens["functions"], _ = press(t, m, "tab")
	screens["calls"], _ = press(t, screens["functions"], "enter")
	screens["files"], _ = press(t, m, "tab", "tab")
	screens["file"], _ = press(t, screens["files"], "enter")
	screens["paths"], _ = press(t, m, "tab", "tab", "tab")
	screens["warnings"], _ = press(t, m, "w")
	screens["filter"], _ = press(t, m, "/", "\x1b[2J")
	if len(in.Report.Paths) == 0 {
		t.Error("no path to show")
	}
	for name, s := range screens {
		out := s.Render()
		if !strings.Contains(out, "pwned") {
			t.Errorf("%s: the hostile text is not shown at all", name)
		}
		for _, bad := range []string{"\x1b", "\u009b", "\u202e", "\x00", "\a"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s: %q reaches the screen:\n%s", name, bad, out)
			}
		}
	}
	if !strings.Contains(screens["calls"].Render(), "line two") {
		t.Errorf("no source shown")
	}
}

// TestWriteHTML: H writes the HTML report through the command's callback
// and shows its path, or says it is not available.
func TestWriteHTML(t *testing.T) {
	in := Input{Report: compareMoved(t)}
	m := sized(New(in), 120, 30)
	if n, _ := press(t, m, "H"); !strings.Contains(n.Render(), "HTML report: not available") {
		t.Errorf("without a writer:\n%s", n.Render())
	}
	calls := 0
	in.WriteHTML = func() (string, error) { calls++; return "/tmp/profdiff-report.html", nil }
	w, _ := press(t, sized(New(in), 120, 30), "H")
	if calls != 1 || !strings.Contains(w.Render(), "wrote the HTML report to /tmp/profdiff-report.html") {
		t.Errorf("with a writer (%d calls):\n%s", calls, w.Render())
	}
	if n, _ := press(t, w, "down"); strings.Contains(n.Render(), "wrote the HTML") {
		t.Errorf("the message stays after the next key")
	}
	in.WriteHTML = func() (string, error) { return "", errors.New("disk full") }
	if e, _ := press(t, sized(New(in), 120, 30), "H"); !strings.Contains(e.Render(), "HTML report: disk full") {
		t.Errorf("a failing writer:\n%s", e.Render())
	}
}

// TestNarrowKeys: f, i and x on a function row ask the command to compare
// again narrowed by the row's function (anchored, quoted), one filter on
// top of another; u takes the last one back; the new report replaces the
// old on the tab shown.
func TestNarrowKeys(t *testing.T) {
	rep := compareMoved(t)
	var asked [][]string
	in := Input{Report: rep, Narrow: func(flags []string) (*diff.Report, error) {
		asked = append(asked, slices.Clone(flags))
		return compareMoved(t), nil
	}}
	m := sized(New(in), 140, 40)
	m, _ = press(t, m, "tab") // the functions
	m, _ = press(t, m, "f")
	m, _ = press(t, m, "down", "x")
	m, _ = press(t, m, "u")
	if len(asked) != 3 || len(asked[0]) != 2 || asked[0][0] != "--focus" || len(asked[1]) != 4 || asked[1][2] != "--hide" || len(asked[2]) != 2 {
		t.Fatalf("asked %q", asked)
	}
	if re := regexp.MustCompile(asked[0][1]); !re.MatchString(rep.Functions[0].Key.Function) && !strings.HasPrefix(asked[0][1], "^") {
		t.Errorf("pattern %q", asked[0][1])
	}
	if !strings.Contains(m.Render(), "narrowed: --focus") {
		t.Errorf("no narrowing said:\n%s", m.Render())
	}
	if m.stack[0].kind != kindFunctions {
		t.Errorf("the tab shown changed to %v", m.stack[0].kind)
	}
	in.Narrow = nil
	if n, _ := press(t, sized(New(in), 140, 40), "tab", "f"); !strings.Contains(n.Render(), "not available") {
		t.Errorf("without a narrower:\n%s", n.Render())
	}
}

// At 80x24 a comparison's function views keep the package column: name
// columns shrink, and last, but are never dropped (issue 26, item 7).
func TestNamesKeptAt80Columns(t *testing.T) {
	m := sized(New(routerInput(t)), 80, 24)
	f, _ := press(t, m, "tab")
	d, _ := press(t, m, "down", "enter")
	for name, view := range map[string]Model{"functions": f, "package": d} {
		ls := strings.Split(view.Render(), "\n")
		if !strings.Contains(ls[3], "function") || !strings.Contains(ls[3], "package") {
			t.Errorf("%s at 80 columns: header %q", name, ls[3])
		}
	}
}
