package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
)

// TestHeaderSaysCheckoutsMatched: the router pair with the after side run
// from another checkout, matched below each side's root, says so under
// the sides, as the text report does.
func TestHeaderSaysCheckoutsMatched(t *testing.T) {
	var sides []diff.Side
	for i, f := range []string{"node-router-unbundled-before.cpuprofile", "checkouts/node-router-after-pr-4242.cpuprofile.gz"} {
		p, err := analyze.ParseFile(filepath.Join("..", "testdata", f), analyze.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tab := analyze.Aggregate(p, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true})
		sides = append(sides, diff.Side{Name: []string{"before", "after"}[i], Tables: []*analyze.Table{tab}})
	}
	diff.Relocate(sides, diff.GuessRoots(sides, 0))
	r, err := diff.Compare(sides, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	screen := sized(New(Input{Report: r}), 200, 48).Render()
	if !strings.Contains(screen, "matched node-workload/ ↔ checkouts/pr-4242/") {
		t.Errorf("no matched line:\n%s", screen)
	}
	if strings.Contains(screen, "/srv/checkouts/pr-4242/deploy/src/router.js") {
		t.Errorf("a file keeps its checkout's path:\n%s", screen)
	}
}
