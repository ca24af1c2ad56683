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
type Row struct {
	Key   Key
	Self  int64
	Total int64
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
	Thread string
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
	// AggregateOptions.Edges.
	Lines []LineTime
	// Edges are the caller -> callee function pairs with the time that
	// flows along each (samples whose stack holds the call, once per
	// sample), when AggregateOptions.Edges asked for them.
	Edges    []Edge
	Warnings []string
}

// LineTime is a function's self time on one line of its file.
type LineTime struct {
	Function Key
	Line     int32
	Self     int64
}

// Edge is the time of the samples in whose stack Caller calls Callee
// directly, each sample counted once.
type Edge struct {
	Caller, Callee Key
	Total          int64
}

// AggregateOptions tune Aggregate.
type AggregateOptions struct {
	// ReadPackageJSON lets package attribution read package.json files on
	// disk to name workspace code.
	ReadPackageJSON bool
	// Edges asks for the caller -> callee table (Table.Edges).
	Edges bool
}

// dims are the three ways a table groups time.
const (
	dimPackage = iota
	dimFunction
	dimFile
	numDims
)

// Aggregate attributes p's frames to packages (filling Frame.Package where
// it is empty) and sums on-CPU time into self and total by package,
// function and file. It walks the call tree once per node, not once per
// sample: recursion counts once per sample because a key's total is taken
// only at its outermost occurrence on each path.
func Aggregate(p *Profile, opts AggregateOptions) *Table {
	t := &Table{Format: p.Format, File: p.File, Thread: p.Thread, SampleType: p.SampleType, Symbolication: p.Symbolication}
	t.Warnings = append(t.Warnings, p.Warnings...)
	namer := newPackageNamer(opts.ReadPackageJSON)
	for i := range p.Frames {
		if f := &p.Frames[i]; f.Package == "" && !f.Kind.InheritsPackage() {
			f.Package = namer.frame(f)
		}
	}

	nn := len(p.Nodes)
	self := make([]int64, nn) // on-CPU weight of samples ending at each node
	sum := &t.Summary
	rootSamples := 0
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
		self[s.Node] += s.Weight
	}
	if rootSamples > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("%d samples land on the root node; they count as on-CPU but belong to no function", rootSamples))
	}
	sum.WallNs, sum.Samples, sum.IntervalNs = p.WallNs, p.SampleCount, p.IntervalNs

	// Nodes in walk order; nil when they are listed in preorder already.
	var order []int32
	if !inPreorder(p.Nodes) {
		order = preorder(p.Nodes)
	}
	at := func(i int) int32 {
		if order == nil {
			return int32(i)
		}
		return order[i]
	}
	k := newKeyer(p)
	// Per node: its key in each dimension (-1 for none), and whether GC
	// work is on its path.
	keys := make([][numDims]int32, nn)
	gcPath := make([]bool, nn)
	for i := range nn {
		n := at(i)
		keys[n], gcPath[n] = k.node(n, keys, gcPath)
	}
	var selfs, totals [numDims][]int64
	for d := range numDims {
		selfs[d] = make([]int64, len(k.keys[d]))
		totals[d] = make([]int64, len(k.keys[d]))
	}
	for n, w := range self {
		if w == 0 {
			continue
		}
		for d := range numDims {
			if id := keys[n][d]; id >= 0 {
				selfs[d][id] += w
			}
		}
		if gcPath[n] || p.Frames[p.Nodes[n].Frame].Kind == KindGC {
			sum.GCNs += w
		}
	}
	var self0 []int64 // each node's own on-CPU time, kept for Lines
	if opts.Edges && len(p.LineTicks) > 0 {
		self0 = slices.Clone(self)
	}
	// Subtree sums, children before parents, in place: from here on self
	// holds each node's subtree total.
	subtree := self
	for i := nn - 1; i >= 0; i-- {
		n := at(i)
		if par := p.Nodes[n].Parent; par >= 0 {
			subtree[par] += subtree[n]
		}
	}
	var onPath [numDims][]int32
	for d := range numDims {
		onPath[d] = make([]int32, len(k.keys[d]))
	}
	// Walk in preorder keeping the current path on a stack: a node's total
	// goes to each key not already on the path above it.
	var stack []int32
	type edgeKey [2]int32 // caller, callee function ids
	var edgeTotal, edgeOnPath map[edgeKey]int64
	if opts.Edges {
		edgeTotal, edgeOnPath = map[edgeKey]int64{}, map[edgeKey]int64{}
	}
	edgeOf := func(n int32) (edgeKey, bool) {
		par := p.Nodes[n].Parent
		if par < 0 || keys[par][dimFunction] < 0 || keys[n][dimFunction] < 0 {
			return edgeKey{}, false
		}
		return edgeKey{keys[par][dimFunction], keys[n][dimFunction]}, true
	}
	leave := func(n int32) {
		for d := range numDims {
			if id := keys[n][d]; id >= 0 {
				onPath[d][id]--
			}
		}
		if edgeOnPath != nil {
			if e, ok := edgeOf(n); ok {
				edgeOnPath[e]--
			}
		}
	}
	for i := range nn {
		n := at(i)
		par := p.Nodes[n].Parent
		for len(stack) > 0 && stack[len(stack)-1] != par {
			leave(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		}
		for d := range numDims {
			id := keys[n][d]
			if id < 0 {
				continue
			}
			if onPath[d][id] == 0 {
				totals[d][id] += subtree[n]
			}
			onPath[d][id]++
		}
		if edgeTotal != nil {
			if e, ok := edgeOf(n); ok {
				if edgeOnPath[e] == 0 && subtree[n] > 0 {
					edgeTotal[e] += subtree[n]
				}
				edgeOnPath[e]++
			}
		}
		stack = append(stack, n)
	}

	if opts.Edges {
		t.Lines = lineTimes(p, keys, k, self0)
	}
	for e, v := range edgeTotal {
		t.Edges = append(t.Edges, Edge{Caller: k.keys[dimFunction][e[0]], Callee: k.keys[dimFunction][e[1]], Total: v})
	}
	slices.SortFunc(t.Edges, func(a, b Edge) int {
		if c := cmp.Compare(b.Total, a.Total); c != 0 {
			return c
		}
		if c := CompareKeys(a.Caller, b.Caller); c != 0 {
			return c
		}
		return CompareKeys(a.Callee, b.Callee)
	})
	t.Packages = k.rows(dimPackage, selfs, totals)
	t.Functions = k.rows(dimFunction, selfs, totals)
	t.Files = k.rows(dimFile, selfs, totals)
	return t
}

// lineTimes spreads each node's self time over its positionTicks lines in
// proportion to the ticks, and sums by function and line.
func lineTimes(p *Profile, keys [][numDims]int32, k *keyer, self []int64) []LineTime {
	if self == nil {
		return nil
	}
	sums := map[int32]int64{} // node -> ticks
	for _, lt := range p.LineTicks {
		sums[lt.Node] += int64(lt.Ticks)
	}
	type fl struct{ fn, line int32 }
	acc := map[fl]int64{}
	for _, lt := range p.LineTicks {
		n := lt.Node
		fn := keys[n][dimFunction]
		if self[n] == 0 || fn < 0 || p.Frames[p.Nodes[n].Frame].Generated != nil {
			continue
		}
		acc[fl{fn, lt.Line}] += self[n] * int64(lt.Ticks) / sums[n]
	}
	out := make([]LineTime, 0, len(acc))
	for x, v := range acc {
		out = append(out, LineTime{Function: k.keys[dimFunction][x.fn], Line: x.line, Self: v})
	}
	slices.SortFunc(out, func(a, b LineTime) int {
		if c := CompareKeys(a.Function, b.Function); c != 0 {
			return c
		}
		return cmp.Compare(a.Line, b.Line)
	})
	return out
}

// preorder returns the nodes in depth-first preorder from every root, each
// node's children in index order. It is iterative: stacks a million frames
// deep are fine.
func preorder(nodes []Node) []int32 {
	n := len(nodes)
	start := make([]int32, n+1) // children of i are kids[start[i]:start[i+1]]
	for _, nd := range nodes {
		if nd.Parent >= 0 {
			start[nd.Parent+1]++
		}
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	kids := make([]int32, start[n])
	fill := slices.Clone(start[:n])
	var roots []int32
	for i, nd := range nodes {
		if nd.Parent >= 0 {
			kids[fill[nd.Parent]] = int32(i)
			fill[nd.Parent]++
		} else {
			roots = append(roots, int32(i))
		}
	}
	order := make([]int32, 0, n)
	stack := make([]int32, 0, 64)
	for r := len(roots) - 1; r >= 0; r-- {
		stack = append(stack, roots[r])
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		order = append(order, v)
		ks := kids[start[v]:start[v+1]]
		for j := len(ks) - 1; j >= 0; j-- {
			stack = append(stack, ks[j])
		}
	}
	return order
}

// keyer assigns each node its package, function and file keys.
type keyer struct {
	p     *Profile
	index [numDims]map[Key]int32
	keys  [numDims][]Key
	// codeFrame is the nearest frame with a script at or above each node
	// (-1 for none): regular expressions and eval code below it send their
	// time to its package and file.
	codeFrame []int32
	// frameKeys caches the keys of frames whose keys depend on the frame
	// alone (all but regular expressions and eval code); inherited caches
	// those by (frame, calling code frame).
	frameKeys [][numDims]int32
	inherited map[[2]int32][numDims]int32
}

func newKeyer(p *Profile) *keyer {
	k := &keyer{p: p, codeFrame: make([]int32, len(p.Nodes)), frameKeys: make([][numDims]int32, len(p.Frames)), inherited: map[[2]int32][numDims]int32{}}
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

// node computes node n's keys; its parent has been keyed already.
func (k *keyer) node(n int32, keys [][numDims]int32, gcPath []bool) ([numDims]int32, bool) {
	nd := k.p.Nodes[n]
	f := &k.p.Frames[nd.Frame]
	gc := f.MarksGC
	if nd.Parent >= 0 {
		gc = gc || gcPath[nd.Parent]
	}
	if f.Kind == KindRoot {
		k.codeFrame[n] = -1
		return [numDims]int32{-1, -1, -1}, gc
	}
	k.codeFrame[n] = -1
	if f.Kind == KindCode {
		k.codeFrame[n] = nd.Frame
	} else if nd.Parent >= 0 {
		k.codeFrame[n] = k.codeFrame[nd.Parent]
	}
	if !f.Kind.InheritsPackage() {
		if k.frameKeys[nd.Frame][0] == -2 {
			k.frameKeys[nd.Frame] = k.keysFor(f, f.Package, f.File)
		}
		return k.frameKeys[nd.Frame], gc
	}
	caller := int32(-1)
	if nd.Parent >= 0 {
		caller = k.codeFrame[nd.Parent]
	}
	ck := [2]int32{nd.Frame, caller}
	ks, ok := k.inherited[ck]
	if !ok {
		pkg, file := PackageNative, ""
		if caller >= 0 {
			pkg, file = k.p.Frames[caller].Package, k.p.Frames[caller].File
		}
		ks = k.keysFor(f, pkg, file)
		k.inherited[ck] = ks
	}
	return ks, gc
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

// rows returns dimension d's rows with time, sorted.
func (k *keyer) rows(d int, selfs, totals [numDims][]int64) []Row {
	var out []Row
	for i, key := range k.keys[d] {
		if selfs[d][i] == 0 && totals[d][i] == 0 {
			continue
		}
		out = append(out, Row{Key: key, Self: selfs[d][i], Total: totals[d][i]})
	}
	slices.SortFunc(out, func(a, b Row) int {
		if c := cmp.Compare(b.Self, a.Self); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Total, a.Total); c != 0 {
			return c
		}
		return CompareKeys(a.Key, b.Key)
	})
	return out
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
