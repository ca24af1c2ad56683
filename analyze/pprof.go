package analyze

import (
	"errors"
	"fmt"
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
				return w, nil
			}
		}
	}
	for i := range pp.sampleTypes {
		if w, ok := weightsFor(i); ok {
			return w, nil
		}
	}
	return pprofWeights{}, fmt.Errorf("no sample type measures time (the profile has %s)", strings.Join(names, ", "))
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
// profile.proto that the library reads: the binary CPU profile, which
// begins with a zero word (a byte no protobuf tag has), or text.
func isLegacyPprof(data []byte) bool {
	return len(data) > 0 && data[0] == 0 || looksLikeText(data)
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
	index := map[*pprofile.Location]int32{}
	for _, s := range pp.Sample {
		for _, loc := range s.Location {
			i, ok := index[loc]
			if !ok {
				i = int32(len(d.locs))
				index[loc] = i
				l := pprofLoc{address: loc.Address, lineStart: int32(len(d.lines))}
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
func readPprof(data []byte, sampleType string) (*Profile, error) {
	pp, err := parsePprofData(data)
	if err != nil {
		return nil, fmt.Errorf("not a readable pprof profile: %v", err)
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
	node := isNodePprof(pp)
	p := &Profile{Format: FormatPprof, SampleType: w.name, WallNs: pp.durationNanos}
	for _, st := range pp.sampleTypes {
		p.SampleTypes = append(p.SampleTypes, st.typ+"/"+st.unit)
	}

	in := newFrameInterner()
	frameOf := func(ln pprofLine) int32 {
		var line, column int32
		goFrame := !node
		switch {
		case ln.noFunction:
		case ln.startLine > 0:
			line = clampLine(ln.startLine)
		case node:
			// @datadog/pprof sets no start line. By default a location's
			// line and column are the function's start, as in a
			// .cpuprofile; in its line-number mode they are the sampled
			// position, so functions split by line.
			line = clampLine(ln.line)
			column = clampLine(ln.column)
		}
		kind := KindCode
		if node {
			kind = nodePprofKind(ln.name, ln.file)
		}
		i := in.internStrings(ln.name, ln.file, line, column, kind)
		fr := &in.frames[i]
		fr.Go = goFrame
		fr.MarksGC = goFrame && goGCFunctions[ln.name]
		if node && ln.name == "Non JS threads activity" {
			fr.Package = "(non-JS threads)"
		}
		return i
	}

	type edge struct{ parent, frame int32 }
	root := in.internStrings("(root)", "", 0, 0, KindRoot)
	p.Nodes = append(p.Nodes, Node{Frame: root, Parent: -1})
	children := map[edge]int32{}
	var countIndex = -1
	for i, st := range pp.sampleTypes {
		if st.unit == "count" {
			countIndex = i
			break
		}
	}
	// Each location's frames, outermost first (a location holds a function
	// and the functions inlined into it), are made once; and the node a
	// location leads to from a node is remembered, so that a sample costs
	// one lookup per location of its stack.
	locFrames := make([][]int32, len(pp.locs))
	framesOf := func(li int32) []int32 {
		if fs := locFrames[li]; fs != nil {
			return fs
		}
		loc := pp.locs[li]
		lines := pp.lines[loc.lineStart:loc.lineEnd]
		fs := make([]int32, 0, max(len(lines), 1))
		if len(lines) == 0 {
			fs = append(fs, frameOf(pprofLine{name: fmt.Sprintf("0x%x", loc.address)}))
		}
		for k := len(lines) - 1; k >= 0; k-- {
			fs = append(fs, frameOf(lines[k]))
		}
		locFrames[li] = fs
		return fs
	}
	type step struct{ node, loc int32 }
	leadsTo := map[step]int32{}
	p.Samples = make([]Sample, 0, pp.samples())
	var sampled int64
	// Go locations carry the line each sample was on: line ticks per node.
	lineCounts := map[[2]int32]int32{}
	for si := range pp.samples() {
		values := pp.sampleValues(si)
		if w.index >= len(values) {
			return nil, fmt.Errorf("sample %d has %d values, fewer than its %d sample types", si, len(values), len(pp.sampleTypes))
		}
		v := values[w.index]
		if v < 0 {
			return nil, fmt.Errorf("sample %d has a negative value %d (a difference of profiles? profdiff compares the originals)", si, v)
		}
		if v > 1<<62/max(w.scale, 1) {
			return nil, fmt.Errorf("sample %d has a value %d beyond any real profile", si, v)
		}
		locs := pp.sampleLocs(si)
		cur := int32(0)
		for li := len(locs) - 1; li >= 0; li-- {
			st := step{cur, locs[li]}
			if next, ok := leadsTo[st]; ok {
				cur = next
				continue
			}
			for _, f := range framesOf(st.loc) {
				e := edge{cur, f}
				next, ok := children[e]
				if !ok {
					next = int32(len(p.Nodes))
					p.Nodes = append(p.Nodes, Node{Frame: f, Parent: cur})
					children[e] = next
				}
				cur = next
			}
			leadsTo[st] = cur
		}
		p.Samples = append(p.Samples, Sample{Node: cur, Weight: v * w.scale})
		if !node && len(locs) > 0 {
			if loc := pp.locs[locs[0]]; loc.lineEnd > loc.lineStart {
				if l := pp.lines[loc.lineStart].line; l > 0 && l < 1<<31 {
					n := int32(1)
					if countIndex >= 0 && countIndex < len(values) && values[countIndex] > 0 && values[countIndex] < 1<<20 {
						n = int32(values[countIndex])
					}
					lineCounts[[2]int32{cur, int32(l)}] += n
				}
			}
		}
		sampled += v * w.scale
		if countIndex >= 0 && countIndex < len(values) {
			p.SampleCount += values[countIndex]
		} else {
			p.SampleCount++
		}
	}
	p.Frames = in.frames
	p.LineTicks = appendLineTicks(p.LineTicks, lineCounts)
	if pp.periodType != nil && pp.period > 0 {
		if u, ok := timeUnits[pp.periodType.unit]; ok {
			p.IntervalNs = pp.period * u
		}
	}
	if p.IntervalNs == 0 && p.SampleCount > 0 {
		p.IntervalNs = sampled / p.SampleCount
	}
	return p, nil
}

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
