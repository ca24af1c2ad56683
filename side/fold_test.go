package side

import (
	"slices"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/narrow"
)

// TestReadFoldsTrees: a side of several runs is read into one folded
// tree, its runs' own trees emptied (so that runs are not held, tree and
// all, until the comparison), and the report is the one that merging
// every run's own tree gives. It fails when Read keeps each run's tree.
func TestReadFoldsTrees(t *testing.T) {
	f := "../testdata/cpupro-demo.cpuprofile"
	sides := []Side{{Name: "before", Files: []string{f, f, f}}, {Name: "after", Files: []string{f, f}}}
	ds, _, err := Read(sides, Reading{Filters: &narrow.Filters{}, Aggregate: analyze.AggregateOptions{Tree: true, Edges: true}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Tree == nil || d.Tree.Len() < 2 || len(d.Tree.Runs) != len(d.Tables) {
			t.Fatalf("side %s: no folded tree of its %d runs", d.Name, len(d.Tables))
		}
		for _, tab := range d.Tables {
			if tab.Tree.Len() != 0 {
				t.Errorf("side %s: run %s holds its own tree of %d nodes", d.Name, tab.File, tab.Tree.Len())
			}
		}
	}
	folded, err := diff.Compare(ds, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	held := make([]diff.Side, len(sides))
	for si, s := range sides {
		for _, name := range s.Files {
			p, err := analyze.ParseFile(name, analyze.ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			held[si].Tables = append(held[si].Tables, analyze.Aggregate(p, analyze.AggregateOptions{Tree: true, Edges: true}))
		}
		held[si].Name = s.Name
	}
	want, err := diff.Compare(held, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(folded.Tree) < 2 || !slices.EqualFunc(folded.Tree, want.Tree, func(a, b diff.TreeNode) bool {
		return a.Parent == b.Parent && a.Function == b.Function && slices.Equal(a.Total.Mean, b.Total.Mean) && slices.Equal(a.Self.Mean, b.Self.Mean)
	}) {
		t.Errorf("folded tree of %d nodes, merged runs' trees %d", len(folded.Tree), len(want.Tree))
	}
}
