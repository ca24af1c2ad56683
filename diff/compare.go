// Package diff builds profdiff's comparison over any number of sides, each
// side other than the base judged against it (a single profile is a
// comparison with one side and no variant; two sides are a base and one
// variant), computed once and judged whole:
// the sides' headlines with run counts and spread; rows by package,
// function and file, each with a judged change of self and of total time;
// the calls between functions; the call tree merged over runs and sides;
// and the paths through that tree that carry the real changes. A report has
// one shape whatever its count of sides: its sides, headline and rows
// carry one change per variant (Measure.ChangeFor), and each variant's
// calls, tree, paths, rules and lines are a value (Report.Variants),
// computed as the pair of the base and that side. Renderers
// (text, markdown, JSON, the explorer, the flame graph, the exports) read
// the Report and compute no comparison of their own. The computation never
// prints.
package diff

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/internal/units"
)

// Side is one side of a comparison: one profile, or several runs of the same
// workload.
type Side struct {
	Name   string
	Tables []*analyze.Table // one per run
	// Tree is the runs' call trees folded as they were read (their
	// tables' own are then empty); nil: the tables' own are merged.
	Tree *FoldedTree
	// Work is the work each run did (requests served, iterations), 0 when
	// not given; values are then also reported per unit of work.
	Work float64
	// Root is the directory the side's files are keyed below (see
	// Relocate), "" when they keep their paths.
	Root string
	// Source says where the side's tables come from when not from its
	// runs' profiles ("record of abc1234 from the store"); the summary
	// shows it in place of the files.
	Source string
	// Warnings are about the side as a whole; the report carries them.
	Warnings []analyze.Warning
	// Formed says how the runs were formed when that is not one file each
	// ("3 runs, one per instance", "6 windows of 10m" of a server query);
	// "" for runs read from files.
	Formed string
	// ProcessCPUNs is, per run (in the order of Tables), the user and
	// system CPU time the operating system charged the run's processes
	// (profdiff record measures it); nil when not known for every run.
	ProcessCPUNs []int64
	// Resources are the measures the operating system took of the side's
	// runs (profdiff record's record.json: wall, user, sys, max RSS, ...),
	// each judged against the base's (see Report.Resources); nil when
	// not recorded.
	Resources []ResourceRuns
}

// SideSummary is a side's headline: the mean of its runs' summaries (for
// one profile, its summary), so that sides of different run counts compare
// and a side's rows (per-run means too) add up to its on-CPU time.
type SideSummary struct {
	Name    string
	Files   []string
	Format  analyze.Format
	Threads []analyze.Thread // for traces: the thread each run was taken from
	// SampleType is the pprof sample type the time was taken from.
	SampleType string
	// Symbolication is the side's source-map coverage, summed over its
	// runs, nil when maps were not applied.
	Symbolication *analyze.Symbolication
	Runs          int
	// Work is the work per run (0: not given).
	Work float64
	// Root is the directory the side's files are shown and matched
	// below, with its trailing "/"; "" when they keep their paths.
	Root string
	// Formed is Side.Formed: how the runs were formed, "" for files.
	Formed string
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

// Change is the comparison of one quantity between two sides.
type Change struct {
	Delta float64 // after - before, in the quantity's unit (ns per run, or per unit of work)
	// DeltaPP is the change in percentage points of on-CPU time (NaN where
	// it has no meaning, as for on-CPU itself).
	DeltaPP float64
	// DeltaPct is the relative change in percent (NaN when before is 0).
	DeltaPct float64
	// P is the p-value after correction for the number of rows tested
	// (and of variants judged against the same base), NaN when no test ran.
	P float64
	// Side is the index of the side judged against the base.
	Side int32
	// RunsNeeded is, for a change that passes the minimum effect but not
	// the test, about how many runs a side would settle it at the spread
	// the runs show (pooled with the prior); 0 when that does not apply
	// or would take more than maxRunsNeeded.
	RunsNeeded uint8 // at most maxRunsNeeded; a byte keeps Change at 40 bytes (a tree holds two per node)
	Verdict    Verdict
}

// Measure is one quantity (a row's self or total time, on-CPU time) on
// every side, in nanoseconds per run, or per unit of work when both sides
// give their work (Report.PerWork).
type Measure struct {
	// Mean is each side's mean over its runs.
	Mean []float64
	// Runs holds each side's value in each run.
	Runs [][]float64
	// Change compares the two sides of a report of two sides with the
	// base first; its Verdict is VerdictNone for one side, and where
	// VsBase holds the changes. Read a side's change with ChangeFor,
	// which answers for any count of sides.
	Change Change
	// VsBase holds one change per side other than the base, in side order,
	// each judged against the base (Report.Base), for three sides or more
	// or a base after its variant; nil for one side, and for two sides
	// with the base first, whose one change is Change (a report holds
	// hundreds of thousands of measures: one change each, not two).
	VsBase []Change
}

// Spread returns a side's standard deviation over its runs (σ, as users
// write "3.13s ±0.18s"); NaN with a single run. It is computed when asked
// for: a report holds hundreds of thousands of measures, few of them shown.
func (m *Measure) Spread(side int) float64 { return spread(m.Runs[side]) }

// Row is one key's self and total time, each judged.
type Row struct {
	Key analyze.Key
	// Renamed is the after side's function name when the row joins two
	// names found at the same position of the same file on either side (a
	// minified function renamed between builds); "" otherwise.
	Renamed string
	// Aliases are other names the function was recorded under at the same
	// position (V8 named it two ways), joined into this row.
	Aliases     []string
	Self, Total Measure
	// present says on which sides the key has time at all.
	present [2]bool
	// samples are the row's self and total counts of samples per run,
	// when every run takes one sample per tick (comparison.runSamples);
	// nil otherwise. Its verdicts are judged on them (see noise.go).
	samples *rowSamples
}

// rowSamples are a row's counts of samples: Self and Total hold, per side
// and run, the samples its self and total time are made of.
type rowSamples struct{ Self, Total Measure }

// Real reports whether the row's self or total change is real.
func (r *Row) Real() bool { return r.Self.Change.Verdict.Real() || r.Total.Change.Verdict.Real() }

// Headline compares the sides' on-CPU time.
type Headline struct {
	OnCPU Measure
	// PerWork is on-CPU time per unit of work, with Mean nil when work was
	// not given on both sides.
	PerWork Measure
	// ProcessCPU is each run's process CPU time (Side.ProcessCPUNs), with
	// Mean nil unless both sides of a pair carry it. When it is there the
	// headline is judged on it (Basis), since sampled on-CPU time inflates
	// when the machine is loaded while the CPU time the kernel charges
	// the process does not.
	ProcessCPU Measure
	// Basis says which measure the headline's verdict is from.
	Basis Basis
	// RunsNeeded is, for a change of the judged measure that the runs
	// cannot settle, the runs per side that would tell it from noise at
	// the prior's run noise; 0 when that does not apply.
	RunsNeeded int
	// Spreads compares each side's spread over runs with the base's, one
	// per side other than the base, on the judged measure (per unit of
	// work when given); nil for one side.
	Spreads []SpreadChange
	// RobustSpread is each side's median absolute deviation over runs of
	// the judged measure, scaled to estimate σ (1.4826 × MAD): a spread
	// one wild run cannot inflate; NaN with a single run.
	RobustSpread []float64
}

// Basis is the measure a headline's verdict is from.
type Basis int

const (
	// BasisSampled: the profiles' sampled on-CPU time (per unit of work
	// when given).
	BasisSampled Basis = iota
	// BasisProcess: the process CPU time the operating system measured
	// for each run (profdiff record's record.json).
	BasisProcess
)

// String names a basis as the reports write it.
func (b Basis) String() string {
	if b == BasisProcess {
		return "process CPU time"
	}
	return "sampled on-CPU time"
}

// Report is the judged comparison every renderer reads.
type Report struct {
	Sides []SideSummary
	// Base is the index of the side the others are judged against.
	Base     int
	Headline Headline
	// PerWork says the measures are per unit of work (both sides gave it).
	PerWork bool
	// Packages, Functions and Files are in a canonical order (the last
	// side's total time, then key); renderers sort views of them (Sorted).
	Packages  []Row
	Functions []Row
	Files     []Row
	// Calls are the caller -> callee edges between Functions.
	Calls []Call
	// Lines are functions' self times per source line, where profiles
	// record lines, ordered by function and line.
	Lines []LineTime
	// LineTotals says Lines carry total time: every run's profile recorded
	// the line of each frame of its stacks (pprof).
	LineTotals bool
	// BundledLines are the functions (rows of Functions) whose lines were
	// recorded in a bundle and are not in Lines, each with whether the
	// bundle is minified (on some run).
	BundledLines map[int32]bool
	// LinesBeforeStart is, for the functions (rows of Functions) with
	// any, the self time each side recorded on lines before the function's
	// own first line on that side: code of other functions that the engine
	// inlined into it (V8 records an inlined callee's lines on its
	// caller's node). Its lines are in Lines too.
	LinesBeforeStart map[int32]Measure
	// Tree is the call tree merged by function over runs and sides; nil
	// when the tables carry no tree.
	Tree []TreeNode
	// Paths are the chains of the tree that carry the real changes, the
	// heaviest first; PathsDelta is the on-CPU change they explain
	// together.
	Paths      []Path
	PathsDelta float64
	Rules      []RuleResult
	Options    Options
	// Splits is how many splits of the two sides' runs corrected the
	// verdicts of the judged headline and the tables of packages,
	// functions and files, as one family (see permutation.go); 0 when
	// each table was Holm-corrected on its own and the headline judged
	// alone (fewer runs, or one side). With several variants, the least
	// of their pairs'.
	Splits   int
	Warnings []analyze.Warning
	// pairs, for a base judged against several variants (three sides or
	// more, or a base other than the first side), holds the two-side
	// comparison of the base with each variant, in side order: their
	// calls, call tree, paths and rules. The report itself then holds the
	// sides, headline and rows of all sides, with VsBase filled and no
	// Calls, Lines, Tree or Paths of its own. Nil for one side, and for
	// two sides with the base first. Read through Variants (a Variant's
	// Pair is its two-side report).
	pairs []*Report
	// Phases are stretches of every run (--phase), each compared on its
	// own; the report shows their headlines as one block each.
	Phases []Phase
	// Responsiveness compares the runs' stalls; nil when a run records no
	// sample times (see responsiveness.go).
	Responsiveness *Responsiveness
	// Resources are the sides' measures from the operating system
	// (Side.Resources), judged against the base; nil without them.
	Resources []Resource
	// lineJudge judges a moved line's pair of lines (SourceListing); nil
	// unless two sides' lines were compared.
	lineJudge *lineJudge
}

// Phase is the comparison of one stretch of every run.
type Phase struct {
	Name string
	// Window is the stretch as given: FROM..TO, or two User Timing marks.
	Window string
	Report *Report
}

// OnCPU returns side i's on-CPU time in the rows' unit (per run, or per
// unit of work).
func (r *Report) OnCPU(i int) float64 {
	if r.PerWork {
		return r.Headline.PerWork.Mean[i]
	}
	return r.Headline.OnCPU.Mean[i]
}

// Options tune a comparison.
type Options struct {
	// Alpha is the significance level after correction; 0 means 0.05.
	Alpha float64
	// MinDeltaPP and MinDeltaPct are the smallest changes, in percentage
	// points of on-CPU time and in percent, that can be called real; a
	// row must exceed both. Negative means the default (0.1pp and 5%).
	MinDeltaPP, MinDeltaPct float64
	// RunNoise is the prior for the run-to-run variation of a row's time
	// (a coefficient of variation); 0 means 0.15. See noise.go.
	RunNoise float64
	// WorkUnit names the unit of work ("run", "request"); "" for "unit".
	WorkUnit string
	// MaxPaths is how many paths to find; 0 means 5, negative none.
	MaxPaths int
	// MaxCalls is how many of the heaviest calls Report.Calls holds, as
	// well as every call judged real; 0 keeps them all. A report of
	// millions of distinct stacks has millions of calls, of which a
	// reader like the JSON report writes only the heaviest and the real.
	MaxCalls int
	// TreeMinShare is the share of on-CPU time (0.0001 = 0.01%) under
	// which a call-tree node is left out of Report.Tree when it holds
	// less on every side, as pprof's -nodefraction; its time stays in its
	// parent's total. 0 means 0.0001; negative keeps every node.
	TreeMinShare float64
	// PathsOnlyTree says the tree is read only for its paths (the text,
	// markdown and JSON reports), not drawn: its nodes too small to be
	// judged are left out too, which changes no path.
	PathsOnlyTree bool
	// Rules are --fail-on rules, judged after the comparison.
	Rules []Rule
	// Narrowing describes the filters and window the profiles were
	// narrowed by (as flags), for the headline; nil when they were not.
	Narrowing []string
	// Base is the index of the side the others are judged against; with
	// a base other than the first, or three sides or more, each variant
	// is compared with it as a pair (Report.Variants).
	Base int
	// families is how many variants are judged against the same base: a
	// pair's p-values are multiplied by it (Bonferroni over the variants,
	// on top of Holm's correction within a table).
	families int
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
	if o.MaxPaths == 0 {
		o.MaxPaths = 5
	}
	if o.TreeMinShare == 0 {
		o.TreeMinShare = defaultTreeMinShare
	}
	return o
}

// DefaultOptions returns the options a comparison uses when none are given.
func DefaultOptions() Options { return Options{MinDeltaPP: -1, MinDeltaPct: -1}.withDefaults() }

// Compare builds the report of any number of sides, each side other than
// opts.Base judged against it (see Report.Variants): one side is judged
// against nothing, two with the base first as before and after in the
// report's own fields, and any other base and variants each as a pair
// with the base, lined up into rows of every side.
// Each side's runs are kept apart for the noise test.
func Compare(sides []Side, opts Options) (*Report, error) {
	if len(sides) == 0 {
		return nil, fmt.Errorf("a report needs a side")
	}
	if opts.Base < 0 || opts.Base >= len(sides) {
		return nil, fmt.Errorf("the base is side %d of %d", opts.Base+1, len(sides))
	}
	if err := stallRulesMeasurable(sides, opts.Rules); err != nil {
		return nil, err
	}
	if len(sides) > 2 || opts.Base != 0 {
		return compareSeveral(sides, opts)
	}
	opts = opts.withDefaults()
	r, err := newPairReport(sides, opts)
	if err != nil {
		return nil, err
	}
	c := newComparison(r, sides, opts)
	if len(sides) == 2 {
		c.headline(r)
	}

	c.startTreeTotals()
	r.Packages = c.join(func(t *analyze.Table) []analyze.Row { return t.Packages }, nil)
	c.fnIndex = map[analyze.Key]int32{}
	r.Functions = c.join(func(t *analyze.Table) []analyze.Row { return t.Functions }, c.fnIndex)
	c.rows = c.tableRows()
	// The call tree (the largest part on a deep profile) is merged and
	// judged beside the rest: both only read the comparison's state.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.Tree = c.tree()
		if len(sides) == 2 {
			c.judgeTree(r.Tree)
		}
	}()
	r.Files = c.join(func(t *analyze.Table) []analyze.Row { return t.Files }, nil)
	r.Calls = c.calls()
	c.lines(r)
	if len(sides) == 2 && !c.judgePermuted(r) {
		c.judgeRows(r.Packages, false)
		c.judgeRows(r.Functions, true)
		c.judgeRows(r.Files, false)
	}
	wg.Wait()
	r.judgeSpread()
	r.Responsiveness = c.responsiveness()
	r.Resources = judgeResources(sides, 0, opts)
	if len(sides) == 2 {
		r.Paths, r.PathsDelta = findPaths(r, opts)
		r.Rules = evaluate(r, opts.Rules)
	}
	return r, nil
}

// newPairReport starts the report of one side, or of two with the base
// first (compareSeveral starts the others): each side's

// summary, the runs' warnings, and whether times are per unit of work.
func newPairReport(sides []Side, opts Options) (*Report, error) {
	r := &Report{Options: opts}
	var tables []*analyze.Table
	for _, s := range sides {
		sum, err := summarize(s)
		if err != nil {
			return nil, err
		}
		r.Sides = append(r.Sides, sum)
		tables = append(tables, s.Tables...)
	}
	r.Warnings = runWarnings(tables)
	for _, s := range sides {
		r.Warnings = append(r.Warnings, s.Warnings...)
	}
	r.PerWork = len(sides) == 2 && sides[0].Work > 0 && sides[1].Work > 0
	if len(sides) == 1 && sides[0].Work > 0 {
		r.PerWork = true
	}
	return r, nil
}

// newComparison makes the comparison's state: each side's scale (per run,
// or per unit of work) and sampling interval, the headline's on-CPU
// measures, each run's on-CPU time and, when they stand for the profiles
// (processMeasuresProfile), its process CPU time.
func newComparison(r *Report, sides []Side, opts Options) *comparison {
	c := &comparison{sides: sides, opts: opts, scale: make([]float64, len(sides)), interval: make([]float64, len(sides))}
	for i, s := range sides {
		c.scale[i] = 1
		if r.PerWork {
			c.scale[i] = 1 / s.Work
		}
		c.interval[i] = float64(max(r.Sides[i].IntervalNs, 1))
	}
	onCPURun := func(si, ri int) float64 { return float64(sides[si].Tables[ri].Summary.OnCPUNs) }
	unit := c.scale
	c.scale = slices.Repeat([]float64{1}, len(sides))
	r.Headline.OnCPU = c.measure(onCPURun) // per run, always
	c.scale = unit
	c.onCPU = r.Headline.OnCPU.Mean
	if r.PerWork {
		r.Headline.PerWork = c.measure(onCPURun)
		c.onCPU = r.Headline.PerWork.Mean
	}
	if whole := c.wholeOnCPU(); whole != nil {
		c.onCPU = whole
	}
	c.runOnCPU = c.runsOnCPU()
	c.runSamples = countsOfTicks(sides)
	c.runStretch = stretchesOf(sides)
	useProcess, outside := processMeasuresProfile(sides)
	r.Warnings = append(r.Warnings, outside...)
	if useProcess {
		c.useProcess = true
		c.runProcess = make([][]float64, 2)
		for si, s := range sides {
			for _, ns := range s.ProcessCPUNs {
				c.runProcess[si] = append(c.runProcess[si], float64(ns)*c.scale[si])
			}
		}
	}
	return c
}

// headline judges the headline of two sides, first: whether it changed
// decides whether rows' shares can speak for them (see wholeMoved), and
// the tree, judged beside the tables, reads c.scale, which this swaps.
func (c *comparison) headline(r *Report) {
	sides := c.sides
	r.Warnings = append(r.Warnings, sideWarnings(r.Sides, sides)...)
	load := c.loadGap()
	c.judgeHeadline(&r.Headline.OnCPU, slices.Repeat([]float64{1}, 2), load)
	if r.PerWork {
		c.judgeHeadline(&r.Headline.PerWork, c.scale, load)
	}
	r.Warnings = append(r.Warnings, stretchWarnings(c.runStretch, r.Sides)...)
	if c.useProcess {
		r.Headline.Basis = BasisProcess
		unit := c.scale
		c.scale = slices.Repeat([]float64{1}, 2)
		r.Headline.ProcessCPU = c.measure(func(si, ri int) float64 { return float64(sides[si].ProcessCPUNs[ri]) })
		c.scale = unit
		c.judgeHeadline(&r.Headline.ProcessCPU, slices.Repeat([]float64{1}, 2), 0)
		r.Warnings = append(r.Warnings, loadWarnings(r.Headline.OnCPU, r.Headline.ProcessCPU, r.Sides)...)
	}
	r.Headline.RunsNeeded = c.runsNeeded(*r.JudgedHeadline())
	c.wholeMoved = r.JudgedHeadline().Change.Verdict.Real()
}

// summarize adds up a side's runs into its headline (means per run).
func summarize(s Side) (SideSummary, error) {
	if len(s.Tables) == 0 {
		return SideSummary{}, fmt.Errorf("side %s has no profiles", s.Name)
	}
	sum := SideSummary{Name: s.Name, Runs: len(s.Tables), Format: s.Tables[0].Format, SampleType: s.Tables[0].SampleType, Work: s.Work, Root: s.Root, Formed: s.Formed}
	for _, t := range s.Tables {
		if t.Format != sum.Format {
			return sum, fmt.Errorf("side %s mixes formats: %s is %s, %s is %s", s.Name, s.Tables[0].File, sum.Format.Describe(), t.File, t.Format.Describe())
		}
		sum.Files = append(sum.Files, t.File)
		if !t.Thread.IsZero() {
			sum.Threads = append(sum.Threads, t.Thread)
		}
		add(&sum.Summary, t.Summary)
		if t.Symbolication != nil {
			if sum.Symbolication == nil {
				sum.Symbolication = &analyze.Symbolication{}
			}
			sum.Symbolication.Add(t.Symbolication)
		}
	}
	if s.Source != "" {
		sum.Files = []string{s.Source}
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
	sum.NarrowedFromNs /= n
	if sy := sum.Symbolication; sy != nil {
		// Per run, like the rest of the headline.
		sy.OnCPUJSNs, sy.OnCPUMappedNs, sy.UnmappedMinifiedNs = sy.OnCPUJSNs/n, sy.OnCPUMappedNs/n, sy.UnmappedMinifiedNs/n
	}
	return sum, nil
}

func add(dst *analyze.Summary, s analyze.Summary) {
	dst.WallNs += s.WallNs
	dst.SampledNs += s.SampledNs
	dst.OnCPUNs += s.OnCPUNs
	dst.NarrowedFromNs += s.NarrowedFromNs
	dst.IdleNs += s.IdleNs
	dst.ProgramNs += s.ProgramNs
	dst.GCNs += s.GCNs
	dst.Samples += s.Samples
}

// runWarnings says each run's warnings, naming its file; a warning that
// several runs give in the same words is said once, naming them (ten runs
// of one bundle without its map gave ten near-identical lines).
func runWarnings(tables []*analyze.Table) []analyze.Warning {
	var order []analyze.Warning
	files := map[analyze.Warning][]string{}
	for _, t := range tables {
		for _, w := range t.Warnings {
			if files[w] == nil {
				order = append(order, w)
			}
			if !slices.Contains(files[w], t.File) {
				files[w] = append(files[w], t.File)
			}
		}
	}
	out := make([]analyze.Warning, 0, len(order))
	for _, w := range order {
		fs := files[w]
		switch {
		case len(fs) == 1:
			w.File = fs[0]
		case len(fs) == len(tables):
			w.File = fmt.Sprintf("all %d runs", len(fs))
		case len(fs) <= 3:
			w.File = strings.Join(fs, ", ")
		default:
			w.File = fmt.Sprintf("%d runs (%s, … %s)", len(fs), fs[0], fs[len(fs)-1])
		}
		out = append(out, w)
	}
	return out
}

// comparison holds what the steps of Compare share.
type comparison struct {
	sides    []Side
	opts     Options
	scale    []float64 // per side: 1, or 1/work
	interval []float64 // per side: the mean sampling interval in ns
	onCPU    []float64 // per side: mean on-CPU time, in the rows' unit
	// runOnCPU is each run's on-CPU time (before narrowing, when
	// narrowed) in the rows' unit, per side: what a row's share of its
	// run is taken of (see noise.go).
	runOnCPU [][]float64
	// runProcess is each run's process CPU time in the rows' unit, per
	// side, when both sides carry it and it stands for their profiles
	// (useProcess); nil otherwise.
	runProcess [][]float64
	useProcess bool
	// runSamples is each run's count of on-CPU samples, per side, when
	// the two sides' runs all take one sample per tick and none was
	// narrowed (countsOfTicks); nil otherwise. Rows then carry their
	// counts (Row.samples), which their verdicts are judged on.
	runSamples [][]float64
	// runStretch is each run's log stretch, per side (see stretchesOf),
	// when every run of both sides has one; nil otherwise.
	runStretch [][]float64
	// wholeMoved is whether the judged headline changed (better or
	// worse): every row's share of the run then moves with it, and rows
	// are judged on their time alone (see test).
	wholeMoved bool
	// fnIndex maps every function key met in a table to its row, and
	// rows each table's functions (side, run, function) to theirs.
	fnIndex map[analyze.Key]int32
	rows    [][][]int32
	// treeTotals waits for every table's node totals, computed beside the
	// joins (startTreeTotals); nil when they are computed as needed.
	treeTotals func() [][][]int64
}

// wholeOnCPU returns, for runs narrowed by filters or a window, each
// side's mean on-CPU time before narrowing, in the rows' unit; nil when no
// run was narrowed. Shares of on-CPU time (Δshare, the minimum effect in
// points, the tree's floor) are then of the whole runs: under --focus
// '^path-to-regexp$' the focused package is 100% of the narrowed time on
// both sides, and a share of it could never change.
func (c *comparison) wholeOnCPU() []float64 {
	narrowed := false
	for _, s := range c.sides {
		for _, t := range s.Tables {
			narrowed = narrowed || t.Summary.NarrowedFromNs > 0
		}
	}
	if !narrowed {
		return nil
	}
	whole := make([]float64, len(c.sides))
	for si, s := range c.sides {
		for _, t := range s.Tables {
			v := t.Summary.NarrowedFromNs
			if v <= 0 {
				v = t.Summary.OnCPUNs
			}
			whole[si] += float64(v) * c.scale[si]
		}
		whole[si] /= float64(len(s.Tables))
	}
	return whole
}

// runsOnCPU returns each run's on-CPU time in the rows' unit, per side,
// the whole run's when it was narrowed.
func (c *comparison) runsOnCPU() [][]float64 {
	out := make([][]float64, len(c.sides))
	for si, s := range c.sides {
		out[si] = make([]float64, len(s.Tables))
		for ri, t := range s.Tables {
			v := t.Summary.OnCPUNs
			if t.Summary.NarrowedFromNs > 0 {
				v = t.Summary.NarrowedFromNs
			}
			out[si][ri] = float64(v) * c.scale[si]
		}
	}
	return out
}

// countsOfTicks returns each run's count of on-CPU samples, per side, for
// two sides whose runs all take one sample per tick
// (analyze.Summary.OnCPUSamples) and were not narrowed (the whole run's
// count is then not known, and shares are of the whole run); nil
// otherwise.
func countsOfTicks(sides []Side) [][]float64 {
	return perRun(sides, func(sm analyze.Summary) (float64, bool) {
		return float64(sm.OnCPUSamples), sm.OnCPUSamples > 0 && sm.NarrowedFromNs == 0
	})
}

// perRun returns of(each run's summary), per side, for two sides; nil
// for any other count of sides or when of refuses a run.
func perRun(sides []Side, of func(analyze.Summary) (float64, bool)) [][]float64 {
	if len(sides) != 2 {
		return nil
	}
	out := make([][]float64, 2)
	for si, s := range sides {
		for _, t := range s.Tables {
			v, ok := of(t.Summary)
			if !ok {
				return nil
			}
			out[si] = append(out[si], v)
		}
	}
	return out
}

// stretchesOf returns each run's log stretch, per side: the log of its
// sampled on-CPU time over its count of on-CPU samples times its tick
// (the lower quartile of the gaps between its samples, Summary.TickNs).
// A sample weighs the gap after it, and a loaded machine stretches gaps:
// the time the process waited for a CPU lands on the sample before it.
// Stretches of 1.02-1.34 were measured on quiet runs (testdata's
// record-power, the corpus's router runs, a held-out recording), up to
// 2.87 on the calibration bench's loaded ones, and a run's stretch
// followed its sampled on-CPU time over its process CPU time (a held-out
// recording of 20 runs: stretch 1.04-2.26 where that ratio was
// 0.80-2.50). The median gap missed it: under load it grows too (1.1 ms
// to 1.7 ms). nil unless there are two sides whose every run takes one
// sample per tick and knows its gaps.
func stretchesOf(sides []Side) [][]float64 {
	return perRun(sides, func(sm analyze.Summary) (float64, bool) {
		ok := sm.OnCPUSamples > 0 && sm.TickNs > 0 && sm.OnCPUNs > 0
		return math.Log(float64(sm.OnCPUNs) / (float64(sm.OnCPUSamples) * float64(sm.TickNs))), ok
	})
}

// newMeasure returns a measure with zeroed runs.
func (c *comparison) newMeasure() Measure {
	n := len(c.sides)
	m := Measure{Mean: make([]float64, n), Runs: make([][]float64, n)}
	for i, s := range c.sides {
		m.Runs[i] = make([]float64, len(s.Tables))
	}
	return m
}

// measure builds a measure from a value per side and run (in ns per run),
// scaled to the report's unit, with its means and spreads.
func (c *comparison) measure(v func(side, run int) float64) Measure {
	m := c.newMeasure()
	for si := range m.Runs {
		for ri := range m.Runs[si] {
			m.Runs[si][ri] = v(si, ri) * c.scale[si]
		}
	}
	c.finish(&m)
	return m
}

// finish fills a measure's means from its runs (already scaled) and marks
// it uncompared.
func (c *comparison) finish(m *Measure) {
	for si, runs := range m.Runs {
		m.Mean[si] = mean(runs)
	}
	m.Change = Change{DeltaPP: math.NaN(), DeltaPct: math.NaN(), P: math.NaN()}
}

// join lines up a table's rows over every run of every side. Functions
// (index non-nil) join by package, name and file, since edits move lines
// between builds; where that is ambiguous (two anonymous functions in a
// file, a name used twice) by start line and column as well. index then
// receives every function key's row.
func (c *comparison) join(rowsOf func(*analyze.Table) []analyze.Row, index map[analyze.Key]int32) []Row {
	least, tables := 0, 0
	for _, s := range c.sides {
		for _, t := range s.Tables {
			least = max(least, len(rowsOf(t)))
			tables++
		}
	}
	// One table's keys are its rows: there is nothing to join, and no
	// key needs hashing to find its row.
	single := tables == 1
	keyOf := func(k analyze.Key) analyze.Key { return k }
	if index != nil && !single {
		keyOf = c.functionIdentity(rowsOf)
	}
	var byKey map[analyze.Key]int
	if !single {
		byKey = make(map[analyze.Key]int, least)
	}
	out := make([]Row, 0, least)
	alloc := newMeasureBlocks(c)
	for si, s := range c.sides {
		for ri, t := range s.Tables {
			for _, r := range rowsOf(t) {
				var jk analyze.Key
				i, ok := 0, false
				if !single {
					jk = keyOf(r.Key)
					i, ok = byKey[jk]
				}
				if !ok {
					i = len(out)
					if !single {
						byKey[jk] = i
					}
					out = append(out, Row{Key: r.Key, Self: alloc.next(), Total: alloc.next()})
					if c.runSamples != nil {
						out[i].samples = alloc.samples()
					}
				}
				if index != nil {
					index[r.Key] = int32(i)
				}
				row := &out[i]
				row.present[si] = true
				row.Self.Runs[si][ri] += float64(r.Self) * c.scale[si]
				row.Total.Runs[si][ri] += float64(r.Total) * c.scale[si]
				if n := row.samples; n != nil {
					n.Self.Runs[si][ri] += float64(r.SelfSamples)
					n.Total.Runs[si][ri] += float64(r.TotalSamples)
				}
			}
		}
	}
	if index != nil && len(c.sides) == 2 {
		out = c.joinRenamed(out, index)
	}
	for i := range out {
		c.finish(&out[i].Self)
		c.finish(&out[i].Total)
		if n := out[i].samples; n != nil {
			c.finish(&n.Self)
			c.finish(&n.Total)
		}
	}
	return c.ordered(out, index)
}

// ordered returns a table's joined rows in the report's canonical order
// (the last side's total time, the first's, then key), index updated.
func (c *comparison) ordered(out []Row, index map[analyze.Key]int32) []Row {
	last := len(c.sides) - 1
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if x := cmp.Compare(out[b].Total.Mean[last], out[a].Total.Mean[last]); x != 0 {
			return x
		}
		if x := cmp.Compare(out[b].Total.Mean[0], out[a].Total.Mean[0]); x != 0 {
			return x
		}
		return analyze.CompareKeys(out[a].Key, out[b].Key)
	})
	sorted := make([]Row, len(out))
	newIndex := make([]int32, len(out))
	for to, from := range order {
		sorted[to] = out[from]
		newIndex[from] = int32(to)
	}
	for k, i := range index {
		index[k] = newIndex[i]
	}
	return sorted
}

// functionIdentity returns the join key of a function: package, name and
// file, plus the start position for the names that have more than one
// position on some side.
func (c *comparison) functionIdentity(rowsOf func(*analyze.Table) []analyze.Row) func(analyze.Key) analyze.Key {
	type base struct{ pkg, fn, file string }
	type seen struct {
		pos   [2]int32 // the first position met
		multi bool     // another position was met on the same side
	}
	ambiguous := map[base]bool{}
	for _, s := range c.sides {
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
	return func(k analyze.Key) analyze.Key {
		if len(ambiguous) > 0 && ambiguous[base{k.Package, k.Function, k.File}] {
			return k
		}
		k.Line, k.Column = 0, 0
		return k
	}
}

// joinRenamed joins rows that stand at the same line and column of the
// same file, where one of them has time on one side only: two functions
// cannot start at one position of one file, so they are one function whose
// name changed. A minified function that two builds named differently (f3
// before, d3 after) is one row, not one gone and one new; a function V8
// recorded under two names in one build (g_ and y_ after, g_ before) is one
// row too. A position's one-sided rows join the heaviest row it has on both
// sides, else its heaviest before-only row when it has after-only ones.
func (c *comparison) joinRenamed(rows []Row, index map[analyze.Key]int32) []Row {
	at := map[rowPosition][]int{}
	for i := range rows {
		k := rows[i].Key
		if k.File != "" && k.Line > 0 && k.Column > 0 {
			p := rowPosition{k.Package, k.File, k.Line, k.Column}
			at[p] = append(at[p], i)
		}
	}
	gone := map[int]int{} // joined row -> the row it joins
	for _, group := range at {
		if len(group) < 2 {
			continue
		}
		if target := joinTarget(rows, group); target >= 0 {
			joinInto(rows, target, group, gone)
		}
	}
	if len(gone) == 0 {
		return rows
	}
	newIndex := make([]int32, len(rows))
	out := rows[:0]
	for i := range rows {
		if _, ok := gone[i]; ok {
			newIndex[i] = -1
			continue
		}
		newIndex[i] = int32(len(out))
		out = append(out, rows[i])
	}
	for k, i := range index {
		if to, ok := gone[int(i)]; ok {
			index[k] = newIndex[to]
		} else {
			index[k] = newIndex[i]
		}
	}
	return out
}

// rowPosition is where a function starts: package, file, line and column.
type rowPosition struct {
	pkg, file    string
	line, column int32
}

// joinTarget returns the row of a position's group that the others join:
// its heaviest row with time on both sides, else its heaviest before-only
// row when it has after-only ones; -1 when there is nothing to join.
func joinTarget(rows []Row, group []int) int {
	target, before, after := -1, -1, false
	for _, i := range group {
		r := &rows[i]
		switch {
		case r.present[0] && r.present[1]:
			if target < 0 || heavierRow(rows, i, target) {
				target = i
			}
		case r.present[0]:
			if before < 0 || heavierRow(rows, i, before) {
				before = i
			}
		case r.present[1]:
			after = true
		}
	}
	if target < 0 && before >= 0 && after {
		return before
	}
	return target
}

// heavierRow reports whether row a holds more time than row b on the first
// and last sides together (then comes first in key order).
func heavierRow(rows []Row, a, b int) bool {
	x, y := &rows[a].Total, &rows[b].Total
	if sx, sy := sum(x.Runs[0])+sum(x.Runs[len(x.Runs)-1]), sum(y.Runs[0])+sum(y.Runs[len(y.Runs)-1]); sx != sy {
		return sx > sy
	}
	return analyze.CompareKeys(rows[a].Key, rows[b].Key) < 0
}

// joinInto adds the group's one-sided rows to the target row, keeping their
// names as its Renamed or Aliases, and records each in gone.
func joinInto(rows []Row, target int, group []int, gone map[int]int) {
	t := &rows[target]
	for _, i := range group {
		r := &rows[i]
		if i == target || r.present[0] == r.present[1] {
			continue
		}
		for si := range r.Self.Runs {
			for ri, v := range r.Self.Runs[si] {
				t.Self.Runs[si][ri] += v
				t.Total.Runs[si][ri] += r.Total.Runs[si][ri]
				if t.samples != nil && r.samples != nil {
					t.samples.Self.Runs[si][ri] += r.samples.Self.Runs[si][ri]
					t.samples.Total.Runs[si][ri] += r.samples.Total.Runs[si][ri]
				}
			}
		}
		if !t.present[1] && r.present[1] {
			t.Renamed = r.Key.Function // the classic case: f3 -> d3
		} else if r.Key.Function != t.Key.Function && r.Key.Function != t.Renamed {
			t.Aliases = append(t.Aliases, r.Key.Function)
		}
		t.present[0] = t.present[0] || r.present[0]
		t.present[1] = t.present[1] || r.present[1]
		gone[i] = target
	}
	slices.Sort(t.Aliases)
}

// measureBlocks carves measures out of shared blocks, so that a table of
// many rows makes few allocations.
type measureBlocks struct {
	sides []int // runs per side
	runs  int
	f     []float64
	ff    [][]float64
	rs    []rowSamples
}

func newMeasureBlocks(c *comparison) *measureBlocks {
	mb := &measureBlocks{}
	for _, s := range c.sides {
		mb.sides = append(mb.sides, len(s.Tables))
		mb.runs += len(s.Tables)
	}
	return mb
}

func (mb *measureBlocks) next() Measure {
	const block = 512
	n := len(mb.sides)
	per := n + mb.runs // means, then runs
	if len(mb.f) < per {
		mb.f = make([]float64, per*block)
	}
	if len(mb.ff) < n {
		mb.ff = make([][]float64, n*block)
	}
	m := Measure{Mean: mb.f[:n:n], Runs: mb.ff[:n:n]}
	f := mb.f[n:]
	for i, k := range mb.sides {
		m.Runs[i] = f[:k:k]
		f = f[k:]
	}
	mb.f, mb.ff = f, mb.ff[n:]
	return m
}

// samples returns a row's counts of samples, zeroed.
func (mb *measureBlocks) samples() *rowSamples {
	const block = 256
	if len(mb.rs) == 0 {
		mb.rs = make([]rowSamples, block)
	}
	n := &mb.rs[0]
	mb.rs = mb.rs[1:]
	n.Self, n.Total = mb.next(), mb.next()
	return n
}

// sideWarnings says what makes two sides hard to compare.
func sideWarnings(s []SideSummary, sides []Side) []analyze.Warning {
	var w []analyze.Warning
	add := func(kind analyze.WarningKind, format string, args ...any) {
		w = append(w, analyze.Warning{Kind: kind, Message: fmt.Sprintf(format, args...)})
	}
	a, b := s[0], s[1]
	if a.Format != b.Format {
		add(analyze.WarnFormatsDiffer, "the sides differ in format: %s before, %s after", a.Format.Describe(), b.Format.Describe())
	}
	if a.IntervalNs > 0 && b.IntervalNs > 0 {
		if ratio := float64(b.IntervalNs) / float64(a.IntervalNs); ratio > 1.2 || ratio < 1/1.2 {
			add(analyze.WarnIntervalsDiffer, "the sides differ in sampling interval: %s before, %s after", units.Duration(float64(a.IntervalNs)), units.Duration(float64(b.IntervalNs)))
		}
	}
	if threadNames(a.Threads) != threadNames(b.Threads) {
		add(analyze.WarnThreadsDiffer, "the sides were taken from different threads or processes: %v before, %v after", a.Threads, b.Threads)
	}
	if sides[0].Work == 0 && sides[1].Work == 0 && a.WallNs > 0 && b.WallNs > 0 {
		wa, wb := float64(a.WallNs), float64(b.WallNs)
		if (wa/wb > 2 || wb/wa > 2) && !sameWorkFaster(sides[0], sides[1]) {
			add(analyze.WarnDurationsDiffer, "the runs differ in duration by more than 2x (%s before, %s after)", units.Duration(wa), units.Duration(wb))
		}
	}
	return w
}

// sameWorkFaster reports whether two sides whose runs differ in duration
// look like the same work done at another speed, so that the runs' lengths
// need no --work: the time of most functions stayed what it was (a change
// makes some code faster or slower and leaves the rest alone), rather
// than moving with the whole run (a run that did more or less work makes
// every function take longer or shorter alike). It compares the mean self
// time per function (by package, name and file): the before time of those
// that kept their time within 25% against those that changed within 25%
// of the runs' ratio of on-CPU time. It says yes only when the first is
// at least twice the second and at least a quarter of the shorter side's
// on-CPU time; a change that sped up everything alike keeps the warning,
// since it cannot be told from less work, and so do runs of the same
// on-CPU time (waiting, not speed, differs).
func sameWorkFaster(a, b Side) bool {
	type fn struct{ pkg, name, file string }
	mean := func(s Side) (map[fn]float64, float64) {
		m := map[fn]float64{}
		var on float64
		for _, t := range s.Tables {
			for _, r := range t.Functions {
				m[fn{r.Key.Package, r.Key.Function, r.Key.File}] += float64(r.Self) / float64(len(s.Tables))
			}
			on += float64(t.Summary.OnCPUNs) / float64(len(s.Tables))
		}
		return m, on
	}
	ma, ona := mean(a)
	mb, onb := mean(b)
	if ona <= 0 || onb <= 0 || len(a.Tables) == 0 || len(b.Tables) == 0 {
		return false
	}
	k := onb / ona
	within := func(x, y float64) bool { return x >= y/1.25 && x <= y*1.25 }
	if within(k, 1) {
		return false
	}
	var kept, scaled float64
	for f, x := range ma {
		y, ok := mb[f]
		if !ok || x <= 0 || y <= 0 {
			continue
		}
		switch {
		case within(y/x, 1):
			kept += x
		case within(y/x, k):
			scaled += x
		}
	}
	return kept >= 2*scaled && kept >= 0.25*math.Min(ona, onb)
}

// minProfiledShare is the least share of a run's process CPU time that
// its profile must have seen (sampled on-CPU time, before narrowing) for
// the process CPU time to stand for the profile's work.
const minProfiledShare = 0.5

// processMeasuresProfile reports whether the two sides' process CPU times
// can be the headline's basis and scale the rows' times: both sides carry
// them, and on every run the profile saw at least minProfiledShare of
// them. A recording whose runs build before they run (go test compiles
// first: 89% of a run's CPU time outside its profile) or spawn processes
// the profiler does not follow would otherwise judge the build, and scale
// every row by it; the warnings then say why the headline is on sampled
// on-CPU time.
func processMeasuresProfile(sides []Side) (bool, []analyze.Warning) {
	if len(sides) != 2 || sides[0].ProcessCPUNs == nil || sides[1].ProcessCPUNs == nil {
		return false, nil
	}
	var w []analyze.Warning
	for _, s := range sides {
		var profiled, process float64
		outside := false
		for ri, t := range s.Tables {
			if ri >= len(s.ProcessCPUNs) {
				return false, nil
			}
			on := t.Summary.OnCPUNs
			if t.Summary.NarrowedFromNs > 0 {
				on = t.Summary.NarrowedFromNs
			}
			profiled, process = profiled+float64(on), process+float64(s.ProcessCPUNs[ri])
			outside = outside || float64(on) < minProfiledShare*float64(s.ProcessCPUNs[ri])
		}
		if outside {
			w = append(w, analyze.Warning{Kind: analyze.WarnOutsideProfile, Message: fmt.Sprintf(
				"side %s: its processes used %s of CPU a run, of which the profiles saw %s (%s): the rest (the runtime starting before its profiler, a build step, or processes the profiler did not follow) is outside them, so the headline is judged on sampled on-CPU time, not process CPU time",
				s.Name, units.Duration(process/float64(len(s.Tables))), units.Duration(profiled/float64(len(s.Tables))), units.Share(profiled, process))})
		}
	}
	return len(w) == 0, w
}

// loadWarnings warns of each side whose sampled on-CPU time exceeds its
// process CPU time by more than 10%: the profiler's clock ran while the
// process waited for a CPU, so the machine was loaded.
func loadWarnings(onCPU, process Measure, s []SideSummary) []analyze.Warning {
	var w []analyze.Warning
	for i := range onCPU.Mean {
		if process.Mean[i] > 0 && onCPU.Mean[i] > 1.1*process.Mean[i] {
			w = append(w, analyze.Warning{Kind: analyze.WarnLoaded, Message: fmt.Sprintf(
				"side %s: sampled on-CPU time (%s a run) exceeds the process CPU time (%s) by %.0f%%: the machine was loaded, so the headline is judged on process CPU time",
				s[i].Name, units.Duration(onCPU.Mean[i]), units.Duration(process.Mean[i]), 100*(onCPU.Mean[i]/process.Mean[i]-1))})
		}
	}
	return w
}

// stretchWarning is the ratio between two sides' mean stretches past
// which the report says that the machine's load differed: 1.25, far
// past the gap between the sides of the quiet recordings measured (their
// means at most 1.02 apart) and below one loaded run against a quiet one
// (1.59 against 1.15 in a held-out recording).
const stretchWarning = 1.25

// stretchWarnings warns when the sides' samples are stretched apart by
// more than stretchWarning (see stretchesOf).
func stretchWarnings(stretch [][]float64, s []SideSummary) []analyze.Warning {
	if stretch == nil {
		return nil
	}
	a, b := mean(stretch[0]), mean(stretch[1])
	if math.Abs(b-a) <= math.Log(stretchWarning) {
		return nil
	}
	more, less := 1, 0
	if a > b {
		more, less = 0, 1
	}
	return []analyze.Warning{{Kind: analyze.WarnLoaded, Message: fmt.Sprintf(
		"side %s's samples are stretched more than %s's (their sampled time is %.2fx their count times the profiler's tick, against %.2fx): the machine was busier while it ran, and the time the process waited for a CPU counts as sampled time; on-CPU time is judged with that gap as uncertainty",
		s[more].Name, s[less].Name, math.Exp(mean(stretch[more])), math.Exp(mean(stretch[less])))}}
}

// threadNames reduces threads to their names, which is what must agree
// between builds (process and thread ids never do).
func threadNames(ts []analyze.Thread) string {
	var names []string
	for _, t := range ts {
		if !slices.Contains(names, t.Name) {
			names = append(names, t.Name)
		}
	}
	slices.Sort(names)
	return strings.Join(names, "\x00")
}

// sum adds up xs.
func sum(xs []float64) float64 {
	var t float64
	for _, x := range xs {
		t += x
	}
	return t
}
