// Package diff builds profdiff's report over one or two sides (a single
// profile is a comparison with one side): the sides' headlines, and rows by
// package, function and file with their deltas and a verdict on noise. It
// renders the report as text, markdown or JSON. The computation never
// prints; the renderers only read its result.
package diff

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/profdiff/profdiff/analyze"
)

// Side is one side of a comparison: one profile, or several runs of the same
// workload.
type Side struct {
	Name   string
	Tables []*analyze.Table // one per run
	// Work is the work each run did (requests served, iterations), 0 when
	// not given; values are then also reported per unit of work.
	Work float64
}

// SideSummary is a side's headline: the mean of its runs' summaries (for
// one profile, its summary), so that sides of different run counts compare
// and a side's rows (per-run means too) add up to its on-CPU time.
type SideSummary struct {
	Name    string
	Files   []string
	Format  analyze.Format
	Threads []string // for traces: the thread each run was taken from
	// SampleType is the pprof sample type the time was taken from.
	SampleType string
	// Symbolication is the side's source-map coverage, nil when maps were
	// not applied.
	Symbolication *analyze.Symbolication
	Runs          int
	// Work is the work per run (0: not given).
	Work float64
	analyze.Summary
}

// OnCPUPerWork returns the side's on-CPU nanoseconds per unit of work, or 0
// when no work was given.
func (s SideSummary) OnCPUPerWork() float64 {
	if s.Work <= 0 {
		return 0
	}
	return float64(s.OnCPUNs) / s.Work
}

// Verdict says whether a difference between the sides is real.
type Verdict uint8

// The verdicts.
const (
	VerdictNone   Verdict = iota // one side: nothing compared
	VerdictSame                  // "~": not distinguishable from noise
	VerdictBetter                // less time after
	VerdictWorse                 // more time after
	VerdictNew                   // only after
	VerdictGone                  // only before
)

var verdictNames = [...]string{"", "~", "better", "worse", "new", "gone"}

// String returns the verdict as printed: "better", "worse", "~", "new",
// "gone", or "" for none.
func (v Verdict) String() string { return verdictNames[v] }

// Real reports whether the verdict says the difference is real.
func (v Verdict) Real() bool { return v >= VerdictBetter }

// Change is a comparison of one quantity between two sides.
type Change struct {
	Delta float64 // after - before, in the quantity's unit (ns, or ns per unit of work)
	// DeltaPP is the change in percentage points of on-CPU time (NaN where
	// it has no meaning, as for on-CPU itself).
	DeltaPP float64
	// DeltaPct is the relative change in percent (NaN when before is 0).
	DeltaPct float64
	Verdict  Verdict
	// P is the p-value after correction for the number of rows tested,
	// NaN when no test ran.
	P float64
	// appeared and vanished say the key has no time at all (not even
	// total) before, or after: a real change is then new or gone.
	appeared, vanished bool
}

// Row is one key's self and total time, one number per side, in
// nanoseconds (summed over the side's runs), with the comparison of the
// ranked metric when there are two sides.
type Row struct {
	Key   analyze.Key
	Self  []int64
	Total []int64
	// Change compares the metric the report is sorted by (self time unless
	// Options.SortTotal), per unit of work when work was given.
	Change Change
	// runs holds the metric per side and run, for the noise test.
	runs [][]float64
}

// Headline compares the sides' on-CPU time.
type Headline struct {
	OnCPU Change
	// PerWork compares on-CPU time per unit of work; Verdict is VerdictNone
	// when work was not given.
	PerWork Change
}

// Report is what the renderers write.
type Report struct {
	Sides     []SideSummary
	Headline  Headline
	Packages  []Row
	Functions []Row
	Files     []Row
	Rules     []RuleResult
	Options   Options
	Warnings  []string
}

// Compared reports whether the report compares two sides.
func (r *Report) Compared() bool { return len(r.Sides) == 2 }

// Options tune a comparison.
type Options struct {
	// Alpha is the significance level after correction; 0 means 0.05.
	Alpha float64
	// MinDeltaPP and MinDeltaPct are the smallest changes, in percentage
	// points of on-CPU time and in percent, that can be called real; a
	// row must exceed both. Negative means the default (0.1pp and 5%).
	MinDeltaPP, MinDeltaPct float64
	// SortTotal ranks and judges rows by total time instead of self time.
	SortTotal bool
	// RunNoise is the prior for the run-to-run variation of a row's time
	// (a coefficient of variation); 0 means 0.15. See noise.go.
	RunNoise float64
	// WorkUnit names the unit of work ("run", "request"); "" for "unit".
	WorkUnit string
	// Rules are --fail-on rules, judged after the comparison.
	Rules []Rule
}

func (o Options) withDefaults() Options {
	if o.Alpha <= 0 {
		o.Alpha = 0.05
	}
	if o.MinDeltaPP < 0 {
		o.MinDeltaPP = 0.1
	}
	if o.MinDeltaPct < 0 {
		o.MinDeltaPct = 5
	}
	if o.RunNoise <= 0 {
		o.RunNoise = defaultRunNoise
	}
	if o.WorkUnit == "" {
		o.WorkUnit = "unit"
	}
	return o
}

// DefaultOptions returns the options a comparison uses when none are given.
func DefaultOptions() Options { return Options{MinDeltaPP: -1, MinDeltaPct: -1}.withDefaults() }

// Compare builds the report for one side or two (before, after). Each
// side's runs are kept apart for the noise test and summed for the tables.
func Compare(sides []Side, opts Options) (*Report, error) {
	if len(sides) == 0 || len(sides) > 2 {
		return nil, fmt.Errorf("a report has one or two sides, not %d", len(sides))
	}
	opts = opts.withDefaults()
	r := &Report{Options: opts}
	for _, s := range sides {
		if len(s.Tables) == 0 {
			return nil, fmt.Errorf("side %s has no profiles", s.Name)
		}
		sum := SideSummary{Name: s.Name, Runs: len(s.Tables), Format: s.Tables[0].Format, SampleType: s.Tables[0].SampleType, Work: s.Work}
		for _, t := range s.Tables {
			if t.Format != sum.Format {
				return nil, fmt.Errorf("side %s mixes formats: %s is %s, %s is %s", s.Name, s.Tables[0].File, sum.Format.Describe(), t.File, t.Format.Describe())
			}
			sum.Files = append(sum.Files, t.File)
			if t.Thread != "" {
				sum.Threads = append(sum.Threads, t.Thread)
			}
			add(&sum.Summary, t.Summary)
			if t.Symbolication != nil {
				if sum.Symbolication == nil {
					sum.Symbolication = &analyze.Symbolication{}
				}
				sum.Symbolication.Add(t.Symbolication)
			}
			r.Warnings = append(r.Warnings, prefixed(t.File, t.Warnings)...)
		}
		if sum.Samples > 0 {
			// The mean interval of the side is over all its samples.
			var weighted int64
			for _, t := range s.Tables {
				weighted += t.Summary.IntervalNs * t.Summary.Samples
			}
			sum.IntervalNs = weighted / sum.Samples
		}
		n := int64(sum.Runs)
		sum.WallNs, sum.SampledNs, sum.OnCPUNs = sum.WallNs/n, sum.SampledNs/n, sum.OnCPUNs/n
		sum.IdleNs, sum.ProgramNs, sum.GCNs, sum.Samples = sum.IdleNs/n, sum.ProgramNs/n, sum.GCNs/n, sum.Samples/n
		r.Sides = append(r.Sides, sum)
	}
	r.Packages = join(sides, func(t *analyze.Table) []analyze.Row { return t.Packages }, false, opts.SortTotal)
	r.Functions = join(sides, func(t *analyze.Table) []analyze.Row { return t.Functions }, true, opts.SortTotal)
	r.Files = join(sides, func(t *analyze.Table) []analyze.Row { return t.Files }, false, opts.SortTotal)
	// Rows show each side's mean per run: sides may differ in runs.
	for _, rows := range [][]Row{r.Packages, r.Functions, r.Files} {
		for i := range rows {
			for s := range sides {
				n := int64(len(sides[s].Tables))
				rows[i].Self[s] /= n
				rows[i].Total[s] /= n
			}
		}
	}
	if len(sides) == 2 {
		r.Warnings = append(r.Warnings, sideWarnings(r.Sides, sides)...)
		judge(r, sides, opts)
		r.Rules = evaluate(r, opts.Rules)
	}
	sortRows(r, opts.SortTotal)
	return r, nil
}

func add(dst *analyze.Summary, s analyze.Summary) {
	dst.WallNs += s.WallNs
	dst.SampledNs += s.SampledNs
	dst.OnCPUNs += s.OnCPUNs
	dst.IdleNs += s.IdleNs
	dst.ProgramNs += s.ProgramNs
	dst.GCNs += s.GCNs
	dst.Samples += s.Samples
}

func prefixed(file string, ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = file + ": " + w
	}
	return out
}

// join sums each side's runs and lines the sides up. Functions join by
// package, name and file, since edits move lines between builds; where that
// is ambiguous (two anonymous functions in a file, a name used twice) by
// start line and column as well.
func join(sides []Side, rowsOf func(*analyze.Table) []analyze.Row, byName, total bool) []Row {
	n := len(sides)
	keyOf := func(k analyze.Key) analyze.Key { return k }
	if byName {
		// Find the (package, name, file) triples with more than one start
		// position on some side: only those join by position too.
		type base struct{ pkg, fn, file string }
		type seen struct {
			pos   [2]int32 // the first position met
			multi bool     // another position was met on the same side
		}
		ambiguous := map[base]bool{}
		for _, s := range sides {
			first := map[base]seen{}
			for _, t := range s.Tables {
				for _, r := range rowsOf(t) {
					b, pos := base{r.Key.Package, r.Key.Function, r.Key.File}, [2]int32{r.Key.Line, r.Key.Column}
					if f, ok := first[b]; !ok {
						first[b] = seen{pos: pos}
					} else if !f.multi && f.pos != pos {
						first[b] = seen{pos: f.pos, multi: true}
						ambiguous[b] = true
					}
				}
			}
		}
		keyOf = func(k analyze.Key) analyze.Key {
			if len(ambiguous) > 0 && ambiguous[base{k.Package, k.Function, k.File}] {
				return k
			}
			k.Line, k.Column = 0, 0
			return k
		}
	}
	// At least this many rows: size the index and the list for them, and
	// carve each row's slices out of shared blocks rather than allocating
	// five per row.
	least, runs := 0, 0
	for _, s := range sides {
		runs += len(s.Tables)
		for _, t := range s.Tables {
			least = max(least, len(rowsOf(t)))
		}
	}
	index := make(map[analyze.Key]int, least)
	out := make([]Row, 0, least)
	const block = 1024 // rows per block
	var sums []int64
	var perRun []float64
	var perSide [][]float64
	for si, s := range sides {
		for ri, t := range s.Tables {
			for _, r := range rowsOf(t) {
				jk := keyOf(r.Key)
				i, ok := index[jk]
				if !ok {
					i = len(out)
					index[jk] = i
					if len(perSide) < n {
						sums, perRun, perSide = make([]int64, 2*n*block), make([]float64, runs*block), make([][]float64, n*block)
					}
					row := Row{Key: r.Key, Self: sums[:n:n], Total: sums[n : 2*n : 2*n], runs: perSide[:n:n]}
					sums, perSide = sums[2*n:], perSide[n:]
					for sj := range sides {
						k := len(sides[sj].Tables)
						row.runs[sj] = perRun[:k:k]
						perRun = perRun[k:]
					}
					out = append(out, row)
				}
				out[i].Self[si] += r.Self
				out[i].Total[si] += r.Total
				v := r.Self
				if total {
					v = r.Total
				}
				out[i].runs[si][ri] += float64(v)
			}
		}
	}
	return out
}

// metric returns a row's ranked value on a side.
func metric(r Row, side int, total bool) int64 {
	if total {
		return r.Total[side]
	}
	return r.Self[side]
}

// sortRows orders rows by the size of the change (two sides) or by the
// metric (one side), then by key.
func sortRows(r *Report, total bool) {
	last := len(r.Sides) - 1
	by := func(a, b Row) int {
		if r.Compared() {
			if c := cmp.Compare(math.Abs(b.Change.Delta), math.Abs(a.Change.Delta)); c != 0 {
				return c
			}
		}
		if c := cmp.Compare(metric(b, last, total), metric(a, last, total)); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Total[last], a.Total[last]); c != 0 {
			return c
		}
		return analyze.CompareKeys(a.Key, b.Key)
	}
	slices.SortFunc(r.Packages, by)
	slices.SortFunc(r.Functions, by)
	slices.SortFunc(r.Files, by)
}

// ByTotal returns a copy of rows sorted by the last side's total time, then
// self time, then key.
func ByTotal(rows []Row) []Row {
	out := slices.Clone(rows)
	slices.SortFunc(out, func(a, b Row) int {
		last := len(a.Total) - 1
		if c := cmp.Compare(b.Total[last], a.Total[last]); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Self[last], a.Self[last]); c != 0 {
			return c
		}
		return analyze.CompareKeys(a.Key, b.Key)
	})
	return out
}

// sideWarnings says what makes two sides hard to compare.
func sideWarnings(s []SideSummary, sides []Side) []string {
	var w []string
	a, b := s[0], s[1]
	if a.Format != b.Format {
		w = append(w, fmt.Sprintf("the sides differ in format: %s before, %s after", a.Format.Describe(), b.Format.Describe()))
	}
	if a.IntervalNs > 0 && b.IntervalNs > 0 {
		if ratio := float64(b.IntervalNs) / float64(a.IntervalNs); ratio > 1.2 || ratio < 1/1.2 {
			w = append(w, fmt.Sprintf("the sides differ in sampling interval: %s before, %s after", Duration(a.IntervalNs), Duration(b.IntervalNs)))
		}
	}
	if threadNames(a.Threads) != threadNames(b.Threads) {
		w = append(w, fmt.Sprintf("the sides were taken from different threads or processes: %v before, %v after", a.Threads, b.Threads))
	}
	if sides[0].Work == 0 && sides[1].Work == 0 && a.WallNs > 0 && b.WallNs > 0 {
		wa, wb := float64(a.WallNs), float64(b.WallNs)
		if wa/wb > 2 || wb/wa > 2 {
			w = append(w, fmt.Sprintf("the runs differ in duration by more than 2x (%s before, %s after): if they did different amounts of work, give it with --work-before and --work-after", Duration(int64(wa)), Duration(int64(wb))))
		}
	}
	return w
}

// threadNames reduces thread descriptions to their names, which is what
// must agree between builds (process and thread ids never do).
func threadNames(ts []string) string {
	seen := map[string]bool{}
	var names []string
	for _, t := range ts {
		name := t
		if i := strings.IndexByte(t, '('); i > 0 {
			name = strings.TrimSpace(t[:i])
		}
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return fmt.Sprint(names)
}
