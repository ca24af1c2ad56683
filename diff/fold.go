package diff

import (
	"slices"

	"github.com/profdiff/profdiff/analyze"
)

// FoldedTree is a side's runs' call trees folded into one as the runs are
// read (Fold), so that a side of many runs holds one tree rather than one
// a run: a run of the 57 MiB tsc profile leaves a tree of 271,459 nodes
// (2.5 MB), and five runs a side held ten of them until the comparison,
// which then added each run's node totals and merged nodes (another
// 3.3 MB a run). Folded, a side keeps its tree (8 bytes a node) and each
// run's self time (12 bytes a node that samples end at), from which a
// run's totals are summed again when needed. The comparison merges the
// folded trees as it merged the runs' own, with the same nodes, times and
// order (see mergeTrees).
type FoldedTree struct {
	// Parent and Function are each node's parent (-1 for the root, node
	// 0) and function (-1 for the root); a parent comes before its
	// children, and the nodes are in the order folding the runs one
	// after another first met them. A function is an index into From.
	Parent, Function []int32
	// From names each function by a run that has it and its index in
	// that run's Table.Functions, so that the function's key is the
	// table's, relocated (Relocate) along with it.
	From []FoldedFunction
	// Runs are each run's self times, in the order folded.
	Runs []FoldedRun

	index *analyze.ChildIndex   // the nodes by (parent, function), while folding
	keys  map[analyze.Key]int32 // the functions by key, while folding
	local []int32               // scratch: each of a run's nodes' folded node
	fns   []int32               // scratch: each of a run's functions' folded function
}

// FoldedFunction is a function of a FoldedTree: function Function of run
// Run's table.
type FoldedFunction struct{ Run, Function int32 }

// FoldedRun is a run's self time in a FoldedTree: the nodes its samples
// end at, in the order of the run's own tree (CallTree.SelfNodes), and
// their time.
type FoldedRun struct {
	SelfNodes []int32
	Self      []int64
}

// Fold adds a run's call tree to f, the run's functions named by its
// table's rows, and returns the tree it no longer needs; runs must be
// folded in the order of the side's tables.
func (f *FoldedTree) Fold(tree *analyze.CallTree, functions []analyze.Row) {
	if f.index == nil {
		f.index = analyze.NewChildIndex(tree.Len())
		f.keys = map[analyze.Key]int32{}
	}
	run := int32(len(f.Runs))
	f.fns = slices.Grow(f.fns[:0], len(functions))[:len(functions)]
	for j, r := range functions {
		id, ok := f.keys[r.Key]
		if !ok {
			id = int32(len(f.From))
			f.keys[r.Key] = id
			f.From = append(f.From, FoldedFunction{Run: run, Function: int32(j)})
		}
		f.fns[j] = id
	}
	n := tree.Len()
	f.local = slices.Grow(f.local[:0], n)[:n]
	if n > 0 {
		f.local[0] = 0
	}
	for i := 1; i < n; i++ {
		fn := int32(-1)
		if g := tree.Function[i]; g >= 0 && int(g) < len(f.fns) {
			fn = f.fns[g]
		}
		f.local[i], _ = f.index.Child(f.local[tree.Parent[i]], fn)
	}
	nodes := make([]int32, len(tree.SelfNodes))
	for i, node := range tree.SelfNodes {
		nodes[i] = f.local[node]
	}
	f.Runs = append(f.Runs, FoldedRun{SelfNodes: nodes, Self: slices.Clone(tree.Self)})
}

// Done ends folding: it keeps the tree and drops what folding used.
func (f *FoldedTree) Done() {
	if f.index == nil {
		return
	}
	parent, fn := f.index.Nodes()
	f.Parent, f.Function = slices.Clone(parent), slices.Clone(fn)
	f.index, f.keys, f.local, f.fns = nil, nil, nil, nil
}

// most returns each node's largest total time in a run.
func (f *FoldedTree) most() []int64 {
	n := f.Len()
	most, tot := make([]int64, n), make([]int64, n)
	for _, run := range f.Runs {
		clear(tot)
		for k, node := range run.SelfNodes {
			tot[node] = run.Self[k]
		}
		for i := n - 1; i > 0; i-- {
			tot[f.Parent[i]] += tot[i]
		}
		for i, v := range tot {
			most[i] = max(most[i], v)
		}
	}
	return most
}

// Len returns the number of nodes, the root included; 0 for no tree.
func (f *FoldedTree) Len() int { return len(f.Parent) }
