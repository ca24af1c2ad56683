package history

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"

	"github.com/profdiff/profdiff/stats"
)

// PermutationCommits is the most commits a history is analysed as one
// whole by the permutation test of runs (stats.ChangePoints). Longer
// histories are analysed in windows of WindowCommits (see analyzeWindows):
// the permutation test costs its permutations times every run of every
// series, 12 s for 200 commits of five runs on two cores, and holds every
// run in memory.
const PermutationCommits = 50

// WindowCommits is the length of a window of a long history; windows
// overlap by half.
const WindowCommits = 64

// reader reads the i-th of a history's records.
type reader interface {
	Len() int
	Read(i int) (*Record, error)
}

// records is a history held in memory.
type records []*Record

func (r records) Len() int                    { return len(r) }
func (r records) Read(i int) (*Record, error) { return r[i], nil }

// Analyze finds the change points of the records, in the order given (see
// AnalyzeSource).
func Analyze(recs []*Record, opts Options) (*Result, error) {
	return analyzeHistory(records(recs), opts)
}

// AnalyzeSource finds the change points of a store's records, reading
// them one at a time in the source's order: every series (the headlines;
// each package's, function's and file's self and total time) is tested
// together, with the family-wise false-alarm rate held at opts.Alpha
// across them all, and a change must pass the floors to be reported. A
// row a record left out for being under its floor is censored there
// (below the floor, not zero). Memory holds at most WindowCommits records
// and, for the charts, each series' mean per commit.
func AnalyzeSource(src *Source, opts Options) (*Result, error) {
	return analyzeHistory(src, opts)
}

func analyzeHistory(src reader, opts Options) (*Result, error) {
	n := src.Len()
	if n == 0 {
		return nil, fmt.Errorf("no records")
	}
	if opts.Permutations <= 0 {
		opts.Permutations = DefaultPermutations
	}
	if n <= PermutationCommits {
		recs := make([]*Record, n)
		for i := range recs {
			r, err := src.Read(i)
			if err != nil {
				return nil, err
			}
			recs[i] = r
		}
		res, b := newResult(opts, n)
		for _, r := range recs {
			res.add(r, b)
		}
		res.settle(b)
		res.Method = "permutation"
		return res, analyzeWhole(res, b, recs)
	}
	// One pass, taking times per unit of work and a process CPU series
	// as the first record allows; a later record that does not allow
	// them makes a second pass without them.
	b := &builder{perWork: true, process: true}
	for {
		res, _ := newResult(opts, n)
		want := *b
		res.Method = "windows"
		if err := analyzeWindows(res, b, src); err != nil {
			return nil, err
		}
		if *b == want {
			res.settle(b)
			return res, nil
		}
		b.unit = "" // b now lacks what a record lacked; the unit is the first record's again
	}
}

// newResult starts a history of n commits, with a builder that takes
// times per unit of work and the process CPU headline until a record
// shows otherwise.
func newResult(opts Options, n int) (*Result, *builder) {
	return &Result{Per: "run", Options: opts, Commits: make([]Commit, 0, n)}, &builder{perWork: true, process: true}
}

// add notes a record's commit in res, and turns off what b takes that the
// record cannot give.
func (res *Result) add(r *Record, b *builder) {
	c := Commit{Commit: r.Commit, Date: r.Date, Branch: r.Branch, Message: r.Message, Runs: len(r.Runs)}
	if r.Floor != nil {
		c.FloorShare = r.Floor.Share
	}
	if len(res.Commits) == 0 {
		b.unit = r.WorkUnit
	}
	res.Commits = append(res.Commits, c)
	for _, run := range r.Runs {
		if r.WorkUnit != b.unit || b.unit == "" || run.Work <= 0 {
			b.perWork = false
		}
		if run.ProcessCPUUs <= 0 {
			b.process = false
		}
	}
}

// settle sets what the history's times are per and warns of records
// without a floor.
func (res *Result) settle(b *builder) {
	if b.perWork {
		res.Per = b.unit
	}
	old := 0
	for _, c := range res.Commits {
		if c.FloorShare == 0 {
			old++
		}
	}
	if old > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d of the %d records were written without a floor (before history format 3): "+
			"a row absent from them reads as 0 there, as profdiff read it before; record those commits again for rows below the floor to read as such", old, len(res.Commits)))
	}
}

// builder turns records into series.
type builder struct {
	perWork, process bool
	unit             string // the work unit, when perWork
}

// window is the series of a run of consecutive records.
type window struct {
	series []Series
	// below[ci] are the floors of the runs of commit ci (scaled as the
	// series are), nil for a record without a floor; rows absent from a
	// record with a floor are censored at them.
	below [][]float64
	// absent[s][ci]: series s has no row in commit ci's record.
	absent   [][]bool
	heads    int
	interval []float64 // each commit's mean sampling interval (ns, scaled)
	onCPU    float64   // the mean on-CPU time per run
}

// build makes the series of recs: the headlines first, then every row's
// self and total by kind, package, name and file.
func (b *builder) build(recs []*Record) *window {
	series, index := b.seriesOf(recs)
	w := &window{series: series, heads: len(series) - len(index), below: make([][]float64, len(recs)), absent: make([][]bool, len(series)), interval: make([]float64, len(recs))}
	for i := range series {
		series[i].Runs = make([][]float64, len(recs))
		series[i].Means = make([]float64, len(recs))
		w.absent[i] = make([]bool, len(recs))
	}
	for ci, r := range recs {
		b.fill(w, ci, r, index)
	}
	w.settle()
	return w
}

// seriesKey1 identifies a row's series in a window: the row, and self or
// total.
type seriesKey1 struct {
	kind, pkg, name, file, metric string
}

// seriesOf lists the series of recs, the headlines first and the rows'
// in a stable order (by kind, package, name, file and metric), and
// indexes the rows' series by their key.
func (b *builder) seriesOf(recs []*Record) ([]Series, map[seriesKey1]int) {
	series := []Series{{Kind: KindHeadline, Name: HeadlineOnCPU, Metric: MetricTotal}}
	if b.process {
		series = append(series, Series{Kind: KindHeadline, Name: HeadlineProcessCPU, Metric: MetricTotal})
	}
	heads := len(series)
	index := map[seriesKey1]int{}
	for _, r := range recs {
		for _, row := range r.Rows {
			if row.Name == OtherName && row.Package == "" && row.File == "" {
				continue
			}
			for _, m := range []string{MetricSelf, MetricTotal} {
				k := seriesKey1{row.Kind, row.Package, row.Name, row.File, m}
				if _, ok := index[k]; !ok {
					index[k] = -1
					series = append(series, Series{Kind: row.Kind, Name: row.Name, Package: row.Package, File: row.File, Metric: m})
				}
			}
		}
	}
	slices.SortStableFunc(series[heads:], func(a, b Series) int {
		return cmp.Or(cmp.Compare(kindOrder(a.Kind), kindOrder(b.Kind)), cmp.Compare(a.Package, b.Package),
			cmp.Compare(a.Name, b.Name), cmp.Compare(a.File, b.File), cmp.Compare(a.Metric, b.Metric))
	})
	for i, s := range series[heads:] {
		index[seriesKey1{s.Kind, s.Package, s.Name, s.File, s.Metric}] = i + heads
	}
	return series, index
}

// scale is a run's time in the series' unit: per unit of work when the
// series are.
func (b *builder) scale(r *Record, run int, ns float64) float64 {
	if b.perWork {
		return ns / r.Runs[run].Work
	}
	return ns
}

// fill puts record r, commit ci of the window, into its series: the
// headlines, each row's self and total per run, the runs' floors and
// sampling interval; a series with no row in r is absent there.
func (b *builder) fill(w *window, ci int, r *Record, index map[seriesKey1]int) {
	series := w.series
	for i := range series {
		series[i].Runs[ci] = make([]float64, len(r.Runs))
		w.absent[i][ci] = i >= w.heads
	}
	var dt float64
	for ri, run := range r.Runs {
		series[0].Runs[ci][ri] = b.scale(r, ri, float64(run.OnCPUUs)*1000)
		if b.process {
			series[1].Runs[ci][ri] = b.scale(r, ri, float64(run.ProcessCPUUs)*1000)
		}
		dt += b.scale(r, ri, run.IntervalUs*1000)
	}
	w.interval[ci] = dt / float64(len(r.Runs))
	if r.Floor != nil {
		w.below[ci] = make([]float64, len(r.Runs))
		for ri, f := range r.Floor.Us {
			w.below[ci][ri] = b.scale(r, ri, float64(f)*1000)
		}
	}
	for _, row := range r.Rows {
		for _, m := range []string{MetricSelf, MetricTotal} {
			i, ok := index[seriesKey1{row.Kind, row.Package, row.Name, row.File, m}]
			if !ok || i < 0 {
				continue
			}
			w.absent[i][ci] = false
			vals := row.SelfUs
			if m == MetricTotal && row.TotalUs != nil {
				vals = row.TotalUs
			}
			for ri := range vals {
				series[i].Runs[ci][ri] += b.scale(r, ri, float64(vals[ri])*1000)
			}
		}
	}
}

// settle takes each commit's mean of each series, a row absent from a
// record with a floor as below it there (its mean the floor's), and the
// window's mean on-CPU time per run.
func (w *window) settle() {
	var onCPU float64
	n := len(w.below)
	for ci := range n {
		for i := range w.series {
			s := &w.series[i]
			if w.absent[i][ci] && w.below[ci] != nil {
				if s.Below == nil {
					s.Below = make([]bool, n)
				}
				s.Below[ci] = true
				s.Means[ci] = mean(w.below[ci])
				s.Runs[ci] = nil
				continue
			}
			s.Means[ci] = mean(s.Runs[ci])
		}
		onCPU += w.series[0].Means[ci]
	}
	w.onCPU = onCPU / float64(n)
}

// censored is the stats.ChangePointOptions.Below of the window's series.
func (w *window) censored(s, ci int) []float64 {
	if w.absent[s][ci] {
		return w.below[ci]
	}
	return nil
}

// material is the floors a change must pass.
func material(opts Options, onCPU float64) func(before, after float64) bool {
	return func(before, after float64) bool {
		d := math.Abs(after - before)
		return d >= opts.MinDeltaPP/100*onCPU && (before == 0 || d >= opts.MinDeltaPct/100*math.Abs(before))
	}
}

// analyzeWhole tests every series of recs at once by the permutation test
// of runs.
func analyzeWhole(res *Result, b *builder, recs []*Record) error {
	w := b.build(recs)
	opts := res.Options
	var interval float64
	for _, v := range w.interval {
		interval += v
	}
	interval /= float64(len(recs))
	input := make([]stats.Series, len(w.series))
	for i, s := range w.series {
		input[i] = s.Runs
	}
	isMaterial := material(opts, w.onCPU)
	found := stats.ChangePoints(input, stats.ChangePointOptions{
		Alpha:        opts.Alpha,
		Permutations: opts.Permutations,
		Seed:         opts.Seed,
		MinSegment:   1,
		Material:     func(_ int, before, after float64) bool { return isMaterial(before, after) },
		// Sampling noise: a time T sampled every dt is N = T/dt samples,
		// Poisson, so its variance is dt·T.
		Floor: func(_ int, m float64) float64 { return interval * math.Max(m, 0) },
		Below: w.censored,
	})
	res.Tested = len(w.series)
	var changes []found1
	for _, cp := range found {
		changes = append(changes, found1{series: cp.Series, at: cp.At, before: cp.Before, after: cp.After, p: cp.P})
	}
	res.finish(w.series, w.heads, changes)
	return nil
}

// found1 is one series' change.
type found1 struct {
	series, at    int
	before, after float64
	p             float64
}

// finish fills res from the series and their changes: the change points
// by commit (the headlines first at each), the headlines and the series
// that changed.
func (res *Result) finish(series []Series, heads int, changes []found1) {
	byCommit := map[int]*ChangePoint{}
	for _, f := range changes {
		s := &series[f.series]
		s.ChangesAt = append(s.ChangesAt, f.at)
		slices.Sort(s.ChangesAt)
	}
	for _, f := range changes {
		s := &series[f.series]
		p := byCommit[f.at]
		if p == nil {
			c := res.Commits[f.at]
			p = &ChangePoint{Index: f.at, Commit: c.Commit, Date: c.Date, Message: c.Message}
			byCommit[f.at] = p
		}
		c := Change{Kind: s.Kind, Name: s.Name, Package: s.Package, File: s.File, Metric: s.Metric,
			BeforeNs: f.before, AfterNs: f.after, DeltaPct: math.NaN(), Verdict: "worse", P: f.p}
		c.BeforeBelow, c.AfterBelow = allBelow(s, f.at, -1), allBelow(s, f.at, +1)
		if f.before != 0 && !c.BeforeBelow && !c.AfterBelow {
			c.DeltaPct = 100 * (f.after - f.before) / f.before
		}
		switch {
		case f.before == 0 || c.BeforeBelow:
			c.Verdict = "new"
		case f.after == 0 || c.AfterBelow:
			c.Verdict = "gone"
		case f.after < f.before:
			c.Verdict = "better"
		}
		p.Changes = append(p.Changes, c)
	}
	for _, at := range slices.Sorted(maps.Keys(byCommit)) {
		p := byCommit[at]
		slices.SortStableFunc(p.Changes, func(a, b Change) int {
			return cmp.Or(cmp.Compare(kindOrder(a.Kind), kindOrder(b.Kind)), cmp.Compare(math.Abs(b.AfterNs-b.BeforeNs), math.Abs(a.AfterNs-a.BeforeNs)),
				cmp.Compare(a.Name, b.Name), cmp.Compare(a.Metric, b.Metric))
		})
		res.ChangePoints = append(res.ChangePoints, *p)
	}
	res.Headlines = series[:heads]
	seen := map[int]bool{}
	for _, cp := range res.ChangePoints {
		for _, c := range cp.Changes {
			if c.Kind == KindHeadline {
				continue
			}
			for i := heads; i < len(series); i++ {
				s := series[i]
				if !seen[i] && s.Kind == c.Kind && s.Package == c.Package && s.Name == c.Name && s.File == c.File && s.Metric == c.Metric {
					seen[i] = true
					res.Changed = append(res.Changed, s)
				}
			}
		}
	}
}

// allBelow says whether every commit of the stretch of s before (dir −1)
// or after (+1) the change at at, up to its neighbouring change points,
// had s below the floor.
func allBelow(s *Series, at, dir int) bool {
	if s.Below == nil {
		return false
	}
	lo, hi := 0, len(s.Means)
	for _, c := range s.ChangesAt {
		if c < at && dir < 0 {
			lo = max(lo, c)
		}
		if c > at && dir > 0 {
			hi = min(hi, c)
		}
	}
	if dir < 0 {
		hi = at
	} else {
		lo = at
	}
	for i := lo; i < hi; i++ {
		if !s.Below[i] && !math.IsNaN(s.Means[i]) {
			return false
		}
	}
	return hi > lo
}

// analyzeWindows finds the change points of a long history in windows of
// WindowCommits commits that overlap by half, reading each record once
// and holding only the window's.
//
// In a window, each series is its commits' means (a commit whose record
// left the row below its floor is the range from 0 to the floor), and
// binary segmentation splits it where the difference of the means of the
// two sides, as the censored ranges least allow, is largest against its
// standard error: the spread of the commits' means within sides, never
// below the sampling noise of the means (interval·T per run). With
// dozens of commits in a window the commits are the replicates, so drift
// shared by a commit's runs counts as noise, which the permutation of runs
// cannot see. A split's p-value is Student's t with n−2 degrees of
// freedom, multiplied by the number of splits, of series in the window
// and of windows, and by two (weighted Bonferroni: half of Alpha goes to
// the one or two headlines, half to the rows, so that the headline keeps
// its power): the false-alarm rate over the whole store stays at most
// Alpha. A window reports only the changes in its middle
// (the halves of the overlaps nearest it), so that each commit is judged
// in the one window where it lies furthest from an edge.
func analyzeWindows(res *Result, b *builder, src reader) error {
	n := src.Len()
	wl := min(WindowCommits, n) // a history shorter than a window is one
	starts := windowStarts(n, wl)
	acc := newWindowed(n)
	done := make(chan struct{})
	defer close(done)
	read := prefetch(src, done)
	var win []*Record
	next := 0
	for k, start := range starts {
		for len(win) > 0 && next-len(win) < start {
			win = win[1:]
		}
		for next < start+wl {
			r, err := read()
			if err != nil {
				return err
			}
			want := *b
			res.add(r, b)
			if *b != want {
				return nil // the caller starts again without what this record lacks
			}
			win = append(win, r)
			next++
		}
		// The window's middle: the halves of the overlaps nearest it.
		coreLo, coreHi := 0, n
		if k > 0 {
			coreLo = (starts[k-1] + wl + start) / 2
		}
		if k+1 < len(starts) {
			coreHi = (start + wl + starts[k+1]) / 2
		}
		w := b.build(win)
		acc.tested = max(acc.tested, len(w.series))
		acc.keep(w, k, start, coreLo, coreHi)
		acc.segment(w, res.Options, len(starts), start, coreLo, coreHi)
	}
	res.Tested = acc.tested
	series, found := acc.changedSeries()
	res.finish(series, len(acc.heads), found)
	return nil
}

// windowStarts are the first commits of the windows of wl commits over n,
// each overlapping the one before by half; the last ends at the last
// commit.
func windowStarts(n, wl int) []int {
	var starts []int
	for s := 0; s+wl < n; s += wl / 2 {
		starts = append(starts, s)
	}
	return append(starts, n-wl)
}

// windowed gathers, window by window, what a long history's analysis
// keeps of every commit: the headlines whole, each row's mean (4 bytes a
// commit, for the charts of the series that changed), each commit's
// floor, and the changes found in each window's middle.
type windowed struct {
	n      int
	heads  []Series
	all    map[string]*keptSeries
	floors []float64 // each commit's mean floor, NaN without one
	found  []keyedChange
	tested int
}

// keptSeries is a row's series as windowed keeps it: its names, and its
// means (NaN where the record has no row of it).
type keptSeries struct {
	s     Series
	means []float32
}

// keyedChange is a change found in a window, with its series' key.
type keyedChange struct {
	key string
	f   found1
}

func newWindowed(n int) *windowed {
	return &windowed{n: n, all: map[string]*keptSeries{}, floors: make([]float64, n)}
}

// keep records window k's (from commit start) headlines, rows' means and
// floors over the commits of its middle [coreLo, coreHi).
func (acc *windowed) keep(w *window, k, start, coreLo, coreHi int) {
	for si := range w.series {
		s := &w.series[si]
		if si < w.heads {
			if k == 0 {
				acc.heads = append(acc.heads, Series{Kind: s.Kind, Name: s.Name, Metric: s.Metric, Means: make([]float64, acc.n), Runs: make([][]float64, acc.n)})
			}
			for ci := coreLo - start; ci < coreHi-start; ci++ {
				acc.heads[si].Means[start+ci] = s.Means[ci]
				acc.heads[si].Runs[start+ci] = s.Runs[ci]
			}
			continue
		}
		key := seriesKey(*s)
		kp := acc.all[key]
		if kp == nil {
			kp = &keptSeries{s: Series{Kind: s.Kind, Name: s.Name, Package: s.Package, File: s.File, Metric: s.Metric}, means: make([]float32, acc.n)}
			for i := range kp.means {
				kp.means[i] = float32(math.NaN())
			}
			acc.all[key] = kp
		}
		for ci := coreLo - start; ci < coreHi-start; ci++ {
			if !w.absent[si][ci] {
				kp.means[start+ci] = float32(s.Means[ci])
			}
		}
	}
	for ci := coreLo - start; ci < coreHi-start; ci++ {
		acc.floors[start+ci] = math.NaN()
		if w.below[ci] != nil {
			acc.floors[start+ci] = mean(w.below[ci])
		}
	}
}

// segment segments every series of a window (one of windows, from commit
// start), moves each change to the commit of the window where most
// changed when its location allows (snapCuts), and keeps the changes in
// the window's middle [coreLo, coreHi).
func (acc *windowed) segment(w *window, opts Options, windows, start, coreLo, coreHi int) {
	isMaterial := material(opts, w.onCPU)
	// Weighted Bonferroni: half of alpha for the headlines, few and the
	// first question, half for the rows.
	factor := func(si int) float64 {
		if si < w.heads {
			return float64(2 * w.heads * windows)
		}
		return float64(2 * (len(w.series) - w.heads) * windows)
	}
	inputs := make([]seriesInput, len(w.series))
	cuts := make([][]int, len(w.series))
	ps := make([][]float64, len(w.series))
	support := map[int]int{}
	changed := 0
	for si := range w.series {
		inputs[si] = windowInput(&w.series[si], w)
		cuts[si], ps[si] = segmentWindow(inputs[si], isMaterial, factor(si), opts.Alpha)
		for _, c := range cuts[si] {
			support[c]++
		}
		if len(cuts[si]) > 0 {
			changed++
		}
	}
	slack := stats.LocationSlack(changed)
	for si := range w.series {
		if len(cuts[si]) == 0 {
			continue
		}
		snapCuts(inputs[si], cuts[si], support, slack)
		for _, f := range cutChanges(inputs[si], si, cuts[si], ps[si], isMaterial) {
			if f.at >= coreLo-start && f.at < coreHi-start {
				f.at += start
				acc.found = append(acc.found, keyedChange{seriesKey(w.series[si]), f})
			}
		}
	}
}

// changedSeries returns the series to report, each over every commit (the
// headlines, then those that changed, with their censored commits at the
// floor and marked), and the changes indexed into them.
func (acc *windowed) changedSeries() ([]Series, []found1) {
	series := acc.heads
	index := map[string]int{}
	for i, h := range acc.heads {
		index[seriesKey(h)] = i
	}
	var found []found1
	for _, c := range acc.found {
		i, ok := index[c.key]
		if !ok {
			kp := acc.all[c.key]
			s := kp.s
			s.Means = make([]float64, acc.n)
			for ci, v := range kp.means {
				switch {
				case !math.IsNaN(float64(v)):
					s.Means[ci] = float64(v)
				case !math.IsNaN(acc.floors[ci]):
					if s.Below == nil {
						s.Below = make([]bool, acc.n)
					}
					s.Below[ci], s.Means[ci] = true, acc.floors[ci]
				}
			}
			i = len(series)
			index[c.key] = i
			series = append(series, s)
		}
		c.f.series = i
		found = append(found, c.f)
	}
	return series, found
}

// seriesInput is a window's series as segmentation reads it: each
// commit's mean (the middle of its range where it was below the floor),
// half that range, and the sampling variance of the mean per ns of it.
type seriesInput struct{ mid, half, noise []float64 }

func windowInput(s *Series, w *window) seriesInput {
	n := len(s.Means)
	in := seriesInput{make([]float64, n), make([]float64, n), make([]float64, n)}
	for ci := range n {
		if s.Below != nil && s.Below[ci] {
			in.mid[ci], in.half[ci] = s.Means[ci]/2, s.Means[ci]/2
		} else {
			in.mid[ci] = s.Means[ci]
		}
		in.noise[ci] = w.interval[ci] / float64(max(len(w.series[0].Runs[ci]), 1))
	}
	return in
}

// segmentWindow finds the commits where a window's series changed, by
// binary segmentation of its commits' means (see analyzeWindows), and
// their adjusted p-values, in commit order; factor is the Bonferroni
// factor of series and windows.
func segmentWindow(in seriesInput, isMaterial func(before, after float64) bool, factor, alpha float64) (cuts []int, ps []float64) {
	segs := [][2]int{{0, len(in.mid)}}
	for len(segs) > 0 {
		lo, hi := segs[0][0], segs[0][1]
		segs = segs[1:]
		at, p := bestSplit(in.mid, in.half, in.noise, lo, hi, isMaterial)
		if at < 0 {
			continue
		}
		p = math.Min(1, p*float64(hi-lo-1)*factor)
		if p > alpha {
			continue
		}
		i, _ := slices.BinarySearch(cuts, at)
		cuts, ps = slices.Insert(cuts, i, at), slices.Insert(ps, i, p)
		segs = append(segs, [2]int{lo, at}, [2]int{at, hi})
	}
	return cuts, ps
}

// snapCuts moves each of a series' cuts to the commit of the window
// where the most series changed (support), if that commit is in its
// confidence set for the location: its t² within slack of the cut's,
// widened by twice the log of the ratio of the two commits' support (a
// prior that a change lies where others do), between the series'
// neighbouring cuts. A noisy function that changed with everything else
// often peaks a commit early or late.
//
// Where a change lies is a question of likelihood alone, so the t² that
// locate it differ from those that test it in two ways. They are taken
// whether or not a split's change is material: a small change peaking a
// few commits from where the others changed, too small to report there,
// moves there (and cutChanges then drops it) rather than staying where
// noise put it. And they share one variance, the cut's: with each split's
// own, moving the one commit that lies between the two levels changes the
// variance more than the fit, and a t² of 390 against 370 reads as a sure
// place where the likelihood ratio is 3.
func snapCuts(in seriesInput, cuts []int, support map[int]int, slack float64) {
	anySize := func(before, after float64) bool { return true }
	for k, at := range cuts {
		lo, hi := cutStretch(cuts, k, len(in.mid))
		t2 := splitT2(in.mid, in.half, in.noise, lo, hi, anySize, withinVariance(in.mid, lo, at, hi))
		if t2 == nil || t2[at-lo] < 0 {
			continue
		}
		best := at
		for j, v := range t2 {
			c := lo + j
			if v < 0 || support[c] <= support[best] {
				continue
			}
			// the prior odds of the commits, as many series changed at
			// each, widen the set: exp(−Δt²/2) is the likelihood ratio
			if v >= t2[at-lo]-slack-2*math.Log(float64(support[c])/float64(max(support[at], 1))) {
				best = c
			}
		}
		cuts[k] = best
	}
}

// withinVariance is the pooled variance of the commits' means about the
// means of the stretches [lo, at) and [at, hi) (the middles of censored
// ones).
func withinVariance(mid []float64, lo, at, hi int) float64 {
	ss := func(a, b int) float64 {
		var sum, sq float64
		for _, v := range mid[a:b] {
			sum, sq = sum+v, sq+v*v
		}
		return sq - sum*sum/float64(b-a)
	}
	if hi-lo < 3 {
		return 0
	}
	return math.Max(ss(lo, at)+ss(at, hi), 0) / float64(hi-lo-2)
}

// cutStretch is the stretch of commits around cut k: from the cut before
// it (or the first commit) to the cut after it (or past the last).
func cutStretch(cuts []int, k, n int) (lo, hi int) {
	if k > 0 {
		lo = cuts[k-1]
	}
	hi = n
	if k+1 < len(cuts) {
		hi = cuts[k+1]
	}
	return lo, hi
}

// cutChanges are a series' changes at its cuts, with the means of the
// stretches between them, those no longer material left out.
func cutChanges(in seriesInput, si int, cuts []int, ps []float64, isMaterial func(before, after float64) bool) []found1 {
	var out []found1
	for k, at := range cuts {
		lo, hi := cutStretch(cuts, k, len(in.mid))
		b, a, d := narrowestMeans(in.mid, in.half, lo, at, hi)
		if d == 0 || !isMaterial(b, a) {
			continue
		}
		out = append(out, found1{series: si, at: at, before: b, after: a, p: ps[k]})
	}
	return out
}

// narrowestMeans are the means of commits [lo, at) and [at, hi), each a
// range where commits were censored, at the ends nearest each other, and
// their difference (0 where the ranges meet).
func narrowestMeans(mid, half []float64, lo, at, hi int) (float64, float64, float64) {
	var s1, h1, s2, h2 float64
	for i := lo; i < at; i++ {
		s1, h1 = s1+mid[i], h1+half[i]
	}
	for i := at; i < hi; i++ {
		s2, h2 = s2+mid[i], h2+half[i]
	}
	n1, n2 := float64(at-lo), float64(hi-at)
	return stats.Narrowest(s1/n1, s2/n2, h1/n1, h2/n2)
}

// bestSplit returns the material split of commits [lo, hi) with the
// largest t², and its two-sided p-value (Student's t, n−2 degrees of
// freedom); (-1, 1) when none is material or the segment is too short.
func bestSplit(mid, half, noise []float64, lo, hi int, isMaterial func(before, after float64) bool) (int, float64) {
	t2s := splitT2(mid, half, noise, lo, hi, isMaterial, 0)
	best, bestAt := 0.0, -1
	for j, t2 := range t2s {
		if t2 > best {
			best, bestAt = t2, lo+j
		}
	}
	if bestAt < 0 {
		return -1, 1
	}
	if math.IsInf(best, 1) {
		return bestAt, 0
	}
	return bestAt, 2 * (1 - stats.TCDF(math.Sqrt(best), float64(hi-lo-2)))
}

// splitT2 returns the t² of each split of commits [lo, hi) (index at−lo
// for the split before commit at), −1 where the split is not material
// or the ranges of the censored means meet; nil for fewer than 3 commits.
// Each split's variance of a commit's mean is its own estimate (the two
// stretches' pooled variance), or commitVar for every split when it is
// positive; never below the sampling noise.
func splitT2(mid, half, noise []float64, lo, hi int, isMaterial func(before, after float64) bool, commitVar float64) []float64 {
	n := hi - lo
	if n < 3 {
		return nil
	}
	out := make([]float64, n)
	out[0] = -1
	var sum, sumSq, hAll, zAll float64
	for i := lo; i < hi; i++ {
		sum += mid[i]
		sumSq += mid[i] * mid[i]
		hAll += half[i]
		zAll += noise[i]
	}
	var s1, q1, h1, z1 float64 // prefix sums of mid, mid², half, noise
	for at := lo + 1; at < hi; at++ {
		out[at-lo] = -1
		s1 += mid[at-1]
		q1 += mid[at-1] * mid[at-1]
		h1 += half[at-1]
		z1 += noise[at-1]
		n1, n2 := float64(at-lo), float64(hi-at)
		m1, m2 := s1/n1, (sum-s1)/n2
		within := (q1 - n1*m1*m1) + (sumSq - q1 - n2*m2*m2)
		v := math.Max(within, 0) / float64(n-2)
		if commitVar > 0 {
			v = commitVar
		}
		se2 := v * (1/n1 + 1/n2)
		c1, c2, d := stats.Narrowest(m1, m2, h1/n1, (hAll-h1)/n2)
		if d == 0 {
			continue // the censored means' ranges meet
		}
		// the sampling noise of the means: interval·T per run
		floor := z1/n1*math.Max(c1, 0)/n1 + (zAll-z1)/n2*math.Max(c2, 0)/n2
		se2 = math.Max(se2, floor)
		if !isMaterial(c1, c2) {
			continue
		}
		out[at-lo] = math.Inf(1)
		if se2 > 0 {
			out[at-lo] = d * d / se2
		}
	}
	return out
}

// prefetch reads src's records in order on as many goroutines as there
// are CPUs (at most 2), each a few records ahead: a record's decoding is
// most of a long history's time. The function it returns gives the next
// record each call; closing done stops the readers.
func prefetch(src reader, done <-chan struct{}) func() (*Record, error) {
	type read struct {
		r   *Record
		err error
	}
	k := min(runtime.GOMAXPROCS(0), 2)
	chans := make([]chan read, k)
	for w := range chans {
		chans[w] = make(chan read, 4)
		go func() {
			for i := w; i < src.Len(); i += k {
				r, err := src.Read(i)
				select {
				case chans[w] <- read{r, err}:
				case <-done:
					return
				}
				if err != nil {
					return
				}
			}
		}()
	}
	next := 0
	return func() (*Record, error) {
		got := <-chans[next%k]
		next++
		return got.r, got.err
	}
}
