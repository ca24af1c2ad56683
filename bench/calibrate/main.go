// Command calibrate measures profdiff's verdicts on repeated runs of real
// profiles: how often a comparison of one build with itself (A/A) flags any
// row, and how large a change is found (A/B), at 1, 2, 3, 5 and 10 runs a
// side. See README.md beside it.
//
// A set is a folder of repeated runs of one build (and, for a real A/B
// change, a second folder of the changed build). A/A draws split 2n
// distinct runs of a set at random into n v n. A/B draws do the same and
// then make one function of the after side's runs slower by a known
// factor, by copying the samples it is on top of (see inject; every
// other row keeps its runs' real noise); a change counts as found when that
// function's self time is judged worse. A real A/B set (before and after
// folders) counts the draws in which a named package's self time is judged
// better.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/confine"
	"github.com/profdiff/profdiff/record"
	"github.com/profdiff/profdiff/symbolicate"
)

// set is one folder's repeated runs of one build, parsed and mapped once.
type set struct {
	name string
	// pairs, when the set is a recording's two folders of the same
	// build, holds each round's two runs (before/run-k, after/run-k: run
	// one after the other); nil otherwise.
	pairs    [][2]int
	profiles []*analyze.Profile
	cpu      []int64 // process CPU time per run from record.json, 0 when unknown
	tables   []*analyze.Table
	// runs are each run's record (record.json's), where recorded says
	// there is one: its resource measures.
	runs     []record.Run
	recorded []bool
}

// options are the command's flags.
type options struct {
	draws  int
	seed   uint64
	ns     []int
	sizes  []float64
	minPct float64
	out    io.Writer
	// verbose lists each A/A draw's flags on standard error.
	verbose bool
	// noAB skips the injected A/B draws (-ab=false).
	noAB bool
	// bare compares the runs as bare profiles, without what their
	// recording's record.json holds (process CPU time, resources):
	// -recorded=false, as two .cpuprofile files are compared.
	bare bool
}

func main() {
	var o options
	var aa, real multiFlag
	flag.Var(&aa, "aa", "NAME=DIR[:MAPDIR]: a folder of repeated runs of one build (repeatable)")
	flag.Var(&real, "real", "NAME=BEFORE:AFTER:PACKAGE[:MAPDIR_BEFORE:MAPDIR_AFTER]: a real change, PACKAGE's self time expected better (repeatable)")
	flag.IntVar(&o.draws, "draws", 200, "draws per runs-per-side")
	debug := flag.String("debug", "", "FUNCTION=PCT:N: print one draw's rows of FUNCTION with PCT injected at N v N, and exit")
	spreadFlag := flag.Bool("spread", false, "print the run-to-run spread of each set's injection targets (time, share by sample time and by sample count, process CPU), and exit")
	seed := flag.Uint64("seed", 1, "seed of the draws")
	flag.BoolVar(&o.verbose, "v", false, "list the flags of each A/A draw, and why +20% draws missed their change, on standard error")
	ab := flag.Bool("ab", true, "draw the injected A/B splits (false: their cells are -, and the A/A draws past the first n differ, the draws being one stream)")
	recorded := flag.Bool("recorded", true, "give each run the process CPU time and resources its recording's record.json holds (false: compare the bare profiles, as two .cpuprofile files are)")
	ns := flag.String("n", "1,2,3,5,10", "runs a side to draw, comma-separated")
	sizes := flag.String("sizes", "5,10,15,20,30,50,100,200", "the changes injected, in percent, comma-separated (20 among them for the +20% columns)")
	flag.Parse()
	o.seed = *seed
	o.noAB = !*ab
	o.bare = !*recorded
	runs, err := numbers(*ns, func(v float64) bool { return v >= 1 && v == float64(int(v)) })
	if err != nil {
		fmt.Fprintf(os.Stderr, "calibrate: -n %q: give runs a side as 1,2,3\n", *ns)
		os.Exit(2)
	}
	for _, v := range runs {
		o.ns = append(o.ns, int(v))
	}
	if o.sizes, err = numbers(*sizes, func(v float64) bool { return v > 0 }); err != nil {
		fmt.Fprintf(os.Stderr, "calibrate: -sizes %q: give percentages as 10,20,50\n", *sizes)
		os.Exit(2)
	}
	o.minPct = 5
	o.out = os.Stdout
	if len(aa) == 0 && len(real) == 0 {
		fmt.Fprintln(os.Stderr, "calibrate: give at least one --aa or --real set")
		os.Exit(2)
	}
	if *spreadFlag {
		for _, spec := range aa {
			name, r2, _ := strings.Cut(spec, "=")
			dir, mapDir, _ := strings.Cut(r2, ":")
			s, err := load(name, dir, mapDir, "", false)
			if err != nil {
				fmt.Fprintln(os.Stderr, "calibrate:", err)
				os.Exit(2)
			}
			s.spreads(o.out)
		}
		return
	}
	if *debug != "" {
		if err := debugDraw(o, aa[0], *debug); err != nil {
			fmt.Fprintln(os.Stderr, "calibrate:", err)
			os.Exit(2)
		}
		return
	}
	if err := run(o, aa, real); err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(2)
	}
}

// numbers reads a comma-separated list of numbers, each of which ok accepts.
func numbers(list string, ok func(float64) bool) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(list, ",") {
		var v float64
		if _, err := fmt.Sscan(f, &v); err != nil || !ok(v) {
			return nil, fmt.Errorf("%q is not one", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// debugDraw prints one draw's rows of a function with a change injected
// (-debug FUNCTION=PCT:N), from the first -aa set, spec.
func debugDraw(o options, spec, debug string) error {
	fn, rest, _ := strings.Cut(debug, "=")
	var size float64
	var n int
	fmt.Sscanf(rest, "%g:%d", &size, &n)
	name, r2, _ := strings.Cut(spec, "=")
	dir, mapDir, _ := strings.Cut(r2, ":")
	s, err := load(name, dir, mapDir, "", o.bare)
	if err != nil {
		return err
	}
	a, b := draw(rand.New(rand.NewPCG(o.seed, 7)), len(s.profiles), n)
	r, _ := s.compare(a, b, &injection{fn: fn, factor: 1 + size/100})
	for _, row := range r.Functions {
		if row.Key.Function == fn {
			fmt.Printf("%s %s self %v -> %v %+v\n", row.Key.Function, row.Key.File, row.Self.Runs[0], row.Self.Runs[1], row.Self.Change)
		}
	}
	for _, row := range r.Packages {
		if row.Self.Change.Verdict.Real() || row.Total.Change.Verdict.Real() {
			fmt.Printf("%s self %v -> %v %+v\n", row.Key.Package, row.Self.Runs[0], row.Self.Runs[1], row.Self.Change)
		}
	}
	fmt.Println(r.Headline.OnCPU.Runs, flagged(r))
	return nil
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

func run(o options, aa, real []string) error {
	fmt.Fprintf(o.out, "draws per cell: %d, seed %d; a flag is a function or package (self or total) or the headline judged better/worse/new/gone\n\n", o.draws, o.seed)
	fmt.Fprintln(o.out, "| set | runs a side | A/A reports with any flag | smallest change found in 80% of A/B draws (function of 5-50% self) | +20% found | +20% found by one uncorrected Welch test (5%) of its share alone, by sample time / by sample count | A/B draws with another function judged worse at +20% |")
	fmt.Fprintln(o.out, "|---|---:|---:|---:|---:|---:|---:|")
	var resRows []resourceRow
	for _, spec := range aa {
		name, rest, _ := strings.Cut(spec, "=")
		dir, mapDir, _ := strings.Cut(rest, ":")
		s, err := load(name, dir, mapDir, "", o.bare)
		if err != nil {
			return err
		}
		rng := rand.New(rand.NewPCG(o.seed, 7))
		targets := s.targets()
		for _, n := range o.ns {
			if !s.runsFor(n) {
				fmt.Fprintf(o.out, "| %s | %d | (needs %d runs, has %d) | | | | |\n", name, n, 2*n, len(s.profiles))
				continue
			}
			rc := resourceCount{per: map[string]int{}}
			flags, err := s.aaFlags(o, rng, n, &rc)
			if err != nil {
				return err
			}
			if s.hasResources() {
				resRows = append(resRows, resourceRow{set: name, n: n, c: rc})
			}
			c := abCells{smallest: "-", at20: "-", unrelated: "-", ceiling: "-", ceilingCount: "-"}
			if len(targets) > 0 && !o.noAB {
				if c, err = s.injected(o, rng, targets, n); err != nil {
					return err
				}
			}
			fmt.Fprintf(o.out, "| %s | %d | %s | %s | %s | %s / %s | %s |\n", name, n, pct(flags, o.draws), c.smallest, c.at20, c.ceiling, c.ceilingCount, c.unrelated)
		}
		fmt.Fprintf(o.out, "\n%s: %d runs; injected into %s\n\n", name, len(s.profiles), strings.Join(targets, ", "))
	}
	resourceTable(o.out, o.draws, resRows)
	for _, spec := range real {
		if err := realChange(o, spec); err != nil {
			return err
		}
	}
	return nil
}

// aaFlags returns in how many of o.draws A/A draws of n runs a side the
// report flags any row (-v lists them on standard error), and counts the
// draws' resource verdicts into rc (see countResources).
func (s *set) aaFlags(o options, rng *rand.Rand, n int, rc *resourceCount) (int, error) {
	flags := 0
	for d := 0; d < o.draws; d++ {
		a, b := s.draw(rng, n)
		r, err := s.compare(a, b, nil)
		if err != nil {
			return 0, err
		}
		if f := flagged(r); len(f) > 0 {
			flags++
			if o.verbose {
				fmt.Fprintf(os.Stderr, "%s %d v %d A/A: %v\n", s.name, n, n, f)
			}
		}
		if err := s.countResources(o, rc, r, a, b, n); err != nil {
			return 0, err
		}
	}
	return flags, nil
}

// abCells are the A/B cells of one row of the table.
type abCells struct {
	smallest, at20, unrelated, ceiling, ceilingCount string
}

// injected draws, for each size of o.sizes, o.draws A/B splits of n runs
// a side with the change injected into one of targets in turn, and
// returns the table's A/B cells: the smallest size found in 80% of
// draws, the share found at +20%, the ceilings of one uncorrected test
// of the target's share (by sample time, by count), and the share of
// draws with another function judged worse at +20%.
func (s *set) injected(o options, rng *rand.Rand, targets []string, n int) (abCells, error) {
	found := map[float64]int{}
	missed := map[string]int{}
	wrong, alone, counted, byCount := 0, 0, 0, 0
	for _, size := range o.sizes {
		for d := 0; d < o.draws; d++ {
			a, b := s.draw(rng, n)
			target := targets[d%len(targets)]
			r, err := s.compare(a, b, &injection{fn: target, factor: 1 + size/100})
			if err != nil {
				return abCells{}, err
			}
			if worse(r, target) {
				found[size]++
			}
			if size != 20 {
				continue
			}
			if o.verbose {
				missed[whyMissed(r, target)]++
			}
			if shareTest(r, target) {
				alone++
			}
			if f, ok := s.countTest(a, b, target, 1+size/100); ok {
				counted++
				if f {
					byCount++
				}
			}
			if unrelatedWorse(r, target) {
				wrong++
			}
		}
	}
	c := abCells{smallest: fmt.Sprintf("> +%g%%", o.sizes[len(o.sizes)-1]), ceilingCount: "-"}
	for _, size := range o.sizes {
		if found[size]*10 >= 8*o.draws {
			c.smallest = fmt.Sprintf("+%g%%", size)
			break
		}
	}
	c.at20, c.ceiling, c.unrelated = pct(found[20], o.draws), pct(alone, o.draws), pct(wrong, o.draws)
	if o.verbose {
		fmt.Fprintf(os.Stderr, "%s %d v %d, +20%%: %v\n", s.name, n, n, missed)
	}
	if counted > 0 {
		c.ceilingCount = pct(byCount, counted)
	}
	return c, nil
}

// realSpec is one -real set: its name, the before and after runs (with
// their map folders), and what the change must be found as.
type realSpec struct {
	name, before, after, mapsBefore, mapsAfter string
	// pkg is a package whose self time is expected better; fn, when not
	// "", a function whose self time is expected worse instead, the
	// sides' files keyed below roots (the two checkouts of a recording).
	pkg, fn string
	roots   []string
}

// parseReal reads -real NAME=BEFORE:AFTER:PACKAGE[:MAPDIR_BEFORE:MAPDIR_AFTER],
// where PACKAGE may be +FUNCTION@ROOT_BEFORE@ROOT_AFTER: a function whose
// self time is expected worse, the sides' files keyed below their roots
// (as --root-before and --root-after; with a trailing slash).
func parseReal(spec string) (realSpec, error) {
	name, rest, _ := strings.Cut(spec, "=")
	parts := strings.Split(rest, ":")
	if len(parts) < 3 {
		return realSpec{}, fmt.Errorf("--real %q: give NAME=BEFORE:AFTER:PACKAGE", spec)
	}
	rs := realSpec{name: name, before: parts[0], after: parts[1], pkg: parts[2]}
	if len(parts) >= 5 {
		rs.mapsBefore, rs.mapsAfter = parts[3], parts[4]
	}
	if strings.HasPrefix(rs.pkg, "+") {
		f := strings.Split(rs.pkg[1:], "@")
		rs.fn = f[0]
		if len(f) == 3 {
			rs.roots = []string{f[1], f[2]}
		}
	}
	rs.roots = append(rs.roots, "", "")
	return rs, nil
}

// realChange prints, for each runs-a-side, the share of draws of a -real
// set in which its change is found, and in which another self time is
// judged worse.
func realChange(o options, spec string) error {
	rs, err := parseReal(spec)
	if err != nil {
		return err
	}
	before, err := load(rs.name+" before", rs.before, rs.mapsBefore, rs.roots[0], o.bare)
	if err != nil {
		return err
	}
	after, err := load(rs.name+" after", rs.after, rs.mapsAfter, rs.roots[1], o.bare)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(o.seed, 11))
	what := rs.pkg + " self judged better"
	if rs.fn != "" {
		what = rs.fn + " self judged worse"
	}
	fmt.Fprintf(o.out, "| real change %s | runs a side | %s | draws with another self time judged worse |\n|---|---:|---:|---:|\n", rs.name, what)
	for _, n := range o.ns {
		if n > len(before.profiles) || n > len(after.profiles) {
			continue
		}
		found, other := 0, 0
		for d := 0; d < o.draws; d++ {
			a := rng.Perm(len(before.profiles))[:n]
			b := rng.Perm(len(after.profiles))[:n]
			sides := []diff.Side{before.side("before", a, nil), after.side("after", b, nil)}
			if rs.roots[0] != "" {
				// In place, and once is as good as many: a relocated
				// path is no longer below its root.
				diff.Relocate(sides, rs.roots[:2])
			}
			r, err := diff.Compare(sides, diff.DefaultOptions())
			if err != nil {
				return err
			}
			f, x := rs.judge(o, r, n, d == 0)
			if f {
				found++
			}
			if x {
				other++
			}
		}
		fmt.Fprintf(o.out, "| %s | %d | %s | %s |\n", rs.name, n, pct(found, o.draws), pct(other, o.draws))
	}
	fmt.Fprintln(o.out)
	return nil
}

// judge says whether one draw's report found the set's change, and
// whether it judged another self time worse (-v lists them, and the
// first draw's row of the function, on standard error).
func (rs realSpec) judge(o options, r *diff.Report, n int, first bool) (found, other bool) {
	if rs.fn != "" {
		found = worse(r, rs.fn)
		if o.verbose && first {
			for _, row := range r.Functions {
				if row.Key.Function == rs.fn {
					fmt.Fprintf(os.Stderr, "%s %d v %d: %s %s self %+v\n", rs.name, n, n, rs.fn, row.Key.File, row.Self.Change)
				}
			}
		}
	} else {
		for _, p := range r.Packages {
			if strings.Contains(p.Key.Package, rs.pkg) && p.Self.Change.Verdict == diff.VerdictBetter {
				found = true
				break
			}
		}
	}
	// A self time judged worse elsewhere: totals above the change hold
	// it. (For a function's change, its package's self time too.)
	kind := "package "
	if rs.fn != "" {
		kind = "function "
	}
	for _, f := range flagged(r) {
		if strings.HasPrefix(f, kind) && strings.HasSuffix(f, " self worse") && (rs.fn == "" || !strings.HasPrefix(f, "function "+rs.fn)) {
			if o.verbose {
				fmt.Fprintf(os.Stderr, "%s %d v %d: %s\n", rs.name, n, n, f)
			}
			return found, true
		}
	}
	return found, false
}

func pct(k, n int) string { return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(n)) }

// draw picks 2n distinct runs of m, split into two sides of n.
func draw(rng *rand.Rand, m, n int) (a, b []int) {
	p := rng.Perm(m)
	return p[:n], p[n : 2*n]
}

// draw picks two sides of n runs. A recording's runs are drawn as its
// rounds are run, interleaved: n of its rounds at random, each round's two
// runs given to the sides by a coin, so that the draws see the machine's
// drift over the recording as a user's interleaved recording does (the
// Node recording's process CPU time went from 7.4-8.9 s in its first
// rounds to 6.1-7.2 s in its last). Other sets are split at random.
func (s *set) draw(rng *rand.Rand, n int) (a, b []int) {
	if s.pairs == nil {
		return draw(rng, len(s.profiles), n)
	}
	for _, k := range rng.Perm(len(s.pairs))[:n] {
		x, y := s.pairs[k][0], s.pairs[k][1]
		if rng.IntN(2) == 1 {
			x, y = y, x
		}
		a, b = append(a, x), append(b, y)
	}
	return a, b
}

// runsFor is how many runs a set has for draws of n a side.
func (s *set) runsFor(n int) bool {
	if s.pairs != nil {
		return n <= len(s.pairs)
	}
	return 2*n <= len(s.profiles)
}

// load parses, maps and aggregates a folder's runs.
func load(name, dir, mapDir, root string, bare bool) (*set, error) {
	var runs []string
	cpu := map[string]int64{}
	recs := map[string]record.Run{}
	dirs := strings.Split(dir, ",")
	for i, d := range dirs {
		pattern := filepath.Join(d, "*")
		if strings.ContainsAny(d, "*?[") {
			// A pattern of files (before-r*.cpuprofile) in one folder.
			pattern, d = d, filepath.Dir(d)
			dirs[i] = d
		}
		files, err := filepath.Glob(pattern)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if strings.HasSuffix(f, ".cpuprofile") || strings.HasSuffix(f, ".pprof") || strings.HasSuffix(f, ".pb.gz") {
				runs = append(runs, f)
			}
		}
		if !bare {
			recordCPU(d, cpu)
			recordRuns(d, recs)
		}
	}
	sort.Strings(runs)
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s: no profiles", dir)
	}
	var sym *symbolicate.Symbolicator
	files2 := confine.New(dirs...)
	if mapDir != "" {
		sym = symbolicate.New(symbolicate.Options{Dirs: []string{mapDir}, Files: confine.New(mapDir)})
	}
	s := &set{name: name}
	for _, f := range runs {
		p, err := analyze.ParseFile(f, analyze.ParseOptions{})
		if err != nil {
			return nil, err
		}
		if sym != nil {
			sym.Apply(p)
		}
		analyze.AttributePackagesBelow(p, files2, root)
		s.profiles = append(s.profiles, p)
		s.tables = append(s.tables, analyze.Aggregate(p, analyze.AggregateOptions{}))
		abs, _ := filepath.Abs(f)
		s.cpu = append(s.cpu, cpu[abs])
		rec, ok := recs[abs]
		s.runs, s.recorded = append(s.runs, rec), append(s.recorded, ok)
	}
	if len(dirs) == 2 {
		// A recording's before/run-k and after/run-k ran one after the
		// other.
		at := map[string][]int{}
		for i, f := range runs {
			at[filepath.Base(f)] = append(at[filepath.Base(f)], i)
		}
		for _, f := range runs {
			if ix := at[filepath.Base(f)]; len(ix) == 2 {
				s.pairs = append(s.pairs, [2]int{ix[0], ix[1]})
				delete(at, filepath.Base(f))
			}
		}
	}
	return s, nil
}

// recordCPU adds to cpu the process CPU time of each run that the
// record.json above dir (profdiff record's folder) lists, by the run's
// profile's absolute path.
func recordCPU(dir string, cpu map[string]int64) {
	top := filepath.Dir(dir)
	b, err := os.ReadFile(filepath.Join(top, "record.json"))
	if err != nil {
		return
	}
	var rec struct {
		Runs []struct {
			Profile string `json:"profile"`
			CPUNs   int64  `json:"cpu_ns"`
		} `json:"runs"`
	}
	if json.Unmarshal(b, &rec) != nil {
		return
	}
	for _, r := range rec.Runs {
		if abs, err := filepath.Abs(filepath.Join(top, r.Profile)); err == nil {
			cpu[abs] = r.CPUNs
		}
	}
}

// injection makes a function's self time slower by factor in every run of
// the after side.
type injection struct {
	fn     string
	factor float64
}

// side returns the runs idx of s as a side, with inj applied when not nil.
func (s *set) side(name string, idx []int, inj *injection) diff.Side {
	side := diff.Side{Name: name}
	for _, i := range idx {
		t := s.tables[i]
		cpu := s.cpu[i]
		if inj != nil {
			var added int64
			t, added = inject(s.profiles[i], inj)
			if cpu > 0 {
				cpu += added
			}
		}
		side.Tables = append(side.Tables, t)
		side.ProcessCPUNs = append(side.ProcessCPUNs, cpu)
	}
	if slices.Contains(side.ProcessCPUNs, 0) {
		side.ProcessCPUNs = nil
	}
	if inj == nil {
		// As profdiff gives a recording's side; an injected side's
		// would be stale.
		side.Resources = s.resources(idx, 1)
	}
	return side
}

func (s *set) compare(a, b []int, inj *injection) (*diff.Report, error) {
	return diff.Compare([]diff.Side{s.side("A", a, nil), s.side("B", b, inj)}, diff.DefaultOptions())
}

// inject aggregates p with the function's samples made more by factor,
// as a function that takes factor times as long is sampled. A V8 or
// Chrome profile holds one sample per tick, each weighing the time to the
// next (on a loaded machine, anything from a fraction of the interval to
// many times it): every sample on top of the function is kept and given,
// in turn, as many copies as make their count grow by factor (for +20%,
// one sample in five twice), so that both its time and its count of
// samples grow by factor, each added sample weighing what the run's own
// did. (Scaling each sample's weight instead, as the bench did first,
// grows the time but not the count.) A pprof sample holds a count of
// ticks in its weight, which is scaled. It returns the table and the time
// added.
func inject(p *analyze.Profile, inj *injection) (*analyze.Table, int64) {
	q := *p
	q.Samples = make([]analyze.Sample, 0, len(p.Samples)+len(p.Samples)/4)
	var added int64
	var owed float64 // copies due and not yet given
	for _, sm := range p.Samples {
		if p.Frames[p.Nodes[sm.Node].Frame].Name != inj.fn {
			q.Samples = append(q.Samples, sm)
			continue
		}
		if p.Format == analyze.FormatPprof || p.Format == analyze.FormatFolded {
			w := int64(math.Round(float64(sm.Weight) * inj.factor))
			added += w - sm.Weight
			sm.Weight = w
			q.Samples = append(q.Samples, sm)
			continue
		}
		q.Samples = append(q.Samples, sm)
		owed += inj.factor - 1
		for ; owed >= 1; owed-- {
			q.Samples = append(q.Samples, sm)
			added += sm.Weight
		}
	}
	return analyze.Aggregate(&q, analyze.AggregateOptions{}), added
}

// targets are the functions holding 5-50% of on-CPU time as self time, by
// their mean over the set's runs, largest first (at most three), but for
// those whose time the scheduler sets (diff.ScheduledRow): no build makes
// Go's preemption handler slower.
func (s *set) targets() []string {
	self := map[string]float64{}
	var on float64
	for _, t := range s.tables {
		on += float64(t.Summary.OnCPUNs)
		for _, r := range t.Functions {
			if r.Key.Function != "" && !strings.HasPrefix(r.Key.Function, "(") && !diff.ScheduledRow(r.Key) {
				self[r.Key.Function] += float64(r.Self)
			}
		}
	}
	var out []string
	for f, v := range self {
		if sh := v / on; sh >= 0.05 && sh <= 0.5 {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if self[out[i]] != self[out[j]] {
			return self[out[i]] > self[out[j]]
		}
		return out[i] < out[j]
	})
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// flagged lists a report's rows judged other than the same, with their
// verdict.
func flagged(r *diff.Report) []string {
	var out []string
	for _, tab := range []struct {
		name string
		rows []diff.Row
	}{{"package", r.Packages}, {"function", r.Functions}} {
		for _, row := range tab.rows {
			for m, ms := range map[string]diff.Measure{"self": row.Self, "total": row.Total} {
				if v := ms.Change.Verdict; v.Real() {
					out = append(out, fmt.Sprintf("%s %s %s %s", tab.name, row.Key.Function+row.Key.Package, m, v))
				}
			}
		}
	}
	if v := r.JudgedHeadline().Change.Verdict; v.Real() {
		out = append(out, "headline "+v.String())
	}
	sort.Strings(out)
	return out
}

// worse reports whether a function's self time is judged worse.
func worse(r *diff.Report, fn string) bool {
	for _, row := range r.Functions {
		if row.Key.Function == fn && row.Self.Change.Verdict == diff.VerdictWorse {
			return true
		}
	}
	return false
}

// whyMissed says what became of the target's self time in an injected
// draw (-v): found (any row of that name judged worse, as worse says),
// or why not, from its largest row of that name: its time lower (the
// verdict's direction), its change below the minimum effect, or its
// p-value at alpha or above.
func whyMissed(r *diff.Report, fn string) string {
	if worse(r, fn) {
		return "found"
	}
	var big *diff.Row
	for i, row := range r.Functions {
		if row.Key.Function == fn && (big == nil || row.Self.Mean[1] > big.Self.Mean[1]) {
			big = &r.Functions[i]
		}
	}
	if big == nil {
		return "no row"
	}
	switch ch := big.Self.Change; {
	case ch.Delta < 0:
		return "time fell"
	case ch.DeltaPct < 5 || ch.DeltaPP < 0.1:
		return "time below the minimum"
	case ch.P >= 0.05:
		return "p above alpha"
	}
	return "other"
}

// unrelatedWorse reports whether a function's self time other than the
// injected one is judged worse (only its self time changed).
func unrelatedWorse(r *diff.Report, fn string) bool {
	for _, row := range r.Functions {
		if row.Key.Function != fn && row.Self.Change.Verdict == diff.VerdictWorse {
			return true
		}
	}
	return false
}
