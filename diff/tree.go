package diff

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"github.com/profdiff/profdiff/analyze"
)

// Call is a caller -> callee edge between two function rows, with the time
// of the samples whose stack holds the call (each sample once). Callers and
// callees are joined with the function rows' identity, so a function whose
// start line moved between builds is one function here too.
type Call struct {
	Caller, Callee int32 // indices into Report.Functions
	Total          Measure
}

// TreeNode is a node of the call tree merged over runs and sides by
// function row: the children of a node that share a function are one node.
// Tree[0] is the root (Function -1, Parent -1); a parent comes before its
// children.
type TreeNode struct {
	Parent   int32
	Function int32 // index into Report.Functions; -1 for the root
	// Self is the time of samples ending at the node, Total that of its
	// subtree.
	Self, Total Measure
}

// PathEnd says how a path's change ends.
type PathEnd uint8

// The ends of a path.
const (
	// EndSelf: the change is mostly the last function's own (self) time.
	EndSelf PathEnd = iota
	// EndSplit: the change spreads over the last function's callees, none
	// of which carries most of it.
	EndSplit
	// EndNew and EndGone: the last function's subtree exists on one side
	// only, and so does the function: it is new, or gone.
	EndNew
	EndGone
	// EndMoved: the last function's subtree is gone from this call path,
	// but the function still runs, called another way (Path.Elsewhere).
	EndMoved
	// EndArrived: the last function's subtree is new on this call path,
	// but the function ran before, called another way (Path.Elsewhere).
	EndArrived
)

var pathEndNames = [...]string{"self", "split", "new", "gone", "moved", "arrived"}

// String names the end: "self", "split", "new", "gone", "moved" or
// "arrived".
func (e PathEnd) String() string { return pathEndNames[e] }

// Path is a chain of the merged call tree from a child of the root down to
// where a real change happened, found by following the child whose total
// time changed most for as long as it carries most of its parent's change.
type Path struct {
	Nodes []int32 // tree nodes, outermost first
	End   PathEnd
	// Delta is the change the path explains: the total change of its last
	// node, less what paths found earlier inside that node explain. The
	// paths' deltas add up to Report.PathsDelta.
	Delta float64
	// Elsewhere is, for EndMoved, the tree node of the same function whose
	// total time grew most (where its time went), and for EndArrived the
	// one whose total time fell most (where it came from); -1 when none
	// did, and for the other ends.
	Elsewhere int32
}

// LineTime is a function's self time on one line of its source, where the
// profile says on which line each sample was.
type LineTime struct {
	Function int32 // index into Report.Functions
	Line     int32 // 0: the function's self time on no recorded line
	Self     Measure
	// Total is the time of the samples in whose stack the function was on
	// the line; zero when Report.LineTotals is false.
	Total Measure
}

// calls joins every run's caller -> callee edges by function row, heaviest
// first (then by caller and callee), and with two sides judges them,
// corrected over the calls. A profile of many distinct stacks has millions
// of calls (2 M random stacks over 3,000 functions: 9 M), so they are summed
// in 8 bytes a run each and only the calls Report.Calls keeps (see
// Options.MaxCalls) get a Measure: 200 bytes each made the calls most of a
// comparison's memory.
func (c *comparison) calls() []Call {
	cs := c.sumCalls()
	order := cs.heaviestFirst(c)
	pOf := c.testCalls(cs, order)
	keep := len(order)
	if c.opts.MaxCalls > 0 {
		keep = min(keep, c.opts.MaxCalls)
	}
	judged := len(c.sides) == 2
	scratch := Measure{Mean: make([]float64, len(c.sides)), Runs: make([][]float64, len(c.sides))}
	alloc := newMeasureBlocks(c)
	out := make([]Call, 0, min(keep, len(order))+len(pOf))
	for i, id := range order {
		p, ok := pOf[id]
		if !ok {
			p = math.NaN()
		}
		if i >= keep {
			// Past the heaviest, only a call judged real is kept, and
			// only a tested one can be.
			if !ok {
				continue
			}
			cs.view(c, id, &scratch)
			if !c.judge(&scratch, p).Verdict.Real() {
				continue
			}
		}
		m := alloc.next()
		cs.view(c, id, &scratch)
		for si := range m.Runs {
			copy(m.Runs[si], scratch.Runs[si])
		}
		c.finish(&m)
		if judged {
			m.Change = c.judge(&m, p)
		}
		out = append(out, Call{Caller: int32(cs.keys[id] >> 32), Callee: int32(uint32(cs.keys[id])), Total: m})
	}
	return out
}

// callSums are every run's calls summed by (caller, callee) row: keys in
// the order first met, and sums their time in each run (runs values a
// call; a side's runs from offset[side]).
type callSums struct {
	keys   []uint64
	sums   []float64
	runs   int
	offset []int
}

// sumCalls sums every run's edges by their caller's and callee's rows.
func (c *comparison) sumCalls() callSums {
	cs := callSums{offset: make([]int, len(c.sides))}
	// hint is how many calls there are, at most, up to twice the most
	// of a run: sized once, the sums grown a quarter at a time allocated
	// three times their size.
	hint, all := 0, 0
	for si, s := range c.sides {
		cs.offset[si] = cs.runs
		cs.runs += len(s.Tables)
		for _, t := range s.Tables {
			hint, all = max(hint, len(t.Edges)), all+len(t.Edges)
		}
	}
	hint = min(all, 2*hint)
	runs := cs.runs
	index := newCallIndex(hint) // a call's id by its key
	keys := make([]uint64, 0, hint)
	sums := make([]float64, 0, hint*runs) // zeroed
	for si, s := range c.sides {
		for ri, t := range s.Tables {
			row := c.rows[si][ri]
			for _, e := range t.Edges {
				a, b := rowOf(row, e.Caller), rowOf(row, e.Callee)
				if a < 0 || b < 0 {
					continue
				}
				k := uint64(uint32(a))<<32 | uint64(uint32(b))
				slot, id := index.find(keys, k)
				if id < 0 {
					id = int32(len(keys))
					keys = append(keys, k)
					index.add(keys, slot, id)
					if len(sums)+runs > cap(sums) {
						sums = slices.Grow(sums, max(runs, len(sums)/4))
					}
					sums = sums[:len(sums)+runs] // zeroed: never used before
				}
				sums[int(id)*runs+cs.offset[si]+ri] += float64(e.Total) * c.scale[si]
			}
		}
	}
	cs.keys, cs.sums = keys, sums
	return cs
}

// view makes m a call's measure over the sums, its means in m.Mean.
func (cs callSums) view(c *comparison, id int32, m *Measure) {
	for si, s := range c.sides {
		at := int(id)*cs.runs + cs.offset[si]
		m.Runs[si] = cs.sums[at : at+len(s.Tables) : at+len(s.Tables)]
		m.Mean[si] = mean(m.Runs[si])
	}
}

// heaviestFirst orders the calls by their mean on the last side, heaviest
// first, then by caller and callee.
func (cs callSums) heaviestFirst(c *comparison) []int32 {
	last := len(c.sides) - 1
	lastMean := make([]float64, len(cs.keys))
	for id := range cs.keys {
		at := id*cs.runs + cs.offset[last]
		lastMean[id] = mean(cs.sums[at : at+len(c.sides[last].Tables)])
	}
	order := make([]int32, len(cs.keys))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int {
		if d := cmp.Compare(lastMean[y], lastMean[x]); d != 0 {
			return d
		}
		return cmp.Compare(cs.keys[x], cs.keys[y]) // caller, then callee
	})
	return order
}

// testCalls returns, with two sides, the p-value of each call large
// enough to be tested, corrected over them as judgeSet does (Holm; the
// others are left out); none otherwise.
func (c *comparison) testCalls(cs callSums, order []int32) map[int32]float64 {
	if len(c.sides) != 2 {
		return nil
	}
	scratch := Measure{Mean: make([]float64, len(c.sides)), Runs: make([][]float64, len(c.sides))}
	var tested []int32
	var ps []float64
	for _, id := range order {
		cs.view(c, id, &scratch)
		if c.eligible(&scratch) {
			tested = append(tested, id)
			ps = append(ps, c.pValue(&scratch, true)) // with the prior of functions, as rows
		}
	}
	holm(ps)
	pOf := make(map[int32]float64, len(tested))
	for i, id := range tested {
		pOf[id] = ps[i]
	}
	return pOf
}

// sumByKey sums a part of every run's table (its Lines, its Edges) into
// one output per key, in the order the keys are first met, with a finished
// measure: keysOf gives, for a side's run, the function that gives an
// item's key, its time and whether it has a key at all; newOut builds a key's
// output around its measure, and measure finds the measure in an output.
func sumByKey[T any, K comparable, O any](c *comparison, part func(*analyze.Table) []T, keysOf func(side, run int) func(T) (K, int64, bool),
	newOut func(K, Measure) O, measure func(*O) *Measure) []O {
	index := map[K]int{}
	var out []O
	alloc := newMeasureBlocks(c)
	for si, s := range c.sides {
		for ri, t := range s.Tables {
			items := part(t)
			if len(items) == 0 {
				continue
			}
			keyOf := keysOf(si, ri)
			for _, item := range items {
				k, ns, ok := keyOf(item)
				if !ok {
					continue
				}
				i, seen := index[k]
				if !seen {
					i = len(out)
					index[k] = i
					out = append(out, newOut(k, alloc.next()))
				}
				measure(&out[i]).Runs[si][ri] += float64(ns) * c.scale[si]
			}
		}
	}
	for i := range out {
		c.finish(measure(&out[i]))
	}
	return out
}

// defaultTreeMinShare is Options.TreeMinShare's default: it keeps a deep
// profile's tree (the 63 MiB tsc profile: 271,450 nodes, 39,038 above it)
// to what a path (at least MinDeltaPP, 0.1 points, by default) or a flame
// graph can show.
const defaultTreeMinShare = 1e-4

// tree merges every run's call tree; nil when the tables carry none.
// Nodes under Options.TreeMinShare of on-CPU time on every side are left
// out, and with Options.PathsOnlyTree so are those too small to be judged.
func (c *comparison) tree() []TreeNode {
	m := c.mergeTrees()
	if m == nil {
		return nil
	}
	alloc := newMeasureBlocks(c)
	out := make([]TreeNode, 0, m.kept)
	for _, id := range m.order {
		if m.newID[id] < 0 {
			continue
		}
		p := m.parent[id]
		if p >= 0 {
			p = m.newID[p]
		}
		out = append(out, TreeNode{Parent: p, Function: m.key[id], Self: alloc.next(), Total: alloc.next()})
	}
	for si, st := range m.trees {
		for ri, run := range st.runs {
			near := m.nearOf(si)
			for k, node := range run.SelfNodes {
				if id := m.mergedID(near, node); id >= 0 {
					out[id].Self.Runs[si][ri] += float64(run.Self[k]) * c.scale[si]
				}
			}
			for id, v := range m.runTotals(si, ri) {
				if j := m.newID[id]; j >= 0 && v != 0 {
					out[j].Total.Runs[si][ri] += float64(v) * c.scale[si]
				}
			}
		}
	}
	for i := range out {
		c.finish(&out[i].Self)
		c.finish(&out[i].Total)
	}
	return out
}

// sideTree is a side's call tree as mergeTrees reads it: the side's
// FoldedTree, or its one run's own tree.
type sideTree struct {
	// parent and function are each node's parent and function; row is
	// each function's row in the report (-1 for none).
	parent, function, row []int32
	most                  []int64 // each node's largest total in a run
	runs                  []FoldedRun
	// distinct: in every run, every function has a row of its own.
	distinct bool
}

// mergedTrees is every side's call tree merged by function row, as far as
// a node could be kept.
type mergedTrees struct {
	trees []*sideTree
	// parent and key are each merged node's parent (-1 for the root) and
	// function row (-1 for the root).
	parent, key []int32
	// near maps each side's tree nodes to their merged node, and a node
	// with none to ^ the merged node of its nearest ancestor with one;
	// nil when the one side's tree is the merged tree itself (see
	// mergeOne).
	near [][]int32
	// order holds the merged nodes in the order merging every node of
	// every table would have made them: the report's order.
	order []int32
	// newID is each merged node's place in the report's tree, -1 for the
	// nodes left out; kept counts the others.
	newID []int32
	kept  int
	// totals is the array runTotals sums a run's totals in.
	totals []int64
}

// maxCachedTotals is how many tree nodes startTreeTotals computes the
// largest totals of at most (8 bytes each, 32 MiB); past it mergeTrees
// computes them itself.
const maxCachedTotals = 4 << 20

// startTreeTotals starts computing, for each side of one run or with a
// folded tree, each node's largest total in a run (a run's totals, for
// one) on a goroutine of its own, when they fit maxCachedTotals, so that
// mergeTrees finds them done: they depend on the trees alone, and the
// joins of the rows, which mergeTrees waits for, leave a core free.
func (c *comparison) startTreeTotals() {
	nodes := 0
	for _, s := range c.sides {
		nodes += treeLen(s)
	}
	if nodes == 0 || nodes > maxCachedTotals {
		return
	}
	done := make(chan [][][]int64, 1) // never blocks, so an unused result leaks nothing
	go func() {
		tot := make([][][]int64, len(c.sides))
		for si, s := range c.sides {
			if treeLen(s) > 0 {
				tot[si] = [][]int64{mostOf(s)}
			}
		}
		done <- tot
	}()
	c.treeTotals = sync.OnceValue(func() [][][]int64 { return <-done })
}

// treeLen returns the number of nodes of a side's folded tree, or of its
// one run's tree; 0 for a side of several runs not folded.
func treeLen(s Side) int {
	switch {
	case s.Tree != nil:
		return s.Tree.Len()
	case len(s.Tables) == 1:
		return s.Tables[0].Tree.Len()
	}
	return 0
}

// mostOf returns each node's largest total in a run of a side's folded
// tree, or its one run's totals.
func mostOf(s Side) []int64 {
	if s.Tree != nil {
		return s.Tree.most()
	}
	return s.Tables[0].Tree.Totals(nil)
}

// sideTrees returns each side's tree as mergeTrees reads it, folding the
// runs of a side of several that were not folded as they were read; nil
// when no table has a tree.
func (c *comparison) sideTrees() []*sideTree {
	var cached [][][]int64
	if c.treeTotals != nil {
		cached = c.treeTotals()
	}
	trees := make([]*sideTree, len(c.sides))
	largest := 0
	for si, s := range c.sides {
		st := &sideTree{distinct: true}
		for ri := range s.Tables {
			st.distinct = st.distinct && distinctRows(c.rows[si][ri])
		}
		if s.Tree == nil && len(s.Tables) > 1 && slices.ContainsFunc(s.Tables, func(t *analyze.Table) bool { return t.Tree.Len() > 0 }) {
			s.Tree = &FoldedTree{} // s is a copy: the side keeps its tables' trees
			for _, t := range s.Tables {
				s.Tree.Fold(&t.Tree, t.Functions)
			}
			s.Tree.Done()
		}
		if treeLen(s) > 0 {
			if cached != nil && cached[si] != nil {
				st.most = cached[si][0]
			} else {
				st.most = mostOf(s)
			}
		}
		switch f := s.Tree; {
		case f != nil:
			st.parent, st.function, st.runs = f.Parent, f.Function, f.Runs
			st.row = make([]int32, len(f.From))
			for i, from := range f.From {
				st.row[i] = rowOf(c.rows[si][from.Run], from.Function)
			}
		case len(s.Tables) == 1:
			t := &s.Tables[0].Tree
			st.parent, st.function, st.row = t.Parent, t.Function, c.rows[si][0]
			st.runs = []FoldedRun{{SelfNodes: t.SelfNodes, Self: t.Self}}
		}
		largest = max(largest, len(st.parent))
		trees[si] = st
	}
	if largest == 0 {
		return nil
	}
	return trees
}

// nearOf returns the merged node of each of side si's tree nodes (see
// mergedTrees.near); nil when they are the same (mergeOne).
func (m *mergedTrees) nearOf(si int) []int32 {
	if m.near == nil {
		return nil
	}
	return m.near[si]
}

// mergedID returns the report's tree node of a side's tree node, given
// the side's near, -1 for none.
func (m *mergedTrees) mergedID(near []int32, node int32) int32 {
	if near != nil {
		if node = near[node]; node < 0 {
			return -1
		}
	}
	return m.newID[node]
}

// runTotals returns the total time of each merged node in run ri of side
// si: a run's self time goes to the merged node of the node it is at or
// of its nearest ancestor with one, and a merged node's total is its
// subtree's, as the sum of the totals of the run's nodes merged into it
// is. The array is reused by the next call.
func (m *mergedTrees) runTotals(si, ri int) []int64 {
	st := m.trees[si]
	if m.near == nil { // mergeOne: one run, whose tree is the merged tree
		return st.most
	}
	near, run := m.near[si], st.runs[ri]
	m.totals = slices.Grow(m.totals[:0], len(m.parent))[:len(m.parent)]
	tot := m.totals
	clear(tot)
	for k, node := range run.SelfNodes {
		id := near[node]
		if id < 0 {
			id = ^id
		}
		tot[id] += run.Self[k]
	}
	for i := len(tot) - 1; i > 0; i-- {
		tot[m.parent[i]] += tot[i]
	}
	return tot
}

// mergeTrees merges the sides' trees in two passes, so that the nodes
// that cannot be kept cost neither memory nor lookups. The first adds to
// the index only the nodes that could be kept: a merged node is kept when
// its mean over some side's runs reaches the floor, so one of those runs
// reaches it alone (a parent holds at least its children's time, so a
// node's parent is added before it). The second maps every side's node to
// its merged node, when it has one, and sums the means; a node whose
// parent has none has none either. A merged node's time is then the same
// as if every node had been merged. nil when no table has a tree.
func (c *comparison) mergeTrees() *mergedTrees {
	trees := c.sideTrees()
	if trees == nil {
		return nil
	}
	least, floor := c.treeFloors(trees)
	m := &mergedTrees{trees: trees}
	var eligible func(means []float64) bool
	if c.pathFloors() != nil {
		// A little under the minimum, since the means judged later are
		// summed in another order: keeping a node too many changes no
		// path, leaving one out could.
		eligible = func(means []float64) bool { return c.share(&Measure{Mean: means}) >= c.opts.MinDeltaPP*(1-1e-9) }
	}
	if len(c.sides) == 1 && len(c.sides[0].Tables) == 1 && trees[0].distinct {
		m.keep([][]float64{m.mergeOne(trees[0], c.scale[0])}, least, eligible)
		return m
	}
	index := analyze.NewChildIndex(0)
	var scratch []int32 // addCandidates', side after side
	for si, st := range trees {
		// A little under the floor, so that rounding in the means
		// cannot keep a node that was not a candidate.
		scratch = addCandidates(index, st, floor[si]/c.scale[si]*(1-1e-9), scratch)
	}
	scratch = nil
	m.near = make([][]int32, len(trees))
	seen := make([]bool, index.Len())
	for si, st := range trees {
		m.near[si] = findMerged(index, st)
		for _, id := range m.near[si] {
			if id >= 0 && !seen[id] {
				seen[id] = true
				m.order = append(m.order, id)
			}
		}
	}
	m.parent, m.key = index.Nodes()
	mean := make([][]float64, len(trees))
	for si, st := range trees {
		mean[si] = make([]float64, len(m.parent))
		w := c.scale[si] / float64(len(c.sides[si].Tables))
		for ri := range st.runs {
			for id, v := range m.runTotals(si, ri) {
				if v != 0 {
					mean[si][id] += float64(v) * w
				}
			}
		}
	}
	m.keep(mean, least, eligible)
	return m
}

// mergeOne makes the merged tree of a single run whose functions each
// have a row of their own: merging it by row would add its nodes one by
// one in their order, each a child of its parent's node and none merged
// with a sibling (the run's tree is merged by function already), so it
// is the run's tree, with the same nodes in the same order. It returns
// the nodes' means, for keep.
func (m *mergedTrees) mergeOne(st *sideTree, scale float64) []float64 {
	n := len(st.parent)
	m.parent = st.parent
	m.key = make([]int32, n)
	m.order = make([]int32, n)
	for i, fn := range st.function {
		m.key[i] = rowOf(st.row, fn)
		m.order[i] = int32(i)
	}
	mean := make([]float64, n)
	for i, v := range st.most {
		mean[i] = float64(v) * scale
	}
	return mean
}

// treeFloors returns the time (in the rows' unit) a merged node must hold
// on some side to be kept, and per side the time one of its runs must
// hold for a node to be a candidate.
func (c *comparison) treeFloors(trees []*sideTree) (least float64, floor []float64) {
	for si, st := range trees {
		var root float64 // the mean root total, summed as the nodes' means are
		w := c.scale[si] / float64(len(c.sides[si].Tables))
		for _, run := range st.runs {
			var sum int64
			for _, v := range run.Self {
				sum += v
			}
			root += float64(sum) * w
		}
		least = max(least, c.opts.TreeMinShare*root)
	}
	floor = make([]float64, len(c.sides))
	pp := c.pathFloors()
	for si := range floor {
		floor[si] = least
		if pp != nil {
			floor[si] = pp[si]
		}
	}
	return least, floor
}

// pathFloors returns, with Options.PathsOnlyTree, the time per side under
// which a node cannot pass the minimum effect (eligible), so cannot be on
// a path: none can on a side without on-CPU time (+Inf); nil without
// the option. keep tests eligibility itself, as eligible does.
func (c *comparison) pathFloors() []float64 {
	if !c.opts.PathsOnlyTree || len(c.sides) < 2 {
		return nil
	}
	pp := make([]float64, len(c.sides))
	for si := range pp {
		pp[si] = math.Inf(1)
		if c.onCPU[si] > 0 {
			pp[si] = c.opts.MinDeltaPP / 100 * c.onCPU[si]
		}
	}
	return pp
}

// tableRows returns, side by side and run by run, the report's row of
// each table's functions, which the calls and the tree join by.
func (c *comparison) tableRows() [][][]int32 {
	rows := make([][][]int32, len(c.sides))
	for si, s := range c.sides {
		for _, t := range s.Tables {
			rows[si] = append(rows[si], c.functionRows(t))
		}
	}
	return rows
}

// functionRows returns the report's row of each of the table's functions
// (-1 for none).
func (c *comparison) functionRows(t *analyze.Table) []int32 {
	row := make([]int32, len(t.Functions))
	for j := range t.Functions {
		fn, ok := c.fnIndex[t.Functions[j].Key]
		if !ok { // no row: cannot happen for a function with time
			fn = -1
		}
		row[j] = fn
	}
	return row
}

// addCandidates adds to the index the side's nodes that hold at least
// floor (in the tables' nanoseconds) in some run. Where two of a run's
// functions share a row (renamed functions joined), two siblings can make
// one merged node whose time is their sum, so every node is added. local
// is scratch space, returned for the next side.
func addCandidates(index *analyze.ChildIndex, st *sideTree, floor float64, local []int32) []int32 {
	if !st.distinct {
		floor = 0
	}
	n := len(st.parent)
	if n == 0 {
		return local
	}
	local = slices.Grow(local[:0], n)[:n]
	local[0] = 0 // the root's node is the root
	for i := 1; i < n; i++ {
		local[i] = -1
		if p := local[st.parent[i]]; p >= 0 && float64(st.most[i]) >= floor {
			local[i], _ = index.Child(p, rowOf(st.row, st.function[i]))
		}
	}
	return local
}

// findMerged returns the merged node of each of the side's nodes, and for
// a node with none ^ that of its nearest ancestor with one (the root's is
// the root).
func findMerged(index *analyze.ChildIndex, st *sideTree) []int32 {
	near := make([]int32, len(st.parent))
	for i := 1; i < len(near); i++ {
		p := near[st.parent[i]]
		if p < 0 {
			near[i] = p
			continue
		}
		near[i] = ^p
		if id := index.Find(p, rowOf(st.row, st.function[i])); id >= 0 {
			near[i] = id
		}
	}
	return near
}

// distinctRows reports whether every function has a row of its own.
func distinctRows(row []int32) bool {
	most := int32(-1)
	for _, r := range row {
		most = max(most, r)
	}
	seen := make([]bool, most+1)
	for _, r := range row {
		if r < 0 || seen[r] {
			return false
		}
		seen[r] = true
	}
	return true
}

// rowOf returns function fn's row, -1 for none.
func rowOf(row []int32, fn int32) int32 {
	if fn >= 0 && int(fn) < len(row) {
		return row[fn]
	}
	return -1
}

// keep numbers, in the report's order, the merged nodes that hold at least
// least on some side and, when eligible is not nil, that it says can pass
// the minimum effect with their means per side (-1 for the others); the
// root is always kept.
func (m *mergedTrees) keep(mean [][]float64, least float64, eligible func(means []float64) bool) {
	m.newID = make([]int32, len(m.parent))
	means := make([]float64, len(mean))
	for _, id := range m.order {
		above := id == 0
		for si := range mean {
			v := mean[si][id]
			means[si] = v
			above = above || (v >= least && v > 0)
		}
		m.newID[id] = -1
		if above && (id == 0 || eligible == nil || eligible(means)) {
			m.newID[id] = int32(m.kept)
			m.kept++
		}
	}
}

// judgeTree judges every node's self and total change; nodes too small to
// pass the minimum effect are not tested and do not dilute the correction.
func (c *comparison) judgeTree(tree []TreeNode) {
	if len(tree) == 0 {
		return
	}
	self, total := make([]*Measure, len(tree)), make([]*Measure, len(tree))
	for i := range tree {
		self[i], total[i] = &tree[i].Self, &tree[i].Total
	}
	has := func(i int) (bool, bool) { return total[i].Mean[0] > 0, total[i].Mean[1] > 0 }
	c.judgeSet(total, has, func(i int) bool { return i > 0 && c.eligible(total[i]) }, true, 1)
	c.judgeSet(self, has, func(i int) bool { return i > 0 && c.eligible(self[i]) }, true, 1)
}

// TreeChildren returns each tree node's children, the heaviest (by the
// last side's total, then the first side's) first.
func (r *Report) TreeChildren() [][]int32 {
	kids := make([][]int32, len(r.Tree))
	for i := len(r.Tree) - 1; i > 0; i-- {
		p := r.Tree[i].Parent
		kids[p] = append(kids[p], int32(i))
	}
	last := len(r.Sides) - 1
	for _, k := range kids {
		slices.SortFunc(k, func(a, b int32) int {
			x, y := &r.Tree[a].Total, &r.Tree[b].Total
			if d := cmp.Compare(y.Mean[last], x.Mean[last]); d != 0 {
				return d
			}
			if d := cmp.Compare(y.Mean[0], x.Mean[0]); d != 0 {
				return d
			}
			return cmp.Compare(a, b)
		})
	}
	return kids
}

// TreeFunction returns the key of a tree node's function (the zero key for
// the root).
func (r *Report) TreeFunction(node int32) analyze.Key {
	if f := r.Tree[node].Function; f >= 0 {
		return r.Functions[f].Key
	}
	return analyze.Key{}
}

// ownShare is the share of a node's remaining change its own self time
// must hold for a path to end there.
const ownShare = 0.5

// maxPathTries bounds the descents made before the heaviest paths are kept.
const maxPathTries = 50

// findPaths finds the paths that carry the real changes, up to
// opts.MaxPaths, the heaviest first. A descent starts at the root and
// follows, among the children judged to have really changed in total, the
// one whose remaining change is largest, and stops
// at a node whose own self time holds most of its remaining change (the
// change is there), or where no child carries a real change (it splits
// into changes too small to judge, or the subtree is new or gone). A path
// that ends in self time explains that node's self change only, so that a
// later descent can still go on below it (a loop that got faster in its
// own code and in a callee gives two paths); any other path explains its
// last node's remaining change. What a path explains is taken off the
// node's ancestors, so that the next descent looks elsewhere and the
// paths' parts add up. Paths that end where the change is come first, the
// heaviest first, then those that end where it spreads out.
func findPaths(r *Report, opts Options) ([]Path, float64) {
	if len(r.Tree) < 2 || opts.MaxPaths < 0 {
		return nil, 0
	}
	f := newPathFinder(r, opts)
	var paths []Path
	for range maxPathTries {
		chain := f.descend()
		if len(chain) == 0 {
			break
		}
		if !f.real(chain[len(chain)-1]) {
			// A dead end: what changed below here was explained already.
			f.used[chain[len(chain)-1]] = true
			continue
		}
		if p := f.take(chain); math.Abs(p.Delta) >= f.least {
			paths = append(paths, p)
		}
	}
	// Paths that end where the change is (self time, a new, gone or
	// moved subtree) come before those that end where it spreads out.
	slices.SortStableFunc(paths, func(a, b Path) int {
		if sa, sb := a.End == EndSplit, b.End == EndSplit; sa != sb {
			if sb {
				return -1
			}
			return 1
		}
		return cmp.Compare(math.Abs(b.Delta), math.Abs(a.Delta))
	})
	if len(paths) > opts.MaxPaths {
		paths = paths[:opts.MaxPaths]
	}
	var explained float64
	for _, p := range paths {
		explained += p.Delta
	}
	return paths, explained
}

// pathFinder is the state of findPaths: what of each node's change the
// paths found so far leave unexplained.
type pathFinder struct {
	tree      []TreeNode
	functions []Row // the report's function rows, which the tree's nodes index
	kids      [][]int32
	// resid is each node's total change not yet explained by a path;
	// selfLeft its self change not yet explained.
	resid, selfLeft []float64
	used            []bool // the node's change is explained: do not descend into it
	// below[i]: node i or a node under it changed really. A descent may
	// pass through nodes whose own change is not judged real (with one run
	// per side, the outer frames' changes drown in their size) on its way
	// to one that is.
	below []bool
	least float64 // the smallest change worth a path
}

func newPathFinder(r *Report, opts Options) *pathFinder {
	n := len(r.Tree)
	f := &pathFinder{tree: r.Tree, functions: r.Functions, kids: r.TreeChildren(), resid: make([]float64, n), selfLeft: make([]float64, n),
		used: make([]bool, n), below: make([]bool, n), least: opts.MinDeltaPP / 100 * max(r.OnCPU(0), r.OnCPU(1))}
	for i := range r.Tree {
		f.resid[i] = r.Tree[i].Total.Change.Delta
		f.selfLeft[i] = r.Tree[i].Self.Change.Delta
	}
	for i := n - 1; i > 0; i-- {
		f.below[i] = f.below[i] || f.real(int32(i))
		if p := r.Tree[i].Parent; p > 0 {
			f.below[p] = f.below[p] || f.below[i]
		}
	}
	return f
}

// real reports whether node i's total change is judged real and large
// enough for a path.
func (f *pathFinder) real(i int32) bool {
	c := f.tree[i].Total.Change
	return c.Verdict.Real() && math.Abs(c.Delta) >= f.least
}

// endsInSelf reports whether node i's own self time holds most of its
// remaining change.
func (f *pathFinder) endsInSelf(i int32) bool {
	return f.selfLeft[i] != 0 && math.Abs(f.selfLeft[i]) >= ownShare*math.Abs(f.resid[i])
}

// descend follows, from the root, the child with the largest remaining
// change among those with a real change at or below them, until a node
// whose change is real ends there (new, gone or in its self time) or no
// child carries one; it returns the chain of nodes passed.
func (f *pathFinder) descend() []int32 {
	var chain []int32
	cur := int32(0)
	for {
		if cur != 0 && f.real(cur) {
			v := f.tree[cur].Total.Change.Verdict
			if v == VerdictNew || v == VerdictGone || f.endsInSelf(cur) {
				return chain
			}
		}
		best := int32(-1)
		for _, k := range f.kids[cur] {
			if f.used[k] || !f.below[k] || math.Abs(f.resid[k]) < f.least {
				continue
			}
			if best < 0 || math.Abs(f.resid[k]) > math.Abs(f.resid[best]) {
				best = k
			}
		}
		if best < 0 {
			return chain
		}
		chain = append(chain, best)
		cur = best
	}
}

// take makes a path of a chain that ends in a real change and takes what
// it explains off the chain's nodes and their ancestors.
func (f *pathFinder) take(chain []int32) Path {
	end := chain[len(chain)-1]
	p := Path{Nodes: chain, Delta: f.resid[end], End: EndSplit, Elsewhere: -1}
	switch v := f.tree[end].Total.Change.Verdict; {
	case v == VerdictNew:
		p.End = EndNew
		if fn := f.tree[end].Function; fn >= 0 && f.functions[fn].Total.Mean[0] > 0 {
			p.End, p.Elsewhere = EndArrived, f.elsewhere(fn, -1)
		}
	case v == VerdictGone:
		p.End = EndGone
		if fn := f.tree[end].Function; fn >= 0 && f.functions[fn].Total.Mean[1] > 0 {
			p.End, p.Elsewhere = EndMoved, f.elsewhere(fn, +1)
		}
	case f.endsInSelf(end):
		p.End = EndSelf
		p.Delta = f.selfLeft[end]
	}
	if p.End == EndSelf {
		f.selfLeft[end] = 0
	} else {
		f.used[end] = true
	}
	for a := end; a >= 0; a = f.tree[a].Parent {
		f.resid[a] -= p.Delta
	}
	return p
}

// elsewhere finds the tree node of function fn whose total time changed
// most in the direction sign (+1 grew, -1 fell), or -1.
func (f *pathFinder) elsewhere(fn int32, sign float64) int32 {
	best := int32(-1)
	for i, t := range f.tree {
		if t.Function != fn || sign*t.Total.Change.Delta <= 0 {
			continue
		}
		if best < 0 || sign*t.Total.Change.Delta > sign*f.tree[best].Total.Change.Delta {
			best = int32(i)
		}
	}
	return best
}

// callIndex finds a call's id by its (caller, callee) key in an
// open-addressing table of ids + 1 (0: empty) over the calls' keys, 4
// bytes a slot and 5 to 11 a call, where a map of keys took 17 or more:
// two profiles of 2 M distinct stacks join 18 M calls, and the map was a
// third of a JSON comparison's memory at its peak.
type callIndex struct{ slots []int32 }

// newCallIndex returns an index with room for n calls.
func newCallIndex(n int) callIndex {
	size := 1024
	for size*3 < n*4 {
		size *= 2
	}
	return callIndex{make([]int32, size)}
}

// callHash mixes a call's key.
func callHash(k uint64) uint64 {
	h := k * 0x9E3779B97F4A7C15
	return h ^ h>>29
}

// find returns the id of the call with key k (-1 when there is none) and
// the slot where it is or would go.
func (x *callIndex) find(keys []uint64, k uint64) (slot int, id int32) {
	mask := len(x.slots) - 1
	for i := int(callHash(k)) & mask; ; i = (i + 1) & mask {
		id := x.slots[i] - 1
		if id < 0 || keys[id] == k {
			return i, id
		}
	}
}

// add puts call id, whose key is keys[id] and which find did not find, in
// slot, growing the table when it is over 3/4 full.
func (x *callIndex) add(keys []uint64, slot int, id int32) {
	if len(keys)*4 <= len(x.slots)*3 {
		x.slots[slot] = id + 1
		return
	}
	x.slots = make([]int32, 2*len(x.slots))
	mask := len(x.slots) - 1
	for e, k := range keys {
		i := int(callHash(k)) & mask
		for x.slots[i] != 0 {
			i = (i + 1) & mask
		}
		x.slots[i] = int32(e) + 1
	}
}
