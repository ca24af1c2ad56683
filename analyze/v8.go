package analyze

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/profdiff/profdiff/internal/jsonscan"
)

// This file reads the V8 CPU profile (CDP Profiler.Profile, Node's
// --cpu-prof), and holds what the Chrome trace reader shares with it: the
// call-frame interner and the builder that turns V8 nodes, samples and time
// deltas into a Profile.

const noID = int64(-1 << 63)

// maxDeltaMicros bounds a single time delta (about 11.6 days), so that sums
// in nanoseconds cannot overflow.
const maxDeltaMicros = 1e12

// rawNode is a V8 profile node as read, before ids are resolved. What only
// some nodes carry (a parent id, a hit count, position ticks) is kept in
// sparse lists beside the nodes, so that the list of a million nodes stays
// small: fresh memory is expensive.
type rawNode struct {
	id       int64
	frame    int32
	childEnd int32 // its children are rp.children[previous node's childEnd:childEnd]
}

// rawParent records a node's "parent" field (trace nodes carry one).
type rawParent struct {
	node   int32 // index in rawProfile.nodes
	parent int64 // id
}

// rawProfile collects a V8 profile's fields as they are read (from a
// .cpuprofile, from a trace's CpuProfile event, or across ProfileChunk events).
type rawProfile struct {
	nodes     chunked[rawNode]
	children  chunked[int64]     // child ids, node after node
	parents   chunked[rawParent] // nodes with a "parent" field
	hits      chunked[[2]int32]  // node index, hitCount for nonzero counts
	totalHits int64
	ticks     chunked[LineTick] // positionTicks, by node index
	samples   []int64
	deltas    []int64
	lines     []int64 // traces: the line of each sample (0: none), when recorded
	startTime int64   // µs
	endTime   int64   // µs
	hasStart  bool
	hasEnd    bool
	hasDeltas bool
	hasSample bool
}

// childStart returns where node i's children start in rp.children.
func (rp *rawProfile) childStart(i int) int32 {
	if i == 0 {
		return 0
	}
	return rp.nodes.at(i - 1).childEnd
}

// frameKey identifies a call frame for interning; strings are ids from the
// interner's string table, so that hashing a key hashes no text.
type frameKey struct {
	name, file   int32
	line, column int32
	kind         FrameKind
}

// frameInterner gives each distinct call frame one index.
type frameInterner struct {
	strIDs map[string]int32
	strs   []string
	// rawFrames maps the text of a callFrame object, as the fast path
	// read it, to its frame: most frames recur in many nodes.
	rawFrames map[string]int32
	index     map[frameKey]int32
	frames    []Frame
	lastURL   []byte // the last URL looked up, and its id: URLs repeat
	urlID     int32
}

func newFrameInterner() *frameInterner {
	in := &frameInterner{strIDs: map[string]int32{}, index: map[frameKey]int32{}, rawFrames: map[string]int32{}, urlID: -1}
	in.strID([]byte("")) // id 0 is the empty string
	return in
}

// strID returns the id of the string b, adding it when new, without
// allocating when it is known.
func (in *frameInterner) strID(b []byte) int32 {
	id, ok := in.strIDs[string(b)]
	if !ok {
		id = int32(len(in.strs))
		s := string(b)
		in.strs = append(in.strs, s)
		in.strIDs[s] = id
	}
	return id
}

// urlStrID is strID for script URLs, which mostly repeat from one node to
// the next: comparing with the last one is cheaper than hashing.
func (in *frameInterner) urlStrID(b []byte) int32 {
	if in.urlID >= 0 && string(b) == string(in.lastURL) {
		return in.urlID
	}
	in.urlID = in.strID(b)
	in.lastURL = append(in.lastURL[:0], b...)
	return in.urlID
}

// intern returns the index of the frame with the given key; the file is
// stored with a file:// scheme removed.
func (in *frameInterner) intern(k frameKey) int32 {
	if i, ok := in.index[k]; ok {
		return i
	}
	i := int32(len(in.frames))
	in.frames = append(in.frames, Frame{Kind: k.kind, Name: in.strs[k.name], File: stripFileScheme(in.strs[k.file]), Line: k.line, Column: k.column})
	in.index[k] = i
	return i
}

// internStrings interns a frame given as strings (for readers that have
// them already).
func (in *frameInterner) internStrings(name, file string, line, column int32, kind FrameKind) int32 {
	return in.intern(frameKey{name: in.strID([]byte(name)), file: in.strID([]byte(file)), line: line, column: column, kind: kind})
}

// v8Kind classifies a V8 call frame.
func v8Kind(name, url string, hasScript bool) FrameKind {
	if url != "" {
		return KindCode
	}
	switch name {
	case "(root)":
		return KindRoot
	case "(program)":
		return KindProgram
	case "(idle)":
		return KindIdle
	case "(garbage collector)":
		return KindGC
	}
	if strings.HasPrefix(name, "RegExp: ") {
		return KindRegExp
	}
	if hasScript {
		return KindEval
	}
	return KindNative
}

// stripFileScheme turns file:///a/b.js into /a/b.js.
func stripFileScheme(u string) string {
	if rest, ok := strings.CutPrefix(u, "file://"); ok {
		return rest
	}
	return u
}

// readCallFrame reads a Runtime.CallFrame object and interns it.
func readCallFrame(s *jsonscan.Scanner, in *frameInterner) int32 {
	var name, url int32
	line, col := int64(-1), int64(-1)
	hasScript := false
	for k := range s.Members() {
		switch string(k) {
		case "functionName":
			name = in.strID(s.ReadString())
		case "url":
			url = in.urlStrID(s.ReadString())
		case "lineNumber":
			line = s.ReadInt()
		case "columnNumber":
			col = s.ReadInt()
		case "scriptId":
			// A string in CDP, a number in traces; "0" or 0 means no script.
			if s.Peek() == '"' {
				hasScript = scriptIDPresent(s.ReadString())
			} else {
				hasScript = s.ReadInt() != 0
			}
		default:
			s.SkipValue()
		}
	}
	if s.Err() != nil {
		return 0
	}
	return in.internV8(name, url, line, col, hasScript)
}

// scriptIDPresent reports whether a string scriptId names a script.
func scriptIDPresent(v []byte) bool { return len(v) > 0 && string(v) != "0" }

// internV8 interns a V8 call frame given its name and URL string ids and its
// 0-based position.
func (in *frameInterner) internV8(name, url int32, line, col int64, hasScript bool) int32 {
	kind := v8Kind(in.strs[name], in.strs[url], hasScript)
	return in.intern(frameKey{name: name, file: url, line: oneBased(line), column: oneBased(col), kind: kind})
}

// oneBased converts a 0-based V8 position (-1 for none) to the model's
// 1-based one (0 for none).
func oneBased(v int64) int32 {
	if v < 0 || v >= 1<<31-1 {
		return 0
	}
	return int32(v + 1)
}

// readNode reads one ProfileNode, appending it to rp.
func readNode(s *jsonscan.Scanner, in *frameInterner, rp *rawProfile) {
	index := int32(rp.nodes.len())
	n := rawNode{id: noID, frame: -1}
	childStart, ticksStart := rp.children.len(), rp.ticks.len()
	parent, hits := noID, int64(0)
	for k := range s.Members() {
		switch string(k) {
		case "id":
			n.id = s.ReadInt()
		case "callFrame":
			n.frame = readCallFrame(s, in)
		case "children":
			if s.IsNull() {
				break
			}
			rp.children.truncate(childStart) // a repeated key replaces the list
			readIntsInto(s, &rp.children)
		case "parent":
			if !s.IsNull() {
				parent = s.ReadInt()
			}
		case "hitCount":
			hits = s.ReadInt()
			if hits < 0 || hits > 1<<31-1 {
				s.Fail("hitCount %d out of range", hits)
			}
		case "positionTicks":
			if s.IsNull() {
				break
			}
			rp.ticks.truncate(ticksStart)
			readPositionTicks(s, index, &rp.ticks)
		default: // deoptReason, bailoutReason, ...
			s.SkipValue()
		}
	}
	if s.Err() != nil {
		return
	}
	if n.id == noID {
		s.Fail("profile node #%d has no id", rp.nodes.len())
		return
	}
	if n.frame < 0 {
		s.Fail("node %d has no callFrame", n.id)
		return
	}
	n.childEnd = int32(rp.children.len())
	rp.addNode(n, parent, int32(hits))
}

// presized returns an empty list with room for the samples the nodes' hit
// counts announce (there is one per hit in Node's and Chrome's profiles),
// so that reading the samples does not grow it step by step; any other
// list comes back as it is.
func (rp *rawProfile) presized(list []int64) []int64 {
	// Hit counts are the file's word: trust them only so far (a hostile
	// file could claim billions), beyond which the list grows as it is read.
	want := min(rp.totalHits, 1<<22, 64*int64(rp.nodes.len())+1024)
	if len(list) > 0 || int64(cap(list)) >= want {
		return list
	}
	return make([]int64, 0, want)
}

// addNode appends a node read whole, with its parent id (noID for none) and
// hit count; its children and ticks are already in place.
func (rp *rawProfile) addNode(n rawNode, parent int64, hits int32) {
	index := int32(rp.nodes.len())
	if parent != noID {
		rp.parents.add(rawParent{node: index, parent: parent})
	}
	if hits != 0 {
		rp.hits.add([2]int32{index, hits})
		rp.totalHits += int64(hits)
	}
	rp.nodes.add(n)
}

// readPositionTicks reads a node's [{line, ticks}], keeping entries with a
// plausible line and count.
func readPositionTicks(s *jsonscan.Scanner, node int32, dst *chunked[LineTick]) {
	for range s.Elements() {
		var line, ticks int64
		for k := range s.Members() {
			switch string(k) {
			case "line":
				line = s.ReadInt()
			case "ticks":
				ticks = s.ReadInt()
			default:
				s.SkipValue()
			}
		}
		if s.Err() != nil {
			return
		}
		addLineTick(dst, node, line, ticks)
	}
}

// addLineTick keeps a position tick with a plausible line and count.
func addLineTick(dst *chunked[LineTick], node int32, line, ticks int64) {
	if line > 0 && line < 1<<31 && ticks > 0 && ticks < 1<<31 {
		dst.add(LineTick{Node: node, Line: int32(line), Ticks: int32(ticks)})
	}
}

// readIntsInto reads an array of integers into a chunked list.
func readIntsInto(s *jsonscan.Scanner, dst *chunked[int64]) {
	for range s.Elements() {
		dst.add(s.ReadInt())
	}
}

// readNodes reads an array of ProfileNodes, each by the fast path when it
// can (v8fast.go) and by readNode when it cannot. It returns how many the
// fast path took.
func readNodes(s *jsonscan.Scanner, in *frameInterner, rp *rawProfile) (fast int) {
	var sc nodeScratch
	for range s.Elements() {
		if n := in.fastNode(s.Window(fastWindow), rp, &sc); n > 0 {
			s.Advance(n)
			fast++
			continue
		}
		readNode(s, in, rp)
	}
	return fast
}

// readProfileMember reads one member of a CDP Profile object into rp,
// reporting false for keys that are not part of a profile (left unread).
func readProfileMember(s *jsonscan.Scanner, key []byte, in *frameInterner, rp *rawProfile) bool {
	switch string(key) {
	case "nodes":
		readNodes(s, in, rp)
	case "samples":
		rp.samples = s.ReadIntArray(rp.presized(rp.samples))
		rp.hasSample = true
	case "timeDeltas":
		rp.deltas = s.ReadIntArray(rp.presized(rp.deltas))
		rp.hasDeltas = true
	case "startTime":
		rp.startTime = int64(s.ReadFloat())
		rp.hasStart = true
	case "endTime":
		rp.endTime = int64(s.ReadFloat())
		rp.hasEnd = true
	default:
		return false
	}
	return true
}

// readCPUProfileObject reads a whole CDP Profile object.
func readCPUProfileObject(s *jsonscan.Scanner, in *frameInterner, rp *rawProfile) {
	for k := range s.Members() {
		if !readProfileMember(s, k, in, rp) {
			s.SkipValue()
		}
	}
}

// build resolves node ids, checks the tree and weighs the samples, turning
// rp into a Profile. frames are the interned frames the nodes refer to; the
// profile keeps only those it uses.
func (rp *rawProfile) build(frames []Frame, format Format) (*Profile, error) {
	n := rp.nodes.len()
	if n == 0 {
		return nil, fmt.Errorf("profile has no nodes")
	}
	if n >= 1<<31-1 {
		return nil, fmt.Errorf("profile has too many nodes (%d)", n)
	}
	idx, err := rp.indexIDs()
	if err != nil {
		return nil, err
	}

	p := &Profile{Format: format}
	rp.placeNodes(p, frames)
	miss := missingNodes{frames: [2]int32{-1, -1}}
	if err := rp.linkChildren(p, idx, &miss); err != nil {
		return nil, err
	}
	if err := rp.linkParents(p, idx, &miss); err != nil {
		return nil, err
	}
	if nt := rp.ticks.len(); nt > 0 {
		p.LineTicks = make([]LineTick, nt)
		for j := range nt {
			p.LineTicks[j] = rp.ticks.at(j)
		}
	}
	if p.inPreorder() {
		// no cycle: every parent comes before its children
	} else if c := p.findCycle(); c >= 0 {
		return nil, fmt.Errorf("the call tree has a cycle through node %d", rp.nodes.at(c).id)
	}
	if err := rp.weigh(p, idx, &miss); err != nil {
		return nil, err
	}
	rp.sampleLineTicks(p)
	if miss.children > 0 || len(miss.placeholder) > 0 {
		if len(miss.placeholder) > 0 {
			rp.placeUnderListers(p, idx, &miss)
		}
		p.Warnings = append(p.Warnings, miss.warning(p))
	}
	return p, nil
}

// placeNodes makes p's nodes, each with its frame and no parent yet, and
// keeps only the frames the profile uses, in first-use order.
func (rp *rawProfile) placeNodes(p *Profile, frames []Frame) {
	n := rp.nodes.len()
	p.Nodes = make([]Node, n)
	remap := make([]int32, len(frames))
	for i := range remap {
		remap[i] = -1
	}
	for i := range n {
		rn := rp.nodes.at(i)
		f := remap[rn.frame]
		if f < 0 {
			f = int32(len(p.Frames))
			p.Frames = append(p.Frames, frames[rn.frame])
			remap[rn.frame] = f
		}
		p.Nodes[i] = Node{Frame: f, Parent: -1}
	}
}

// linkChildren sets parents from the nodes' children lists (the
// .cpuprofile form), dropping children the file does not hold.
func (rp *rawProfile) linkChildren(p *Profile, idx *idIndex, miss *missingNodes) error {
	for i := range rp.nodes.len() {
		rn := rp.nodes.at(i)
		for j := rp.childStart(i); j < rn.childEnd; j++ {
			cid := rp.children.at(int(j))
			c, ok := idx.lookup(cid)
			if !ok {
				// No sample can be in a node the file does not hold
				// (sampleNodes refuses one that names it): drop it.
				if miss.children++; miss.children == 1 {
					miss.firstChild = [2]int64{rn.id, cid}
				}
				continue
			}
			if c == i {
				return fmt.Errorf("node %d lists itself as its child", rn.id)
			}
			if old := p.Nodes[c].Parent; old >= 0 && old != int32(i) {
				return fmt.Errorf("node %d is a child of both node %d and node %d", cid, rp.nodes.at(int(old)).id, rn.id)
			}
			p.Nodes[c].Parent = int32(i)
		}
	}
	return nil
}

// linkParents sets parents from the nodes' parent fields (the trace
// form), keeping a node whose parent is missing under a placeholder.
func (rp *rawProfile) linkParents(p *Profile, idx *idIndex, miss *missingNodes) error {
	for k := range rp.parents.len() {
		rpar := rp.parents.at(k)
		i := int(rpar.node)
		id := rp.nodes.at(i).id
		pi, ok := idx.lookup(rpar.parent)
		if !ok {
			if p.Nodes[i].Parent < 0 {
				// Kept under a "(missing parent)" node.
				if miss.orphans++; miss.orphans == 1 {
					miss.firstParent = [2]int64{id, rpar.parent}
				}
				p.Nodes[i].Parent = miss.place(p, rpar.parent, missingParentFrame)
			}
			continue
		}
		if pi == i {
			return fmt.Errorf("node %d names itself as its parent", id)
		}
		if old := p.Nodes[i].Parent; old >= 0 && old != int32(pi) {
			return fmt.Errorf("node %d has parent %d but is listed as a child of node %d", id, rpar.parent, rp.nodes.at(int(old)).id)
		}
		p.Nodes[i].Parent = int32(pi)
	}
	return nil
}

// sampleLineTicks turns a trace's per-sample lines into line ticks.
func (rp *rawProfile) sampleLineTicks(p *Profile) {
	if len(rp.lines) != len(p.Samples) {
		return
	}
	counts := map[[2]int32]int32{}
	for i, l := range rp.lines {
		if l > 0 && l < 1<<31 {
			counts[[2]int32{p.Samples[i].Node, int32(l)}]++
		}
	}
	p.LineTicks = appendLineTicks(p.LineTicks, counts)
}

// appendLineTicks adds (node, line) -> ticks counts in node and line order.
func appendLineTicks(dst []LineTick, counts map[[2]int32]int32) []LineTick {
	keys := slices.SortedFunc(maps.Keys(counts), func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	for _, k := range keys {
		dst = append(dst, LineTick{Node: k[0], Line: k[1], Ticks: counts[k]})
	}
	return dst
}

// idIndex maps node ids to indexes: arithmetic when the ids count up from
// the first node's, as Node and Chrome write them; a slice for other dense
// ids; a map otherwise.
type idIndex struct {
	sequential int     // ids min, min+1, ... min+sequential-1, when > 0
	dense      []int32 // dense[id-min] = index+1 (0: absent)
	min        int64
	m          map[int64]int
}

func (x *idIndex) lookup(id int64) (int, bool) {
	if x.sequential > 0 {
		if id < x.min || id-x.min >= int64(x.sequential) {
			return 0, false
		}
		return int(id - x.min), true
	}
	if x.m != nil {
		i, ok := x.m[id]
		return i, ok
	}
	if id < x.min || id-x.min >= int64(len(x.dense)) {
		return 0, false
	}
	i := x.dense[id-x.min]
	return int(i) - 1, i != 0
}

func (rp *rawProfile) indexIDs() (*idIndex, error) {
	n := rp.nodes.len()
	first := rp.nodes.at(0).id
	lo, hi := first, first
	sequential := true
	for i := range n {
		id := rp.nodes.at(i).id
		lo = min(lo, id)
		hi = max(hi, id)
		sequential = sequential && id == first+int64(i)
	}
	if sequential && first <= math.MaxInt64-int64(n) {
		return &idIndex{sequential: n, min: first}, nil
	}
	x := &idIndex{min: lo}
	if span := uint64(hi - lo); span < uint64(4*n+1024) {
		x.dense = make([]int32, span+1)
		for i := range n {
			rn := rp.nodes.at(i)
			if x.dense[rn.id-lo] != 0 {
				return nil, fmt.Errorf("node id %d appears twice", rn.id)
			}
			x.dense[rn.id-lo] = int32(i + 1)
		}
		return x, nil
	}
	x.m = make(map[int64]int, n)
	for i := range n {
		rn := rp.nodes.at(i)
		if _, dup := x.m[rn.id]; dup {
			return nil, fmt.Errorf("node id %d appears twice", rn.id)
		}
		x.m[rn.id] = i
	}
	return x, nil
}

// weigh turns samples and time deltas into weighted samples, following the
// design: sample i is charged the gap after it (timeDeltas[i+1]), the last
// sample the median gap; negative deltas (samples out of order) put the
// samples in the order of their timestamps, with a warning. Without
// samples, hitCount stands in, spread evenly over the wall time.
func (rp *rawProfile) weigh(p *Profile, idx *idIndex, miss *missingNodes) error {
	if rp.hasStart && rp.hasEnd {
		p.WallNs = (rp.endTime - rp.startTime) * 1000
	}
	if !rp.hasSample {
		return rp.weighHitCounts(p)
	}
	if err := rp.sampleNodes(p, idx, miss); err != nil {
		return err
	}
	ns := len(rp.samples)
	if ns == 0 {
		return nil
	}
	if !rp.hasDeltas {
		return weighEvenly(p)
	}
	if len(rp.deltas) != ns {
		return fmt.Errorf("profile has %d samples but %d timeDeltas", ns, len(rp.deltas))
	}
	clamped, negative, clampedSum, err := timeSamples(p, rp.deltas)
	if err != nil {
		return err
	}
	p.HasTimestamps = true
	if negative > 0 {
		reorderSamples(p, clamped, negative, clampedSum)
	}
	var sum int64
	for _, d := range clamped {
		sum += d
	}
	for i := 0; i+1 < ns; i++ {
		p.Samples[i].Weight = clamped[i+1] * 1000
	}
	median, tick := gapQuantiles1000(clamped)
	p.Samples[ns-1].Weight = median
	p.TickNs = tick
	p.IntervalNs = sum * 1000 / int64(ns)
	if !rp.hasEnd || !rp.hasStart {
		p.WallNs = sum * 1000
	}
	return nil
}

// sampleNodes makes p's samples, one per sample id, naming their nodes. A
// sample may name a node the file does not hold (a trace whose chunks
// were lost): it is kept on a placeholder node (miss.place), unless no
// sample names a node the file holds.
func (rp *rawProfile) sampleNodes(p *Profile, idx *idIndex, miss *missingNodes) error {
	p.Samples = make([]Sample, len(rp.samples))
	absent, first := 0, 0
	for i, id := range rp.samples {
		ni, ok := idx.lookup(id)
		if !ok {
			if absent++; absent == 1 {
				first = i
			}
			p.Samples[i].Node = miss.place(p, id, missingNodeFrame)
			continue
		}
		p.Samples[i].Node = int32(ni)
	}
	if absent > 0 && absent == len(rp.samples) {
		return fmt.Errorf("sample %d names node %d, which does not exist (no sample names a node the profile holds)", first, rp.samples[first])
	}
	miss.samples = absent
	p.SampleCount = int64(len(rp.samples))
	return nil
}

// weighEvenly gives each sample of a profile without timeDeltas an equal
// share of the wall time.
func weighEvenly(p *Profile) error {
	if p.WallNs <= 0 {
		return fmt.Errorf("profile has samples but neither timeDeltas nor a start and end time")
	}
	w := p.WallNs / int64(len(p.Samples))
	for i := range p.Samples {
		p.Samples[i].Weight = w
	}
	p.IntervalNs = w
	p.Warnings = append(p.Warnings, Warning{Kind: WarnNoTimeDeltas, Message: "profile has no timeDeltas: each sample weighs wall time / samples"})
	return nil
}

// timeSamples stamps p's samples with the running sum of the deltas (µs),
// and returns the deltas, how many are negative, and their sum with the
// negative ones clamped to 0.
func timeSamples(p *Profile, deltas []int64) (clamped []int64, negative int, clampedSum int64, err error) {
	clamped = make([]int64, len(deltas))
	var t int64
	for i, d := range deltas {
		if d > maxDeltaMicros || d < -maxDeltaMicros {
			return nil, 0, 0, fmt.Errorf("timeDeltas[%d] is %d µs, beyond any real profile", i, d)
		}
		t += d // timestamps follow the deltas as recorded
		p.Samples[i].Time = t * 1000
		if d < 0 {
			negative++
		} else {
			clampedSum += d
		}
		clamped[i] = d
	}
	return clamped, negative, clampedSum, nil
}

// reorderSamples puts samples recorded out of order (V8 merges its
// sampler's ticks late; traces interleave chunks) in the order of their
// timestamps, so that each weighs the time to the next one taken and the
// weights add up to the span of the timestamps; clamping each negative
// delta to 0 instead adds time.
//
// It warns only when that could show in a printed figure, which has three
// significant digits: when the time clamping would have added is at least
// 0.05% of the span, or when at least 0.1% of the samples were out of
// order (a profile whose clock went wrong). One late tick in a run of
// thousands (2 of 10 corpus runs have one, worth 2-4 µs) is not said.
func reorderSamples(p *Profile, clamped []int64, negative int, clampedSum int64) {
	slices.SortStableFunc(p.Samples, func(a, b Sample) int { return cmp.Compare(a.Time, b.Time) })
	prev := p.Samples[0].Time / 1000
	for i := range p.Samples {
		cur := p.Samples[i].Time / 1000
		if i == 0 {
			clamped[0] = max(cur, 0) // from the start to the first sample
		} else {
			clamped[i] = cur - prev
		}
		prev = cur
	}
	var ordered int64
	for _, d := range clamped {
		ordered += d
	}
	if 2000*(clampedSum-ordered) < ordered && 1000*negative < len(p.Samples) {
		return // invisible at the precision of every printed figure
	}
	what := fmt.Sprintf("%d samples were out of order (negative time deltas)", negative)
	if negative == 1 {
		what = "1 sample was out of order (a negative time delta)"
	}
	p.Warnings = append(p.Warnings, Warning{Kind: WarnSamplesReordered, Message: fmt.Sprintf("%s: ordered by their timestamps, which span %s; clamping the deltas to 0 would have added %s",
		what, fmtMicros(ordered), fmtMicros(clampedSum-ordered))})
}

// fmtMicros writes microseconds, as milliseconds from 1 ms.
func fmtMicros(us int64) string {
	if us < 1000 {
		return fmt.Sprintf("%d µs", us)
	}
	return fmt.Sprintf("%.1f ms", float64(us)/1000)
}

// gapQuantiles1000 returns 1000 × the median of v (the mean of the middle
// two for an even count) and 1000 × its lower quartile (the element of
// index n/4 in order), so that microsecond figures stay exact in
// nanoseconds.
func gapQuantiles1000(v []int64) (median, lowerQuartile int64) {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		median = s[n/2] * 1000
	} else {
		median = (s[n/2-1] + s[n/2]) * 500
	}
	return median, s[n/4] * 1000
}

func (rp *rawProfile) weighHitCounts(p *Profile) error {
	var hits int64
	for k := range rp.hits.len() {
		h := rp.hits.at(k)
		if h[1] < 0 {
			return fmt.Errorf("node %d has a negative hitCount", rp.nodes.at(int(h[0])).id)
		}
		hits += int64(h[1])
	}
	if hits == 0 {
		return nil
	}
	if p.WallNs <= 0 {
		return fmt.Errorf("profile has no samples and no start and end time to weigh its hitCounts")
	}
	p.IntervalNs = p.WallNs / hits
	for k := range rp.hits.len() {
		h := rp.hits.at(k)
		p.Samples = append(p.Samples, Sample{Node: h[0], Weight: int64(h[1]) * p.WallNs / hits})
	}
	p.SampleCount = hits
	p.Warnings = append(p.Warnings, Warning{Kind: WarnNoSamples, Message: "profile has no samples array: time comes from hitCount spread evenly over the wall time"})
	return nil
}
