package export

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	pprofile "github.com/google/pprof/profile"

	"github.com/profdiff/profdiff/analyze"
)

// WritePprof writes one side, or two as a pprof diff, as a gzipped
// profile.proto: sample types samples/count and cpu/nanoseconds, values per
// run (per unit of work when given), functions by original name, file and
// start line, each location at the line the samples recorded where the
// input has lines. With two sides the before side's values are negated
// and its samples labelled pprof::base=true, as pprof's own -diff_base
// does, so that `go tool pprof -http=: diff.pb.gz` shows the change. The
// profile passes CheckValid before it is written.
//
// What profdiff knows of each function travels in its location's
// mapping, which pprof keeps: the first mapping's file is "profdiff" (the
// File pprof's legend shows) and holds no locations; every other mapping
// holds the functions of one package with frames of one kind, its file
// the package ("path-to-regexp", "(gc)", "github.com/a/b") and its build
// ID the kind, flags and package (analyze.PprofFrameBuildID:
// "profdiff:code:path-to-regexp", "profdiff:gc:(gc)",
// "profdiff:code,go,gcmark:runtime"). Every mapping is marked as
// symbolized, so that pprof does not try to symbolize it. Garbage
// collection keeps its frames (V8's "(garbage collector)" in package
// "(gc)"; Go's runtime.gcBgMarkWorker and the like marked gcmark); (idle)
// and (program) are not written (values are on-CPU time). The runs' mean
// sampling interval is the period (cpu/nanoseconds), and one side's wall
// time per run (per unit of work) the duration; a diff has none.
// profdiff reading the file back restores packages, kinds and wall time,
// so a comparison of two exports finds what the comparison of their
// inputs found; what it cannot restore is a function's start column and
// the samples of idle time.
func WritePprof(w io.Writer, sides []Side) error {
	b := newPprofBuilder()
	for si, s := range sides {
		base := len(sides) == 2 && si == 0
		for _, r := range s.Runs {
			b.addRun(r, s.scale(), base)
		}
	}
	p := b.profile()
	if len(sides) == 1 {
		wall := 0.0
		for _, r := range sides[0].Runs {
			wall += float64(r.Table.Summary.WallNs)
		}
		p.DurationNanos = int64(math.Round(wall * sides[0].scale()))
	}
	if err := p.CheckValid(); err != nil {
		return fmt.Errorf("pprof export: %w", err)
	}
	return p.Write(w)
}

type pprofBuilder struct {
	p         *pprofile.Profile
	functions map[analyze.Key]*pprofile.Function
	mappings  map[[2]string]*pprofile.Mapping // by package and build ID
	locations map[[2]any]*pprofile.Location
	samples   map[string]*pprofSample
	order     []string
	// intervals sums the runs' mean sampling intervals, of runs runs.
	intervals, runs int64
}

type pprofSample struct {
	locs          []*pprofile.Location
	count, weight float64
	base          bool
}

func newPprofBuilder() *pprofBuilder {
	return &pprofBuilder{
		p: &pprofile.Profile{
			SampleType:        []*pprofile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
			DefaultSampleType: "cpu",
			PeriodType:        &pprofile.ValueType{Type: "cpu", Unit: "nanoseconds"},
			Mapping: []*pprofile.Mapping{{ID: 1, File: "profdiff", HasFunctions: true, HasFilenames: true,
				HasLineNumbers: true, HasInlineFrames: true}},
		},
		functions: map[analyze.Key]*pprofile.Function{},
		mappings:  map[[2]string]*pprofile.Mapping{},
		locations: map[[2]any]*pprofile.Location{},
		samples:   map[string]*pprofSample{},
	}
}

func (b *pprofBuilder) function(k analyze.Key) *pprofile.Function {
	f := b.functions[k]
	if f == nil {
		n := name(k)
		// SystemName stays empty: pprof demangles a function whose system
		// name equals its name as if it were C++, which turns V8's
		// "RegExp: ^(?:\/users..." frames into one "RegExp: ^$".
		f = &pprofile.Function{ID: uint64(len(b.p.Function) + 1), Name: n, Filename: k.File, StartLine: int64(k.Line)}
		b.functions[k] = f
		b.p.Function = append(b.p.Function, f)
	}
	return f
}

// mapping returns the mapping of package pkg's functions with frames like
// f (see WritePprof).
func (b *pprofBuilder) mapping(pkg string, f *analyze.Frame) *pprofile.Mapping {
	mk := [2]string{pkg, analyze.PprofFrameBuildID(pkg, f)}
	m := b.mappings[mk]
	if m == nil {
		m = &pprofile.Mapping{ID: uint64(len(b.p.Mapping) + 1), File: mk[0], BuildID: mk[1], HasFunctions: true,
			HasFilenames: true, HasLineNumbers: true, HasInlineFrames: true}
		b.mappings[mk] = m
		b.p.Mapping = append(b.p.Mapping, m)
	}
	return m
}

// location returns the location of function k at a line (its start line
// when 0), f being a frame of the function.
func (b *pprofBuilder) location(k analyze.Key, line int32, f *analyze.Frame) *pprofile.Location {
	if line <= 0 {
		line = k.Line
	}
	lk := [2]any{k, line}
	l := b.locations[lk]
	if l == nil {
		id := uint64(len(b.p.Location) + 1)
		l = &pprofile.Location{ID: id, Mapping: b.mapping(k.Package, f), Address: id,
			Line: []pprofile.Line{{Function: b.function(k), Line: int64(line)}}}
		b.locations[lk] = l
		b.p.Location = append(b.p.Location, l)
	}
	return l
}

func (b *pprofBuilder) addRun(r Run, scale float64, base bool) {
	lines := nodeLines(r.Profile)
	fns := r.Table.Functions
	b.intervals += r.Table.Summary.IntervalNs
	b.runs++
	// A frame of each function row, for its kind.
	frameOf := make([]int32, len(fns))
	for i := range frameOf {
		frameOf[i] = -1
	}
	for n, fn := range r.Table.NodeFunctions {
		if fn >= 0 && frameOf[fn] < 0 {
			frameOf[fn] = r.Profile.Nodes[n].Frame
		}
	}
	// The run's locations by function row and line, so that a frame
	// costs no hashing of its key's strings.
	locOf := map[uint64]*pprofile.Location{}
	location := func(fn, line int32) *pprofile.Location {
		k := uint64(uint32(fn))<<32 | uint64(uint32(line))
		l := locOf[k]
		if l == nil {
			l = b.location(fns[fn].Key, line, &r.Profile.Frames[frameOf[fn]])
			locOf[k] = l
		}
		return l
	}
	add := func(stack []int32, leafLine int32, count, weight float64) {
		// Samples merge by their locations, across runs.
		locs := make([]*pprofile.Location, len(stack))
		for i, fn := range stack {
			line := int32(0)
			if i == len(stack)-1 {
				line = leafLine
			}
			locs[len(stack)-1-i] = location(fn, line) // pprof lists the leaf first
		}
		var lk strings.Builder
		if base {
			lk.WriteString("b")
		}
		for _, l := range locs {
			lk.WriteString(strconv.FormatUint(l.ID, 10))
			lk.WriteByte(',')
		}
		s := b.samples[lk.String()]
		if s == nil {
			s = &pprofSample{locs: locs, base: base}
			b.samples[lk.String()] = s
			b.order = append(b.order, lk.String())
		}
		s.count += count * scale
		s.weight += weight * scale
	}
	r.nodeStacks(func(node int32, stack []int32, samples int, weight int64) {
		if ls := lines[node]; len(ls) > 0 {
			for _, l := range ls {
				add(stack, l.line, float64(samples)*l.share, float64(weight)*l.share)
			}
			return
		}
		add(stack, 0, float64(samples), float64(weight))
	})
}

func (b *pprofBuilder) profile() *pprofile.Profile {
	p := b.p
	if b.runs > 0 {
		p.Period = int64(math.Round(float64(b.intervals) / float64(b.runs)))
	}
	for _, k := range b.order {
		s := b.samples[k]
		sign := 1.0
		if s.base {
			sign = -1
		}
		ps := &pprofile.Sample{Location: s.locs, Value: []int64{int64(math.Round(sign * s.count)), int64(math.Round(sign * s.weight))}}
		if s.base {
			ps.Label = map[string][]string{"pprof::base": {"true"}}
		}
		p.Sample = append(p.Sample, ps)
	}
	p.Sample = slices.DeleteFunc(p.Sample, func(s *pprofile.Sample) bool { return s.Value[0] == 0 && s.Value[1] == 0 })
	return p
}
