package diff

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// The report's family, from its own runs (Westfall and Young's step-down
// minP, 1993).
//
// With enough runs a side that their splits between the sides can tell
// (permutationLeast), a report's judged headline and the rows of its
// tables of packages, functions and files are one family, corrected by
// permutation rather than table by table by Holm: each split of the two
// sides' runs into sides of the same sizes is judged as the report's own
// (its headline, whose uncorrected verdict decides whether rows' shares
// speak, wholeMoved, and every row's test), and a row's corrected p-value
// is the share of splits in which the smallest weighted p-value (p/w, the
// weights of Holm's method in judgeCounted, each table weighing one, the
// headline headlineWeight) among the rows not yet rejected is at most its
// own. A row that cannot pass the minimum effect in a split cannot be
// flagged in it, and takes no part there.
//
// Holm's method holds the chance of any false flag within α for any tests
// and whatever ties them together, so it holds it far within where the
// tests are conservative (the priors, a row's few samples) and where they
// move together (a package's time is its functions', a total its self's
// and its callees'). On the calibration bench's quiet Node runs at 5 v 5
// (200 draws), the 5th percentile of an A/A report's smallest corrected
// p-value by Holm was 0.245, not 0.05: A/A reports flagged a row in 2.0%
// of draws. The splits measure that from the report's own runs: a +20%
// change in a function of 6% of on-CPU time found in 85.5% of draws with
// Holm was found in 91.5%, A/A reports flagging anything in 3.0%. When one
// build is on both sides, every split is as likely as the recorded one,
// so the chance that an A/A report flags its headline or a row of the
// three tables is within α (6/126 at 5 v 5), whatever the tests. Measured
// over 1000 draws of another stream of the same runs it was 5.9%, the
// same with all 252 splits judged (not one of each mirror pair): the
// bench's draws split each round of a recording by a coin, and whether
// they or the runs break the exchangeability this rests on is open.
//
// The call tree and the calls keep their own families, Holm-corrected as
// with fewer runs.

const (
	// permutationLeast is how many times 1/α the distinct splits of the
	// runs must number for the report to be corrected by them: the
	// smallest corrected p-value is one over their count (5 v 5: 126
	// splits, 0.008; 4 v 4 has 35, and Holm's method is kept).
	permutationLeast = 5
	// permutationSplits is the most splits judged: all of them up to it,
	// else this many drawn at random (with a fixed seed: a report is the
	// same every time), the recorded one counted besides.
	permutationSplits = 400
	// headlineWeight is the judged headline's weight in the family, where
	// each table weighs one. In the calibration bench's quiet Node runs
	// at 5 v 5 (200 draws), with the headline out of the family (judged
	// alone at α, as with fewer runs) a +20% change in a function of 6%
	// was found in 91.5% of draws and A/A reports flagged anything in
	// 4.0% (6.5% in another stream of draws), the report's family being
	// the tables' alone; in it at weight 1 (as a table), 85.5% and 3.0%;
	// at 0.5, 89.5% and 3.0%; at 0.25, 91.5% and 3.0%, the whole
	// report's chance of a false flag within α.
	headlineWeight = 0.25
)

// splitsOf returns the splits of na + nb runs, numbered with side 0's
// first, into sides of na and nb runs, each as the runs' order with side
// 0's first, leaving out the recorded split (the identity) and, when the
// sides are of one size, the mirror image of each (which judges alike);
// and how many splits the p-values are counted over, the recorded one
// included. nil when the distinct splits number fewer than least.
func splitsOf(na, nb int, least float64) ([][]int, int) {
	n := na + nb
	count := binomial(n, na)
	if na == nb {
		count /= 2
	}
	if na < 2 || nb < 2 || count < least {
		return nil, 0
	}
	if count <= permutationSplits {
		var out [][]int
		side := make([]bool, n)
		var walk func(i, left int)
		walk = func(i, left int) {
			if left == 0 {
				order := make([]int, 0, n)
				for j := range n {
					if side[j] {
						order = append(order, j)
					}
				}
				for j := range n {
					if !side[j] {
						order = append(order, j)
					}
				}
				out = append(out, order)
				return
			}
			if n-i < left {
				return
			}
			side[i] = true
			walk(i+1, left-1)
			side[i] = false
			if na == nb && i == 0 {
				return // run 0 stays on side 0: one of each mirror pair
			}
			walk(i+1, left)
		}
		walk(0, na)
		identity := slices.IndexFunc(out, func(o []int) bool {
			for j, v := range o {
				if v != j {
					return false
				}
			}
			return true
		})
		out = slices.Delete(out, identity, identity+1)
		return out, int(count)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	out := make([][]int, permutationSplits)
	for i := range out {
		out[i] = rng.Perm(n)
		slices.Sort(out[i][:na])
		slices.Sort(out[i][na:])
	}
	return out, permutationSplits + 1
}

// binomial returns n choose k, as a float (it can be large).
func binomial(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return math.Round(r)
}

// relabel returns x's runs, side 0's then side 1's, taken in order with
// the first na as side 0; nil for nil.
func relabel(x [][]float64, order []int, na int) [][]float64 {
	if x == nil {
		return nil
	}
	pool := slices.Concat(x[0], x[1])
	out := [][]float64{make([]float64, na), make([]float64, len(order)-na)}
	for i, j := range order {
		if i < na {
			out[0][i] = pool[j]
		} else {
			out[1][i-na] = pool[j]
		}
	}
	return out
}

// relabeled returns the comparison of the runs split as order (see
// splitsOf): each side's runs, their on-CPU time, and its sampling
// interval and scale, the mean of its runs' sides'.
func (c *comparison) relabeled(order []int, na int) *comparison {
	d := *c
	d.runOnCPU = relabel(c.runOnCPU, order, na)
	d.runProcess = relabel(c.runProcess, order, na)
	d.runSamples = relabel(c.runSamples, order, na)
	d.runStretch = relabel(c.runStretch, order, na)
	d.onCPU = []float64{mean(d.runOnCPU[0]), mean(d.runOnCPU[1])}
	perRun := func(x []float64) [][]float64 {
		return [][]float64{slices.Repeat(x[:1], na), slices.Repeat(x[1:2], len(order)-na)}
	}
	in, sc := relabel(perRun(c.interval), order, na), relabel(perRun(c.scale), order, na)
	d.interval = []float64{mean(in[0]), mean(in[1])}
	d.scale = []float64{mean(sc[0]), mean(sc[1])}
	return &d
}

// relabelMeasure fills dst with m's runs split as order, and their means.
func relabelMeasure(dst, m *Measure, order []int, na int) {
	dst.Runs = relabel(m.Runs, order, na)
	dst.Mean = []float64{mean(dst.Runs[0]), mean(dst.Runs[1])}
}

// permutedTable is a table's family and its copy that each split fills:
// each measure's runs (side 0's then side 1's) in pool, their split into
// ms and counts.
type permutedTable struct {
	observed *family
	split    family
	ms       []Measure
	counts   []Measure
	pool     []float64
}

// newPermutedTable returns the split copy of an observed family of two
// sides of na and nb runs.
func newPermutedTable(f *family, na, nb int) *permutedTable {
	t := &permutedTable{observed: f, split: *f}
	n := na + nb
	size := len(f.ms)
	for _, m := range f.counts {
		if m != nil {
			size++
		}
	}
	t.pool = make([]float64, 0, n*size)
	runs := make([]float64, n*size)
	means := make([]float64, 2*size)
	runSlices := make([][]float64, 2*size)
	next := 0
	measure := func(m *Measure) Measure {
		t.pool = append(append(t.pool, m.Runs[0]...), m.Runs[1]...)
		r := runs[next*n : (next+1)*n]
		out := Measure{Runs: runSlices[2*next : 2*next+2 : 2*next+2], Mean: means[2*next : 2*next+2 : 2*next+2]}
		out.Runs[0], out.Runs[1] = r[:na:na], r[na:]
		next++
		return out
	}
	t.ms = make([]Measure, len(f.ms))
	t.split.ms = make([]*Measure, len(f.ms))
	for i, m := range f.ms {
		t.ms[i] = measure(m)
		t.split.ms[i] = &t.ms[i]
	}
	if f.counts != nil {
		t.counts = make([]Measure, len(f.counts))
		t.split.counts = make([]*Measure, len(f.counts))
		for i, m := range f.counts {
			if m != nil {
				t.counts[i] = measure(m)
				t.split.counts[i] = &t.counts[i]
			}
		}
	}
	return t
}

// fill splits the table's measures' runs as order.
func (t *permutedTable) fill(order []int) {
	n := len(order)
	k := 0
	split := func(m *Measure) {
		pool := t.pool[k*n : (k+1)*n]
		k++
		a, b := m.Runs[0], m.Runs[1]
		for i, j := range order {
			if i < len(a) {
				a[i] = pool[j]
			} else {
				b[i-len(a)] = pool[j]
			}
		}
		m.Mean[0], m.Mean[1] = mean(a), mean(b)
	}
	for i := range t.ms {
		split(&t.ms[i])
	}
	for i := range t.counts {
		if t.split.counts[i] != nil {
			split(&t.counts[i])
		}
	}
}

// weighted returns a family's weighted p-values after its test, p/w over
// the family's total weight, +Inf where a measure is out of the family,
// never rejected, or does not pass the minimum effect.
func (c *comparison) weighted(f *family, dst []float64) []float64 {
	var total float64
	for i, p := range f.ps {
		if !math.IsNaN(p) {
			total += f.ws[i]
		}
	}
	dst = dst[:0]
	for i, p := range f.ps {
		t := math.Inf(1)
		if !math.IsNaN(p) && !math.IsInf(p, 1) && f.ws[i] > 0 && passesMinimum(c.change(f.ms[i]), c.opts) {
			t = p * total / f.ws[i]
		}
		dst = append(dst, t)
	}
	return dst
}

// judgePermuted judges the tables of packages, functions and files of two
// sides, and again their judged headline, as one family corrected by the
// splits of their runs (see the top of this file), and reports whether it
// did; false when the runs have too few splits, and nothing is judged.
func (c *comparison) judgePermuted(r *Report) bool {
	na, nb := len(c.sides[0].Tables), len(c.sides[1].Tables)
	splits, count := splitsOf(na, nb, permutationLeast/c.opts.Alpha)
	if splits == nil {
		return false
	}
	r.Splits = count
	head := r.JudgedHeadline()
	perWork, sampled := head == &r.Headline.PerWork, head != &r.Headline.ProcessCPU
	tables := []*permutedTable{
		newPermutedTable(rowsFamily(r.Packages, false), na, nb),
		newPermutedTable(rowsFamily(r.Functions, true), na, nb),
		newPermutedTable(rowsFamily(r.Files, false), na, nb),
	}
	// The recorded split: the hypotheses whose weighted p-value is
	// finite, in its order, the rest never rejected.
	type hypothesis struct {
		table, row int
		t          float64
	}
	var hs []hypothesis
	headTest := func(d *comparison, m *Measure) headlineTest {
		scale := []float64{1, 1}
		if perWork {
			scale = d.scale
		}
		load := 0.0
		if sampled {
			load = d.loadGap()
		}
		return d.testHeadline(m, scale, load)
	}
	// The headline weighs headlineWeight of a table (see its doc).
	headWeighted := func(m *Measure, p float64) float64 {
		ch := change(m.Mean[0], m.Mean[1], math.NaN())
		ch.P = 0
		if verdict(ch, c.opts, false, false, false) == VerdictSame {
			return math.Inf(1) // within the minimum effect
		}
		return p / headlineWeight
	}
	observedHead := headTest(c, head)
	if t := headWeighted(head, observedHead.p); !math.IsInf(t, 1) {
		hs = append(hs, hypothesis{-1, 0, t})
	}
	observed := make([][]float64, len(tables))
	for k, t := range tables {
		c.testFamily(t.observed)
		observed[k] = c.weighted(t.observed, nil)
		for i, v := range observed[k] {
			if !math.IsInf(v, 1) {
				hs = append(hs, hypothesis{k, i, v})
			}
		}
	}
	if len(hs) == 0 {
		// Nothing could be flagged (every row the same, or within the
		// minimum effect): no split can change that.
		splits = nil
	}
	slices.SortStableFunc(hs, func(a, b hypothesis) int { return cmp.Compare(a.t, b.t) }) // finite: no NaN
	// at[k][i] is the place of table k's row i in hs, -1 when never
	// rejected.
	at := make([][]int, len(tables))
	for k := range tables {
		at[k] = slices.Repeat([]int{-1}, len(observed[k]))
	}
	headAt := -1
	for j, h := range hs {
		if h.table < 0 {
			headAt = j
		} else {
			at[h.table][h.row] = j
		}
	}
	hits := make([]int, len(hs))
	split := make([]float64, len(hs))
	var weighted []float64
	var headSplit Measure
	for _, order := range splits {
		// The split's headline decides, as the recorded one's does,
		// whether the rows' shares speak (wholeMoved).
		d := c.relabeled(order, na)
		relabelMeasure(&headSplit, head, order, na)
		hp := headTest(d, &headSplit).p
		ch := change(headSplit.Mean[0], headSplit.Mean[1], math.NaN())
		ch.P = c.family(hp)
		d.wholeMoved = verdict(ch, c.opts, false, false, false).Real()
		rest := headWeighted(&headSplit, hp)
		if headAt >= 0 {
			split[headAt], rest = rest, math.Inf(1)
		}
		for k, t := range tables {
			t.fill(order)
			d.testFamily(&t.split)
			weighted = d.weighted(&t.split, weighted)
			for i, v := range weighted {
				if j := at[k][i]; j >= 0 {
					split[j] = v
				} else {
					rest = math.Min(rest, v)
				}
			}
		}
		// Step down: the smallest weighted p-value among the hypotheses
		// from j on (and those never rejected) against j's own.
		least := rest
		for j := len(hs) - 1; j >= 0; j-- {
			least = math.Min(least, split[j])
			if least <= hs[j].t {
				hits[j]++
			}
		}
	}
	adjusted := make([]float64, len(hs))
	running := 0.0
	for j := range hs {
		running = math.Max(running, float64(1+hits[j])/float64(count))
		adjusted[j] = math.Min(running, 1)
	}
	for k, t := range tables {
		f := t.observed
		for i := range f.ps {
			if j := at[k][i]; j >= 0 {
				f.ps[i] = adjusted[j]
			}
		}
		c.finishFamily(f)
	}
	if headAt >= 0 {
		head.Change.P = c.family(adjusted[headAt])
		head.Change.Verdict = verdict(head.Change, c.opts, false, false, false)
		head.Change.RunsNeeded = 0
		c.needs(&head.Change, observedHead.a, observedHead.b, c.opts.Alpha*headlineWeight/float64(len(tables)), na, nb)
		r.Headline.RunsNeeded = c.runsNeeded(*head)
	}
	return true
}
