package history

import (
	"slices"
	"testing"
)

// censor cuts recs as a record of format 3 does: each run's floor is share
// of its on-CPU time, and a row is kept when its total over the runs
// reaches the sum of the floors. It returns how many rows are kept in
// some records and left out of others.
func censor(recs []*Record, share float64) int {
	in, out := map[string]bool{}, map[string]bool{}
	for _, r := range recs {
		f := &Floor{Share: share, Samples: 1}
		var sum int64
		for _, run := range r.Runs {
			f.Us = append(f.Us, int64(share*float64(run.OnCPUUs)+0.5))
			sum += f.Us[len(f.Us)-1]
		}
		var kept []Row
		for _, row := range r.Rows {
			var total int64
			vals := row.TotalUs
			if vals == nil {
				vals = row.SelfUs
			}
			for _, v := range vals {
				total += v
			}
			if total >= sum || row.Name == OtherName {
				kept = append(kept, row)
				in[row.Key()] = true
			} else {
				out[row.Key()] = true
			}
		}
		r.Rows, r.Floor, r.Version = kept, f, Version
	}
	hovering := 0
	for k := range in {
		if out[k] {
			hovering++
		}
	}
	return hovering
}

// uncensor makes recs read as records of format 2 do: no floor, a row
// absent is 0.
func uncensor(recs []*Record) {
	for _, r := range recs {
		r.Floor, r.Version = nil, 2
	}
}

func changeCommits(res *Result) []string {
	var at []string
	for _, cp := range res.ChangePoints {
		at = append(at, cp.Commit)
	}
	return at
}

// TestCensoredRowsMakeNoChangePoints: eight commits with code changes at
// the 4th and 6th, cut at a floor that rows hover at (kept in some
// records, left out of others). Read as censored, the change points are
// exactly at the two changes; read as zero where absent (as records
// without a floor are), rows at the cut make change points at commits
// where nothing changed, and the history warns that the records have no
// floor.
func TestCensoredRowsMakeNoChangePoints(t *testing.T) {
	steps := map[int]map[string]float64{3: {"path-to-regexp": 0.5}, 5: {"marked": 1.6}}
	falseAlarms := 0
	for seed := uint64(1); seed <= 3; seed++ {
		recs := synthetic(t, 8, steps, seed)
		if hovering := censor(recs, 0.005); hovering < 5 {
			t.Fatalf("store %d: %d rows hover at the floor: the test shows nothing", seed, hovering)
		}
		res, err := Analyze(recs, defaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if at := changeCommits(res); !slices.Equal(at, []string{"c03", "c05"}) {
			t.Errorf("store %d, censored: change points at %v, want c03 and c05", seed, at)
		}
		if len(res.Warnings) != 0 {
			t.Errorf("warnings %q for records with a floor", res.Warnings)
		}
		uncensor(recs)
		asZero, err := Analyze(recs, defaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if at := changeCommits(asZero); len(at) > 2 {
			falseAlarms++
			t.Logf("store %d, read as zero: change points at %v", seed, at)
		}
		if len(asZero.Warnings) != 1 {
			t.Errorf("no warning for records without a floor: %q", asZero.Warnings)
		}
	}
	if falseAlarms == 0 {
		t.Errorf("read as zero where absent, no store had a change point where nothing changed: the test shows nothing")
	}
}

// TestRowGoneBelowTheFloorIsFound: a package whose time falls from well
// above the floor to below it at the 5th commit changes there, "gone",
// with its after below the floor (not 0, and not missing).
func TestRowGoneBelowTheFloorIsFound(t *testing.T) {
	recs := synthetic(t, 8, map[int]map[string]float64{4: {"qs": 0.01}}, 1)
	censor(recs, 0.005)
	res, err := Analyze(recs, defaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if at := changeCommits(res); !slices.Equal(at, []string{"c04"}) {
		t.Fatalf("change points at %v, want c04", at)
	}
	found := false
	for _, c := range res.ChangePoints[0].Changes {
		if c.Kind == KindPackage && c.Name == "qs" && c.Metric == MetricSelf {
			found = true
			if c.Verdict != "gone" || !c.AfterBelow || c.AfterNs <= 0 || c.BeforeBelow {
				t.Errorf("qs: %+v, want gone to below the floor", c)
			}
		}
	}
	if !found {
		t.Errorf("the change point does not name qs: %+v", res.ChangePoints[0].Changes)
	}
}

// TestProcessCPUIsAHeadline: when every run holds its process CPU time,
// it is a headline series after on-CPU, and at a change point the
// headlines come first.
func TestProcessCPUIsAHeadline(t *testing.T) {
	recs := synthetic(t, 8, map[int]map[string]float64{4: {"deploy": 0.7}}, 2)
	for _, r := range recs {
		for i := range r.Runs {
			r.Runs[i].ProcessCPUUs = r.Runs[i].OnCPUUs * 13 / 10
		}
	}
	res, err := Analyze(recs, defaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Headlines) != 2 || res.Headlines[1].Name != HeadlineProcessCPU || len(res.Headlines[1].Means) != 8 {
		t.Fatalf("headlines %+v", res.Headlines)
	}
	if at := changeCommits(res); !slices.Equal(at, []string{"c04"}) {
		t.Fatalf("change points at %v, want c04", at)
	}
	ch := res.ChangePoints[0].Changes
	if len(ch) < 3 || ch[0].Kind != KindHeadline || ch[1].Kind != KindHeadline || ch[0].Name == ch[1].Name || ch[2].Kind == KindHeadline {
		t.Errorf("the change point's first changes: %+v", ch[:min(3, len(ch))])
	}
	recs[3].Runs[0].ProcessCPUUs = 0 // one run without it: no such series
	if res, _ := Analyze(recs, defaultOptions()); len(res.Headlines) != 1 {
		t.Errorf("%d headlines when a run lacks its process CPU time", len(res.Headlines))
	}
}
