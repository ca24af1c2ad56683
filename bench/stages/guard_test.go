package stages

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"
	"time"
)

// The guard's settings.
const (
	// guardLimit is how much slower, relative to the reference, a stage
	// may get before the guard fails.
	guardLimit = 1.15
	// guardProcs is how many processes a pass of the guard measures in
	// (twice as many for -update), one after the other.
	guardProcs = 4
	// guardRounds is how many rounds each process times.
	guardRounds = 6
	// guardPasses is how many passes in a row a stage must be over the
	// limit in to fail.
	guardPasses = 2
	// guardBatch is about how long each timed batch of a stage or of the
	// reference runs: long enough that the timer's resolution and a
	// preemption are small parts of it.
	guardBatch = 40 * time.Millisecond
	// baselineFile holds each stage's ratio to the reference.
	baselineFile = "baseline.txt"
	// resultPrefix starts the line a measuring process reports on.
	resultPrefix = "guard-result: "
)

// TestGuard times each stage against the reference workload and compares
// the ratios with the base commit's, which bench/guard.sh builds (the
// commit that baseline.txt names) and passes as PROFDIFF_GUARD_BASE: it
// fails when a stage's ratio is more than 15% above the base's in two
// passes. It runs only when PROFDIFF_GUARD is "check" or "update" (write
// baseline.txt: the commit PROFDIFF_GUARD_COMMIT and its ratios);
// "measure" is the processes it starts.
//
// Why beside the base's code, not against ratios written down: a ratio to
// the reference holds only on a machine like the one it was measured on.
// The same code (32374ea) measured Render/markdown, Render/json and
// Render/html 30-64% above baseline.txt's ratios on CI's 2-core machine
// (reference 61 ms) and within 11% of them on another (reference 41 ms),
// where, timed beside the code the ratios were measured of (49f098d), it
// was within 8% of it on every stage in one pass (Compare/two +12.5% in
// another).
// Without a base binary (a checkout without the commit), the table is
// printed against baseline.txt's ratios but judges nothing.
//
// How it measures, to be steady on a shared 2-core machine: in 4 processes
// of each binary, base and this one alternately (see runPass; 8 of this
// one for update), each running its test binary again:
// the same code was up to 13% faster or slower in one process than in the
// next (where its memory landed, presumably), however long it was timed.
// A stage's ratio is the median over the processes. Each process times the
// 10 MB profiles (GuardNodes), on one core (GOMAXPROCS=1: a busy second
// core then slows no stage's helper goroutine more than the reference), in
// CPU time (which does not count the time other processes hold the core).
// Each stage and the reference run in batches of about 40 ms (a number of
// runs calibrated once; see batch), the reference's batch right before or
// right after the stage's, alternately; a round times every stage so, and
// the process's ratio for a stage is its batch's time over the
// reference's: the median over the rounds of each order, averaged (a
// stage's time depends a little on whether the reference ran right before
// it). When a stage is over the limit, the processes are run again, and
// it fails only if it is over the limit again.
//
// Each run is timed alone, with no collection under way: after one (not
// timed), or after runs that allocated less than 8 MB since (see batch).
// The guard thus times the stages' own work, allocation included, but not
// collection, whose share depends on where a cycle falls (B/op in the
// benchmarks shows what the collector will have to do). Timing batches
// with the collector running, or paused, made them differ by 25% to 3x
// from one round to the next here. bench/guard.sh also sets
// GODEBUG=madvdontneed=0, so that memory the runtime gives back is
// reclaimed only under memory pressure, not faulted in again (and zeroed
// by the kernel) at random moments.
//
// PROFDIFF_GUARD_DEBUG=1 prints every process's rounds; PROFDIFF_STAGES_SLOW
// (see parseSlow) slows stages down to see the guard fail.
func TestGuard(t *testing.T) {
	mode := os.Getenv("PROFDIFF_GUARD")
	switch mode {
	case "":
		t.Skip("PROFDIFF_GUARD is not set: run bash bench/guard.sh")
	case "measure":
		measureProcess(t)
		return
	case "check", "update":
	default:
		t.Fatalf("PROFDIFF_GUARD=%q: want check, update or measure", mode)
	}
	start := time.Now()
	if mode == "update" {
		now := runPass(t, 2*guardProcs, "").now
		if err := writeBaseline(baselineFile, now, os.Getenv("PROFDIFF_GUARD_COMMIT")); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("guard: %d stages, input %.1f + %.1f MB, GODEBUG=%s\n", len(now.stages), float64(now.size[0])/1e6, float64(now.size[1])/1e6, os.Getenv("GODEBUG"))
		for _, s := range now.stages {
			fmt.Printf("  %-16s %.4f  (%.2f ms; processes %.4f to %.4f)\n", s.Name, s.Ratio, s.Ms, s.Min, s.Max)
		}
		fmt.Printf("guard: wrote bench/stages/%s in %.0f s\n", baselineFile, time.Since(start).Seconds())
		for _, s := range now.stages {
			if s.Max > 1.08*s.Min {
				fmt.Printf("guard: %s's processes differ by %.0f%%: the machine may have been busy; measure again when it is not\n", s.Name, 100*(s.Max/s.Min-1))
			}
		}
		return
	}

	base, err := readBaseline(baselineFile)
	if err != nil {
		t.Fatal(err)
	}
	baseExe := os.Getenv("PROFDIFF_GUARD_BASE")
	if baseExe == "" {
		fmt.Printf("guard: no test binary of the base commit (%s): comparing with baseline.txt's ratios, measured on another machine, which judge nothing (see TestGuard)\n", orNone(base.commit))
	} else {
		fmt.Printf("guard: comparing with the base commit %s, measured beside this code\n", base.commit)
	}
	// A stage fails when it is over the limit in guardPasses passes in a
	// row; passes stop when no stage is over it in all of them so far.
	var passes []pass
	var suspect []bool
	for p := range guardPasses {
		ps := runPass(t, guardProcs, baseExe)
		if p == 0 {
			suspect = make([]bool, len(ps.now.stages))
		}
		passes = append(passes, ps)
		left := false
		for i, s := range ps.now.stages {
			b, ok := ps.baseline(s.Name, base.ratios)
			suspect[i] = ok && (p == 0 || suspect[i]) && s.Ratio > guardLimit*b
			left = left || suspect[i]
		}
		if !left || baseExe == "" { // the written ratios judge nothing: no second pass
			break
		}
	}

	first := passes[0]
	now := first.now
	pct := func(x, b float64) string { return fmt.Sprintf("%+.1f%%", 100*(x/b-1)) }
	fmt.Printf("guard: %d stages, input %.1f + %.1f MB, GODEBUG=%s\n", len(now.stages), float64(now.size[0])/1e6, float64(now.size[1])/1e6, os.Getenv("GODEBUG"))
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	if baseExe == "" {
		fmt.Fprintln(w, "stage\tms/op\tbaseline\tnow\tchange\tprocesses\tagain\t\t")
	} else {
		fmt.Fprintln(w, "stage\tbase ms/op\tms/op\tbase\tnow\tchange\tprocesses\tagain\t\t")
	}
	failed := 0
	for i, s := range now.stages {
		b, ok := first.baseline(s.Name, base.ratios)
		if !ok {
			if baseExe == "" {
				fmt.Fprintf(w, "%s\t%.2f\t-\t%.4f\t\t\t\t\tnew: no ratio to hold it to\n", s.Name, s.Ms, s.Ratio)
			} else {
				fmt.Fprintf(w, "%s\t-\t%.2f\t-\t%.4f\t\t\t\t\tnew: the base has no such stage\n", s.Name, s.Ms, s.Ratio)
			}
			continue
		}
		verdict, again := "ok", ""
		if s.Ratio > guardLimit*b {
			verdict = "ok again"
			for _, r := range passes[1:] {
				rb, _ := r.baseline(s.Name, base.ratios)
				again += pct(r.now.stages[i].Ratio, rb)
			}
		}
		switch {
		case suspect[i] && baseExe == "":
			verdict = "slower than the ratios (not judged)"
		case suspect[i]:
			verdict = fmt.Sprintf("SLOWER (limit %+.0f%%)", 100*(guardLimit-1))
			failed++
		case s.Ratio < b/guardLimit && baseExe == "":
			verdict = "faster: update the baseline?"
		case s.Ratio < b/guardLimit:
			verdict = "faster"
		}
		if baseExe == "" {
			fmt.Fprintf(w, "%s\t%.2f\t%.4f\t%.4f\t%s\t%s..%s\t%s\t\t%s\n", s.Name, s.Ms, b, s.Ratio, pct(s.Ratio, b), pct(s.Min, b), pct(s.Max, b), again, verdict)
		} else {
			bs, _ := first.base.stage(s.Name)
			fmt.Fprintf(w, "%s\t%.2f\t%.2f\t%.4f\t%.4f\t%s\t%s..%s\t%s\t\t%s\n", s.Name, bs.Ms, s.Ms, b, s.Ratio, pct(s.Ratio, b), pct(s.Min, b), pct(s.Max, b), again, verdict)
		}
	}
	w.Flush()
	fmt.Printf("guard: %d pass(es) of %d processes of %d rounds in %.0f s; reference %.2f ms\n",
		len(passes), first.procs, guardRounds, time.Since(start).Seconds(), now.refMs)
	if failed > 0 {
		t.Errorf("%d stage(s) more than %.0f%% slower than the base commit %s, relative to the reference workload, in %d passes", failed, 100*(guardLimit-1), base.commit, guardPasses)
	}
}

// orNone returns s, or "none" when it is empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// pass is what one pass of the guard measured: this code, and the base
// commit's code beside it when there is a base binary.
type pass struct {
	now   *result
	base  *result // nil without a base binary
	procs int     // processes run in all
}

// baseline returns the ratio that the stage name is held to in this pass:
// the base binary's, measured beside this code, or else baseline.txt's.
func (p pass) baseline(name string, file map[string]float64) (float64, bool) {
	if p.base != nil {
		s, ok := p.base.stage(name)
		return s.Ratio, ok
	}
	b, ok := file[name]
	return b, ok
}

// stageResult is what was measured of a stage: by one process, or the
// median over processes with their range.
type stageResult struct {
	Name     string
	Ratio    float64 // to the reference (see TestGuard)
	Ms       float64 // CPU time per run
	Min, Max float64 // the extreme processes' ratios (a process's: rounds')
}

// result is what the processes of a pass measured: each stage's median.
type result struct {
	stages []stageResult
	refMs  float64
	size   [2]int64
}

// processReport is the line a measuring process writes.
type processReport struct {
	Stages []stageResult
	RefMs  float64
	Size   [2]int64
}

// measureProcess times the stages for the process that started this one,
// and reports on a line of its output.
func measureProcess(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	fx := newFixture(t, t.TempDir(), GuardNodes, levelReport)
	ref := newReference()
	m := &meter{fx: fx, ref: ref, stages: stages(t)}
	m.refPlan = plan(t, ref.run)
	for _, s := range m.stages {
		m.stagePlans = append(m.stagePlans, plan(t, func() error { return s.run(fx) }))
	}
	if os.Getenv("PROFDIFF_GUARD_DEBUG") != "" {
		fmt.Printf("plans (runs a batch, runs a collection): reference %v, stages %v\n", m.refPlan, m.stagePlans)
	}
	rep := processReport{Stages: m.rounds(t, guardRounds), RefMs: m.refMs, Size: fx.size}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("%s%s\n", resultPrefix, b)
}

// stage returns the result of the stage name.
func (r *result) stage(name string) (stageResult, bool) {
	for _, s := range r.stages {
		if s.Name == name {
			return s, true
		}
	}
	return stageResult{}, false
}

// runPass runs n measuring processes of this test binary one after the
// other, and as many of baseExe's (unless it is empty) interleaved with
// them, base first then this one's twice then the base's twice (so that
// a drift of the machine's speed falls on both alike), and returns each
// stage's median over each binary's processes. The base processes are
// never slowed down (PROFDIFF_STAGES_SLOW is for this code only).
func runPass(t *testing.T, n int, baseExe string) pass {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var baseEnv []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PROFDIFF_STAGES_SLOW=") {
			baseEnv = append(baseEnv, kv)
		}
	}
	procs := n
	if baseExe != "" {
		procs = 2 * n
	}
	var now, base []processReport
	for i := range procs {
		if baseExe != "" && (i+1)/2%2 == 0 { // base, now, now, base, base, now, ...
			base = append(base, runProcess(t, baseExe, baseEnv))
		} else {
			now = append(now, runProcess(t, exe, os.Environ()))
		}
	}
	p := pass{now: summarize(now), procs: procs}
	if base != nil {
		p.base = summarize(base)
	}
	return p
}

// runProcess runs one measuring process of the test binary exe and
// returns what it reported.
func runProcess(t *testing.T, exe string, env []string) processReport {
	t.Helper()
	cmd := exec.Command(exe, "-test.run=^TestGuard$", "-test.count=1", "-test.timeout=10m")
	cmd.Env = append(env, "PROFDIFF_GUARD=measure")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("measuring process %s: %v\n%s", exe, err, out)
	}
	var rep processReport
	found := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), resultPrefix)
		if !ok {
			if os.Getenv("PROFDIFF_GUARD_DEBUG") != "" && !strings.HasPrefix(sc.Text(), "PASS") {
				fmt.Println(sc.Text())
			}
			continue
		}
		if err := json.Unmarshal([]byte(line), &rep); err != nil {
			t.Fatalf("measuring process %s: %v in %q", exe, err, line)
		}
		found = true
	}
	if !found || len(rep.Stages) == 0 {
		t.Fatalf("measuring process %s reported nothing:\n%s", exe, out)
	}
	if os.Getenv("PROFDIFF_GUARD_DEBUG") != "" {
		fmt.Printf("process %s: reference %.2f ms, ratios", exe, rep.RefMs)
		for _, s := range rep.Stages {
			fmt.Printf(" %.4f", s.Ratio)
		}
		fmt.Println()
	}
	return rep
}

// summarize returns each stage's median over the processes' reports.
func summarize(reps []processReport) *result {
	r := &result{size: reps[0].Size}
	var refMs []float64
	for _, rep := range reps {
		refMs = append(refMs, rep.RefMs)
	}
	r.refMs = quantile(refMs, 0.5)
	for i, s := range reps[0].Stages {
		var ratios, ms []float64
		for _, rep := range reps {
			ratios = append(ratios, rep.Stages[i].Ratio)
			ms = append(ms, rep.Stages[i].Ms)
		}
		r.stages = append(r.stages, stageResult{Name: s.Name, Ratio: quantile(ratios, 0.5), Ms: quantile(ms, 0.5), Min: slices.Min(ratios), Max: slices.Max(ratios)})
	}
	return r
}

// meter times stages against the reference.
type meter struct {
	fx         *fixture
	ref        *reference
	stages     []stage
	refPlan    batchPlan
	stagePlans []batchPlan // of each stage
	refMs      float64     // the reference's median time per run, of the last rounds
}

// rounds times each stage, with the reference beside it, rounds times,
// and returns each stage's ratio (see TestGuard) and median time per run;
// Min and Max are the extreme rounds.
func (m *meter) rounds(t *testing.T, rounds int) []stageResult {
	t.Helper()
	ratios := make([][]float64, len(m.stages))
	times := make([][]float64, len(m.stages))
	var refTimes []float64
	debug := os.Getenv("PROFDIFF_GUARD_DEBUG") != ""
	for r := range rounds {
		for i, s := range m.stages {
			var ts, tr time.Duration
			stageBatch := func() { ts = batch(t, func() error { return s.run(m.fx) }, m.stagePlans[i]) }
			refBatch := func() { tr = batch(t, m.ref.run, m.refPlan) }
			if (r+i)%2 == 0 {
				refBatch()
				stageBatch()
			} else {
				stageBatch()
				refBatch()
			}
			perStage := float64(ts) / float64(m.stagePlans[i].reps)
			perRef := float64(tr) / float64(m.refPlan.reps)
			ratios[i] = append(ratios[i], perStage/perRef)
			times[i] = append(times[i], perStage/1e6)
			refTimes = append(refTimes, perRef/1e6)
		}
		if debug {
			fmt.Printf("round %2d reference %5.2f ms:", r, quantile(refTimes[len(refTimes)-len(m.stages):], 0.5))
			for i := range m.stages {
				fmt.Printf(" %.3f", ratios[i][r])
			}
			fmt.Println()
		}
	}
	out := make([]stageResult, len(m.stages))
	for i, r := range ratios {
		var orders [2][]float64
		for j, x := range r {
			orders[(i+j)%2] = append(orders[(i+j)%2], x)
		}
		out[i] = stageResult{
			Name:  m.stages[i].name,
			Ratio: (quantile(orders[0], 0.5) + quantile(orders[1], 0.5)) / 2,
			Ms:    quantile(times[i], 0.5),
			Min:   slices.Min(r),
			Max:   slices.Max(r),
		}
	}
	m.refMs = quantile(refTimes, 0.5)
	return out
}

// batchPlan says how a batch runs.
type batchPlan struct {
	reps  int // timed runs
	perGC int // runs between two garbage collections
}

// gcEvery is how much a batch may allocate between two collections: far
// less than the fixture's live heap, so that no collection starts while a
// run is timed, and little enough that the runs reuse memory the runs
// before them freed (runs that allocated a new 32 MB between collections
// were up to 2x slower: Read's ratio spread ±9% instead of ±3%).
const gcEvery = 8 << 20

// batch runs run once untimed, so that the timed runs follow a run of
// their own whatever ran before (a stage's first run after another stage
// took up to 6x as long), then times p.reps runs of run in CPU time,
// collecting garbage (untimed) before every p.perGC runs. Each run thus
// starts from about the same heap, reuses memory the runs before it freed,
// and is not charged with collecting garbage that others left.
func batch(t *testing.T, run func() error, p batchPlan) time.Duration {
	t.Helper()
	if err := run(); err != nil {
		t.Fatal(err)
	}
	var total time.Duration
	for i := range p.reps {
		if i%p.perGC == 0 {
			runtime.GC()
		}
		start := cpuTime()
		err := run()
		total += cpuTime() - start
		if err != nil {
			t.Fatal(err)
		}
	}
	return total
}

// plan returns the plan of a batch of about guardBatch, from the fastest
// of three runs, with a collection before the runs that allocate gcEvery.
func plan(t *testing.T, run func() error) batchPlan {
	t.Helper()
	best := time.Duration(1 << 62)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 3 {
		best = min(best, batch(t, run, batchPlan{reps: 1, perGC: 1}))
	}
	runtime.ReadMemStats(&after)
	alloc := (after.TotalAlloc - before.TotalAlloc) / 6 // 3 batches of 2 runs
	return batchPlan{
		reps:  max(1, int((guardBatch+best/2)/max(best, 1))),
		perGC: max(1, int(gcEvery/max(alloc, 1))),
	}
}

// quantile returns the q-quantile of xs, interpolated.
func quantile(xs []float64, q float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	pos := q * float64(len(s)-1)
	lo := int(pos)
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[lo] + (pos-float64(lo))*(s[lo+1]-s[lo])
}

// baseline is what baseline.txt holds.
type baseline struct {
	// commit names the commit whose code the ratios were measured of:
	// bench/guard.sh builds its test binary, when this checkout has it, to
	// measure beside this code (PROFDIFF_GUARD_BASE).
	commit string
	// ratios are each stage's ratio to the reference, for when there is
	// no base binary.
	ratios map[string]float64
}

// readBaseline reads baseline.txt: a "commit <hash>" line and "stage
// ratio" lines; # starts a comment.
func readBaseline(path string) (baseline, error) {
	f, err := os.Open(path)
	if err != nil {
		return baseline{}, fmt.Errorf("%w (bash bench/guard.sh -update writes it)", err)
	}
	defer f.Close()
	base := baseline{ratios: map[string]float64{}}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if fields[0] == "commit" {
			if len(fields) != 2 || !isHash(fields[1]) {
				return baseline{}, fmt.Errorf("%s:%d: want commit and a 40-digit hash, got %q", path, n, sc.Text())
			}
			base.commit = fields[1]
			continue
		}
		v, err := strconv.ParseFloat(fields[len(fields)-1], 64)
		if len(fields) != 2 || err != nil || v <= 0 {
			return baseline{}, fmt.Errorf("%s:%d: want a stage and its ratio to the reference, got %q", path, n, sc.Text())
		}
		base.ratios[fields[0]] = v
	}
	return base, sc.Err()
}

// isHash says whether s is a full commit hash.
func isHash(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}

// writeBaseline writes the ratios of the code of commit, with how they
// were measured.
func writeBaseline(path string, r *result, commit string) error {
	if !isHash(commit) {
		return fmt.Errorf("PROFDIFF_GUARD_COMMIT=%q: want the 40-digit hash of the commit measured (bench/guard.sh -update sets it)", commit)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `# The code of the commit below is the speed the guard holds stages to:
# bench/guard.sh builds that commit's test binary and times it beside
# this code, alternately (see TestGuard in guard_test.go), and fails when
# a stage's ratio to the reference workload is more than %.0f%% above the
# base's in two passes. In a checkout without that commit (a shallow
# clone), it prints its ratios beside the ones below but judges nothing:
# each stage's CPU time divided by the reference workload's
# (BenchmarkReference), the median over %d processes of %d rounds,
# which hold only on a machine like the one they were measured on. Regenerate when a stage got faster or
# slower for good (say why in the commit), on an otherwise idle machine
# (about 100 s), with: bash bench/guard.sh -update
# Measured %s, %s, %d CPUs, input %d + %d bytes (GuardNodes).
commit %s
# stage          ratio     (ms/op then; the processes' range)
`, 100*(guardLimit-1), 2*guardProcs, guardRounds, time.Now().UTC().Format("2006-01-02"), runtime.Version(), runtime.NumCPU(), r.size[0], r.size[1], commit)
	for _, s := range r.stages {
		fmt.Fprintf(&b, "%-16s %.4f    # %.2f; %.4f to %.4f\n", s.Name, s.Ratio, s.Ms, s.Min, s.Max)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
