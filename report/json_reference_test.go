package report

// This file keeps, as the reference the streaming WriteJSON is held to,
// the JSON writer as it was before it streamed: the report built as a tree
// of structs (whose field comments are the schema), json.Marshal'ed,
// EscapeJSON'ed and indented. TestWriteJSONMatchesReference compares the
// two byte for byte. Its indentJSON (held to json.Indent by
// TestIndentJSONMatchesEncoding) and strs are used by other tests too.

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
)

type refJSONReport struct {
	Version int `json:"version"`
	// Unit says what the nanoseconds of rows, calls, paths and the
	// headline's per-work measure are: "ns per run" or "ns per <unit>".
	Unit     string `json:"unit"`
	WorkUnit string `json:"work_unit,omitempty"`
	// Narrowing lists the filters and window applied to every run.
	Narrowing []string      `json:"narrowing,omitempty"`
	Sides     []refJSONSide `json:"sides"`
	Base      string        `json:"base,omitempty"`
	// Correction is "splits" or "holm" with two sides or more.
	Correction string          `json:"correction,omitempty"`
	Splits     int             `json:"splits,omitempty"`
	Headline   refJSONHeadline `json:"headline"`
	// Responsiveness: absent when a run records no sample times.
	Responsiveness *refJSONResponsiveness `json:"responsiveness,omitempty"`
	Paths          []refJSONPath          `json:"paths"`
	PathsNs        *float64               `json:"paths_delta_ns,omitempty"`
	PathsPct       *float64               `json:"paths_share_pct,omitempty"`
	Packages       []refJSONPackage       `json:"packages"`
	Functions      []refJSONFunc          `json:"functions"`
	Files          []refJSONFile          `json:"files"`
	Calls          []refJSONCall          `json:"calls"`
	Rules          []refJSONRule          `json:"rules,omitempty"`
	Warnings       []string               `json:"warnings"`
	// Symbolication adds up the sides' source-map coverage (per run);
	// absent when maps were not applied.
	Symbolication *refJSONSymbolication `json:"symbolication,omitempty"`
}

type refJSONSymbolication struct {
	Scripts       int      `json:"scripts"`
	MappedScripts int      `json:"mapped_scripts"`
	Missing       []string `json:"missing"`
	OnCPUJSNs     int64    `json:"on_cpu_js_ns"`
	OnCPUMappedNs int64    `json:"on_cpu_mapped_ns"`
	// Minified are the scripts without a map that look minified, and
	// UnmappedMinifiedNs their on-CPU time.
	Minified           []string `json:"minified,omitempty"`
	UnmappedMinifiedNs int64    `json:"unmapped_minified_ns,omitempty"`
}

func refSymbolicationJSON(s *analyze.Symbolication) *refJSONSymbolication {
	if s == nil {
		return nil
	}
	return &refJSONSymbolication{Scripts: s.Scripts, MappedScripts: s.MappedScripts, Missing: append([]string{}, s.Missing...),
		OnCPUJSNs: s.OnCPUJSNs, OnCPUMappedNs: s.OnCPUMappedNs, Minified: s.Minified, UnmappedMinifiedNs: s.UnmappedMinifiedNs}
}

// refJSONSide is a side's headline; with several runs, each number is the
// mean per run.
type refJSONSide struct {
	Name   string   `json:"name"`
	Files  []string `json:"files"`
	Runs   int      `json:"runs"`
	Work   float64  `json:"work,omitempty"`
	Format string   `json:"format"`
	// Root is the directory the side's files are matched and named below.
	Root       string   `json:"root,omitempty"`
	Threads    []string `json:"threads,omitempty"`
	SampleType string   `json:"sample_type,omitempty"`
	// Symbolication is this side's source-map coverage, per run.
	Symbolication *refJSONSymbolication `json:"symbolication,omitempty"`
	WallNs        int64                 `json:"wall_ns"`
	SampledNs     int64                 `json:"sampled_ns"`
	OnCPUNs       int64                 `json:"on_cpu_ns"`
	IdleNs        int64                 `json:"idle_ns"`
	ProgramNs     int64                 `json:"program_ns"`
	GCNs          int64                 `json:"gc_ns"`
	Samples       int64                 `json:"samples"`
	IntervalNs    int64                 `json:"interval_ns"`
	// NarrowedFromNs is the on-CPU time per run before narrowing.
	NarrowedFromNs int64 `json:"narrowed_from_on_cpu_ns,omitempty"`
}

// refJSONMeasure is a Measure: one entry per side; the change fields only
// when two sides are compared.
type refJSONMeasure struct {
	Ns       []float64   `json:"ns"`
	RunsNs   [][]float64 `json:"runs_ns"`
	SpreadNs []*float64  `json:"spread_ns"`
	DeltaNs  *float64    `json:"delta_ns,omitempty"`
	// DeltaPP is null where a share has no meaning (on-CPU itself).
	DeltaPP *refJSONNullable `json:"delta_pp,omitempty"`
	// DeltaPct is null when before is 0; present (maybe null) with two sides.
	DeltaPct *refJSONNullable `json:"delta_pct,omitempty"`
	Verdict  string           `json:"verdict,omitempty"`
	P        *refJSONNullable `json:"p,omitempty"`
	// RunsNeeded: for a change past the minimum effect that the test
	// cannot settle, about how many runs a side would.
	RunsNeeded int32           `json:"runs_needed,omitempty"`
	VsBase     []refJSONChange `json:"vs_base,omitempty"`
}

// refJSONChange is one side's change against the base.
type refJSONChange struct {
	Side     string          `json:"side"`
	DeltaNs  *float64        `json:"delta_ns,omitempty"`
	DeltaPP  refJSONNullable `json:"delta_pp"`
	DeltaPct refJSONNullable `json:"delta_pct"`
	Verdict  string          `json:"verdict"`
	P        refJSONNullable `json:"p"`
	// RunsNeeded as in refJSONMeasure.
	RunsNeeded int32 `json:"runs_needed,omitempty"`
}

// refJSONNullable writes a number or null, for fields present with two
// sides whatever their value.
type refJSONNullable struct{ v *float64 }

func (n *refJSONNullable) MarshalJSON() ([]byte, error) { return json.Marshal(n.v) }

type refJSONPackage struct {
	Package string         `json:"package"`
	Self    refJSONMeasure `json:"self"`
	Total   refJSONMeasure `json:"total"`
}

type refJSONFunc struct {
	Function string `json:"function"`
	// Renamed is the after side's name of a minified function renamed
	// between builds at the same position.
	Renamed string `json:"renamed,omitempty"`
	// Aliases are other names recorded at the function's position.
	Aliases []string       `json:"aliases,omitempty"`
	File    string         `json:"file"`
	Line    int32          `json:"line"`
	Column  int32          `json:"column"`
	Package string         `json:"package"`
	Self    refJSONMeasure `json:"self"`
	Total   refJSONMeasure `json:"total"`
}

type refJSONFile struct {
	File    string         `json:"file"`
	Package string         `json:"package"`
	Self    refJSONMeasure `json:"self"`
	Total   refJSONMeasure `json:"total"`
}

// refJSONCall is a caller -> callee edge; caller and callee index functions.
type refJSONCall struct {
	Caller int32          `json:"caller"`
	Callee int32          `json:"callee"`
	Total  refJSONMeasure `json:"total"`
}

type refJSONHeadline struct {
	OnCPU   refJSONMeasure  `json:"on_cpu"`
	PerWork *refJSONMeasure `json:"per_work,omitempty"`
	// ProcessCPU: each run's process CPU time (record.json), when both
	// sides of a pair carry it.
	ProcessCPU *refJSONMeasure `json:"process_cpu,omitempty"`
	// Basis: the measure the headline's verdict is from (with two sides).
	Basis   string    `json:"basis,omitempty"`
	Busy    []float64 `json:"busy"`
	GCShare []float64 `json:"gc_share"`
	// RunsNeeded: runs per side that would settle a change one run cannot.
	RunsNeeded   int             `json:"runs_needed,omitempty"`
	RobustSpread []*float64      `json:"robust_spread_ns"`
	Spreads      []refJSONSpread `json:"spread_vs_base,omitempty"`
}

type refJSONSpread struct {
	Side    string   `json:"side"`
	Ratio   *float64 `json:"ratio"`
	P       *float64 `json:"p"`
	Verdict string   `json:"verdict"`
	Why     string   `json:"why_untested,omitempty"`
}

type refJSONStep struct {
	Function string         `json:"function"`
	Package  string         `json:"package"`
	File     string         `json:"file"`
	Line     int32          `json:"line"`
	Column   int32          `json:"column"`
	Index    int32          `json:"function_index"`
	Self     refJSONMeasure `json:"self"`
	Total    refJSONMeasure `json:"total"`
}

type refJSONPath struct {
	Steps     []refJSONStep     `json:"steps"`
	End       string            `json:"end"`
	Elsewhere *refJSONElsewhere `json:"elsewhere,omitempty"`
	DeltaNs   float64           `json:"delta_ns"`
	SharePct  *float64          `json:"share_pct"`
	Text      string            `json:"text"`
}

type refJSONElsewhere struct {
	Functions    []string `json:"functions"`
	TotalDeltaNs float64  `json:"total_delta_ns"`
}

type refJSONRule struct {
	Rule      string   `json:"rule"`
	Broken    bool     `json:"broken"`
	Offenders []string `json:"offenders"`
}

// refNum turns NaN into JSON null.
func refNum(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func refMeasureJSON(r *diff.Report, m *diff.Measure) refJSONMeasure {
	j := refJSONMeasure{Ns: m.Mean, RunsNs: m.Runs, SpreadNs: make([]*float64, len(m.Runs))}
	for i := range m.Runs {
		j.SpreadNs[i] = refNum(m.Spread(i))
	}
	if layoutOf(r) == LayoutPair {
		c := m.Change
		j.DeltaNs, j.DeltaPP = refNum(c.Delta), &refJSONNullable{refNum(c.DeltaPP)}
		j.DeltaPct, j.P = &refJSONNullable{refNum(c.DeltaPct)}, &refJSONNullable{refNum(c.P)}
		j.Verdict = c.Verdict.String()
		j.RunsNeeded = int32(c.RunsNeeded)
	}
	for _, c := range m.Changes() {
		j.VsBase = append(j.VsBase, refJSONChange{Side: r.Sides[c.Side].Name, DeltaNs: refNum(c.Delta), DeltaPP: refJSONNullable{refNum(c.DeltaPP)},
			DeltaPct: refJSONNullable{refNum(c.DeltaPct)}, Verdict: c.Verdict.String(), P: refJSONNullable{refNum(c.P)}, RunsNeeded: int32(c.RunsNeeded)})
	}
	return j
}

// writeJSONReference writes the whole report (every row, not only the top) as JSON,
// version 2 (see docs/json.md for the schema).
func writeJSONReference(w io.Writer, r *diff.Report) error {
	v := NewView(r)
	out := refJSONReport{
		Version:   JSONVersion,
		Unit:      "ns " + v.Per(),
		Narrowing: r.Options.Narrowing,
		Sides:     []refJSONSide{},
		Paths:     []refJSONPath{},
		Packages:  make([]refJSONPackage, 0, len(r.Packages)),
		Functions: make([]refJSONFunc, 0, len(r.Functions)),
		Files:     make([]refJSONFile, 0, len(r.Files)),
		Calls:     []refJSONCall{},
		Warnings:  strs(r.Warnings),
	}
	if r.PerWork {
		out.WorkUnit = r.Options.WorkUnit
	}
	out.addSides(r)
	if len(r.Sides) > 1 {
		out.Base = r.Sides[r.Base].Name
		out.Correction = "holm"
		if r.Splits > 0 {
			out.Correction, out.Splits = "splits", r.Splits
		}
	}
	out.Headline.OnCPU = refMeasureJSON(r, &r.Headline.OnCPU)
	if r.PerWork {
		pw := refMeasureJSON(r, &r.Headline.PerWork)
		out.Headline.PerWork = &pw
	}
	if r.Headline.Basis == diff.BasisProcess {
		pc := refMeasureJSON(r, &r.Headline.ProcessCPU)
		out.Headline.ProcessCPU = &pc
	}
	if layoutOf(r) == LayoutPair {
		out.Headline.Basis = r.Headline.Basis.String()
	}
	out.Headline.RunsNeeded = r.Headline.RunsNeeded
	out.Responsiveness = refResponsivenessJSON(r)
	out.Headline.RobustSpread = []*float64{}
	for _, v := range r.Headline.RobustSpread {
		out.Headline.RobustSpread = append(out.Headline.RobustSpread, refNum(v))
	}
	for _, sc := range r.Headline.Spreads {
		out.Headline.Spreads = append(out.Headline.Spreads, refJSONSpread{Side: r.Sides[sc.Side].Name, Ratio: refNum(sc.Ratio), P: refNum(sc.P), Verdict: sc.Verdict.String(), Why: sc.Why})
	}
	out.addRows(r)
	out.addPaths(r, v)
	for _, res := range r.Rules {
		out.Rules = append(out.Rules, refJSONRule{Rule: res.Rule.Text, Broken: res.Broken, Offenders: append([]string{}, v.Offenders(res)...)})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	b = EscapeJSON(b) // unchanged by the rewrite: the reference uses it as it is
	_, err = w.Write(append(indentJSON(make([]byte, 0, 2*len(b)), b), '\n'))
	return err
}

// addSides adds each side's summary, the busy and GC shares of the
// headline and the symbolication counts of all sides together.
func (j *refJSONReport) addSides(r *diff.Report) {
	for _, s := range r.Sides {
		j.Sides = append(j.Sides, refJSONSide{
			Name: s.Name, Files: s.Files, Runs: s.Runs, Work: s.Work, Format: s.Format.String(), Root: s.Root, Threads: strs(s.Threads), SampleType: s.SampleType,
			WallNs: s.WallNs, SampledNs: s.SampledNs, OnCPUNs: s.OnCPUNs, IdleNs: s.IdleNs,
			ProgramNs: s.ProgramNs, GCNs: s.GCNs, Samples: s.Samples, IntervalNs: s.IntervalNs,
			Symbolication: refSymbolicationJSON(s.Symbolication), NarrowedFromNs: s.NarrowedFromNs,
		})
		j.Headline.Busy = append(j.Headline.Busy, s.Busy())
		j.Headline.GCShare = append(j.Headline.GCShare, s.GCShare())
	}
	var all *analyze.Symbolication
	for _, s := range r.Sides {
		if s.Symbolication != nil {
			if all == nil {
				all = &analyze.Symbolication{}
			}
			all.Add(s.Symbolication)
		}
	}
	j.Symbolication = refSymbolicationJSON(all)
}

// addRows adds every package, function and file row, and the calls (those
// past MaxJSONCalls only when judged real).
func (j *refJSONReport) addRows(r *diff.Report) {
	for i := range r.Packages {
		row := &r.Packages[i]
		j.Packages = append(j.Packages, refJSONPackage{Package: row.Key.Package, Self: refMeasureJSON(r, &row.Self), Total: refMeasureJSON(r, &row.Total)})
	}
	for i := range r.Functions {
		row := &r.Functions[i]
		k := row.Key
		j.Functions = append(j.Functions, refJSONFunc{Function: diff.FunctionName(k), Renamed: row.Renamed, Aliases: row.Aliases, File: k.File, Line: k.Line, Column: k.Column, Package: k.Package,
			Self: refMeasureJSON(r, &row.Self), Total: refMeasureJSON(r, &row.Total)})
	}
	for i := range r.Files {
		row := &r.Files[i]
		j.Files = append(j.Files, refJSONFile{File: row.Key.File, Package: row.Key.Package, Self: refMeasureJSON(r, &row.Self), Total: refMeasureJSON(r, &row.Total)})
	}
	for i := range r.Calls {
		c := &r.Calls[i]
		if i >= MaxJSONCalls && !c.Total.Change.Verdict.Real() {
			continue
		}
		j.Calls = append(j.Calls, refJSONCall{Caller: c.Caller, Callee: c.Callee, Total: refMeasureJSON(r, &c.Total)})
	}
}

// addPaths adds the call paths that carry the change, step by step, and
// what share of the change they cover.
func (j *refJSONReport) addPaths(r *diff.Report, v *View) {
	onDelta := r.OnCPU(len(r.Sides)-1) - r.OnCPU(0)
	for _, p := range r.Paths {
		jp := refJSONPath{End: p.End.String(), DeltaNs: p.Delta, SharePct: refNum(100 * p.Delta / onDelta), Text: v.PathText(p)}
		if p.Elsewhere >= 0 {
			var chain []string
			for n := p.Elsewhere; n > 0; n = r.Tree[n].Parent {
				chain = append([]string{diff.FunctionName(r.TreeFunction(n))}, chain...)
			}
			jp.Elsewhere = &refJSONElsewhere{Functions: chain, TotalDeltaNs: r.Tree[p.Elsewhere].Total.Change.Delta}
		}
		for _, n := range p.Nodes {
			t := &r.Tree[n]
			k := r.TreeFunction(n)
			jp.Steps = append(jp.Steps, refJSONStep{Function: diff.FunctionName(k), Package: k.Package, File: k.File, Line: k.Line, Column: k.Column, Index: t.Function,
				Self: refMeasureJSON(r, &t.Self), Total: refMeasureJSON(r, &t.Total)})
		}
		j.Paths = append(j.Paths, jp)
	}
	if layoutOf(r) == LayoutPair {
		j.PathsNs, j.PathsPct = refNum(r.PathsDelta), refNum(100*r.PathsDelta/onDelta)
	}
}

// indentJSON appends compact JSON (as json.Marshal writes it) to dst,
// indented by one space per level exactly as json.Indent(dst, src, "", " ")
// would, in one pass over the bytes rather than json.Indent's scanner.
func indentJSON(dst, src []byte) []byte {
	depth := 0
	needIndent := false // after '{' or '[': indent unless it closes at once
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if needIndent && c != '}' && c != ']' {
			needIndent = false
			depth++
			newline()
		}
		switch c {
		case '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			dst = append(dst, src[i:min(j+1, len(src))]...)
			i = j
		case '{', '[':
			needIndent = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if needIndent {
				needIndent = false
			} else {
				depth--
				newline()
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// strs returns each element's String, and an empty list (not null) for none.
func strs[T fmt.Stringer](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.String()
	}
	return out
}

// BenchmarkWriteJSONReference is BenchmarkWrite's json case through the
// reference writer, to compare the two in one run.
func BenchmarkWriteJSONReference(b *testing.B) {
	r := corpusReport(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := writeJSONReference(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}
}
