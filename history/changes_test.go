package history

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// synthetic makes a store's records from the router's real rows: commits
// of three runs each, every row's time drawn around its real value with
// sampling noise (Poisson at a 1 ms interval) and run-to-run noise (8%),
// and the rows of the packages in steps scaled from the commit at which
// each steps in.
func synthetic(t *testing.T, commits int, steps map[int]map[string]float64, seed uint64) []*Record {
	t.Helper()
	base := routerRecord(t, "base", "2026-11-01T00:00:00Z", 100)
	rng := rand.New(rand.NewPCG(seed, 7))
	noisy := func(us float64) int64 {
		if us <= 0 {
			return 0
		}
		samples := us / 1000 // 1 ms interval
		v := (samples + math.Sqrt(samples)*rng.NormFloat64()) * 1000 * (1 + 0.08*rng.NormFloat64())
		return int64(math.Max(0, math.Round(v)))
	}
	var recs []*Record
	for c := 0; c < commits; c++ {
		scale := map[string]float64{}
		for at, st := range steps {
			if c >= at {
				for pkg, f := range st {
					scale[pkg] = f
				}
			}
		}
		rec := &Record{Version: Version, Commit: fmt.Sprintf("c%02d", c), Date: time.Date(2026, 11, 1, c, 0, 0, 0, time.UTC).Format(time.RFC3339), Top: 100}
		var onCPU [3]int64
		for _, row := range base.Rows {
			f := 1.0
			if s, ok := scale[row.Package]; ok && row.Kind != KindPackage {
				f = s
			}
			if s, ok := scale[row.Name]; ok && row.Kind == KindPackage {
				f = s
			}
			r := Row{Kind: row.Kind, Name: row.Name, Package: row.Package, File: row.File, Line: row.Line}
			for run := 0; run < 3; run++ {
				self := noisy(f * float64(row.SelfUs[0]))
				r.SelfUs = append(r.SelfUs, self)
				if row.TotalUs != nil {
					r.TotalUs = append(r.TotalUs, max(self, noisy(f*float64(row.TotalUs[0]))))
				}
				if row.Kind == KindPackage {
					onCPU[run] += self
				}
			}
			rec.Rows = append(rec.Rows, r)
		}
		for run := 0; run < 3; run++ {
			rec.Runs = append(rec.Runs, Run{File: fmt.Sprintf("r%d", run), OnCPUUs: onCPU[run], WallUs: onCPU[run], IntervalUs: 1000, Samples: onCPU[run] / 1000})
		}
		recs = append(recs, rec)
	}
	return recs
}

func defaultOptions() Options {
	return Options{Alpha: 0.05, MinDeltaPct: 5, MinDeltaPP: 0.1, Seed: 1}
}

// TestChangePointsAtTheCommitsThatChanged: eight commits, path-to-regexp
// twice as fast from the 4th and marked 60% slower from the 6th: the
// history has exactly those two change points, the first naming
// path-to-regexp and its functions and the second marked, and no other
// package's series changes.
func TestChangePointsAtTheCommitsThatChanged(t *testing.T) {
	recs := synthetic(t, 8, map[int]map[string]float64{3: {"path-to-regexp": 0.5}, 5: {"marked": 1.6}}, 1)
	res, err := Analyze(recs, defaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var at []string
	for _, cp := range res.ChangePoints {
		at = append(at, cp.Commit)
	}
	if !slices.Equal(at, []string{"c03", "c05"}) {
		t.Fatalf("change points at %v, want c03 and c05", at)
	}
	for i, want := range []string{"path-to-regexp", "marked"} {
		named := false
		for _, c := range res.ChangePoints[i].Changes {
			switch {
			case c.Kind == KindPackage && c.Name == want:
				named = true
			case c.Kind == KindHeadline, c.Package == want:
			default:
				t.Errorf("at %s: %s %s (%s) changed %s %.1f%%, but only %s did", res.ChangePoints[i].Commit, c.Kind, c.Name, c.Package, c.Metric, c.DeltaPct, want)
			}
		}
		if !named {
			t.Errorf("the change point at %s does not name %s", res.ChangePoints[i].Commit, want)
		}
	}
}

// TestNoChangePointWhenEveryCommitRanTheSameBuild: commits of one build
// (with noise) have no change point, store after store.
func TestNoChangePointWhenEveryCommitRanTheSameBuild(t *testing.T) {
	stores := 10
	if testing.Short() {
		stores = 3
	}
	alarms := 0
	for seed := range uint64(stores) {
		res, err := Analyze(synthetic(t, 8, nil, 100+seed), Options{Alpha: 0.05, MinDeltaPct: 5, MinDeltaPP: 0.1, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.ChangePoints) > 0 {
			alarms++
			t.Logf("store %d: %d change points, first %+v", seed, len(res.ChangePoints), res.ChangePoints[0].Changes[0])
		}
	}
	if alarms > 1 {
		t.Errorf("%d of %d stores of one build have change points", alarms, stores)
	}
}

// TestOrderFile: --order lists commits oldest first, by hash or prefix;
// records it leaves out are not analysed.
func TestOrderFile(t *testing.T) {
	s := &Store{Records: []*Record{{Commit: "aaaa1111", Date: "2026-11-03T00:00:00Z"}, {Commit: "bbbb2222", Date: "2026-11-01T00:00:00Z"}, {Commit: "cccc3333", Date: "2026-11-02T00:00:00Z"}}}
	path := filepath.Join(t.TempDir(), "order")
	os.WriteFile(path, []byte("aaaa1111ffff\n# a comment\ncccc3333\n"), 0o644)
	recs, err := Order(s, path)
	if err != nil || len(recs) != 2 || recs[0].Commit != "aaaa1111" || recs[1].Commit != "cccc3333" {
		t.Errorf("order %v, %v", recs, err)
	}
	byDate, _ := Order(s, "")
	if byDate[0].Commit != "bbbb2222" || byDate[2].Commit != "aaaa1111" {
		t.Errorf("by date: %s … %s", byDate[0].Commit, byDate[2].Commit)
	}
}
