// Package diff builds profdiff's report over one or more sides (a single
// profile is a comparison with one side) and renders it as text or JSON.
// The computation never prints; the renderers only read its result.
package diff

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/profdiff/profdiff/analyze"
)

// Side is one side of a comparison: one profile, or several runs of the same
// workload.
type Side struct {
	Name   string
	Tables []*analyze.Table // one per run
}

// SideSummary is a side's headline: its runs' summaries added up.
type SideSummary struct {
	Name    string
	Files   []string
	Format  analyze.Format
	Threads []string // for traces: the thread each run was taken from
	// SampleType is the pprof sample type the time was taken from.
	SampleType string
	// Symbolication is the side's source-map coverage, nil when maps were
	// not applied.
	Symbolication *analyze.Symbolication
	Runs          int
	analyze.Summary
}

// Row is one key's self and total time, one number per side, in nanoseconds.
type Row struct {
	Key   analyze.Key
	Self  []int64
	Total []int64
}

// Report is what the renderers write: the sides' headlines and the rows by
// package, function and file.
type Report struct {
	Sides     []SideSummary
	Packages  []Row
	Functions []Row
	Files     []Row
	Warnings  []string
}

// Compare builds the report for the given sides. Each side's runs are summed.
func Compare(sides []Side) (*Report, error) {
	if len(sides) == 0 {
		return nil, fmt.Errorf("nothing to report: no sides")
	}
	r := &Report{}
	for _, s := range sides {
		if len(s.Tables) == 0 {
			return nil, fmt.Errorf("side %s has no profiles", s.Name)
		}
		sum := SideSummary{Name: s.Name, Runs: len(s.Tables), Format: s.Tables[0].Format, SampleType: s.Tables[0].SampleType}
		for _, t := range s.Tables {
			sum.Files = append(sum.Files, t.File)
			if t.Thread != "" {
				sum.Threads = append(sum.Threads, t.Thread)
			}
			add(&sum.Summary, t.Summary)
			if t.Symbolication != nil {
				if sum.Symbolication == nil {
					sum.Symbolication = &analyze.Symbolication{}
				}
				sum.Symbolication.Add(t.Symbolication)
			}
			r.Warnings = append(r.Warnings, prefixed(t.File, t.Warnings)...)
		}
		if sum.Samples > 0 {
			// The mean interval of the side is over all its samples.
			var weighted int64
			for _, t := range s.Tables {
				weighted += t.Summary.IntervalNs * t.Summary.Samples
			}
			sum.IntervalNs = weighted / sum.Samples
		}
		r.Sides = append(r.Sides, sum)
	}
	n := len(sides)
	r.Packages = join(sides, n, func(t *analyze.Table) []analyze.Row { return t.Packages })
	r.Functions = join(sides, n, func(t *analyze.Table) []analyze.Row { return t.Functions })
	r.Files = join(sides, n, func(t *analyze.Table) []analyze.Row { return t.Files })
	return r, nil
}

func add(dst *analyze.Summary, s analyze.Summary) {
	dst.WallNs += s.WallNs
	dst.SampledNs += s.SampledNs
	dst.OnCPUNs += s.OnCPUNs
	dst.IdleNs += s.IdleNs
	dst.ProgramNs += s.ProgramNs
	dst.GCNs += s.GCNs
	dst.Samples += s.Samples
}

func prefixed(file string, ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = file + ": " + w
	}
	return out
}

// join sums each side's runs and lines the sides up by key, sorted by the
// last side's self time, then total time, then key.
func join(sides []Side, n int, rowsOf func(*analyze.Table) []analyze.Row) []Row {
	index := map[analyze.Key]int{}
	var out []Row
	for si, s := range sides {
		for _, t := range s.Tables {
			for _, r := range rowsOf(t) {
				i, ok := index[r.Key]
				if !ok {
					i = len(out)
					index[r.Key] = i
					out = append(out, Row{Key: r.Key, Self: make([]int64, n), Total: make([]int64, n)})
				}
				out[i].Self[si] += r.Self
				out[i].Total[si] += r.Total
			}
		}
	}
	last := n - 1
	slices.SortFunc(out, func(a, b Row) int {
		if c := cmp.Compare(b.Self[last], a.Self[last]); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Total[last], a.Total[last]); c != 0 {
			return c
		}
		return analyze.CompareKeys(a.Key, b.Key)
	})
	return out
}

// ByTotal returns a copy of rows sorted by the last side's total time, then
// self time, then key.
func ByTotal(rows []Row) []Row {
	out := slices.Clone(rows)
	slices.SortFunc(out, func(a, b Row) int {
		last := len(a.Total) - 1
		if c := cmp.Compare(b.Total[last], a.Total[last]); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Self[last], a.Self[last]); c != 0 {
			return c
		}
		return analyze.CompareKeys(a.Key, b.Key)
	})
	return out
}
