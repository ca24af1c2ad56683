package diff

import (
	"encoding/json"
	"io"
	"math"

	"github.com/profdiff/profdiff/analyze"
)

// JSONVersion is the version of the JSON shape WriteJSON writes.
const JSONVersion = 1

type jsonReport struct {
	Version   int           `json:"version"`
	Sides     []jsonSide    `json:"sides"`
	Packages  []jsonPackage `json:"packages"`
	Functions []jsonFunc    `json:"functions"`
	Files     []jsonFile    `json:"files"`
	Warnings  []string      `json:"warnings"`
	// Headline and Rules are present when two sides are compared.
	Headline *jsonHeadline `json:"headline,omitempty"`
	Rules    []jsonRule    `json:"rules,omitempty"`
	// Symbolication adds up the sides' source-map coverage; absent when
	// maps were not applied.
	Symbolication *jsonSymbolication `json:"symbolication,omitempty"`
}

type jsonSymbolication struct {
	Scripts       int      `json:"scripts"`
	MappedScripts int      `json:"mapped_scripts"`
	Missing       []string `json:"missing"`
	OnCPUJSNs     int64    `json:"on_cpu_js_ns"`
	OnCPUMappedNs int64    `json:"on_cpu_mapped_ns"`
}

func symbolicationJSON(s *analyze.Symbolication) *jsonSymbolication {
	if s == nil {
		return nil
	}
	return &jsonSymbolication{Scripts: s.Scripts, MappedScripts: s.MappedScripts, Missing: append([]string{}, s.Missing...),
		OnCPUJSNs: s.OnCPUJSNs, OnCPUMappedNs: s.OnCPUMappedNs}
}

// jsonSide is a side's headline; with several runs, each number is the
// mean per run.
type jsonSide struct {
	Name       string   `json:"name"`
	Files      []string `json:"files"`
	Runs       int      `json:"runs"`
	Format     string   `json:"format"`
	Threads    []string `json:"threads,omitempty"`
	SampleType string   `json:"sample_type,omitempty"`
	// Symbolication is this side's source-map coverage.
	Symbolication *jsonSymbolication `json:"symbolication,omitempty"`
	WallNs        int64              `json:"wall_ns"`
	SampledNs     int64              `json:"sampled_ns"`
	OnCPUNs       int64              `json:"on_cpu_ns"`
	IdleNs        int64              `json:"idle_ns"`
	ProgramNs     int64              `json:"program_ns"`
	GCNs          int64              `json:"gc_ns"`
	Samples       int64              `json:"samples"`
	IntervalNs    int64              `json:"interval_ns"`
}

type jsonPackage struct {
	Package string  `json:"package"`
	Self    []int64 `json:"self_ns"`
	Total   []int64 `json:"total_ns"`
	*jsonChange
}

type jsonFunc struct {
	Function string  `json:"function"`
	File     string  `json:"file"`
	Line     int32   `json:"line"`
	Column   int32   `json:"column"`
	Package  string  `json:"package"`
	Self     []int64 `json:"self_ns"`
	Total    []int64 `json:"total_ns"`
	*jsonChange
}

type jsonFile struct {
	File    string  `json:"file"`
	Package string  `json:"package"`
	Self    []int64 `json:"self_ns"`
	Total   []int64 `json:"total_ns"`
	*jsonChange
}

// jsonChange is a row's comparison: of self time, or of total time with
// --sort total (then the delta fields are named delta_total_*).
type jsonChange struct {
	DeltaSelfNs   *float64 `json:"delta_self_ns,omitempty"`
	DeltaSelfPP   *float64 `json:"delta_self_pp,omitempty"`
	DeltaSelfPct  *float64 `json:"delta_self_pct,omitempty"`
	DeltaTotalNs  *float64 `json:"delta_total_ns,omitempty"`
	DeltaTotalPP  *float64 `json:"delta_total_pp,omitempty"`
	DeltaTotalPct *float64 `json:"delta_total_pct,omitempty"`
	Verdict       string   `json:"verdict"`
	P             *float64 `json:"p"`
}

type jsonHeadline struct {
	// OnCPUNs is on-CPU time per run on each side.
	OnCPUNs  []int64        `json:"on_cpu_ns"`
	OnCPU    jsonHeadChange `json:"on_cpu"`
	PerWork  *jsonPerWork   `json:"per_work_ns,omitempty"`
	WorkUnit string         `json:"work_unit,omitempty"`
	Work     []float64      `json:"work,omitempty"`
	Busy     []float64      `json:"busy"`
	GCShare  []float64      `json:"gc_share"`
}

type jsonHeadChange struct {
	DeltaNs  float64  `json:"delta_ns"`
	DeltaPct *float64 `json:"delta_pct"`
	Verdict  string   `json:"verdict"`
	P        *float64 `json:"p"`
}

type jsonPerWork struct {
	Values []float64 `json:"values"`
	jsonHeadChange
}

type jsonRule struct {
	Rule      string   `json:"rule"`
	Broken    bool     `json:"broken"`
	Offenders []string `json:"offenders"`
}

// num turns NaN into JSON null.
func num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func changeJSON(r *Report, c Change) *jsonChange {
	if !r.Compared() {
		return nil
	}
	j := &jsonChange{Verdict: c.Verdict.String(), P: num(c.P)}
	if r.Options.SortTotal {
		j.DeltaTotalNs, j.DeltaTotalPP, j.DeltaTotalPct = num(c.Delta), num(c.DeltaPP), num(c.DeltaPct)
	} else {
		j.DeltaSelfNs, j.DeltaSelfPP, j.DeltaSelfPct = num(c.Delta), num(c.DeltaPP), num(c.DeltaPct)
	}
	return j
}

func headChange(c Change) jsonHeadChange {
	return jsonHeadChange{DeltaNs: c.Delta, DeltaPct: num(c.DeltaPct), Verdict: c.Verdict.String(), P: num(c.P)}
}

func headlineJSON(r *Report) *jsonHeadline {
	if !r.Compared() {
		return nil
	}
	h := &jsonHeadline{OnCPU: headChange(r.Headline.OnCPU)}
	for _, s := range r.Sides {
		h.OnCPUNs = append(h.OnCPUNs, s.OnCPUNs)
		h.Busy = append(h.Busy, s.Busy())
		h.GCShare = append(h.GCShare, s.GCShare())
	}
	if r.Headline.PerWork.Verdict != VerdictNone {
		pw := &jsonPerWork{jsonHeadChange: headChange(r.Headline.PerWork)}
		for _, s := range r.Sides {
			pw.Values = append(pw.Values, s.OnCPUPerWork())
			h.Work = append(h.Work, s.Work)
		}
		h.PerWork, h.WorkUnit = pw, r.Options.WorkUnit
	}
	return h
}

// WriteJSON writes the whole report (every row, not only the top) as JSON,
// version 1: times in nanoseconds, one number per side.
func WriteJSON(w io.Writer, r *Report) error {
	out := jsonReport{
		Version:   JSONVersion,
		Sides:     []jsonSide{},
		Packages:  []jsonPackage{},
		Functions: []jsonFunc{},
		Files:     []jsonFile{},
		Warnings:  append([]string{}, r.Warnings...),
	}
	var all *analyze.Symbolication
	for _, s := range r.Sides {
		out.Sides = append(out.Sides, jsonSide{
			Name: s.Name, Files: s.Files, Runs: s.Runs, Format: s.Format.String(), Threads: s.Threads, SampleType: s.SampleType,
			WallNs: s.WallNs, SampledNs: s.SampledNs, OnCPUNs: s.OnCPUNs, IdleNs: s.IdleNs,
			ProgramNs: s.ProgramNs, GCNs: s.GCNs, Samples: s.Samples, IntervalNs: s.IntervalNs,
			Symbolication: symbolicationJSON(s.Symbolication),
		})
		if s.Symbolication != nil {
			if all == nil {
				all = &analyze.Symbolication{}
			}
			all.Add(s.Symbolication)
		}
	}
	out.Symbolication = symbolicationJSON(all)
	for _, row := range r.Packages {
		out.Packages = append(out.Packages, jsonPackage{Package: row.Key.Package, Self: row.Self, Total: row.Total, jsonChange: changeJSON(r, row.Change)})
	}
	for _, row := range r.Functions {
		out.Functions = append(out.Functions, jsonFunc{
			Function: FunctionName(row.Key), File: row.Key.File, Line: row.Key.Line, Column: row.Key.Column,
			Package: row.Key.Package, Self: row.Self, Total: row.Total, jsonChange: changeJSON(r, row.Change),
		})
	}
	for _, row := range r.Files {
		out.Files = append(out.Files, jsonFile{File: row.Key.File, Package: row.Key.Package, Self: row.Self, Total: row.Total, jsonChange: changeJSON(r, row.Change)})
	}
	out.Headline = headlineJSON(r)
	for _, res := range r.Rules {
		out.Rules = append(out.Rules, jsonRule{Rule: res.Rule.Text, Broken: res.Broken, Offenders: append([]string{}, res.Offenders...)})
	}
	compact, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = w.Write(append(indentJSON(make([]byte, 0, 2*len(compact)), compact), '\n'))
	return err
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

// FunctionName returns a function key's display name: "(anonymous)" for a
// function without one.
func FunctionName(k analyze.Key) string {
	if k.Function == "" {
		return "(anonymous)"
	}
	return k.Function
}
