package analyze

import (
	"fmt"
	"math/rand"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// distinctStacks returns n folded stacks of 4 to 8 frames over names
// functions, most of them distinct, in the order a file lists them.
func distinctStacks(n, names int) string {
	var b strings.Builder
	r := rand.New(rand.NewSource(1))
	for range n {
		for d := 4 + r.Intn(5); d > 0; d-- {
			fmt.Fprintf(&b, "f%d;", r.Intn(names))
		}
		fmt.Fprintf(&b, "f%d %d\n", r.Intn(names), 1+r.Intn(5))
	}
	return b.String()
}

// foldedStacks returns a profile's stacks as "outer;...;leaf" with their
// weights.
func foldedStacks(p *Profile) map[string]int64 {
	out := map[string]int64{}
	for _, s := range p.Samples {
		var names []string
		for n := s.Node; n > 0; n = p.Nodes[n].Parent {
			names = append(names, p.Frames[p.Nodes[n].Frame].Name)
		}
		slices.Reverse(names)
		out[strings.Join(names, ";")] += s.Weight
	}
	return out
}

// TestFoldedNodesInPreorder: the folded reader lists its nodes in the
// order Aggregate walks them and its samples by node, so that aggregating
// builds no walk order (16 bytes a node while it is built: 10 M nodes for
// 2 M distinct stacks) and keeps no array of self times; the stacks and
// their weights are those of the lines, in any order.
func TestFoldedNodesInPreorder(t *testing.T) {
	text := "main;a;b 1\nmain;c 2\nmain;a;d 3\nother;x 4\nmain;a 5\nmain;c;e 6\nmain;a;b 7\n"
	p, err := Parse(strings.NewReader(text), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if order := p.WalkOrder(); order != nil {
		t.Errorf("nodes not in walk order: %v", order)
	}
	if !slices.IsSortedFunc(p.Samples, func(a, b Sample) int { return int(a.Node - b.Node) }) {
		t.Errorf("samples not sorted by node: %v", p.Samples)
	}
	ms := int64(DefaultFoldedIntervalNs)
	want := map[string]int64{"main;a;b": 8 * ms, "main;c": 2 * ms, "main;a;d": 3 * ms, "other;x": 4 * ms, "main;a": 5 * ms, "main;c;e": 6 * ms}
	if got := foldedStacks(p); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stacks %v, want %v", got, want)
	}
	for i, n := range p.Nodes[1:] {
		if n.Parent < 0 || int(n.Parent) > i {
			t.Errorf("node %d has parent %d", i+1, n.Parent)
		}
	}
	big, err := Parse(strings.NewReader(distinctStacks(20_000, 300)), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if big.WalkOrder() != nil {
		t.Errorf("nodes of 20,000 stacks not in walk order")
	}
}

// TestAggregateDistinctStacksMemory: aggregating a folded profile of many
// distinct stacks allocates at most 40 bytes a node, the merged tree it
// returns (8 bytes a node) included, when it asks for rows and the tree,
// as the default text report does: 32 now, 76 before the folded reader
// listed its nodes in walk order and Aggregate read self times from the
// sorted samples (a walk order of 4 bytes a node, 16 while built, and an
// array of 8), 52 before the self times by tree node were sized once.
func TestAggregateDistinctStacksMemory(t *testing.T) {
	p, err := Parse(strings.NewReader(distinctStacks(50_000, 1000)), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tab := Aggregate(p, AggregateOptions{Tree: true})
	runtime.ReadMemStats(&after)
	perNode := (after.TotalAlloc - before.TotalAlloc) / uint64(len(p.Nodes))
	t.Logf("%d nodes, %d merged, %d bytes a node", len(p.Nodes), tab.Tree.Len(), perNode)
	if perNode > 40 {
		t.Errorf("aggregating %d nodes allocates %d bytes a node", len(p.Nodes), perNode)
	}
}
