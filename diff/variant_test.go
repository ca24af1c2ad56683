package diff

import (
	"fmt"
	"math"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// A report of two sides is one variant made of its own fields, and a
// measure's change for side 1 is its Change: the shape renderers loop
// over is the same as for more sides.
func TestTwoSidesAreOneVariant(t *testing.T) {
	r := routerPair(t, DefaultOptions())
	vs := r.Variants()
	if len(vs) != 1 || vs[0].Side != 1 || vs[0].Pair() != r || !r.Judged() {
		t.Fatalf("variants of a pair: %d, judged %v", len(vs), r.Judged())
	}
	v := vs[0]
	if len(v.Tree) == 0 || len(v.Tree) != len(r.Tree) || len(v.Calls) != len(r.Calls) || len(v.Paths) != len(r.Paths) || v.PathsDelta != r.PathsDelta || len(v.Functions) != len(r.Functions) {
		t.Errorf("the variant's parts are not the report's: tree %d/%d, calls %d/%d, paths %d/%d", len(v.Tree), len(r.Tree), len(v.Calls), len(r.Calls), len(v.Paths), len(r.Paths))
	}
	m := &r.Headline.OnCPU
	c := m.ChangeFor(1)
	if c.Side != 1 || c.Verdict != m.Change.Verdict || c.Delta != m.Change.Delta || c.P != m.Change.P {
		t.Errorf("ChangeFor(1) = %+v, Change %+v", c, m.Change)
	}
	if c := m.ChangeFor(0); c.Verdict != VerdictNone || !math.IsNaN(c.Delta) {
		t.Errorf("the base's change against itself: %+v", c)
	}
	if _, ok := r.VariantOf(0); ok {
		t.Error("the base is a variant")
	}
	if v, ok := r.VariantOf(1); !ok || v.Side != 1 {
		t.Errorf("VariantOf(1) = %+v, %v", v, ok)
	}
}

// With three sides each variant's parts are its pair's with the base,
// its side the variant's index among every side, also when the base is
// not the first; a measure's change for a side is that side's entry of
// VsBase.
func TestSeveralSidesAreVariants(t *testing.T) {
	for _, base := range []int{0, 1} {
		opts := DefaultOptions()
		opts.Base = base
		r, _ := threeSides(t, opts)
		vs := r.Variants()
		if len(vs) != 2 {
			t.Fatalf("base %d: %d variants", base, len(vs))
		}
		k := 0
		for side := range r.Sides {
			if side == base {
				continue
			}
			v := vs[k]
			if v.Side != side || v.Pair() != r.pairs[k] || v.Pair().Sides[1].Name != r.Sides[side].Name || v.Pair().Sides[0].Name != r.Sides[base].Name {
				t.Errorf("base %d: variant %d is side %d (%s against %s)", base, k, v.Side, v.Pair().Sides[1].Name, v.Pair().Sides[0].Name)
			}
			if len(v.Tree) == 0 || len(v.Calls) == 0 || len(v.Functions) != len(r.pairs[k].Functions) {
				t.Errorf("base %d: variant %d has no tree or calls of its own", base, k)
			}
			ptr := find(r.Packages, "path-to-regexp", "")
			if c := ptr.Self.ChangeFor(side); fmt.Sprint(c) != fmt.Sprint(ptr.Self.VsBase[k]) { // NaN p-values: compared as printed
				t.Errorf("base %d: ChangeFor(%d) = %+v, VsBase[%d] %+v", base, side, c, k, ptr.Self.VsBase[k])
			}
			k++
		}
		if c := r.Headline.OnCPU.ChangeFor(base); c.Verdict != VerdictNone || !math.IsNaN(c.P) {
			t.Errorf("base %d: the base's own change %+v", base, c)
		}
	}
}

// One side has no variant and judges nothing.
func TestOneSideHasNoVariant(t *testing.T) {
	r, err := Compare([]Side{{Name: "before", Tables: []*analyze.Table{table(t, "node-router-unbundled-before.cpuprofile")}}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r.Judged() || r.Variants() != nil || r.Broken() || r.UnmatchedRules() != nil {
		t.Errorf("one side: judged %v, %d variants", r.Judged(), len(r.Variants()))
	}
	if c := r.Headline.OnCPU.ChangeFor(1); c.Verdict != VerdictNone {
		t.Errorf("one side's change: %+v", c)
	}
}
