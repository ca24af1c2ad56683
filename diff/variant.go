package diff

import "math"

// This file is the one shape every renderer reads a report in, whatever
// its count of sides: the sides, one of them the base, and a variant per
// other side, each with the parts of the comparison that belong to it and
// the base alone. Two sides are the case of one variant, not a report of
// another kind: a renderer loops over Variants and asks a measure for
// its change for a side (ChangeFor) instead of asking which kind of
// report it has.

// Variant is a side judged against the base, as a value: which side, and
// the parts of the comparison that are of the base and that side alone,
// computed as a pair (the call tree and calls merge two sides' stacks, the
// paths and rules read one change).
type Variant struct {
	// Side is the index in Report.Sides of the side judged against the
	// base.
	Side int
	// Functions are the rows Calls, Lines and Tree index: the functions of
	// the base and this side, each with this side's change as its Change
	// (for two sides with the base first, Report.Functions itself).
	Functions []Row
	// Calls are the caller -> callee edges between Functions.
	Calls []Call
	// Lines are functions' self times per source line (see
	// Report.Lines).
	Lines []LineTime
	// Tree is the call tree merged by function over the base's and this
	// side's runs; nil when the tables carry no tree.
	Tree []TreeNode
	// Paths are the chains of Tree that carry the real changes, the
	// heaviest first; PathsDelta is the on-CPU change they explain
	// together.
	Paths      []Path
	PathsDelta float64
	// Rules are the --fail-on rules judged on this side's change.
	Rules []RuleResult
	// pair is the report of the two sides the parts are from.
	pair *Report
}

// Pair returns the variant as a report of two sides, the base first and
// the variant second, for what draws one comparison of two sides (the
// explorer, the flame graph, the exports): for two sides with the base
// first, the report itself.
func (v Variant) Pair() *Report { return v.pair }

// Variants returns one variant per side other than the base, in side
// order; nil for one side. For two sides with the base first the variant
// is made of the report's own fields; with a base after its variant, or
// several variants, of each variant's pair with the base.
func (r *Report) Variants() []Variant {
	if len(r.Sides) < 2 {
		return nil
	}
	if r.pairs == nil {
		return []Variant{r.ownVariant(1)}
	}
	out := make([]Variant, len(r.pairs))
	for k, p := range r.pairs {
		side := k
		if k >= r.Base {
			side++
		}
		out[k] = p.ownVariant(side)
	}
	return out
}

// ownVariant is the variant made of a report of two sides' own fields,
// for the given side of the report it belongs to.
func (r *Report) ownVariant(side int) Variant {
	return Variant{Side: side, Functions: r.Functions, Calls: r.Calls, Lines: r.Lines, Tree: r.Tree,
		Paths: r.Paths, PathsDelta: r.PathsDelta, Rules: r.Rules, pair: r}
}

// VariantOf returns the variant of the given side; false when the side is
// the base or not one of the report's.
func (r *Report) VariantOf(side int) (Variant, bool) {
	for _, v := range r.Variants() {
		if v.Side == side {
			return v, true
		}
	}
	return Variant{}, false
}

// Judged reports whether the report judges anything: it has a side other
// than the base, so there is at least one variant.
func (r *Report) Judged() bool { return len(r.Sides) > 1 }

// ChangeFor returns the measure's change of a side against the base,
// whatever the count of sides: for two sides with the base first, Change
// (its Side set to 1); else the side's entry of VsBase. A side with no
// change (the base, one side, a side out of range) gets a change with no
// verdict and NaN figures. It allocates nothing, as Changes does for a
// pair: renderers ask it once per cell.
func (m *Measure) ChangeFor(side int) Change {
	if m.VsBase != nil {
		for _, c := range m.VsBase {
			if int(c.Side) == side {
				return c
			}
		}
	} else if side == 1 && len(m.Mean) == 2 {
		c := m.Change
		c.Side = 1
		return c
	}
	return Change{Delta: math.NaN(), DeltaPP: math.NaN(), DeltaPct: math.NaN(), P: math.NaN(), Side: int32(side)}
}
