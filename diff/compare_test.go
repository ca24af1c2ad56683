package diff

import (
	"math"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/analyze/analyzetest"
)

// table is a shared fixture's table.
var table = analyzetest.Table

// routerPair is the unbundled router workload, before and after bucketed
// routing: one run each side.
func routerPair(t *testing.T, opts Options) *Report {
	t.Helper()
	r, err := Compare([]Side{
		{Name: "before", Tables: []*analyze.Table{table(t, "node-router-unbundled-before.cpuprofile")}},
		{Name: "after", Tables: []*analyze.Table{table(t, "node-router-unbundled-after.cpuprofile")}},
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func find(rows []Row, pkg, fn string) *Row {
	for i := range rows {
		if rows[i].Key.Package == pkg && (fn == "" || rows[i].Key.Function == fn) {
			return &rows[i]
		}
	}
	return nil
}

func TestRouterChangeIsFoundAndNothingElse(t *testing.T) {
	r := routerPair(t, DefaultOptions())
	ptr := find(r.Packages, "path-to-regexp", "")
	if ptr == nil || ptr.Self.Change.Verdict != VerdictBetter || ptr.Self.Change.DeltaPct > -70 {
		t.Fatalf("path-to-regexp: %+v", ptr)
	}
	// Independently: 687 ms -> 156 ms of self time (the matcher and its
	// regular expressions), from the raw profiles.
	if got := ptr.Self.Mean[0] / 1e6; math.Abs(got-687) > 2 {
		t.Errorf("path-to-regexp before %.0f ms, want 687", got)
	}
	for _, row := range r.Packages {
		if row.Key.Package != "path-to-regexp" && row.Key.Package != "deploy" && row.Real() {
			t.Errorf("unrelated package %s flagged: self %+v, total %+v", row.Key.Package, row.Self.Change, row.Total.Change)
		}
	}
}

func TestSameProfileBothSidesIsAllNoise(t *testing.T) {
	tab := table(t, "node-router-unbundled-before.cpuprofile")
	r, err := Compare([]Side{{Name: "a", Tables: []*analyze.Table{tab}}, {Name: "b", Tables: []*analyze.Table{tab}}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, rows := range [][]Row{r.Packages, r.Functions, r.Files} {
		for _, row := range rows {
			for _, m := range []Measure{row.Self, row.Total} {
				if m.Change.Verdict != VerdictSame || m.Change.Delta != 0 {
					t.Fatalf("%+v: %+v", row.Key, m.Change)
				}
			}
		}
	}
	if r.Headline.OnCPU.Change.Verdict != VerdictSame || len(r.Paths) != 0 {
		t.Errorf("headline %+v, paths %v", r.Headline.OnCPU.Change, r.Paths)
	}
}

func TestHolm(t *testing.T) {
	p := []float64{0.01, 0.04, 0.03, math.NaN(), 0.005}
	holm(p)
	want := []float64{0.03, 0.06, 0.06, math.NaN(), 0.02}
	for i := range p {
		if math.IsNaN(want[i]) != math.IsNaN(p[i]) || (!math.IsNaN(want[i]) && math.Abs(p[i]-want[i]) > 1e-12) {
			t.Errorf("holm = %v, want %v", p, want)
			break
		}
	}
}

func TestMinDeltaAndAlpha(t *testing.T) {
	c := Change{Delta: -10, DeltaPP: -0.05, DeltaPct: -50, P: 1e-9}
	o := DefaultOptions()
	if v := verdict(c, o, true, false, false); v != VerdictSame {
		t.Errorf("below 0.1pp: %v", v)
	}
	c.DeltaPP = -2
	if v := verdict(c, o, true, false, false); v != VerdictBetter {
		t.Errorf("real change: %v", v)
	}
	c.P = 0.2
	if v := verdict(c, o, true, false, false); v != VerdictSame {
		t.Errorf("p above alpha: %v", v)
	}
	c.P, c.DeltaPct = 1e-9, 3
	if v := verdict(c, o, true, false, false); v != VerdictSame {
		t.Errorf("below 5%%: %v", v)
	}
}

func TestRules(t *testing.T) {
	for _, bad := range []string{"package", "package:x", "cpu>5%", "package:x>5", "on-cpu>2pp", "function:>1%", "package:x>abc%"} {
		if _, err := ParseRule(bad); err == nil {
			t.Errorf("ParseRule(%q) accepted", bad)
		}
	}
	r := routerPair(t, DefaultOptions())
	// Reversed (after -> before), path-to-regexp gets worse.
	rev, err := Compare([]Side{
		{Name: "before", Tables: []*analyze.Table{table(t, "node-router-unbundled-after.cpuprofile")}},
		{Name: "after", Tables: []*analyze.Table{table(t, "node-router-unbundled-before.cpuprofile")}},
	}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		rule string
		rep  *Report
		want bool
	}{
		{"package:*>+5%", r, false},
		{"package:*>+5%", rev, true},
		{"package:path-to-regexp<-50%", r, true},
		{"package:lodash>+1%", rev, false}, // lodash's change is noise
		{"package:*>+2pp", rev, true},
		// One run a side: the matcher's total (+401%) is tested on its
		// share alone, by count of samples (106 of 3524 on-CPU samples,
		// then 542 of 4871), held to the prior's overdispersed count at
		// one run, and with self and total one family does not settle
		// (issue 40's calibration); a rule breaks only on a real
		// verdict.
		{"function-total:match>+5%", rev, false},
		{"package-total:path-to-regexp>+5%", rev, true},
		{"function:nosuchfunction>+5%", rev, false},
		{"file:path-to-regexp/dist/index.js>+10%", rev, true},
		{"on-cpu>+50%", rev, false},
	}
	for _, c := range cases {
		rule, err := ParseRule(c.rule)
		if err != nil {
			t.Fatal(err)
		}
		res := evaluate(c.rep, []Rule{rule})[0]
		if res.Broken != c.want || res.Broken != (len(res.Offenders) > 0) {
			t.Errorf("%s: broken %v, want %v (%v)", c.rule, res.Broken, c.want, res.Offenders)
		}
	}
	// Offenders are the rows and their changes, for the renderers to name.
	rule, _ := ParseRule("package:path-to-regexp<-50%")
	res := evaluate(r, []Rule{rule})[0]
	if len(res.Offenders) != 1 || res.Offenders[0].Key.Package != "path-to-regexp" || res.Offenders[0].Change != find(r.Packages, "path-to-regexp", "").Self.Change {
		t.Errorf("offenders %+v", res.Offenders)
	}
	// A rule per unit of work without work is not judged.
	rule, _ = ParseRule("on-cpu/work>+3%")
	if res := evaluate(rev, []Rule{rule})[0]; !res.NoWork || res.Broken || res.Offenders != nil {
		t.Errorf("on-cpu/work without work: %+v", res)
	}
}

// TestRunsAreMeans: a side of two identical runs reports what one run does,
// headline and rows alike.
func TestRunsAreMeans(t *testing.T) {
	tab := table(t, "go-router-before.pprof")
	one, err := Compare([]Side{{Name: "a", Tables: []*analyze.Table{tab}}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	two, err := Compare([]Side{{Name: "a", Tables: []*analyze.Table{tab, tab}}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if one.Sides[0].Summary != two.Sides[0].Summary || two.Sides[0].Runs != 2 {
		t.Errorf("summary %+v, two runs %+v", one.Sides[0].Summary, two.Sides[0].Summary)
	}
	for i := range one.Packages {
		if one.Packages[i].Self.Mean[0] != two.Packages[i].Self.Mean[0] || one.Packages[i].Total.Mean[0] != two.Packages[i].Total.Mean[0] {
			t.Errorf("%s: %v vs %v", one.Packages[i].Key.Package, one.Packages[i].Self.Mean, two.Packages[i].Self.Mean)
		}
	}
}
