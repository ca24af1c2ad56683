// Package export writes profiles, after symbolication and package
// attribution, in the formats of other tools: pprof (one side, or a
// comparison as a pprof diff), speedscope, and folded stacks (Brendan
// Gregg's format, with its two-column differential form for a
// comparison). Values are on-CPU time per run of a side (per unit of work
// when given), as in profdiff's report; idle time and V8's (program) are
// left out, garbage collection is kept as its own frame.
package export

import (
	"slices"
	"strings"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
)

// Run is one profile of a side with its aggregation, which must carry
// NodeFunctions (analyze.AggregateOptions.NodeFunctions).
type Run struct {
	Profile *analyze.Profile
	Table   *analyze.Table
}

// Side is one side: its runs, and the work each did (0 when not given).
type Side struct {
	Name string
	Runs []Run
	Work float64
}

// scale is the factor that turns a side's summed time into time per run
// (or per unit of work).
func (s Side) scale() float64 {
	f := 1 / float64(max(len(s.Runs), 1))
	if s.Work > 0 {
		f /= s.Work
	}
	return f
}

// stack returns node n's stack of function rows, root first, appended to
// buf[:0]; empty for a node of no function (the root).
func (r Run) stack(n int32, buf []int32) []int32 {
	buf = buf[:0]
	for ; n >= 0; n = r.Profile.Nodes[n].Parent {
		if fn := r.Table.NodeFunctions[n]; fn >= 0 {
			buf = append(buf, fn)
		}
	}
	slices.Reverse(buf)
	return buf
}

// onCPU reports whether sample s counts: on the CPU, with a weight.
func (r Run) onCPU(s analyze.Sample) bool {
	return s.Weight > 0 && r.Profile.OnCPU(s)
}

// nodeStacks calls visit once for each node the run's on-CPU samples end
// at, in the order the nodes first occur, with its stack (see stack; the
// slice is reused), the number of those samples and their weight: writers
// that sum by stack walk each stack once, not once a sample.
func (r Run) nodeStacks(visit func(node int32, fns []int32, samples int, weight int64)) {
	p := r.Profile
	count := make([]int32, len(p.Nodes))
	weight := make([]int64, len(p.Nodes))
	var order []int32
	for _, s := range p.Samples {
		if !r.onCPU(s) {
			continue
		}
		if count[s.Node] == 0 {
			order = append(order, s.Node)
		}
		count[s.Node]++
		weight[s.Node] += s.Weight
	}
	var buf []int32
	for _, n := range order {
		if buf = r.stack(n, buf); len(buf) > 0 {
			visit(n, buf, int(count[n]), weight[n])
		}
	}
}

// nodeLines returns, for each node whose samples recorded lines (V8's
// positionTicks, a trace's lines) in a frame not mapped through a source
// map, each line's share of the node's time.
func nodeLines(p *analyze.Profile) map[int32][]lineShare {
	if len(p.LineTicks) == 0 {
		return nil
	}
	sums := map[int32]int64{}
	for _, lt := range p.LineTicks {
		sums[lt.Node] += int64(lt.Ticks)
	}
	out := map[int32][]lineShare{}
	for _, lt := range p.LineTicks {
		if p.Frames[p.Nodes[lt.Node].Frame].Generated != nil || sums[lt.Node] <= 0 {
			continue
		}
		out[lt.Node] = append(out[lt.Node], lineShare{lt.Line, float64(lt.Ticks) / float64(sums[lt.Node])})
	}
	return out
}

type lineShare struct {
	line  int32
	share float64
}

// name returns a function's name as profdiff's report gives it.
func name(k analyze.Key) string { return diff.FunctionName(k) }

// cleanName makes a name safe for one field of a line-based format: no
// control characters (a newline would start a record), no sep, no
// trailing space.
func cleanName(s string, sep string) string {
	s = termtext.Clean(s)
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(sep, r) {
			return '_'
		}
		return r
	}, s)
	// A name's last space would read as the one before the count.
	s = strings.TrimRight(s, " ")
	if s == "" {
		return "_"
	}
	// "#" alone or before a space would start a comment line when the
	// frame is a stack's first ("#scan" is a name, "# x" a comment).
	if s == "#" || strings.HasPrefix(s, "# ") {
		s = "_" + s[1:]
	}
	return s
}
