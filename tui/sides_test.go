package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
)

// severalInput is the router before (base), after (bucketed) and before
// again, explored as a base and two variants, with a Rebase that compares
// the same sides again.
func severalInput(t *testing.T) Input {
	t.Helper()
	table := func(f string) *analyze.Table {
		p, err := analyze.ParseFile(filepath.Join("..", "testdata", f), analyze.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tab := analyze.Aggregate(p, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true})
		tab.File = f
		return tab
	}
	before, after := table("node-router-unbundled-before.cpuprofile"), table("node-router-unbundled-after.cpuprofile")
	sides := []diff.Side{{Name: "base", Tables: []*analyze.Table{before}}, {Name: "bucketed", Tables: []*analyze.Table{after}},
		{Name: "again", Tables: []*analyze.Table{before}}}
	compare := func(base int) (*diff.Report, error) {
		opts := diff.DefaultOptions()
		opts.Base = base
		return diff.Compare(sides, opts)
	}
	r, err := compare(0)
	if err != nil {
		t.Fatal(err)
	}
	return Input{Report: r.Pairs[0], Several: r, Rebase: compare}
}

func TestSeveralSidesColumnsAndKeys(t *testing.T) {
	m := sized(New(severalInput(t)), 160, 40)
	screen := m.Render()
	// The pair shown is base against bucketed; again has a column.
	if !strings.Contains(screen, "again Δ%") || !strings.Contains(m.status, "bucketed against the base base") {
		t.Fatalf("first screen (status %q):\n%s", m.status, screen)
	}
	var ptr *line
	rows := m.rows()
	for i := range rows {
		if rows[i].names[0] == "path-to-regexp" {
			ptr = &rows[i]
		}
	}
	if ptr == nil || ptr.verdict != diff.VerdictBetter || ptr.cells[len(ptr.cells)-1] != "+0.0% ~" || len(ptr.sort) != len(ptr.cells) {
		t.Fatalf("path-to-regexp: %+v", ptr)
	}
	// v: the base against again, with bucketed's column.
	v, _ := press(t, m, "v")
	if !strings.Contains(v.Render(), "bucketed Δ%") || v.report().Sides[1].Name != "again" {
		t.Errorf("after v: %q\n%s", v.status, v.Render())
	}
	for _, l := range v.rows() {
		if l.names[0] == "path-to-regexp" && (l.verdict != diff.VerdictSame || !strings.HasSuffix(l.cells[len(l.cells)-1], "better")) {
			t.Errorf("path-to-regexp against again: %+v", l)
		}
	}
	// b: bucketed becomes the base; path-to-regexp is worse in base.
	b, _ := press(t, m, "b")
	if b.in.Several.Base != 1 || b.report().Sides[0].Name != "bucketed" || b.report().Sides[1].Name != "base" {
		t.Fatalf("after b: %q", b.status)
	}
	for _, l := range b.rows() {
		if l.names[0] == "path-to-regexp" && l.verdict != diff.VerdictWorse {
			t.Errorf("path-to-regexp against bucketed: %+v", l)
		}
	}
	// Two sides: v and b say what they are for and change nothing.
	two := sized(New(routerInput(t)), 120, 40)
	n, _ := press(t, two, "v", "b")
	if n.report() != two.report() || !strings.Contains(n.status, "three sides") {
		t.Errorf("two sides: %q", n.status)
	}
}
