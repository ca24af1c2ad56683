package analyze

import (
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"testing"
)

// TestEdgeSumsMemory: the caller -> callee sums of a profile of many
// distinct calls allocate at most 100 bytes a call beyond the rest of the
// aggregation (59 now; 137 when the sums grew call by call, 210 when a
// map of the pairs indexed them; a profile of 2 M distinct folded stacks
// has 9 M calls).
func TestEdgeSumsMemory(t *testing.T) {
	var b strings.Builder
	r := rand.New(rand.NewSource(1))
	for range 50_000 {
		for d := 4 + r.Intn(5); d > 0; d-- {
			fmt.Fprintf(&b, "f%d;", r.Intn(1000))
		}
		fmt.Fprintf(&b, "f%d %d\n", r.Intn(1000), 1+r.Intn(5))
	}
	p, err := Parse(strings.NewReader(b.String()), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	alloc := func(opts AggregateOptions) (uint64, *Table) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		tab := Aggregate(p, opts)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, tab
	}
	without, _ := alloc(AggregateOptions{})
	with, tab := alloc(AggregateOptions{Edges: true})
	perEdge := (with - without) / uint64(len(tab.Edges))
	t.Logf("%d edges, %d bytes each", len(tab.Edges), perEdge)
	if perEdge > 100 {
		t.Errorf("summing %d calls allocates %d bytes a call", len(tab.Edges), perEdge)
	}
}
