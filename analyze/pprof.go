package analyze

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	pprofile "github.com/google/pprof/profile"
)

// This file reads pprof profiles (gzipped or raw protobuf, and the legacy
// formats github.com/google/pprof/profile understands): Go CPU profiles and
// Node's @datadog/pprof time profiles.

// goGCFunctions are the Go runtime functions under which a sample is garbage
// collection work: the background mark workers, mark assists, the sweeper and
// the scavenger, and the profiler's own marker for GC samples without a stack.
var goGCFunctions = map[string]bool{
	"runtime.gcBgMarkWorker": true,
	"runtime.gcAssistAlloc":  true,
	"runtime.bgsweep":        true,
	"runtime.bgscavenge":     true,
	"runtime._GC":            true,
}

// pprofFrameBuildIDPrefix begins the build ID of each mapping that
// profdiff's pprof export puts a package's functions in.
const pprofFrameBuildIDPrefix = "profdiff:"

// PprofFrameBuildID returns the build ID that profdiff's pprof export
// gives the mapping holding package pkg's functions of frames like f:
// "profdiff:", the kind's name, ",go" for a Go frame (Frame.Go), ",gcmark"
// for one whose presence makes a sample GC work (Frame.MarksGC), ":" and
// the package: "profdiff:code:path-to-regexp", "profdiff:gc:(gc)",
// "profdiff:code,go,gcmark:runtime". The package is in the build ID, not
// only in the mapping's file, because pprof merges profiles' mappings by
// build ID. Reading a pprof profile, the frames of a location whose
// mapping has such a build ID take their package, kind, Go and MarksGC
// from it (regular expressions and eval code still give their time to
// their caller's package); a profile without them is read as any other.
func PprofFrameBuildID(pkg string, f *Frame) string {
	id := pprofFrameBuildIDPrefix + f.Kind.String()
	if f.Go {
		id += ",go"
	}
	if f.MarksGC {
		id += ",gcmark"
	}
	return id + ":" + pkg
}

// pprofFrameMapping is what a mapping of profdiff's pprof export says of
// its locations' frames (see PprofFrameBuildID).
type pprofFrameMapping struct {
	pkg              string
	kind             FrameKind
	goFrame, marksGC bool
	ok               bool // the mapping is one of profdiff's export
}

// parsePprofFrameMapping undoes PprofFrameBuildID; ok is false for a
// mapping profdiff did not write. Flags it does not know are passed over.
func parsePprofFrameMapping(m pprofMapping) pprofFrameMapping {
	rest, ok := strings.CutPrefix(m.buildID, pprofFrameBuildIDPrefix)
	if !ok {
		return pprofFrameMapping{}
	}
	kind, pkg, ok := strings.Cut(rest, ":")
	if !ok || pkg == "" {
		return pprofFrameMapping{}
	}
	flags := strings.Split(kind, ",")
	i := slices.Index(kindNames[:], flags[0])
	if i < 0 {
		return pprofFrameMapping{}
	}
	fm := pprofFrameMapping{pkg: pkg, kind: FrameKind(i), ok: true}
	for _, flag := range flags[1:] {
		switch flag {
		case "go":
			fm.goFrame = true
		case "gcmark":
			fm.marksGC = true
		}
	}
	return fm
}

// timeUnits converts sample and period units to nanoseconds.
var timeUnits = map[string]int64{
	"nanoseconds":  1,
	"microseconds": 1e3,
	"milliseconds": 1e6,
	"seconds":      1e9,
}

// pprofWeights says how to turn one pprof sample into nanoseconds.
type pprofWeights struct {
	index int   // sample value index
	scale int64 // nanoseconds per unit (the period for counts)
	name  string
	// notCPU: no sample type was asked for and none is cpu or wall time
	// (nor counts of a cpu or wall period), so the time chosen is of
	// another kind, such as a contention profile's delay.
	notCPU bool
}

// choosePprofSampleType picks the sample type to weigh samples by: the one
// the user named, else cpu time, else wall time, else a count times the
// sampling period.
func choosePprofSampleType(pp *pprofData, want string) (pprofWeights, error) {
	var names []string
	for _, st := range pp.sampleTypes {
		names = append(names, st.typ+"/"+st.unit)
	}
	period := int64(0)
	if pp.periodType != nil && pp.period > 0 {
		if u, ok := timeUnits[pp.periodType.unit]; ok {
			period = pp.period * u
		}
	}
	weightsFor := func(i int) (pprofWeights, bool) {
		st := pp.sampleTypes[i]
		if u, ok := timeUnits[st.unit]; ok {
			return pprofWeights{index: i, scale: u, name: names[i]}, true
		}
		if st.unit == "count" && period > 0 {
			return pprofWeights{index: i, scale: period, name: names[i] + " x period"}, true
		}
		return pprofWeights{}, false
	}
	if want != "" {
		for i, st := range pp.sampleTypes {
			if want == st.typ || want == names[i] {
				if w, ok := weightsFor(i); ok {
					return w, nil
				}
				return pprofWeights{}, fmt.Errorf("sample type %s is not a time and the profile has no time period to scale it", names[i])
			}
		}
		return pprofWeights{}, fmt.Errorf("no sample type %q (the profile has %s)", want, strings.Join(names, ", "))
	}
	for _, pref := range []string{"cpu", "wall"} {
		for i, st := range pp.sampleTypes {
			if st.typ == pref {
				if w, ok := weightsFor(i); ok {
					return w, nil
				}
			}
		}
	}
	for i, st := range pp.sampleTypes {
		if st.unit == "count" {
			if w, ok := weightsFor(i); ok {
				// Samples of a cpu or wall period are that time.
				w.notCPU = pp.periodType == nil || pp.periodType.typ != "cpu" && pp.periodType.typ != "wall"
				return w, nil
			}
		}
	}
	for i := range pp.sampleTypes {
		if w, ok := weightsFor(i); ok {
			w.notCPU = true
			return w, nil
		}
	}
	return pprofWeights{}, fmt.Errorf("no sample type measures time (the profile has %s): it is not a CPU profile", strings.Join(names, ", "))
}

// notCPUWarning says that a profile's time is of a sample type that is not
// CPU time (a contention profile's delay), naming it.
func notCPUWarning(w pprofWeights) Warning {
	what := "which is not CPU time"
	if strings.HasPrefix(w.name, "delay/") {
		what = "time spent waiting for locks (a contention profile), not CPU time"
	}
	return Warning{Kind: WarnNotCPUTime, Message: fmt.Sprintf("the profile has no cpu or wall sample type: its time is the sample type %s, %s", w.name, what)}
}

// isNodePprof reports whether the profile was written by @datadog/pprof:
// a wall-time sample type, or V8's pseudo-functions.
func isNodePprof(pp *pprofData) bool {
	for _, st := range pp.sampleTypes {
		if st.typ == "wall" {
			return true
		}
	}
	for _, name := range pp.functionNames {
		switch name {
		case "(idle)", "(program)", "Garbage Collection":
			return true
		}
	}
	return false
}

// nodeLineMode reports whether an @datadog/pprof profile was taken in its
// time profiler's line-number mode (lineNumbers: true), weighing samples
// by value index w. There a location is a function and the line it was on
// (the sampled line, or the line of a call), as in Go, and the function's
// start is not recorded; by default it is the function and its start, as
// in a .cpuprofile. The profile does not say which. The library makes one
// function of all that share a name in a script, so by default a function
// is found at two start lines only where two functions of one name meet
// (a minified bundle's short names, methods of one name in several
// classes): in the corpus's four profiles of the router workload, 5.7% and
// 7.5% of the samples' leaf time by default, 41% and 40% in line-number
// mode, 49% on a small script. A profile is taken to be in line-number
// mode when a fifth of its leaf time or more is in such functions. A
// profile with a CPU-time sample type never is (the library refuses line
// numbers with the contexts CPU time needs).
func nodeLineMode(pp *pprofData, w int) bool {
	for _, st := range pp.sampleTypes {
		if st.typ == "cpu" {
			return false
		}
	}
	type fn struct{ name, file string }
	first := map[fn]int64{}
	multi := map[fn]bool{}
	for _, ln := range pp.lines {
		if ln.noFunction || ln.line <= 0 || ln.file == "" {
			continue
		}
		k := fn{ln.name, ln.file}
		if l, ok := first[k]; !ok {
			first[k] = ln.line
		} else if l != ln.line {
			multi[k] = true
		}
	}
	if len(multi) == 0 {
		return false
	}
	var all, inMulti float64
	for si := range pp.samples() {
		locs, values := pp.sampleLocs(si), pp.sampleValues(si)
		if len(locs) == 0 || w >= len(values) {
			continue
		}
		loc := pp.locs[locs[0]]
		if loc.lineEnd <= loc.lineStart {
			continue
		}
		ln := pp.lines[loc.lineStart]
		if ln.noFunction || ln.line <= 0 || ln.file == "" {
			continue
		}
		v := float64(values[w])
		all += v
		if multi[fn{ln.name, ln.file}] {
			inMulti += v
		}
	}
	return all > 0 && inMulti >= all/5
}

// parsePprofData reads a pprof profile: protobuf by decodePprofWire
// (pprofwire.go), whose errors are final; the legacy formats, which are not
// protobuf, by the library.
func parsePprofData(data []byte) (*pprofData, error) {
	d, err := decodePprofWire(data)
	if err == nil || errors.Is(err, errPprofBound) || !isLegacyPprof(data) {
		return d, err
	}
	pp, err := pprofile.ParseData(data)
	if err != nil {
		return nil, err
	}
	return pprofDataOf(pp), nil
}

// isLegacyPprof reports whether data may be one of the formats from before
// profile.proto that the library reads: the binary CPU profile, whose
// header begins with a zero word (as 32 or 64 bits, either byte order),
// or text.
func isLegacyPprof(data []byte) bool {
	return bytes.HasPrefix(data, []byte{0, 0, 0, 0}) || looksLikeText(data)
}

// errPprofUnreadable is what input that looked like pprof but could not be
// read as any of its formats fails with; text that fails so is no profile.
var errPprofUnreadable = errors.New("not a readable pprof profile")

// pprofTextHeader reports whether the first line of head that is neither
// blank nor a '#' comment is the header of one of the legacy text formats
// that github.com/google/pprof/profile reads: a Go count profile
// ("threadcreate profile: total 7", goroutine), a heap, growth or
// fragmentation profile ("heap profile: 1: 2 [3: 4] @ heap/1048576"),
// a thread dump ("--- threadz 1 ---"), a contention profile, or a Java
// heap or contention profile. Such a line may end in a number, so folded
// detection must not see it first.
func pprofTextHeader(head []byte) bool {
	for len(head) > 0 {
		var line []byte
		line, head, _ = bytes.Cut(head, []byte("\n"))
		l := strings.TrimSpace(string(line))
		if l == "" || l[0] == '#' {
			continue
		}
		if typ, total, ok := strings.Cut(l, " profile: total "); ok && typ != "" && !strings.ContainsAny(typ, " \t;") && total != "" && strings.Trim(total, "0123456789") == "" {
			return true // parseGoCount's countStartRE
		}
		for _, p := range []string{"heap profile:", "--- threadz ", "--- Thread ", "--- contentionz ", "--- mutex:", "--- contention:", "--- heapz 1 ---"} {
			if strings.HasPrefix(l, p) {
				return true
			}
		}
		return false
	}
	return false
}

// pprofDataOf takes the compact form from the library's profile.
func pprofDataOf(pp *pprofile.Profile) *pprofData {
	d := &pprofData{period: pp.Period, durationNanos: pp.DurationNanos, locStart: []int32{0}, valStart: []int32{0}}
	for _, st := range pp.SampleType {
		d.sampleTypes = append(d.sampleTypes, pprofValueType{st.Type, st.Unit})
	}
	if pp.PeriodType != nil {
		d.periodType = &pprofValueType{pp.PeriodType.Type, pp.PeriodType.Unit}
	}
	for _, f := range pp.Function {
		d.functionNames = append(d.functionNames, f.Name)
	}
	mappings := map[*pprofile.Mapping]int32{}
	for _, m := range pp.Mapping {
		mappings[m] = int32(len(d.mappings))
		d.mappings = append(d.mappings, pprofMapping{m.File, m.BuildID})
	}
	index := map[*pprofile.Location]int32{}
	for _, s := range pp.Sample {
		for _, loc := range s.Location {
			i, ok := index[loc]
			if !ok {
				i = int32(len(d.locs))
				index[loc] = i
				l := pprofLoc{address: loc.Address, mapping: -1, lineStart: int32(len(d.lines))}
				if mi, ok := mappings[loc.Mapping]; ok {
					l.mapping = mi
				}
				for _, ln := range loc.Line {
					pl := pprofLine{line: ln.Line, column: ln.Column, noFunction: ln.Function == nil}
					if f := ln.Function; f != nil {
						pl.name, pl.file, pl.startLine = f.Name, f.Filename, f.StartLine
					}
					d.lines = append(d.lines, pl)
				}
				l.lineEnd = int32(len(d.lines))
				d.locs = append(d.locs, l)
			}
			d.locIdx = append(d.locIdx, i)
		}
		d.vals = append(d.vals, s.Value...)
		d.locStart = append(d.locStart, int32(len(d.locIdx)))
		d.valStart = append(d.valStart, int32(len(d.vals)))
	}
	return d
}

// readPprof converts a pprof profile into the model.
func readPprof(data []byte, sampleType string, lines bool) (*Profile, error) {
	pp, err := parsePprofData(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errPprofUnreadable, err)
	}
	if len(pp.sampleTypes) == 0 {
		return nil, fmt.Errorf("pprof profile has no sample types")
	}
	if pp.samples() == 0 {
		return nil, fmt.Errorf("pprof profile has no samples")
	}
	w, err := choosePprofSampleType(pp, sampleType)
	if err != nil {
		return nil, err
	}
	b := newPprofBuilder(pp, w)
	if lines && (!b.node || b.nodeLines) {
		b.lineTotals = map[[2]int32]int64{}
	}
	if w.notCPU {
		b.p.Warnings = append(b.p.Warnings, notCPUWarning(w))
	}
	for _, st := range pp.sampleTypes {
		b.p.SampleTypes = append(b.p.SampleTypes, st.typ+"/"+st.unit)
	}
	b.p.Samples = make([]Sample, 0, pp.samples())
	for si := range pp.samples() {
		if err := b.addSample(si); err != nil {
			return nil, err
		}
	}
	p := b.p
	p.Frames = b.in.frames
	p.LineTicks = appendLineTicks(p.LineTicks, b.lineCounts)
	p.LineTotals = sortedLineTotals(b.lineTotals)
	if pp.periodType != nil && pp.period > 0 {
		if u, ok := timeUnits[pp.periodType.unit]; ok {
			p.IntervalNs = pp.period * u
		}
	}
	if p.IntervalNs == 0 && p.SampleCount > 0 {
		p.IntervalNs = b.sampled / p.SampleCount
	}
	return p, nil
}

// pprofBuilder builds the model's frames, call tree and line ticks from a
// pprof profile's samples, one sample at a time.
type pprofBuilder struct {
	pp   *pprofData
	w    pprofWeights
	node bool // written by @datadog/pprof
	// nodeLines says node's locations hold the line each function was on
	// (its time profiler's line-number mode), as Go's do.
	nodeLines  bool
	countIndex int // the sample value that counts samples, or -1
	// mappings are what each mapping says of its frames when profdiff's
	// export wrote it.
	mappings []pprofFrameMapping
	p        *Profile
	in       *frameInterner
	// Each location's frames, outermost first (a location holds a function
	// and the functions inlined into it), are made once; and the node a
	// location leads to from a node is remembered, so that a sample costs
	// one lookup per location of its stack.
	locFrames  [][]int32
	leadsTo    map[pprofStep]int32
	children   map[pprofEdge]int32
	lineCounts map[[2]int32]int32 // Go locations' lines: ticks per (node, line)
	sampled    int64              // the weight of all samples
	// lineTotals, when asked for, is each frame's time per line, each
	// sample counted once: ns per (frame, line); seen is a sample's.
	lineTotals map[[2]int32]int64
	seen       [][2]int32
}

// pprofStep is a location taken from a node of the tree.
type pprofStep struct{ node, loc int32 }

// pprofEdge is a frame called from a node of the tree.
type pprofEdge struct{ parent, frame int32 }

// newPprofBuilder starts the model of pp with its root node, weighing
// samples by w.
func newPprofBuilder(pp *pprofData, w pprofWeights) *pprofBuilder {
	b := &pprofBuilder{
		pp:         pp,
		w:          w,
		node:       isNodePprof(pp),
		countIndex: -1,
		p:          &Profile{Format: FormatPprof, SampleType: w.name, WallNs: pp.durationNanos},
		in:         newFrameInterner(),
		locFrames:  make([][]int32, len(pp.locs)),
		leadsTo:    map[pprofStep]int32{},
		children:   map[pprofEdge]int32{},
		lineCounts: map[[2]int32]int32{},
		mappings:   make([]pprofFrameMapping, len(pp.mappings)),
	}
	b.nodeLines = b.node && nodeLineMode(pp, w.index)
	for i, m := range pp.mappings {
		b.mappings[i] = parsePprofFrameMapping(m)
	}
	for i, st := range pp.sampleTypes {
		if st.unit == "count" {
			b.countIndex = i
			break
		}
	}
	root := b.in.internStrings("(root)", "", 0, 0, KindRoot)
	b.p.Nodes = append(b.p.Nodes, Node{Frame: root, Parent: -1})
	return b
}

// frameOf interns the frame of a location's line, as the mapping of
// profdiff's export that holds it says when fm.ok.
func (b *pprofBuilder) frameOf(ln pprofLine, fm pprofFrameMapping) int32 {
	if fm.ok {
		i := b.in.internStrings(ln.name, ln.file, clampLine(ln.startLine), 0, fm.kind)
		fr := &b.in.frames[i]
		fr.Go, fr.MarksGC = fm.goFrame, fm.marksGC
		if !fm.kind.InheritsPackage() {
			fr.Package = fm.pkg
		}
		return i
	}
	var line, column int32
	goFrame := !b.node
	switch {
	case ln.noFunction:
	case ln.startLine > 0:
		line = clampLine(ln.startLine)
	case b.node && !b.nodeLines:
		// @datadog/pprof sets no start line. By default a location's
		// line and column are the function's start, as in a
		// .cpuprofile; in its line-number mode (nodeLineMode) they are
		// the line the function was on, and the function's start is
		// not recorded.
		line = clampLine(ln.line)
		column = clampLine(ln.column)
	}
	kind := KindCode
	if b.node {
		kind = nodePprofKind(ln.name, ln.file)
	}
	i := b.in.internStrings(ln.name, ln.file, line, column, kind)
	fr := &b.in.frames[i]
	fr.Go = goFrame
	fr.MarksGC = goFrame && goGCFunctions[ln.name]
	if b.node && ln.name == "Non JS threads activity" {
		fr.Package = "(non-JS threads)"
	}
	return i
}

// framesOf returns location li's frames, outermost first; a location
// without lines is a frame named by its address.
func (b *pprofBuilder) framesOf(li int32) []int32 {
	if fs := b.locFrames[li]; fs != nil {
		return fs
	}
	loc := b.pp.locs[li]
	lines := b.pp.lines[loc.lineStart:loc.lineEnd]
	var fm pprofFrameMapping
	if loc.mapping >= 0 {
		fm = b.mappings[loc.mapping]
	}
	fs := make([]int32, 0, max(len(lines), 1))
	if len(lines) == 0 {
		fs = append(fs, b.frameOf(pprofLine{name: fmt.Sprintf("0x%x", loc.address)}, pprofFrameMapping{}))
	}
	for k := len(lines) - 1; k >= 0; k-- {
		fs = append(fs, b.frameOf(lines[k], fm))
	}
	b.locFrames[li] = fs
	return fs
}

// stackNode returns the tree node of a stack of locations (leaf first),
// adding the nodes it lacks.
func (b *pprofBuilder) stackNode(locs []int32) int32 {
	cur := int32(0)
	for li := len(locs) - 1; li >= 0; li-- {
		st := pprofStep{cur, locs[li]}
		if next, ok := b.leadsTo[st]; ok {
			cur = next
			continue
		}
		for _, f := range b.framesOf(st.loc) {
			e := pprofEdge{cur, f}
			next, ok := b.children[e]
			if !ok {
				next = int32(len(b.p.Nodes))
				b.p.Nodes = append(b.p.Nodes, Node{Frame: f, Parent: cur})
				b.children[e] = next
			}
			cur = next
		}
		b.leadsTo[st] = cur
	}
	return cur
}

// addSample adds sample si: its weight to its stack's node, its ticks to
// the line its leaf was on, and its count to the profile's.
func (b *pprofBuilder) addSample(si int) error {
	values := b.pp.sampleValues(si)
	if b.w.index >= len(values) {
		return fmt.Errorf("sample %d has %d values, fewer than its %d sample types", si, len(values), len(b.pp.sampleTypes))
	}
	v := values[b.w.index]
	if v < 0 {
		return fmt.Errorf("sample %d has a negative value %d (a difference of profiles? profdiff compares the originals)", si, v)
	}
	if v > 1<<62/max(b.w.scale, 1) {
		return fmt.Errorf("sample %d has a value %d beyond any real profile", si, v)
	}
	locs := b.pp.sampleLocs(si)
	cur := b.stackNode(locs)
	b.p.Samples = append(b.p.Samples, Sample{Node: cur, Weight: v * b.w.scale})
	if (!b.node || b.nodeLines) && len(locs) > 0 {
		b.countLine(cur, b.pp.locs[locs[0]], values)
	}
	if b.lineTotals != nil {
		b.addLineTotals(locs, v*b.w.scale)
	}
	b.sampled += v * b.w.scale
	if b.countIndex >= 0 && b.countIndex < len(values) {
		b.p.SampleCount += values[b.countIndex]
	} else {
		b.p.SampleCount++
	}
	return nil
}

// countLine adds a sample's ticks to the line its leaf location was on:
// Go locations, and @datadog/pprof's in its line-number mode, carry the
// line each sample was on.
func (b *pprofBuilder) countLine(node int32, leaf pprofLoc, values []int64) {
	if leaf.lineEnd <= leaf.lineStart {
		return
	}
	l := b.pp.lines[leaf.lineStart].line
	if l <= 0 || l >= 1<<31 {
		return
	}
	n := int32(1)
	if c := b.countIndex; c >= 0 && c < len(values) && values[c] > 0 && values[c] < 1<<20 {
		n = int32(values[c])
	}
	b.lineCounts[[2]int32{node, int32(l)}] += n
}

// clampLine returns a line or column that fits the model, 0 (unknown) for
// any other.
func clampLine(v int64) int32 {
	if v <= 0 || v >= 1<<31-1 {
		return 0
	}
	return int32(v)
}

// nodePprofKind classifies a frame of an @datadog/pprof profile.
func nodePprofKind(name, file string) FrameKind {
	switch name {
	case "(idle)":
		return KindIdle
	case "(program)":
		return KindProgram
	case "Garbage Collection", "(garbage collector)":
		return KindGC
	case "(root)":
		return KindRoot
	}
	if file != "" {
		return KindCode
	}
	if strings.HasPrefix(name, "RegExp: ") {
		return KindRegExp
	}
	return KindNative
}
