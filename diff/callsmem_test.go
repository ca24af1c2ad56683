package diff

import (
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// TestCallsJoinMemory: joining the calls of two profiles of many distinct
// folded stacks allocates at most 70 bytes a distinct call (55 now) when
// the report keeps 5,000 of them, the rest of the comparison included:
// the calls are found by key in an open-addressing table of 4 bytes a
// slot, where a map took 17 or more a call and was a third of a JSON
// comparison's memory at its peak (two files of 2 M distinct stacks join
// 18 M calls), and their sums are sized once (131 bytes a call before, 112
// with the table alone).
func TestCallsJoinMemory(t *testing.T) {
	side := func(seed int64) Side {
		var b strings.Builder
		r := rand.New(rand.NewSource(seed))
		for range 50_000 {
			for d := 4 + r.Intn(5); d > 0; d-- {
				fmt.Fprintf(&b, "f%d;", r.Intn(1000))
			}
			fmt.Fprintf(&b, "f%d %d\n", r.Intn(1000), 1+r.Intn(5))
		}
		p, err := analyze.Parse(strings.NewReader(b.String()), analyze.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return Side{Name: fmt.Sprint(seed), Tables: []*analyze.Table{analyze.Aggregate(p, analyze.AggregateOptions{Edges: true})}}
	}
	sides := []Side{side(1), side(2)}
	calls := map[[2]analyze.Key]bool{}
	for _, s := range sides {
		fns := s.Tables[0].Functions
		for _, e := range s.Tables[0].Edges {
			calls[[2]analyze.Key{fns[e.Caller].Key, fns[e.Callee].Key}] = true
		}
	}
	opts := DefaultOptions()
	opts.MaxCalls = 5000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rep, err := Compare(sides, opts)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	perCall := (after.TotalAlloc - before.TotalAlloc) / uint64(len(calls))
	t.Logf("%d distinct calls, %d kept, %d bytes a call", len(calls), len(rep.Calls), perCall)
	if perCall > 70 {
		t.Errorf("joining %d calls allocates %d bytes a call", len(calls), perCall)
	}
}
