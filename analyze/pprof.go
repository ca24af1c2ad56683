package analyze

import (
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
func choosePprofSampleType(pp *pprofile.Profile, want string) (pprofWeights, error) {
	var names []string
	for _, st := range pp.SampleType {
		names = append(names, st.Type+"/"+st.Unit)
	}
	period := int64(0)
	if pp.PeriodType != nil && pp.Period > 0 {
		if u, ok := timeUnits[pp.PeriodType.Unit]; ok {
			period = pp.Period * u
		}
	}
	weightsFor := func(i int) (pprofWeights, bool) {
		st := pp.SampleType[i]
		if u, ok := timeUnits[st.Unit]; ok {
			return pprofWeights{index: i, scale: u, name: names[i]}, true
		}
		if st.Unit == "count" && period > 0 {
			return pprofWeights{index: i, scale: period, name: names[i] + " x period"}, true
		}
		return pprofWeights{}, false
	}
	if want != "" {
		for i, st := range pp.SampleType {
			if want == st.Type || want == names[i] {
				if w, ok := weightsFor(i); ok {
					return w, nil
				}
				return pprofWeights{}, fmt.Errorf("sample type %s is not a time and the profile has no time period to scale it", names[i])
			}
		}
		return pprofWeights{}, fmt.Errorf("no sample type %q (the profile has %s)", want, strings.Join(names, ", "))
	}
	for _, pref := range []string{"cpu", "wall"} {
		for i, st := range pp.SampleType {
			if st.Type == pref {
				if w, ok := weightsFor(i); ok {
					return w, nil
				}
			}
		}
	}
	for i, st := range pp.SampleType {
		if st.Unit == "count" {
			if w, ok := weightsFor(i); ok {
				return w, nil
			}
		}
	}
	for i := range pp.SampleType {
		if w, ok := weightsFor(i); ok {
			return w, nil
		}
	}
	return pprofWeights{}, fmt.Errorf("no sample type measures time (the profile has %s)", strings.Join(names, ", "))
}

// isNodePprof reports whether the profile was written by @datadog/pprof:
// a wall-time sample type, or V8's pseudo-functions.
func isNodePprof(pp *pprofile.Profile) bool {
	for _, st := range pp.SampleType {
		if st.Type == "wall" {
			return true
		}
	}
	for _, f := range pp.Function {
		switch f.Name {
		case "(idle)", "(program)", "Garbage Collection":
			return true
		}
	}
	return false
}

// readPprof converts a parsed pprof profile into the model.
func readPprof(data []byte, sampleType string) (*Profile, error) {
	pp, err := pprofile.ParseData(data)
	if err != nil {
		return nil, fmt.Errorf("not a readable pprof profile: %v", err)
	}
	if len(pp.SampleType) == 0 {
		return nil, fmt.Errorf("pprof profile has no sample types")
	}
	if len(pp.Sample) == 0 {
		return nil, fmt.Errorf("pprof profile has no samples")
	}
	w, err := choosePprofSampleType(pp, sampleType)
	if err != nil {
		return nil, err
	}
	node := isNodePprof(pp)
	p := &Profile{Format: FormatPprof, SampleType: w.name, WallNs: pp.DurationNanos}
	for _, st := range pp.SampleType {
		p.SampleTypes = append(p.SampleTypes, st.Type+"/"+st.Unit)
	}

	in := newFrameInterner()
	frameOf := func(ln pprofile.Line) int32 {
		var name, file string
		var line, column int32
		goFrame := !node
		if f := ln.Function; f != nil {
			name, file = f.Name, f.Filename
			switch {
			case f.StartLine > 0:
				line = clampLine(f.StartLine)
			case node:
				// @datadog/pprof sets no start line. By default a
				// location's line and column are the function's start,
				// as in a .cpuprofile; in its line-number mode they
				// are the sampled position, so functions split by line.
				line = clampLine(ln.Line)
				column = clampLine(ln.Column)
			}
		}
		kind := KindCode
		if node {
			kind = nodePprofKind(name, file)
		}
		i := in.internStrings(name, file, line, column, kind)
		fr := &in.frames[i]
		fr.Go = goFrame
		fr.MarksGC = goFrame && goGCFunctions[name]
		if node && name == "Non JS threads activity" {
			fr.Package = "(non-JS threads)"
		}
		return i
	}

	type edge struct{ parent, frame int32 }
	root := in.internStrings("(root)", "", 0, 0, KindRoot)
	p.Nodes = append(p.Nodes, Node{Frame: root, Parent: -1})
	children := map[edge]int32{}
	var countIndex = -1
	for i, st := range pp.SampleType {
		if st.Unit == "count" {
			countIndex = i
			break
		}
	}
	// Each location's frames, outermost first (a location holds a function
	// and the functions inlined into it), are made once; and the node a
	// location leads to from a node is remembered, so that a sample costs
	// one lookup per location of its stack.
	locIndex := map[*pprofile.Location]int32{}
	byID := make([]int32, len(pp.Location)+1) // by location id, +1 (0: not yet)
	var locFrames [][]int32
	framesOf := func(loc *pprofile.Location) int32 {
		if loc.ID < uint64(len(byID)) && byID[loc.ID] > 0 {
			return byID[loc.ID] - 1
		}
		if i, ok := locIndex[loc]; ok {
			return i
		}
		lines := loc.Line
		if len(lines) == 0 {
			lines = []pprofile.Line{{Function: &pprofile.Function{Name: fmt.Sprintf("0x%x", loc.Address)}}}
		}
		fs := make([]int32, 0, len(lines))
		for k := len(lines) - 1; k >= 0; k-- {
			fs = append(fs, frameOf(lines[k]))
		}
		i := int32(len(locFrames))
		locFrames = append(locFrames, fs)
		if loc.ID < uint64(len(byID)) && byID[loc.ID] == 0 {
			byID[loc.ID] = i + 1
		} else {
			locIndex[loc] = i // ids beyond the count, or repeated
		}
		return i
	}
	type step struct{ node, loc int32 }
	leadsTo := map[step]int32{}
	p.Samples = make([]Sample, 0, len(pp.Sample))
	var sampled int64
	// Go locations carry the line each sample was on: line ticks per node.
	lineCounts := map[[2]int32]int32{}
	for si, s := range pp.Sample {
		if w.index >= len(s.Value) {
			return nil, fmt.Errorf("sample %d has %d values, fewer than its %d sample types", si, len(s.Value), len(pp.SampleType))
		}
		v := s.Value[w.index]
		if v < 0 {
			return nil, fmt.Errorf("sample %d has a negative value %d (a difference of profiles? profdiff compares the originals)", si, v)
		}
		if v > 1<<62/max(w.scale, 1) {
			return nil, fmt.Errorf("sample %d has a value %d beyond any real profile", si, v)
		}
		cur := int32(0)
		for li := len(s.Location) - 1; li >= 0; li-- {
			st := step{cur, framesOf(s.Location[li])}
			if next, ok := leadsTo[st]; ok {
				cur = next
				continue
			}
			for _, f := range locFrames[st.loc] {
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
		if !node && len(s.Location) > 0 && len(s.Location[0].Line) > 0 {
			if l := s.Location[0].Line[0].Line; l > 0 && l < 1<<31 {
				n := int32(1)
				if countIndex >= 0 && countIndex < len(s.Value) && s.Value[countIndex] > 0 && s.Value[countIndex] < 1<<20 {
					n = int32(s.Value[countIndex])
				}
				lineCounts[[2]int32{cur, int32(l)}] += n
			}
		}
		sampled += v * w.scale
		if countIndex >= 0 && countIndex < len(s.Value) {
			p.SampleCount += s.Value[countIndex]
		} else {
			p.SampleCount++
		}
	}
	p.Frames = in.frames
	p.LineTicks = appendLineTicks(p.LineTicks, lineCounts)
	if pp.PeriodType != nil && pp.Period > 0 {
		if u, ok := timeUnits[pp.PeriodType.Unit]; ok {
			p.IntervalNs = pp.Period * u
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
