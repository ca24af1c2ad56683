package diff

import (
	"slices"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// scaledTable is a copy of t with each function's time multiplied by
// factor(row) and the summary's times moved to match.
func scaledTable(t *analyze.Table, factor func(analyze.Row) float64) *analyze.Table {
	c := *t
	c.Functions = slices.Clone(t.Functions)
	var before, after int64
	for i := range c.Functions {
		r := &c.Functions[i]
		before += r.Self
		f := factor(*r)
		r.Self, r.Total = int64(float64(r.Self)*f), int64(float64(r.Total)*f)
		after += r.Self
	}
	k := float64(after) / float64(before)
	c.Summary.OnCPUNs = int64(float64(t.Summary.OnCPUNs) * k)
	c.Summary.SampledNs = int64(float64(t.Summary.SampledNs) * k)
	c.Summary.WallNs = int64(float64(t.Summary.WallNs) * k)
	return &c
}

// TestDurationWarning: runs more than 2x apart in length and no work given
// warn (the runs may have done different work) when every function's time
// moved with the run's, as less work would do, or when everything got
// faster alike (which cannot be told from less work); not when the time
// that went is the heaviest functions' and the rest kept its time, as a
// plain speed-up of the same work does.
func TestDurationWarning(t *testing.T) {
	p, err := analyze.ParseFile("../testdata/node-router-unbundled-before.cpuprofile", analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	base := analyze.Aggregate(p, analyze.AggregateOptions{})
	// the heaviest functions that hold 70% of the self time
	rows := slices.Clone(base.Functions)
	slices.SortFunc(rows, func(a, b analyze.Row) int { return int(b.Self - a.Self) })
	var sum, all int64
	for _, r := range rows {
		all += r.Self
	}
	hot := map[analyze.Key]bool{}
	for _, r := range rows {
		if sum >= all*7/10 {
			break
		}
		hot[r.Key] = true
		sum += r.Self
	}
	for _, c := range []struct {
		name   string
		factor func(analyze.Row) float64
		warn   bool
	}{
		{"the heaviest functions 10x faster", func(r analyze.Row) float64 {
			if hot[r.Key] {
				return 0.1
			}
			return 1
		}, false},
		{"a third of the work", func(analyze.Row) float64 { return 1.0 / 3 }, true},
		{"everything 3x faster", func(analyze.Row) float64 { return 1.0 / 3 }, true},
		{"the heaviest 10x faster and a third of the rest", func(r analyze.Row) float64 {
			if hot[r.Key] {
				return 0.1
			}
			return 1.0 / 3
		}, true},
	} {
		after := scaledTable(base, c.factor)
		if r := float64(base.Summary.WallNs) / float64(after.Summary.WallNs); r < 2 {
			t.Fatalf("%s: runs only %.2fx apart", c.name, r)
		}
		r, err := Compare([]Side{{Name: "before", Tables: []*analyze.Table{base}}, {Name: "after", Tables: []*analyze.Table{after}}}, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		warned := slices.ContainsFunc(r.Warnings, func(w analyze.Warning) bool { return w.Kind == analyze.WarnDurationsDiffer })
		if warned != c.warn {
			t.Errorf("%s: warned %v, want %v", c.name, warned, c.warn)
		}
	}
}
