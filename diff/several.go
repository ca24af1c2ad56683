package diff

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/profdiff/profdiff/analyze"
)

// This file compares a base with several variants, as a user bisecting
// builds does: each variant is compared with the base as a pair, exactly as
// two sides are (rows, calls, call tree, paths, rules), with its p-values
// widened for the number of variants; the pairs' rows are then lined up by
// key into one table of all sides, each row carrying one judged change per
// variant (Measure.VsBase).

// compareSeveral builds the report of a base and its variants (see
// Report.Variants).
func compareSeveral(sides []Side, opts Options) (*Report, error) {
	base := opts.Base
	var variants []int
	for i := range sides {
		if i != base {
			variants = append(variants, i)
		}
	}
	r := &Report{Base: base, Options: opts.withDefaults()}
	r.PerWork = sides[0].Work > 0
	for _, s := range sides {
		sum, err := summarize(s)
		if err != nil {
			return nil, err
		}
		r.Sides = append(r.Sides, sum)
		if (s.Work > 0) != r.PerWork {
			// The pairs would then be in different units.
			return nil, fmt.Errorf("of the sides %s and %s, one gives its work per run and the other does not: give it for every side or none", sides[0].Name, s.Name)
		}
	}
	pairOpts := opts
	pairOpts.Base, pairOpts.families = 0, len(variants)
	r.pairs = make([]*Report, len(variants))
	errs := make([]error, len(variants))
	var wg sync.WaitGroup
	for k, v := range variants {
		wg.Go(func() {
			r.pairs[k], errs[k] = Compare([]Side{sides[base], sides[v]}, pairOpts)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	r.Splits = r.pairs[0].Splits
	for _, p := range r.pairs {
		r.Splits = min(r.Splits, p.Splits)
	}
	m := merger{sides: sides, base: base, variants: variants, pairs: r.pairs}
	r.Headline.OnCPU = m.measure(m.each(func(p *Report) *Measure { return &p.Headline.OnCPU }))
	if r.PerWork {
		r.Headline.PerWork = m.measure(m.each(func(p *Report) *Measure { return &p.Headline.PerWork }))
	}
	r.judgeSpread()
	r.Responsiveness = m.responsiveness()
	r.Resources = judgeResources(sides, base, opts.withDefaults())
	r.Packages = m.rows(func(p *Report) []Row { return p.Packages })
	r.Functions = m.rows(func(p *Report) []Row { return p.Functions })
	r.Files = m.rows(func(p *Report) []Row { return p.Files })
	seen := map[analyze.Warning]bool{}
	for _, p := range r.pairs {
		for _, w := range p.Warnings {
			if !seen[w] {
				seen[w] = true
				r.Warnings = append(r.Warnings, w)
			}
		}
	}
	return r, nil
}

// merger lines up the pairs' measures into measures of every side.
type merger struct {
	sides    []Side
	base     int
	variants []int // the side of each pair's variant
	pairs    []*Report
}

// each returns a measure of every pair.
func (m *merger) each(of func(*Report) *Measure) []*Measure {
	out := make([]*Measure, len(m.pairs))
	for k, p := range m.pairs {
		out[k] = of(p)
	}
	return out
}

// measure merges one quantity's pair measures (nil where a pair has no
// such row: neither the base nor that variant has time for it) into a
// measure of every side, with one change per variant.
func (m *merger) measure(ms []*Measure) Measure {
	n := len(m.sides)
	out := Measure{Mean: make([]float64, n), Runs: make([][]float64, n),
		Change: Change{DeltaPP: math.NaN(), DeltaPct: math.NaN(), P: math.NaN()}, VsBase: make([]Change, len(m.variants))}
	for si, s := range m.sides {
		out.Runs[si] = make([]float64, len(s.Tables))
	}
	for k, v := range m.variants {
		pm := ms[k]
		if pm == nil {
			out.VsBase[k] = Change{DeltaPP: 0, DeltaPct: math.NaN(), P: math.NaN(), Verdict: VerdictSame, Side: int32(v)}
			continue
		}
		copy(out.Runs[m.base], pm.Runs[0])
		copy(out.Runs[v], pm.Runs[1])
		out.VsBase[k] = pm.Change
		out.VsBase[k].Side = int32(v)
	}
	for si, runs := range out.Runs {
		out.Mean[si] = mean(runs)
	}
	return out
}

// rows merges a table's rows over the pairs by key, in the canonical
// order: the last side's total time, then the base's, then key.
func (m *merger) rows(of func(*Report) []Row) []Row {
	pairs := m.pairs
	type entry struct {
		first   *Row
		self    []*Measure
		total   []*Measure
		renamed string
	}
	index := map[analyze.Key]int{}
	var entries []entry
	for k, p := range pairs {
		rows := of(p)
		for i := range rows {
			row := &rows[i]
			at, ok := index[row.Key]
			if !ok {
				at = len(entries)
				index[row.Key] = at
				entries = append(entries, entry{first: row, self: make([]*Measure, len(pairs)), total: make([]*Measure, len(pairs))})
			}
			e := &entries[at]
			e.self[k], e.total[k] = &row.Self, &row.Total
		}
	}
	out := make([]Row, len(entries))
	for i, e := range entries {
		out[i] = Row{Key: e.first.Key, Renamed: e.first.Renamed, Aliases: e.first.Aliases, Self: m.measure(e.self), Total: m.measure(e.total)}
	}
	last := len(m.sides) - 1
	slices.SortFunc(out, func(a, b Row) int {
		if x := cmp.Compare(b.Total.Mean[last], a.Total.Mean[last]); x != 0 {
			return x
		}
		if x := cmp.Compare(b.Total.Mean[m.base], a.Total.Mean[m.base]); x != 0 {
			return x
		}
		return analyze.CompareKeys(a.Key, b.Key)
	})
	return out
}

// Changes returns a measure's changes against the base, one per variant:
// VsBase, or for a pair its one Change (the second side's); nil for one
// side.
func (m *Measure) Changes() []Change {
	if m.VsBase != nil {
		return m.VsBase
	}
	if m.Change.Verdict == VerdictNone {
		return nil
	}
	c := m.Change
	c.Side = 1
	return []Change{c}
}
