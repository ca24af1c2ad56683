package diff

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// fullMerge is the call tree as merging every node of every table gives
// it, with the floor applied to the whole merged tree: the reference the
// two-pass merge (candidates, then lookups) must reproduce node for node.
func fullMerge(c *comparison) []TreeNode {
	x := analyze.NewChildIndex(0)
	var locals [][]int32
	for si, s := range c.sides {
		for ri, t := range s.Tables {
			row := c.rows[si][ri]
			local := make([]int32, t.Tree.Len())
			for i := 1; i < len(local); i++ {
				local[i], _ = x.Child(local[t.Tree.Parent[i]], rowOf(row, t.Tree.Function[i]))
			}
			locals = append(locals, local)
		}
	}
	n := x.Len()
	mean := make([][]float64, len(c.sides))
	k := 0
	for si, s := range c.sides {
		mean[si] = make([]float64, n)
		for _, t := range s.Tables {
			total := t.Tree.Totals(nil)
			for i, id := range locals[k] {
				mean[si][id] += float64(total[i]) * c.scale[si] / float64(len(s.Tables))
			}
			k++
		}
	}
	var least float64
	for si := range mean {
		least = max(least, c.opts.TreeMinShare*mean[si][0])
	}
	newID := make([]int32, n)
	var out []TreeNode
	for id := range int32(n) {
		keep := id == 0
		for si := range mean {
			keep = keep || (mean[si][id] >= least && mean[si][id] > 0)
		}
		newID[id] = -1
		if keep {
			newID[id] = int32(len(out))
			p := x.Parent(id)
			if p >= 0 {
				p = newID[p]
			}
			out = append(out, TreeNode{Parent: p, Function: x.Key(id), Self: c.newMeasure(), Total: c.newMeasure()})
		}
	}
	k = 0
	for si, s := range c.sides {
		for ri, t := range s.Tables {
			self, total := t.Tree.Selfs(nil), t.Tree.Totals(nil)
			for i, id := range locals[k] {
				if j := newID[id]; j >= 0 {
					out[j].Self.Runs[si][ri] += float64(self[i]) * c.scale[si]
					out[j].Total.Runs[si][ri] += float64(total[i]) * c.scale[si]
				}
			}
			k++
		}
	}
	return out
}

// treeSides are sides of several runs each, so that a node can be under
// the floor in one run and over it in another: the unbundled router's
// before and after profiles in both orders, and the Chrome trace.
func treeSides(t *testing.T) [][]Side {
	before, after := table(t, "node-router-unbundled-before.cpuprofile"), table(t, "node-router-unbundled-after.cpuprofile")
	return [][]Side{
		{{Name: "a", Tables: []*analyze.Table{before, after, before}}, {Name: "b", Tables: []*analyze.Table{after, before}}},
		{{Name: "a", Tables: []*analyze.Table{before}}, {Name: "b", Tables: []*analyze.Table{after}}},
		{{Name: "one", Tables: []*analyze.Table{after, before}}},
		{{Name: "trace", Tables: []*analyze.Table{table(t, "chrome156-multi-process.trace.json.gz")}}},
		// One profile alone: its tree is the merged tree (mergeOne), in
		// nanoseconds and per unit of work.
		{{Name: "alone", Tables: []*analyze.Table{before}}},
		{{Name: "alone", Tables: []*analyze.Table{after}, Work: 3000}},
		// Per unit of work: the floor and the candidates' are in other units.
		{{Name: "a", Tables: []*analyze.Table{before, after}, Work: 3000}, {Name: "b", Tables: []*analyze.Table{after}, Work: 0.02}},
		// Minified builds without their maps: functions renamed between
		// builds join one row, so a table's functions may share rows.
		minifiedSides(t),
	}
}

// minifiedSides are two runs of each of the bundled router's builds, read
// without their maps (their minified names differ between builds), from
// the shared corpus; nil where it is absent.
func minifiedSides(t *testing.T) []Side {
	var sides []Side
	for _, name := range []string{"before", "after"} {
		s := Side{Name: name}
		for _, run := range []string{"r1", "r2"} {
			p, err := analyze.ParseFile(filepath.Join("..", "..", "shared", "corpus", "node-router-ab", name+"-"+run+".cpuprofile"), analyze.ParseOptions{})
			if err != nil {
				t.Logf("the minified case is left out: %v", err)
				return nil
			}
			s.Tables = append(s.Tables, analyze.Aggregate(p, analyze.AggregateOptions{Edges: true, Tree: true}))
		}
		sides = append(sides, s)
	}
	return sides
}

// TestTreeMatchesFullMerge: the two-pass merge keeps the same nodes, in
// the same order, with the same time in every run, as merging every node
// would, at floors from none to 5% of on-CPU (where most nodes are under
// it in some run and over it in another).
func TestTreeMatchesFullMerge(t *testing.T) {
	for si, sides := range treeSides(t) {
		if sides == nil {
			continue
		}
		for _, share := range []float64{-1, 1e-4, 1e-3, 1e-2, 5e-2} {
			opts := DefaultOptions()
			opts.TreeMinShare = share
			r, err := Compare(sides, opts)
			if err != nil {
				t.Fatal(err)
			}
			c := joined(sides, r)
			want := fullMerge(c)
			name := fmt.Sprintf("sides %d, floor %g", si, share)
			if len(r.Tree) != len(want) {
				t.Fatalf("%s: %d nodes, full merge %d", name, len(r.Tree), len(want))
			}
			if share == 5e-2 && len(want) >= len(fullMergeAll(c)) {
				t.Fatalf("%s: the floor left nothing out", name)
			}
			for i := range want {
				g, w := r.Tree[i], want[i]
				if g.Parent != w.Parent || g.Function != w.Function || !slices.EqualFunc(g.Self.Runs, w.Self.Runs, slices.Equal) || !slices.EqualFunc(g.Total.Runs, w.Total.Runs, slices.Equal) {
					t.Fatalf("%s: node %d: %+v %v %v, full merge %+v %v %v", name, i, g.Parent, g.Function, g.Total.Runs, w.Parent, w.Function, w.Total.Runs)
				}
			}
		}
	}
}

// fullMergeAll is the full merge with no floor.
func fullMergeAll(c *comparison) []TreeNode {
	all := *c
	all.opts.TreeMinShare = -1
	return fullMerge(&all)
}

// joined is the comparison of the sides as Compare makes it, as far as
// the tree needs: the report's options and on-CPU time, and every
// function key's row.
func joined(sides []Side, r *Report) *comparison {
	c := &comparison{sides: sides, opts: r.Options, scale: slices.Repeat([]float64{1}, len(sides)), fnIndex: map[analyze.Key]int32{}}
	if r.PerWork {
		for i, s := range sides {
			c.scale[i] = 1 / s.Work
		}
	}
	for i := range sides {
		c.onCPU = append(c.onCPU, r.OnCPU(i))
	}
	c.join(func(t *analyze.Table) []analyze.Row { return t.Functions }, c.fnIndex)
	c.rows = c.tableRows()
	return c
}

// TestPathsOnlyTreeKeepsThePaths: leaving out the nodes too small to be
// judged changes no path, no path's numbers and no verdict of a node that
// stays, and leaves out most nodes.
func TestPathsOnlyTreeKeepsThePaths(t *testing.T) {
	for si, sides := range treeSides(t)[:2] { // the second has paths
		full, err := Compare(sides, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		opts := DefaultOptions()
		opts.PathsOnlyTree = true
		lean, err := Compare(sides, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(lean.Tree) >= len(full.Tree) {
			t.Errorf("sides %d: %d nodes kept of %d", si, len(lean.Tree), len(full.Tree))
		}
		if (si == 1 && len(full.Paths) == 0) || len(lean.Paths) != len(full.Paths) || lean.PathsDelta != full.PathsDelta {
			t.Fatalf("sides %d: %d paths (%v), full tree %d (%v)", si, len(lean.Paths), lean.PathsDelta, len(full.Paths), full.PathsDelta)
		}
		for i := range full.Paths {
			if a, b := full.Paths[i], lean.Paths[i]; a.End != b.End || a.Delta != b.Delta || len(a.Nodes) != len(b.Nodes) {
				t.Fatalf("sides %d: path %d: %+v, full tree %+v", si, i, b, a)
			}
			for j, n := range full.Paths[i].Nodes {
				a, b := &full.Tree[n], &lean.Tree[lean.Paths[i].Nodes[j]]
				if a.Function != b.Function || a.Total.Change != b.Total.Change || a.Self.Change != b.Self.Change {
					t.Errorf("sides %d: path %d step %d: %+v, full tree %+v", si, i, j, b.Total.Change, a.Total.Change)
				}
			}
		}
	}
}
