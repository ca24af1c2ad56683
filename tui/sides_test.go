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
	return sidesInput(t, 0, "base", "bucketed", "again")
}

// sidesInput is the router's runs as sides named names (before, after,
// before again...), judged against the side base and explored as a base
// and its variants, with a Rebase that compares the same sides again.
func sidesInput(t *testing.T, base int, names ...string) Input {
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
	runs := []*analyze.Table{table("node-router-unbundled-before.cpuprofile"), table("node-router-unbundled-after.cpuprofile")}
	var sides []diff.Side
	for i, n := range names {
		sides = append(sides, diff.Side{Name: n, Tables: []*analyze.Table{runs[i%2]}})
	}
	compare := func(base int) (*diff.Report, error) {
		opts := diff.DefaultOptions()
		opts.Base = base
		return diff.Compare(sides, opts)
	}
	r, err := compare(base)
	if err != nil {
		t.Fatal(err)
	}
	return Input{Report: r.Variants()[0].Pair(), Several: r, Rebase: compare}
}

// TestTwoSidesRebaseToFirst: two sides with the base second are explored
// as a base and its variant, and b makes the first side the base, which
// lays the report out as a plain pair, then the second again (the
// explorer read the pair's variants through Pairs, which a plain pair
// has none of, and panicked on b).
func TestTwoSidesRebaseToFirst(t *testing.T) {
	m := sized(New(sidesInput(t, 1, "before", "after")), 120, 40)
	if m.report().Sides[0].Name != "after" || m.report().Sides[1].Name != "before" {
		t.Fatalf("first screen: %q", m.status)
	}
	b, _ := press(t, m, "b")
	if b.in.Several.Base != 0 || b.report().Sides[0].Name != "before" || b.report().Sides[1].Name != "after" || !strings.Contains(b.Render(), "path-to-regexp") {
		t.Fatalf("after b: %q\n%s", b.status, b.Render())
	}
	bb, _ := press(t, b, "b")
	if bb.in.Several.Base != 1 || bb.report().Sides[0].Name != "after" {
		t.Fatalf("after b b: %q", bb.status)
	}
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
