package stages

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Sizes of the generated profiles, in call-tree nodes (the size of a
// .cpuprofile follows its node count: about 200 bytes a node).
const (
	// GuardNodes is the guard's size: about 10 MB, written in a fraction
	// of a second.
	GuardNodes = 50_000
	// BenchNodes is the benchmarks' size: about 60 MB, the scale of the
	// corpus's 57 MiB TypeScript-compiler profile (271k nodes).
	BenchNodes = 300_000
)

// generatorVersion names the files File caches: change it whenever
// Generate's output changes, so that no stale file is read.
const generatorVersion = 1

// Variant says which side of a made-up change a generated profile is.
type Variant uint8

const (
	// Before is the profile as generated.
	Before Variant = iota
	// After is the same run of the same call tree with some functions
	// cheaper and some costlier (their samples' intervals scaled), a
	// cheaper package and less garbage collection, so that a comparison of
	// Before and After has real changes.
	After
)

// String returns "before" or "after".
func (v Variant) String() string {
	if v == After {
		return "after"
	}
	return "before"
}

// File returns the path of the generated profile of about nodes nodes in
// dir, writing it first when it is not there yet. The file is written under
// a temporary name and renamed, so that concurrent callers never read half
// a file; its name holds the generator's version, the size and the variant.
func File(dir string, nodes int, v Variant) (string, error) {
	path := filepath.Join(dir, fmt.Sprintf("stages-v%d-%d-%s.cpuprofile", generatorVersion, nodes, v))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, ".stages-*.tmp")
	if err != nil {
		return "", err
	}
	err = Generate(f, nodes, v)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	return path, nil
}

// frame is one call frame of the generated profile.
type frame struct {
	name         string
	file         int // index into the files
	line, column int
	callees      []int32
	hub          bool
}

// node is one call-tree node: a frame under a parent.
type node struct {
	frame    int32
	hits     int32
	children []int32
}

// sourceFile is a script of the generated profile and how many functions
// it defines.
type sourceFile struct {
	url       string
	functions int
}

// generator holds one generation's state; nothing outlives Generate.
type generator struct {
	rng    *rand.Rand
	files  []sourceFile
	frames []frame
	byFile [][]int32 // frames of each file
	nodes  []node
	index  map[uint64]int32 // parent<<32 | frame -> child
	// samples holds each sample's leaf node.
	samples []int32
}

// The special frames, first in the frame list.
const (
	frameRoot = iota
	frameProgram
	frameIdle
	frameGC
	firstCode
)

// Generate writes a synthetic V8 .cpuprofile of about nodes call-tree
// nodes shaped like `node --cpu-prof` of the TypeScript compiler: deep
// recursive stacks (up to about 300 frames) over about 3,100 functions
// (2,000 to 2,500 of them called, by size) in 50 scripts (npm packages, scoped and pnpm ones among them, workspace
// code and node: built-ins), (program), (idle) and (garbage collector),
// about one sample per 6 nodes at ~0.5 ms intervals (a few negative), and
// position ticks on most sampled nodes. The same nodes and variant give
// the same bytes.
func Generate(w io.Writer, nodes int, v Variant) error {
	g := &generator{rng: rand.New(rand.NewPCG(0x70726f66, 0x64696666)), index: map[uint64]int32{}}
	g.makeFrames()
	g.walk(max(nodes, 100))
	deltas := g.deltas(v)
	bw := bufio.NewWriterSize(w, 1<<16)
	g.write(bw, deltas)
	return bw.Flush()
}

// makeFrames makes the scripts, their functions and the call graph.
func (g *generator) makeFrames() {
	nm := "file:///srv/app/node_modules/"
	add := func(prefix string, n int, names ...string) {
		for _, s := range names {
			g.files = append(g.files, sourceFile{prefix + s, n})
		}
	}
	add(nm+"typescript/lib/", 1500, "_tsc.js")
	add(nm+"typescript/lib/", 300, "typescript.js")
	add(nm+"typescript/lib/", 100, "tsserverlibrary.js")
	add(nm+"typescript/lib/", 20, "tsc.js")
	add(nm+"effect/dist/esm/", 40, "Effect.js", "Layer.js", "Stream.js", "Schema.js", "Option.js", "Either.js", "Chunk.js",
		"HashMap.js", "Function.js", "Pipeable.js", "internal/core.js", "internal/fiberRuntime.js", "internal/layer.js", "internal/hashMap/node.js")
	add(nm+"@effect/platform/dist/esm/", 25, "FileSystem.js", "Path.js", "Command.js", "internal/fileSystem.js")
	add(nm+".pnpm/semver@7.6.3/node_modules/semver/", 15, "classes/range.js", "classes/semver.js", "functions/satisfies.js")
	add(nm+"source-map-support/", 30, "source-map-support.js")
	add(nm+"tslib/", 20, "tslib.js")
	add(nm+"@babel/parser/lib/", 150, "index.js")
	add(nm+"fast-glob/out/", 20, "managers/tasks.js", "readers/sync.js")
	add("file:///srv/app/src/", 30, "main.js", "cli.js")
	add("node:", 10, "internal/main/run_main_module", "internal/modules/cjs/loader", "internal/modules/esm/loader",
		"internal/modules/esm/translators", "internal/modules/run_main", "internal/process/pre_execution", "fs",
		"internal/fs/utils", "path", "buffer", "events", "internal/timers", "internal/process/task_queues",
		"internal/streams/writable", "internal/util", "internal/errors", "internal/validators", "internal/fs/promises")
	g.nameFunctions()
	g.linkCalls()
}

// nameFunctions makes each script's functions, with compiler-like names
// (a few anonymous), after the four V8 meta frames.
func (g *generator) nameFunctions() {
	g.frames = []frame{{name: "(root)", file: -1}, {name: "(program)", file: -1}, {name: "(idle)", file: -1}, {name: "(garbage collector)", file: -1}}
	g.byFile = make([][]int32, len(g.files))
	verbs := []string{"check", "get", "resolve", "visit", "create", "update", "is", "parse", "emit", "transform", "bind",
		"infer", "instantiate", "compare", "report", "add", "find", "for", "map", "scan", "compute", "narrow", "try",
		"load", "read", "write", "format", "walk", "clone", "merge", "normalize", "collect", "filter", "reduce"}
	nouns := []string{"Expression", "Type", "Symbol", "Node", "Signature", "Declaration", "Identifier", "Statement",
		"Block", "Member", "Property", "Call", "Literal", "Union", "Intersection", "Mapped", "Conditional", "Index",
		"Access", "Reference", "Module", "Source", "File", "Token", "Diagnostic", "Flow", "Generic", "Template", "Tuple",
		"Array", "Object", "Function", "Class", "Alias", "Parameter", "Argument", "Constraint", "Relation", "Scope"}
	suffixes := []string{"", "", "", "Worker", "Cached", "Internal", "OfType", "ForNode", "Recursively", "Helper", "Slow", "Impl", "Inner", "WithContext"}
	for fi, f := range g.files {
		seen := map[string]bool{}
		for range f.functions {
			name := ""
			for name == "" || seen[name] {
				if g.rng.IntN(40) == 0 && !seen[""] {
					break // an anonymous function: V8 names it ""
				}
				name = verbs[g.rng.IntN(len(verbs))] + nouns[g.rng.IntN(len(nouns))] + suffixes[g.rng.IntN(len(suffixes))]
				if seen[name] {
					name += strconv.Itoa(g.rng.IntN(100))
				}
			}
			seen[name] = true
			g.byFile[fi] = append(g.byFile[fi], int32(len(g.frames)))
			g.frames = append(g.frames, frame{name: name, file: fi, line: g.rng.IntN(f.functions*80 + 100), column: g.rng.IntN(80)})
		}
	}
}

// linkCalls makes the call graph: mostly within a script, some calls to
// other scripts and the built-ins, and a set of mutually recursive hubs in
// the compiler (checkExpression -> checkCallExpression -> ...) that make
// the stacks deep.
func (g *generator) linkCalls() {
	tsc := g.byFile[0]
	hubs := tsc[:40]
	for _, h := range hubs {
		g.frames[h].hub = true
	}
	builtins := []int32{}
	for fi, f := range g.files {
		if f.url[:5] == "node:" || f.url[len(f.url)-8:] == "tslib.js" {
			builtins = append(builtins, g.byFile[fi]...)
		}
	}
	for i := firstCode; i < len(g.frames); i++ {
		f := &g.frames[i]
		own := g.byFile[f.file]
		n := 3 + g.rng.IntN(6)
		for range n {
			var c int32
			switch r := g.rng.Float64(); {
			case r < 0.7:
				c = own[g.rng.IntN(len(own))]
			case r < 0.85:
				c = builtins[g.rng.IntN(len(builtins))]
			default:
				other := g.byFile[g.rng.IntN(len(g.files))]
				c = other[g.rng.IntN(len(other))]
			}
			f.callees = append(f.callees, c)
		}
		if f.file == 0 && (f.hub || g.rng.IntN(3) == 0) {
			for range 1 + g.rng.IntN(3) {
				f.callees = append(f.callees, hubs[g.rng.IntN(len(hubs))])
			}
		}
		if f.hub && g.rng.IntN(4) == 0 {
			f.callees = append(f.callees, int32(i)) // direct recursion
		}
	}
}

// child returns the node for frame f under parent, making it when new.
func (g *generator) child(parent, f int32) int32 {
	key := uint64(parent)<<32 | uint64(f)
	if c, ok := g.index[key]; ok {
		return c
	}
	c := int32(len(g.nodes))
	g.nodes = append(g.nodes, node{frame: f})
	g.nodes[parent].children = append(g.nodes[parent].children, c)
	g.index[key] = c
	return c
}

// walk samples a program whose stack changes a little between samples,
// until the tree has target nodes.
func (g *generator) walk(target int) {
	g.nodes = append(g.nodes, node{frame: frameRoot})
	program, idle, gc := g.child(0, frameProgram), g.child(0, frameIdle), g.child(0, frameGC)
	// The start: the main module running the compiler's entry points.
	var frames, path []int32 // the stack's frames and nodes, root excluded
	push := func(f int32) {
		parent := int32(0)
		if len(path) > 0 {
			parent = path[len(path)-1]
		}
		frames = append(frames, f)
		path = append(path, g.child(parent, f))
	}
	for _, f := range []int32{g.byFile[len(g.files)-18][0], g.byFile[len(g.files)-14][0], g.byFile[len(g.files)-17][0], g.byFile[3][0], g.byFile[0][40], g.byFile[0][41]} {
		push(f)
	}
	const base = 6 // frames below this are never popped
	geometric := func(mean float64) int {
		return int(math.Floor(math.Log(1-g.rng.Float64()) / math.Log(1-1/(mean+1))))
	}
	special := int32(-1) // a run of idle or program samples
	for len(g.nodes) < target {
		if special >= 0 {
			g.sample(special)
			if g.rng.IntN(4) == 0 {
				special = -1
			}
			continue
		}
		switch r := g.rng.IntN(1000); {
		case r < 80:
			g.sample(gc)
			continue
		case r < 95:
			special = program
			continue
		case r < 110:
			special = idle
			continue
		}
		// Pop a few frames and push a few callees, pulled towards a depth
		// of about 90 with excursions to 300.
		depth := len(frames)
		pop := min(geometric(8), depth-base)
		frames, path = frames[:depth-pop], path[:depth-pop]
		want := 8 + int(float64(90-len(frames))*0.025)
		for n := geometric(float64(max(want, 1))); n > 0 && len(frames) < 300; n-- {
			callees := g.frames[frames[len(frames)-1]].callees
			push(callees[g.rng.IntN(len(callees))])
		}
		g.sample(path[len(path)-1])
	}
}

// sample adds a sample whose leaf is node n.
func (g *generator) sample(n int32) {
	g.samples = append(g.samples, n)
	g.nodes[n].hits++
}

// deltas returns the samples' timeDeltas (µs): the gap before each sample,
// ~0.5 ms with jitter, some long gaps and a few negative ones. For After,
// the gap after a sample whose leaf is a changed function is scaled by its
// factor (profdiff charges a sample with the gap after it).
func (g *generator) deltas(v Variant) []int64 {
	rng := rand.New(rand.NewPCG(0x64656c74, 0x6173)) // its own stream: the tree is the same for both variants
	d := make([]int64, len(g.samples))
	for i := range d {
		switch r := rng.IntN(10_000); {
		case i == 0:
			d[i] = 12_000 + rng.Int64N(4000) // from the start to the first sample
		case i%2000 == 1000: // as often as in the corpus's tsc profile
			d[i] = -1 - rng.Int64N(10)
		case r < 100:
			d[i] = 2000 + rng.Int64N(18_000)
		default:
			d[i] = max(200, int64(500+rng.NormFloat64()*60))
		}
	}
	if v == Before {
		return d
	}
	factor := make([]float64, len(g.frames))
	for i := range factor {
		factor[i] = 1
	}
	factor[frameGC] = 0.8
	for i, f := range g.byFile[0][:40] { // the hubs: some much cheaper, some costlier
		switch i % 4 {
		case 0:
			factor[f] = 0.4
		case 1:
			factor[f] = 1.8
		}
	}
	for range 60 { // and scattered functions elsewhere
		f := firstCode + rng.IntN(len(g.frames)-firstCode)
		factor[f] = []float64{0.3, 0.6, 1.5, 2.5}[rng.IntN(4)]
	}
	for fi, f := range g.files { // semver got much cheaper
		if filepath.Base(filepath.Dir(f.url)) == "semver" || filepath.Base(filepath.Dir(filepath.Dir(f.url))) == "semver" {
			for _, fr := range g.byFile[fi] {
				factor[fr] = 0.3
			}
		}
	}
	for i := 0; i+1 < len(d); i++ {
		if k := factor[g.nodes[g.samples[i]].frame]; k != 1 && d[i+1] > 0 {
			d[i+1] = max(1, int64(float64(d[i+1])*k))
		}
	}
	return d
}

// write writes the profile as V8 does: the nodes in depth-first order with
// their ids in order of creation, each node's keys in V8's order.
func (g *generator) write(w *bufio.Writer, deltas []int64) {
	b := make([]byte, 0, 512)
	w.WriteString(`{"nodes":[`)
	stack := []int32{0}
	first := true
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		b = b[:0]
		if !first {
			b = append(b, ',')
		}
		first = false
		w.Write(g.appendNode(b, n))
		nd := &g.nodes[n]
		for i := len(nd.children) - 1; i >= 0; i-- {
			stack = append(stack, nd.children[i])
		}
	}
	g.writeSamples(w, b, deltas)
}

// appendNode appends node n as a .cpuprofile node: its call frame, hits,
// children and, for most nodes with hits, position ticks.
func (g *generator) appendNode(b []byte, n int32) []byte {
	nd := &g.nodes[n]
	f := &g.frames[nd.frame]
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, int64(n)+1, 10)
	b = append(b, `,"callFrame":{"functionName":"`...)
	b = append(b, f.name...)
	b = append(b, `","scriptId":"`...)
	url, line, col := "", -1, -1
	if f.file >= 0 {
		url, line, col = g.files[f.file].url, f.line, f.column
	}
	b = strconv.AppendInt(b, int64(f.file+1), 10)
	b = append(b, `","url":"`...)
	b = append(b, url...)
	b = append(b, `","lineNumber":`...)
	b = strconv.AppendInt(b, int64(line), 10)
	b = append(b, `,"columnNumber":`...)
	b = strconv.AppendInt(b, int64(col), 10)
	b = append(b, `},"hitCount":`...)
	b = strconv.AppendInt(b, int64(nd.hits), 10)
	if len(nd.children) > 0 {
		b = append(b, `,"children":[`...)
		for i, c := range nd.children {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(c)+1, 10)
		}
		b = append(b, ']')
	}
	if nd.hits > 0 && f.file >= 0 && (n*7)%10 != 0 {
		// Position ticks: the hits spread over one to three lines.
		b = append(b, `,"positionTicks":[`...)
		left := nd.hits
		for i := 0; left > 0; i++ {
			t := left
			if i < 2 && left > 1 {
				t = left / 2
			}
			left -= t
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"line":`...)
			b = strconv.AppendInt(b, int64(f.line+1+3*i+int(n)%5), 10)
			b = append(b, `,"ticks":`...)
			b = strconv.AppendInt(b, int64(t), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// writeSamples ends the profile: its start and end times, the samples and
// their time deltas. b is a scratch buffer.
func (g *generator) writeSamples(w *bufio.Writer, b []byte, deltas []int64) {
	var sum int64
	for _, d := range deltas {
		sum += d
	}
	const start = 1_900_216_147
	b = append(b[:0], `],"startTime":`...)
	b = strconv.AppendInt(b, start, 10)
	b = append(b, `,"endTime":`...)
	b = strconv.AppendInt(b, start+sum+500, 10)
	b = append(b, `,"samples":[`...)
	w.Write(b)
	for i, s := range g.samples {
		b = b[:0]
		if i > 0 {
			b = append(b, ',')
		}
		w.Write(strconv.AppendInt(b, int64(s)+1, 10))
	}
	w.WriteString(`],"timeDeltas":[`)
	for i, d := range deltas {
		b = b[:0]
		if i > 0 {
			b = append(b, ',')
		}
		w.Write(strconv.AppendInt(b, d, 10))
	}
	w.WriteString("]}")
}
