package analyze

import (
	"cmp"
	"fmt"
	"slices"
)

// Key identifies a row of a table. Package rows set only Package; file rows
// File and Package; function rows all four. It is comparable, so it can key
// maps, and it is never joined into a string.
type Key struct {
	Package  string
	Function string // as recorded; "" for an anonymous function
	File     string // script URL or path, file:// removed; "" when none
	Line     int32  // 1-based start line of the function; 0 if unknown
	// Column is the 1-based start column; 0 if unknown. It tells apart
	// functions that share a line, as in minified bundles.
	Column int32
}

// Row is one key's time in nanoseconds: Self counts samples whose leaf is the
// key, Total samples in whose stack the key appears at least once.
// SelfSamples and TotalSamples are the same as counts of samples, for a
// profile that takes one sample per tick (Profile.OneSamplePerTick; 0
// otherwise): there each sample weighs the time to the next, which a
// loaded machine stretches (a sample of 215 ms lands on whatever was on
// top), while the count of ticks a key was sampled on is what the
// profiler measured of it.
type Row struct {
	Key                       Key
	Self                      int64
	Total                     int64
	SelfSamples, TotalSamples int32
}

// Summary holds a profile's headline numbers, in nanoseconds.
type Summary struct {
	WallNs     int64 // end - start of the recording
	SampledNs  int64 // the time all samples stand for
	OnCPUNs    int64 // sampled time except (idle) and (program)
	IdleNs     int64
	ProgramNs  int64
	GCNs       int64 // garbage collection, part of on-CPU
	Samples    int64
	IntervalNs int64 // mean sampling interval
	// TickNs is the profiler's tick (Profile.TickNs) of a profile that
	// takes one sample per tick; 0 when not known.
	TickNs int64
	// OnCPUSamples counts the on-CPU samples of a profile that takes one
	// sample per tick (Profile.OneSamplePerTick), the rows' SelfSamples
	// and TotalSamples being theirs; 0 for other profiles.
	OnCPUSamples int64
	// NarrowedFromNs is the on-CPU time before the profile was narrowed
	// (focus, ignore, a window...), set by whoever narrowed it; 0 when it
	// was not.
	NarrowedFromNs int64
}

// Busy returns the fraction of sampled time that was on-CPU.
func (s Summary) Busy() float64 {
	if s.SampledNs == 0 {
		return 0
	}
	return float64(s.OnCPUNs) / float64(s.SampledNs)
}

// GCShare returns garbage collection's fraction of on-CPU time.
func (s Summary) GCShare() float64 {
	if s.OnCPUNs == 0 {
		return 0
	}
	return float64(s.GCNs) / float64(s.OnCPUNs)
}

// Table is one profile's on-CPU time by package, function and file, each
// sorted by self time (then total time, then key), with its headline.
type Table struct {
	Format Format
	File   string
	Thread Thread
	// SampleType is the pprof sample type the time was taken from.
	SampleType string
	// Symbolication is the source-map coverage, nil when maps were not
	// applied.
	Symbolication *Symbolication
	Summary       Summary
	Packages      []Row
	// Functions are keyed by name, file and start line, and by package:
	// a regular expression run by two packages is two rows.
	Functions []Row
	Files     []Row
	// Lines spread functions' self time over their source lines, where the
	// profile says on which line each sample was (V8's positionTicks), for
	// frames as recorded (not mapped through a source map); with
	// AggregateOptions.Lines.
	Lines []LineTime
	// LineTotals says Lines carry total time (pprof, whose stacks record
	// every frame's line); V8 records only the sampled function's line.
	LineTotals bool
	// BundledLines are the functions whose lines were recorded in a
	// bundle their source map maps them out of, which Lines leaves out.
	BundledLines []BundledLine
	// Edges are the caller -> callee function pairs with the time that
	// flows along each (samples whose stack holds the call, once per
	// sample), when AggregateOptions.Edges asked for them.
	Edges []Edge
	// Tree is the call tree merged by function (see CallTree), when
	// AggregateOptions.Tree asked for it.
	Tree CallTree
	// NodeFunctions holds, for each node of the profile aggregated, the
	// index in Functions of the function its time goes to (-1 for nodes
	// of no function: the root), when AggregateOptions.NodeFunctions
	// asked for it.
	NodeFunctions []int32
	Warnings      []Warning
	// Stalls are the run's busy stretches (see FindStalls); nil when the
	// profile records no sample times.
	Stalls *Stalls
}

// CallTree is a profile's call tree merged by function key: the children
// of a node that share a function are one node, so that two call frames a
// source map sends to one function, or two recordings of one call, add up.
// Node 0 is the root (no function, parent -1); a node's parent comes
// before it. Nodes without on-CPU time are left out. It holds what a
// comparison keeps of every run, and a deep profile's tree has as many
// nodes as the profile (271,459 for the 57 MiB tsc profile, of which
// 42,430 samples end in fewer nodes still), so it is held in 8 bytes a
// node: the parents and functions are arrays (the merging index's own),
// self time is kept only for the nodes that have some, and totals are
// computed when needed (Totals).
type CallTree struct {
	Parent []int32
	// Function is the index of each node's function in Table.Functions
	// (-1 at the root): an index, not a key, so that a tree of hundreds of
	// thousands of nodes stays small and joins without hashing names.
	Function []int32
	// SelfNodes are the nodes that samples end at, in node order, and
	// Self their on-CPU time.
	SelfNodes []int32
	Self      []int64
}

// CallNode is one node of a CallTree, as CallTreeOf takes it.
type CallNode struct {
	Parent, Function int32
	Self             int64
}

// Len returns the number of nodes, the root included; 0 for no tree.
func (t *CallTree) Len() int { return len(t.Parent) }

// Totals returns each node's total time (its subtree's self time), in buf
// when it is large enough.
func (t *CallTree) Totals(buf []int64) []int64 {
	n := t.Len()
	tot := slices.Grow(buf[:0], n)[:n]
	clear(tot)
	for i, node := range t.SelfNodes {
		tot[node] = t.Self[i]
	}
	for i := n - 1; i > 0; i-- {
		tot[t.Parent[i]] += tot[i]
	}
	return tot
}

// Selfs returns each node's self time, in buf when it is large enough.
func (t *CallTree) Selfs(buf []int64) []int64 {
	n := t.Len()
	self := slices.Grow(buf[:0], n)[:n]
	clear(self)
	for i, node := range t.SelfNodes {
		self[node] = t.Self[i]
	}
	return self
}

// CallTreeOf builds a tree from its nodes, root first.
func CallTreeOf(nodes []CallNode) CallTree {
	var t CallTree
	for i, n := range nodes {
		t.Parent, t.Function = append(t.Parent, n.Parent), append(t.Function, n.Function)
		if n.Self != 0 {
			t.SelfNodes, t.Self = append(t.SelfNodes, int32(i)), append(t.Self, n.Self)
		}
	}
	return t
}

// LineTime is a function's self time on one line of its file.
type LineTime struct {
	Function Key
	Line     int32 // 0 for the function's self time on no recorded line
	Self     int64
	// Total is the time of the samples in whose stack the function was on
	// the line, when Table.LineTotals says the profile records it.
	Total int64
}

// Edge is the time of the samples in whose stack Caller calls Callee
// directly, each sample counted once. Caller and Callee are indices in
// Table.Functions, so that joining edges costs no hashing of names.
type Edge struct {
	Caller, Callee int32
	Total          int64
}

// AggregateOptions say which of a Table's optional parts Aggregate fills in;
// each is named for the field it fills. The rows and the summary are
// always there.
type AggregateOptions struct {
	// Edges fills Table.Edges, the caller -> callee table.
	Edges bool
	// Lines fills Table.Lines, functions' self time by source line.
	Lines bool
	// Tree fills Table.Tree, the call tree merged by function.
	Tree bool
	// NodeFunctions fills Table.NodeFunctions, each profile node's
	// function, for writers that walk the samples' stacks.
	NodeFunctions bool
}

// dims are the three ways a table groups time.
const (
	dimPackage = iota
	dimFunction
	dimFile
	numDims
)

// Aggregate sums p's on-CPU time into self and total by package, function
// and file. Frames keep the package AttributePackages gave them; a frame
// without one is named as AttributePackages would name it without reading
// the disk, and p is not changed. It walks the call tree once per node,
// not once per sample: recursion counts once per sample because a key's
// total is taken only at its outermost occurrence on each path.
func Aggregate(p *Profile, opts AggregateOptions) *Table {
	t := &Table{Format: p.Format, File: p.File, Thread: p.Thread, SampleType: p.SampleType, Symbolication: p.Symbolication}
	t.Warnings = append(t.Warnings, p.Warnings...)
	t.Stalls = FindStalls(p, DefaultLongestStalls)
	a := newAggregation(p, opts)
	a.order = p.WalkOrder() // nil when the nodes are in walk order already
	a.summarize(t, opts.Lines)
	a.walk()
	t.Summary.GCNs = a.gcNs
	if opts.Lines {
		t.Lines, t.BundledLines = lineTimes(p, a.fnKey, a.k, a.self)
		t.LineTotals = len(p.LineTotals) > 0
	}
	a.self, a.selfN = nil, nil // 8 (12) bytes a node, free for what follows to reuse
	t.Packages, _ = a.rows(dimPackage)
	var fnRow []int32
	t.Functions, fnRow = a.rows(dimFunction)
	t.Files, _ = a.rows(dimFile)
	if opts.Edges {
		t.Edges = a.edges.table(a.k, fnRow)
	}
	if opts.NodeFunctions {
		t.NodeFunctions = make([]int32, len(p.Nodes))
		for i, fn := range a.fnKey {
			t.NodeFunctions[i] = -1
			if fn >= 0 {
				t.NodeFunctions[i] = fnRow[fn]
			}
		}
	}
	if a.tree != nil {
		t.Tree = a.mergedTree(fnRow)
	}
	return t
}

// aggregation is the state of one Aggregate: the keys met so far, the sums
// by key, edge and merged-tree node, and the path from the root to the
// node being walked.
type aggregation struct {
	p     *Profile
	k     *keyer
	order []int32 // the walk order, nil for the nodes' own (Profile.WalkOrder)
	// self is the on-CPU weight of the samples ending at each node; nil
	// when the walk reads it from the samples, sorted by node, instead,
	// next the first sample it has not read.
	self []int64
	next int
	// ticks says the profile takes one sample per tick: the walk counts
	// samples too, selfN by node (beside self) and selfsN and totalsN by
	// key.
	ticks bool
	selfN []int32
	// selfs and totals are the sums by key id, per dimension; onPath counts
	// each key's occurrences on the current path.
	selfs, totals   [numDims][]int64
	selfsN, totalsN [numDims][]int32
	onPath          [numDims][]int32
	fnKey           []int32 // each node's function key, for Lines and NodeFunctions
	edges           *edgeSums
	tree            *ChildIndex // the merged tree: children by function id
	treeSelf        []treeSelf  // self time by merged tree node, one per profile node with any
	gcNs            int64
	stack           []pathEntry
}

// pathEntry is one node on the path from the root during the walk. A
// node's keys come from its frame and, for code that takes its caller's
// package, from the path above it. Subtree sums are gathered here as nodes
// are left, so no per-node arrays are needed.
type pathEntry struct {
	node  int32
	keys  [numDims]int32
	code  int32 // nearest frame with a script at or above the node
	gc    bool  // garbage collection is on the path
	outer uint8 // bit d: outermost occurrence of keys[d]; edgeBit: of the edge; hasEdge: edge set
	edge  int32
	sub   int64 // subtree on-CPU time so far
	tree  int32 // the node's node in the merged call tree
	subN  int32 // subtree on-CPU samples so far (aggregation.ticks)
}

// The bits of pathEntry.outer past the dimensions'.
const edgeBit, hasEdge = 1 << numDims, 1 << (numDims + 1)

func newAggregation(p *Profile, opts AggregateOptions) *aggregation {
	nn := len(p.Nodes)
	a := &aggregation{p: p, k: newKeyer(p), ticks: p.OneSamplePerTick()}
	if (opts.Lines && (len(p.LineTicks) > 0 || len(p.LineTotals) > 0)) || opts.NodeFunctions {
		a.fnKey = make([]int32, nn)
		for i := range a.fnKey {
			a.fnKey[i] = -1
		}
	}
	if opts.Edges {
		// A node is called from its parent alone: a profile has at most
		// as many edges as nodes, and often nearly as many (2 M
		// distinct folded stacks: 9 M edges of 10 M nodes), so the sums
		// are sized once rather than grown and copied.
		a.edges = &edgeSums{keys: make([][2]int32, 0, nn), total: make([]int64, 0, nn), onPath: make([]int32, 0, nn)}
	}
	if opts.Tree {
		// A merged tree has at most one node per profile node.
		a.tree = NewChildIndex(nn + 1)
	}
	return a
}

// summarize fills the table's headline from the samples and sums each
// node's on-CPU self time, in an array unless the walk can read it from
// the samples as it goes: the nodes are walked in their own order and the
// samples are sorted by node (as the folded reader leaves them; a file of
// 2 M distinct folded stacks has 10 M nodes, and the array took 80 MB),
// and keepSelf does not ask for the array (per-line times read it).
func (a *aggregation) summarize(t *Table, keepSelf bool) {
	p := a.p
	sorted := a.order == nil && !keepSelf && slices.IsSortedFunc(p.Samples, func(a, b Sample) int { return cmp.Compare(a.Node, b.Node) })
	if !sorted {
		a.self = make([]int64, len(p.Nodes))
		if a.ticks {
			a.selfN = make([]int32, len(p.Nodes))
		}
	}
	sum := &t.Summary
	rootSamples := 0
	selfNodes, last := 0, int32(-1) // nodes with self time, at most
	for _, s := range p.Samples {
		sum.SampledNs += s.Weight
		switch p.Frames[p.Nodes[s.Node].Frame].Kind {
		case KindIdle:
			sum.IdleNs += s.Weight
			continue
		case KindProgram:
			sum.ProgramNs += s.Weight
			continue
		case KindRoot:
			rootSamples++
		}
		sum.OnCPUNs += s.Weight
		sum.OnCPUSamples++
		if a.self != nil {
			if a.self[s.Node] == 0 && s.Weight != 0 {
				selfNodes++
			}
			a.self[s.Node] += s.Weight
			if a.selfN != nil {
				a.selfN[s.Node]++
			}
		} else if s.Node != last && s.Weight != 0 {
			selfNodes, last = selfNodes+1, s.Node
		}
	}
	if a.tree != nil {
		// Sized once: grown sample by sample, it allocated five times
		// its size.
		a.treeSelf = make([]treeSelf, 0, selfNodes)
	}
	if rootSamples > 0 {
		t.Warnings = append(t.Warnings, Warning{Kind: WarnRootSamples,
			Message: fmt.Sprintf("%d samples land on the root node; they count as on-CPU but belong to no function", rootSamples)})
	}
	sum.WallNs, sum.Samples, sum.IntervalNs = p.WallNs, p.SampleCount, p.IntervalNs
	if !a.ticks {
		sum.OnCPUSamples = 0
	} else {
		sum.TickNs = p.TickNs
	}
}

// selfOf returns node n's on-CPU self time and count of samples (0
// unless a.ticks). Without the arrays it reads the samples of n, the next
// in node order, since the nodes are entered in order.
func (a *aggregation) selfOf(n int32) (int64, int32) {
	if a.self != nil {
		if a.selfN != nil {
			return a.self[n], a.selfN[n]
		}
		return a.self[n], 0
	}
	samples := a.p.Samples
	if a.next >= len(samples) || samples[a.next].Node != n {
		return 0, 0
	}
	var w int64
	start := a.next
	for ; a.next < len(samples) && samples[a.next].Node == n; a.next++ {
		w += samples[a.next].Weight
	}
	if k := a.p.Frames[a.p.Nodes[n].Frame].Kind; k == KindIdle || k == KindProgram {
		return 0, 0 // off-CPU
	}
	if a.ticks {
		return w, int32(a.next - start)
	}
	return w, 0
}

// walk visits the nodes in preorder with the path from the root on a
// stack, entering each node and leaving those its successor is not under.
func (a *aggregation) walk() {
	order := a.order
	for i := range a.p.Nodes {
		n := int32(i)
		if order != nil {
			n = order[i]
		}
		par := a.p.Nodes[n].Parent
		for len(a.stack) > 0 && a.stack[len(a.stack)-1].node != par {
			a.leave()
		}
		a.enter(n)
	}
	for len(a.stack) > 0 {
		a.leave()
	}
	for d := range numDims {
		a.grow(d)
	}
}

// enter pushes node n on the path: its self time goes to its keys, and it
// is the outermost occurrence of each key not already on the path.
func (a *aggregation) enter(n int32) {
	caller, gc := int32(-1), false // the parent's code frame and GC path
	var callerKeys [numDims]int32
	parentTree := int32(0)
	if len(a.stack) > 0 {
		top := &a.stack[len(a.stack)-1]
		caller, gc, callerKeys, parentTree = top.code, top.gc, top.keys, top.tree
	}
	w, cnt := a.selfOf(n)
	e := pathEntry{node: n, sub: w, tree: parentTree, subN: cnt}
	e.keys, e.code, e.gc = a.k.node(n, caller, gc)
	if a.tree != nil {
		if fn := e.keys[dimFunction]; fn >= 0 {
			e.tree, _ = a.tree.Child(parentTree, fn)
		}
		if w != 0 {
			a.treeSelf = append(a.treeSelf, treeSelf{e.tree, w})
		}
	}
	for d := range numDims {
		id := e.keys[d]
		if id < 0 {
			continue
		}
		a.grow(d)
		a.selfs[d][id] += w
		if a.ticks {
			a.selfsN[d][id] += cnt
		}
		if a.onPath[d][id] == 0 {
			e.outer |= 1 << d
		}
		a.onPath[d][id]++
	}
	if w != 0 && (e.gc || a.p.Frames[a.p.Nodes[n].Frame].Kind == KindGC) {
		a.gcNs += w
	}
	if a.fnKey != nil {
		a.fnKey[n] = e.keys[dimFunction]
	}
	if a.edges != nil && len(a.stack) > 0 && callerKeys[dimFunction] >= 0 && e.keys[dimFunction] >= 0 {
		a.edges.enter(&e, callerKeys[dimFunction], e.keys[dimFunction])
	}
	a.stack = append(a.stack, e)
}

// leave pops the top of the path: its subtree's time goes to the totals of
// the keys and the edge it is the outermost occurrence of, and to its
// parent's subtree.
func (a *aggregation) leave() {
	e := &a.stack[len(a.stack)-1]
	for d := range numDims {
		if id := e.keys[d]; id >= 0 {
			a.onPath[d][id]--
			if e.outer&(1<<d) != 0 {
				a.totals[d][id] += e.sub
				if a.ticks {
					a.totalsN[d][id] += e.subN
				}
			}
		}
	}
	if e.outer&hasEdge != 0 {
		a.edges.leave(e)
	}
	if len(a.stack) > 1 {
		a.stack[len(a.stack)-2].sub += e.sub
		a.stack[len(a.stack)-2].subN += e.subN
	}
	a.stack = a.stack[:len(a.stack)-1]
}

// grow makes room for every key id of dimension d met so far.
func (a *aggregation) grow(d int) {
	for len(a.selfs[d]) < len(a.k.keys[d]) {
		a.selfs[d], a.totals[d], a.onPath[d] = append(a.selfs[d], 0), append(a.totals[d], 0), append(a.onPath[d], 0)
		if a.ticks {
			a.selfsN[d], a.totalsN[d] = append(a.selfsN[d], 0), append(a.totalsN[d], 0)
		}
	}
}

// treeSelf is self time at a merged tree node.
type treeSelf struct {
	node int32
	self int64
}

// mergedTree returns the merged call tree with each node's function as a
// row of Table.Functions (fnRow maps function key ids to rows). It takes
// over the index's arrays, so the index is done with.
func (a *aggregation) mergedTree(fnRow []int32) CallTree {
	parent, fn := a.tree.Nodes()
	for i, f := range fn {
		if f >= 0 {
			fn[i] = fnRow[f]
		}
	}
	a.tree = nil
	return compactTree(parent, fn, a.treeSelf)
}

// edgeSums are the caller -> callee function pairs met in a walk, with
// dense ids, so that entering and leaving a node costs one map lookup, not
// three.
type edgeSums struct {
	// slots index the edges by (caller, callee) in an open-addressing
	// table of edge ids + 1 (0: empty), 4 bytes a slot and 5 to 11 an
	// edge, where a map of the pairs took 20 or more: a profile of 2 M
	// distinct folded stacks has 9 M edges.
	slots []int32
	// last is each callee's edge met last: in a walk of the tree the
	// same call recurs node after node (a loop, recursion), and a
	// comparison with it costs less than hashing the pair.
	last   []int32
	keys   [][2]int32
	total  []int64
	onPath []int32
}

// enter records that e's node is called by the caller function: e carries
// the edge, marked outermost when it is not on the path already.
func (s *edgeSums) enter(e *pathEntry, caller, callee int32) {
	for int(callee) >= len(s.last) {
		s.last = append(s.last, -1)
	}
	id := s.last[callee]
	if id < 0 || s.keys[id][0] != caller {
		var slot int
		if slot, id = s.find(caller, callee); id < 0 {
			id = int32(len(s.keys))
			s.keys = append(s.keys, [2]int32{caller, callee})
			s.total, s.onPath = append(s.total, 0), append(s.onPath, 0)
			s.add(slot, id)
		}
		s.last[callee] = id
	}
	e.edge = id
	e.outer |= hasEdge
	if s.onPath[id] == 0 {
		e.outer |= edgeBit
	}
	s.onPath[id]++
}

// find returns the edge from caller to callee (-1 when there is none) and
// the slot where it is or would go.
func (s *edgeSums) find(caller, callee int32) (slot int, id int32) {
	if len(s.slots) == 0 {
		return -1, -1
	}
	mask := len(s.slots) - 1
	for i := int(nodeHash(caller, callee)) & mask; ; i = (i + 1) & mask {
		id := s.slots[i] - 1
		if id < 0 {
			return i, -1
		}
		if k := s.keys[id]; k[0] == caller && k[1] == callee {
			return i, id
		}
	}
}

// add puts edge id, which find did not find, in slot (as find returned
// it), growing the table when it is over 3/4 full.
func (s *edgeSums) add(slot int, id int32) {
	if slot >= 0 && (len(s.keys))*4 <= len(s.slots)*3 {
		s.slots[slot] = id + 1
		return
	}
	s.slots = make([]int32, max(1024, 2*len(s.slots)))
	mask := len(s.slots) - 1
	for e, k := range s.keys {
		i := int(nodeHash(k[0], k[1])) & mask
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = int32(e) + 1
	}
}

// leave takes e's edge off the path, adding e's subtree to its total at
// its outermost occurrence.
func (s *edgeSums) leave(e *pathEntry) {
	s.onPath[e.edge]--
	if e.outer&edgeBit != 0 && e.sub > 0 {
		s.total[e.edge] += e.sub
	}
}

// table returns the edges with time, busiest first, then by caller and
// callee in key order.
func (s *edgeSums) table(k *keyer, fnRow []int32) []Edge {
	if len(s.keys) == 0 {
		return nil
	}
	rank := k.ranks(dimFunction)
	n := 0
	for _, t := range s.total {
		if t > 0 {
			n++
		}
	}
	ids := make([]int32, 0, n)
	for id := range s.keys {
		if s.total[id] > 0 {
			ids = append(ids, int32(id))
		}
	}
	slices.SortFunc(ids, func(a, b int32) int {
		if c := cmp.Compare(s.total[b], s.total[a]); c != 0 {
			return c
		}
		if c := cmp.Compare(rank[s.keys[a][0]], rank[s.keys[b][0]]); c != 0 {
			return c
		}
		return cmp.Compare(rank[s.keys[a][1]], rank[s.keys[b][1]])
	})
	out := make([]Edge, len(ids))
	for i, id := range ids {
		e := s.keys[id]
		out[i] = Edge{Caller: fnRow[e[0]], Callee: fnRow[e[1]], Total: s.total[id]}
	}
	return out
}

// compactTree makes the tree of the nodes' parents, functions and self
// times (by node, in any order, a node maybe more than once), leaving out
// the nodes without on-CPU time and keeping parents before children; it
// reuses the arrays. It needs a byte a node, and more only when there is
// something to leave out.
func compactTree(parent, fn []int32, selfs []treeSelf) CallTree {
	n := len(parent)
	if n == 0 {
		return CallTree{}
	}
	slices.SortStableFunc(selfs, func(a, b treeSelf) int { return cmp.Compare(a.node, b.node) })
	distinct := 0
	for i, s := range selfs {
		if i == 0 || s.node != selfs[i-1].node {
			distinct++
		}
	}
	var t CallTree
	if distinct > 0 {
		t.SelfNodes, t.Self = make([]int32, 0, distinct), make([]int64, 0, distinct)
	}
	for _, s := range selfs {
		if k := len(t.SelfNodes); k > 0 && t.SelfNodes[k-1] == s.node {
			t.Self[k-1] += s.self
			continue
		}
		t.SelfNodes, t.Self = append(t.SelfNodes, s.node), append(t.Self, s.self)
	}
	// A node has time when a node with self time is at or under it.
	timed := make([]bool, n)
	count := 0
	timed[0] = true
	for _, node := range t.SelfNodes {
		for ; !timed[node]; node = parent[node] {
			timed[node] = true
			count++
		}
	}
	t.Parent, t.Function = parent, fn
	if count == n-1 {
		return t
	}
	newID := make([]int32, n)
	kept := 0
	for i := range n {
		if !timed[i] {
			newID[i] = -1
			continue
		}
		newID[i] = int32(kept)
		p := parent[i]
		if p >= 0 {
			p = newID[p]
		}
		parent[kept], fn[kept] = p, fn[i]
		kept++
	}
	for i, node := range t.SelfNodes {
		t.SelfNodes[i] = newID[node]
	}
	t.Parent, t.Function = slices.Clip(parent[:kept]), slices.Clip(fn[:kept])
	return t
}

// ranks returns each key id of dimension d's place in CompareKeys order,
// so that sorting by key costs an integer comparison; it is computed once,
// after the walk (the edges and the lines both sort by it).
func (k *keyer) ranks(d int) []int32 {
	if k.rank[d] != nil {
		return k.rank[d]
	}
	ids := make([]int32, len(k.keys[d]))
	for i := range ids {
		ids[i] = int32(i)
	}
	slices.SortFunc(ids, func(a, b int32) int { return CompareKeys(k.keys[d][a], k.keys[d][b]) })
	rank := make([]int32, len(ids))
	for r, id := range ids {
		rank[id] = int32(r)
	}
	k.rank[d] = rank
	return rank
}

// keyer assigns each node its package, function and file keys.
type keyer struct {
	p *Profile
	// pkgs is each frame's package: Frame.Package, else what package
	// attribution without the disk would give it; "" for kinds that take
	// their caller's.
	pkgs  []string
	index [numDims]map[Key]int32
	keys  [numDims][]Key
	// frameKeys caches the keys of frames whose keys depend on the frame
	// alone (all but regular expressions and eval code); inherited caches
	// those by (frame, calling code frame).
	frameKeys [][numDims]int32
	inherited map[[2]int32][numDims]int32
	rank      [numDims][]int32 // see ranks
}

func newKeyer(p *Profile) *keyer {
	k := &keyer{p: p, pkgs: make([]string, len(p.Frames)), frameKeys: make([][numDims]int32, len(p.Frames)), inherited: map[[2]int32][numDims]int32{}}
	namer := newPackageNamer(nil)
	for i := range p.Frames {
		if f := &p.Frames[i]; !f.Kind.InheritsPackage() {
			k.pkgs[i] = namer.frame(f)
		}
	}
	for i := range k.frameKeys {
		k.frameKeys[i][0] = -2 // not computed yet
	}
	for d := range numDims {
		k.index[d] = map[Key]int32{}
	}
	return k
}

func (k *keyer) id(d int, key Key) int32 {
	if i, ok := k.index[d][key]; ok {
		return i
	}
	i := int32(len(k.keys[d]))
	k.keys[d] = append(k.keys[d], key)
	k.index[d][key] = i
	return i
}

// node computes node n's keys given its caller's code frame (the nearest
// frame with a script above it, -1 for none) and whether garbage collection
// is on the path above it. It also returns the node's own code frame and
// GC flag, for its children. Regular expressions and eval code below a code
// frame send their time to its package and file.
func (k *keyer) node(n, caller int32, gcAbove bool) (keys [numDims]int32, code int32, gc bool) {
	nd := k.p.Nodes[n]
	f := &k.p.Frames[nd.Frame]
	gc = f.MarksGC || gcAbove
	if f.Kind == KindRoot {
		return [numDims]int32{-1, -1, -1}, -1, gc
	}
	code = caller
	if f.Kind == KindCode {
		code = nd.Frame
	}
	if !f.Kind.InheritsPackage() {
		if k.frameKeys[nd.Frame][0] == -2 {
			k.frameKeys[nd.Frame] = k.keysFor(f, k.pkgs[nd.Frame], f.File)
		}
		return k.frameKeys[nd.Frame], code, gc
	}
	ck := [2]int32{nd.Frame, caller}
	ks, ok := k.inherited[ck]
	if !ok {
		pkg, file := PackageNative, ""
		if caller >= 0 {
			pkg, file = k.pkgs[caller], k.p.Frames[caller].File
		}
		ks = k.keysFor(f, pkg, file)
		k.inherited[ck] = ks
	}
	return ks, code, gc
}

// keysFor returns the keys of frame f with its time going to package pkg and
// file file.
func (k *keyer) keysFor(f *Frame, pkg, file string) [numDims]int32 {
	return [numDims]int32{
		dimPackage:  k.id(dimPackage, Key{Package: pkg}),
		dimFunction: k.id(dimFunction, Key{Package: pkg, Function: f.Name, File: f.File, Line: f.Line, Column: f.Column}),
		dimFile:     k.id(dimFile, Key{Package: pkg, File: file}),
	}
}

// rows returns dimension d's rows with time, sorted, and the row of each
// key id (-1 for a key without time).
func (k *keyer) rows(d int, selfs, totals [numDims][]int64) ([]Row, []int32) {
	var ids []int32
	for i := range k.keys[d] {
		if selfs[d][i] != 0 || totals[d][i] != 0 {
			ids = append(ids, int32(i))
		}
	}
	slices.SortFunc(ids, func(a, b int32) int {
		if c := cmp.Compare(selfs[d][b], selfs[d][a]); c != 0 {
			return c
		}
		if c := cmp.Compare(totals[d][b], totals[d][a]); c != 0 {
			return c
		}
		return CompareKeys(k.keys[d][a], k.keys[d][b])
	})
	var out []Row
	if len(ids) > 0 {
		out = make([]Row, len(ids))
	}
	rowOf := make([]int32, len(k.keys[d]))
	for i := range rowOf {
		rowOf[i] = -1
	}
	for r, id := range ids {
		out[r] = Row{Key: k.keys[d][id], Self: selfs[d][id], Total: totals[d][id]}
		rowOf[id] = int32(r)
	}
	return out, rowOf
}

// rows returns dimension d's rows (keyer.rows) with their counts of
// samples when the walk counted them.
func (a *aggregation) rows(d int) ([]Row, []int32) {
	out, rowOf := a.k.rows(d, a.selfs, a.totals)
	if a.ticks {
		for id, r := range rowOf {
			if r >= 0 {
				out[r].SelfSamples, out[r].TotalSamples = a.selfsN[d][id], a.totalsN[d][id]
			}
		}
	}
	return out, rowOf
}

// CompareKeys orders keys by package, function, file, line and column.
func CompareKeys(a, b Key) int {
	if c := cmp.Compare(a.Package, b.Package); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Function, b.Function); c != 0 {
		return c
	}
	if c := cmp.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	return cmp.Compare(a.Column, b.Column)
}
