package history

import (
	"bufio"
	"cmp"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/profdiff/profdiff/stats"
)

// Options tune the search for change points.
type Options struct {
	// Alpha is the family-wise false-alarm rate over every series tested.
	Alpha float64
	// MinDeltaPct and MinDeltaPP are the floors a change must pass: its
	// relative size, and its size in percentage points of the mean on-CPU
	// time.
	MinDeltaPct, MinDeltaPP float64
	// Permutations is the number of permutations of the test; 0 means
	// DefaultPermutations.
	Permutations int
	// Seed makes the permutations, and so the result, reproducible.
	Seed uint64
}

// DefaultPermutations is the permutation count when Options leave it 0.
const DefaultPermutations = 2000

// Metric names what a series measures of its row.
const (
	MetricSelf  = "self"
	MetricTotal = "total"
)

// KindHeadline is the kind of the series of on-CPU time per run (or per
// unit of work).
const KindHeadline = "headline"

// Series is one measure over the commits: a row's self or total time, or
// the headline.
type Series struct {
	Kind, Name, Package, File, Metric string
	// Means are the mean per run of each commit, in nanoseconds (per unit
	// of work when every run gave its work); NaN where the commit has no
	// runs of it (a headline never).
	Means []float64
	// Runs are each commit's values, one per run.
	Runs [][]float64
	// ChangesAt are the indexes of the commits where it changed.
	ChangesAt []int
}

// Change is a series' change at a change point.
type Change struct {
	Kind, Name, Package, File, Metric string
	// BeforeNs and AfterNs are the means of the stretches before and
	// after the change point (up to the series' neighbouring change
	// points).
	BeforeNs, AfterNs float64
	// DeltaPct is the relative change, NaN from zero.
	DeltaPct float64
	// Verdict is "better" or "worse", or "new" or "gone" for a row with
	// no time before or after.
	Verdict string
	// P is the p-value, adjusted over every series tested.
	P float64
}

// ChangePoint is a commit at which at least one series changed.
type ChangePoint struct {
	// Index is the commit's position in Result.Records.
	Index                 int
	Commit, Date, Message string
	Changes               []Change
}

// Result is a history: its commits in order, where things changed, and
// the series of what changed.
type Result struct {
	Records []*Record
	// Per is what times are per: "run", or the work unit.
	Per          string
	ChangePoints []ChangePoint
	// Headline is the on-CPU series; Changed the other series that changed
	// somewhere, in the order of their first change point.
	Headline Series
	Changed  []Series
	// Tested is the number of series tested.
	Tested  int
	Options Options
}

// Order returns the store's records oldest first: by the commits listed
// one per line in the file at orderPath (as `git rev-list --reverse`
// writes them; records of commits it does not list are left out, and a
// listed commit may be given by a prefix of its hash), or by date then
// commit when orderPath is "".
func Order(s *Store, orderPath string) ([]*Record, error) {
	recs := slices.Clone(s.Records)
	if orderPath == "" {
		slices.SortFunc(recs, func(a, b *Record) int {
			if c := cmp.Compare(a.Date, b.Date); c != 0 {
				return c
			}
			return cmp.Compare(a.Commit, b.Commit)
		})
		return recs, nil
	}
	f, err := os.Open(orderPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*Record
	used := map[*Record]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.TrimSpace(sc.Text())
		if c == "" || strings.HasPrefix(c, "#") {
			continue
		}
		for _, r := range recs {
			if !used[r] && (r.Commit == c || strings.HasPrefix(c, r.Commit) || strings.HasPrefix(r.Commit, c)) {
				out = append(out, r)
				used[r] = true
				break
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", orderPath, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: lists none of the store's %d commits", orderPath, len(recs))
	}
	return out, nil
}

// Analyze finds the change points of the records, in the order given:
// every series (the headline; each package's, function's and file's self
// and total time) is tested together, with the family-wise false-alarm
// rate held at opts.Alpha across them all, and a change must pass the
// floors to be reported.
func Analyze(recs []*Record, opts Options) (*Result, error) {
	if len(recs) == 0 {
		return nil, fmt.Errorf("no records")
	}
	if opts.Permutations <= 0 {
		opts.Permutations = DefaultPermutations
	}
	res := &Result{Records: recs, Per: "run", Options: opts}
	perWork := recs[0].WorkUnit != ""
	for _, r := range recs {
		for _, run := range r.Runs {
			if (r.WorkUnit != "") != perWork || (perWork && run.Work <= 0) {
				perWork = false
			}
		}
	}
	if perWork {
		res.Per = recs[0].WorkUnit
	}
	scale := func(r *Record, run int, ns float64) float64 {
		if perWork {
			return ns / r.Runs[run].Work
		}
		return ns
	}
	// Every series, the headline first, then by key.
	series := []Series{{Kind: KindHeadline, Name: "on-CPU", Metric: MetricTotal}}
	index := map[string]int{}
	for _, r := range recs {
		for _, row := range r.Rows {
			if row.Name == OtherName && row.Package == "" && row.File == "" {
				continue
			}
			for _, m := range []string{MetricSelf, MetricTotal} {
				k := row.Key() + "\x00" + m
				if _, ok := index[k]; !ok {
					index[k] = -1
					series = append(series, Series{Kind: row.Kind, Name: row.Name, Package: row.Package, File: row.File, Metric: m})
				}
			}
		}
	}
	slices.SortStableFunc(series[1:], func(a, b Series) int {
		return cmp.Or(cmp.Compare(kindOrder(a.Kind), kindOrder(b.Kind)), cmp.Compare(a.Package, b.Package),
			cmp.Compare(a.Name, b.Name), cmp.Compare(a.File, b.File), cmp.Compare(a.Metric, b.Metric))
	})
	for i, s := range series[1:] {
		index[seriesKey(s)] = i + 1
	}
	for i := range series {
		series[i].Runs = make([][]float64, len(recs))
		series[i].Means = make([]float64, len(recs))
	}
	intervals := make([]float64, len(recs)) // ns, per unit of work when per work
	for ci, r := range recs {
		for i := range series {
			series[i].Runs[ci] = make([]float64, len(r.Runs))
		}
		var dt float64
		for ri, run := range r.Runs {
			series[0].Runs[ci][ri] = scale(r, ri, float64(run.OnCPUUs)*1000)
			dt += scale(r, ri, run.IntervalUs*1000)
		}
		intervals[ci] = dt / float64(len(r.Runs))
		for _, row := range r.Rows {
			for _, m := range []string{MetricSelf, MetricTotal} {
				i, ok := index[row.Key()+"\x00"+m]
				if !ok || i < 0 {
					continue
				}
				vals := row.SelfUs
				if m == MetricTotal {
					vals = row.TotalUs
				}
				for ri := range vals {
					series[i].Runs[ci][ri] += scale(r, ri, float64(vals[ri])*1000)
				}
			}
		}
	}
	var onCPU, interval float64
	for ci := range recs {
		for i := range series {
			series[i].Means[ci] = mean(series[i].Runs[ci])
		}
		onCPU += series[0].Means[ci]
		interval += intervals[ci]
	}
	onCPU /= float64(len(recs))
	interval /= float64(len(recs))
	input := make([]stats.Series, len(series))
	for i, s := range series {
		input[i] = s.Runs
	}
	found := stats.ChangePoints(input, stats.ChangePointOptions{
		Alpha:        opts.Alpha,
		Permutations: opts.Permutations,
		Seed:         opts.Seed,
		MinSegment:   1,
		Material: func(_ int, before, after float64) bool {
			d := math.Abs(after - before)
			return d >= opts.MinDeltaPP/100*onCPU && (before == 0 || d >= opts.MinDeltaPct/100*math.Abs(before))
		},
		// Sampling noise: a time T sampled every dt is N = T/dt samples,
		// Poisson, so its variance is dt·T.
		Floor: func(_ int, m float64) float64 { return interval * math.Max(m, 0) },
	})
	res.Tested = len(series)
	byCommit := map[int]*ChangePoint{}
	for _, cp := range found {
		s := &series[cp.Series]
		s.ChangesAt = append(s.ChangesAt, cp.At)
		p := byCommit[cp.At]
		if p == nil {
			r := recs[cp.At]
			p = &ChangePoint{Index: cp.At, Commit: r.Commit, Date: r.Date, Message: r.Message}
			byCommit[cp.At] = p
		}
		c := Change{Kind: s.Kind, Name: s.Name, Package: s.Package, File: s.File, Metric: s.Metric,
			BeforeNs: cp.Before, AfterNs: cp.After, DeltaPct: math.NaN(), Verdict: "worse", P: cp.P}
		if cp.Before != 0 {
			c.DeltaPct = 100 * (cp.After - cp.Before) / cp.Before
		}
		switch {
		case cp.Before == 0:
			c.Verdict = "new"
		case cp.After == 0:
			c.Verdict = "gone"
		case cp.After < cp.Before:
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
	res.Headline = series[0]
	for _, cp := range res.ChangePoints {
		for _, c := range cp.Changes {
			if c.Kind == KindHeadline {
				continue
			}
			i := index[c.Kind+"\x00"+c.Package+"\x00"+c.Name+"\x00"+c.File+"\x00"+c.Metric]
			if i > 0 && !slices.ContainsFunc(res.Changed, func(s Series) bool { return seriesKey(s) == seriesKey(series[i]) }) {
				res.Changed = append(res.Changed, series[i])
			}
		}
	}
	return res, nil
}

func seriesKey(s Series) string {
	return s.Kind + "\x00" + s.Package + "\x00" + s.Name + "\x00" + s.File + "\x00" + s.Metric
}

// kindOrder lists the headline first, then packages, functions and files.
func kindOrder(kind string) int {
	switch kind {
	case KindHeadline:
		return 0
	case KindPackage:
		return 1
	case KindFunction:
		return 2
	}
	return 3
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
