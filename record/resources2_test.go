package record

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSteps: each step of a run is measured and profiled apart, in order,
// its profile in its own folder; the run's figures add the steps' (max
// RSS the larger).
func TestSteps(t *testing.T) {
	exe, _ := os.Executable()
	sides := []Side{{Name: "before", Dir: t.TempDir()}, {Name: "after", Dir: t.TempDir()}}
	opts := helperOptions(t, map[string]string{"before": "by-arg", "after": "by-arg"}, sides...)
	opts.Runs, opts.Warmup = 2, 1
	opts.Steps = []Step{{Name: "install", Args: []string{exe, "{profile}.folded", "alloc", "64"}}, {Name: "resolve", Args: []string{exe, "{profile}.folded", "nap", "250"}}}
	rec, err := Do(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rec.Steps, []string{"install", "resolve"}) {
		t.Errorf("steps %q", rec.Steps)
	}
	for _, r := range rec.Runs {
		if len(r.Steps) != 2 || r.Steps[0].Name != "install" || r.Steps[1].Name != "resolve" {
			t.Fatalf("run %s #%d: steps %+v", r.Side, r.Index, r.Steps)
		}
		in, re := r.Steps[0], r.Steps[1]
		if in.Resources.MaxRSSBytes < 64<<20 || re.Resources.MaxRSSBytes > 32<<20 {
			t.Errorf("max RSS: install %d, resolve %d; want 64 MiB and the runtime's", in.Resources.MaxRSSBytes, re.Resources.MaxRSSBytes)
		}
		if re.WallNs < int64(250*time.Millisecond) {
			t.Errorf("resolve took %s, less than its 250 ms sleep", time.Duration(re.WallNs))
		}
		if r.WallNs != in.WallNs+re.WallNs || r.Resources.MaxRSSBytes != in.Resources.MaxRSSBytes || r.Resources.MinorFaults != in.Resources.MinorFaults+re.Resources.MinorFaults {
			t.Errorf("run %+v does not add up its steps", r)
		}
		if r.Warmup {
			continue
		}
		for _, st := range r.Steps {
			if want := filepath.Join(StepFolder(st.Name, r.Side), "run-0"+string(rune('0'+r.Index))+".folded"); st.Profile != want {
				t.Errorf("step %s profile %s, want %s", st.Name, st.Profile, want)
			}
		}
	}
	// record.json sums up each step apart, and the whole runs.
	found := 0
	for _, sm := range rec.Resources {
		if sm.Side == "after" && sm.Measure == "wall" && sm.Kind == "profiled" {
			found++
			if sm.Runs != 2 || sm.Step == "resolve" && sm.Mean < 250e6 {
				t.Errorf("summary %+v", sm)
			}
		}
	}
	if found != 3 {
		t.Errorf("%d wall summaries of after, want the whole runs' and each step's", found)
	}
	// The comparison of a step reads its step's figures.
	files := []string{filepath.Join(opts.Out, "steps", "resolve", "after", "run-01.folded"), filepath.Join(opts.Out, "steps", "resolve", "after", "run-02.folded")}
	set, ok := rec.RunsOf(opts.Out, files)
	if !ok || set.Side != "after" || set.Step != "resolve" || len(set.Profiled) != 2 || set.Profiled[0].WallNs < int64(250*time.Millisecond) {
		t.Errorf("RunsOf the resolve step's profiles: %+v, %v", set, ok)
	}
	if entries, _ := os.ReadDir(filepath.Join(opts.Out, "before")); len(entries) != 0 {
		t.Errorf("before/ holds %d files with steps", len(entries))
	}
	// A failing step stops the run and names the step.
	opts2 := helperOptions(t, map[string]string{"before": "by-arg", "after": "by-arg"}, sides...)
	opts2.Runs, opts2.Warmup = 1, 0
	opts2.Steps = []Step{{Name: "ok", Args: []string{exe, "{profile}.folded", "nap", "1"}}, {Name: "bad", Args: []string{exe, "{profile}.folded", "nosuchmode"}}}
	if _, err := Do(context.Background(), opts2); err == nil || !strings.Contains(err.Error(), "step bad exited with status 2") {
		t.Errorf("a failing step: %v", err)
	}
}

// TestScheduleUnprofiled: unprofiled rounds are spread among the measured
// ones, and the measured runs keep Schedule's order.
func TestScheduleUnprofiled(t *testing.T) {
	got := ""
	for _, s := range ScheduleWith(Interleaved, 2, 4, 1, 2, 0) {
		c := string(rune('a' + s.Side))
		switch {
		case s.Warmup:
			c = "w" + c
		case s.Unprofiled:
			c = strings.ToUpper(c)
		}
		got += c + " "
	}
	// Unprofiled round k follows measured round ceil(k·runs/(unprofiled+1)):
	// 4·1/3 → 2, 4·2/3 → 3.
	if want := "wa wb a b a b A B a b A B a b "; got != want {
		t.Errorf("schedule %q, want %q", got, want)
	}
	var measured []Slot
	for _, s := range ScheduleWith(AlternateABBA, 2, 4, 0, 3, 0) {
		if !s.Unprofiled {
			measured = append(measured, s)
		}
	}
	if !slices.Equal(measured, Schedule(AlternateABBA, 2, 4, 0, 0)) {
		t.Errorf("the measured runs moved: %v", measured)
	}
}

// TestLoadWarnings: other work of a CPU or more during runs is warned of;
// a quiet machine, and runs too short to tell, are not.
func TestLoadWarnings(t *testing.T) {
	sec := int64(time.Second)
	runs := []Run{
		{Side: "a", WallNs: sec, CPUNs: sec, MachineCPUNs: sec + sec/10},  // others 0.1 CPU
		{Side: "b", WallNs: sec, CPUNs: sec, MachineCPUNs: 2*sec + sec/2}, // others 1.5 CPUs
		{Side: "b", WallNs: sec, CPUNs: sec, MachineCPUNs: sec},
		{Side: "a", WallNs: sec / 10, CPUNs: 0, MachineCPUNs: sec / 5}, // too short
	}
	ws := loadWarnings(runs, []string{"a", "b"})
	if len(ws) != 1 || !strings.Contains(ws[0], "during 1 of 2 runs of b, other work kept 1.5 CPUs busy") {
		t.Errorf("warnings %q", ws)
	}
}

// TestUnprofiledRuns: unprofiled runs run the command without the
// profiler, write no profile, and are measured like the others; a
// {profile} command is refused them.
func TestUnprofiledRuns(t *testing.T) {
	exe, _ := os.Executable()
	_, err := Do(context.Background(), Options{Sides: []Side{{Name: "a", Args: []string{exe, "{profile}"}}}, Runs: 1, Unprofiled: 1, Out: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "cannot be run without its profiler") {
		t.Errorf("a {profile} side with --unprofiled-runs: %v", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.js"), []byte("let s = 0; for (let i = 0; i < 1e6; i++) s += i; console.log(process.execArgv.join(' ') || 'plain');\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	side := func(name string) Side { return Side{Name: name, Args: []string{node, "main.js"}, Dir: dir} }
	opts := Options{Sides: []Side{side("before"), side("after")}, Runs: 2, Unprofiled: 1, Out: filepath.Join(t.TempDir(), "rec"), Env: os.Environ(), loadSample: -1}
	rec, err := Do(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rec.Runs {
		out, _ := os.ReadFile(filepath.Join(opts.Out, r.Stdout))
		if r.Unprofiled {
			n++
			if r.Profile != "" || strings.TrimSpace(string(out)) != "plain" || r.Resources == nil || r.Resources.MaxRSSBytes == 0 {
				t.Errorf("unprofiled run %+v printed %q", r, out)
			}
			if !strings.Contains(r.Stdout, "unprofiled") {
				t.Errorf("unprofiled run's log %s", r.Stdout)
			}
		} else if !strings.Contains(string(out), "--cpu-prof") {
			t.Errorf("profiled run %s #%d ran %q", r.Side, r.Index, out)
		}
	}
	if n != 2 || rec.UnprofiledPerSide != 1 {
		t.Errorf("%d unprofiled runs (record says %d a side), want 1 a side", n, rec.UnprofiledPerSide)
	}
	for _, side := range []string{"before", "after"} {
		entries, _ := os.ReadDir(filepath.Join(opts.Out, side))
		if len(entries) != 2 {
			t.Errorf("%s/ holds %d files, want the 2 measured runs' profiles", side, len(entries))
		}
	}
	if len(rec.Wall) != 2 || rec.Wall[0].Runs != 2 {
		t.Errorf("wall %+v: the unprofiled runs are not among the measured", rec.Wall)
	}
}

// TestResourcesNodeWorker: a Node program whose work is in a worker thread
// (64 MiB, 300 ms of CPU): its process's figures hold it, as
// /usr/bin/time -v of the same command (profiled, as record runs it) says.
func TestResourcesNodeWorker(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil || runtime.GOOS != "linux" {
		t.Skip("node is not installed, or not Linux")
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil || testing.Short() {
		t.Skip("no /usr/bin/time, or -short")
	}
	script, _ := filepath.Abs(filepath.Join("testdata", "worker.js"))
	side := func(name string) Side { return Side{Name: name, Args: []string{node, script}, Dir: t.TempDir()} }
	opts := Options{Sides: []Side{side("before"), side("after")}, Runs: 2, Out: filepath.Join(t.TempDir(), "rec"), Env: os.Environ(), loadSample: -1}
	rec, err := Do(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var cpu, rss float64
	var threads int
	for _, r := range rec.Runs {
		if r.Kind() == KindMeasured {
			cpu += float64(r.Resources.UserNs+r.Resources.SysNs) / 4 / 1e9
			rss += float64(r.Resources.MaxRSSBytes) / 4 / (1 << 20)
			threads += len(r.Threads)
		}
	}
	if threads != 4 {
		t.Errorf("%d worker profiles kept over 4 runs, want 4", threads)
	}
	var tv timeV
	for range 2 {
		stage := t.TempDir()
		x := runTimeV(t, os.Environ(), t.TempDir(), node, "--cpu-prof", "--cpu-prof-dir="+stage, script)
		tv.user, tv.sys, tv.maxRSSKiB = tv.user+x.user/2, tv.sys+x.sys/2, tv.maxRSSKiB+x.maxRSSKiB/2
	}
	t.Logf("record: user+sys %.3fs, max RSS %.1f MiB; /usr/bin/time -v: user+sys %.3fs, max RSS %.1f MiB", cpu, rss, tv.user+tv.sys, tv.maxRSSKiB/1024)
	if cpu < 0.3 || rss < 64 {
		t.Errorf("record: user+sys %.3fs, max RSS %.1f MiB; want the worker's 300 ms and 64 MiB in them", cpu, rss)
	}
	if d := cpu - (tv.user + tv.sys); d > max(0.3*cpu, 0.12) || -d > max(0.3*cpu, 0.12) {
		t.Errorf("user+sys %.3fs by record, %.3fs by /usr/bin/time -v", cpu, tv.user+tv.sys)
	}
	if d := rss - tv.maxRSSKiB/1024; d > max(0.1*rss, 4) || -d > max(0.1*rss, 4) {
		t.Errorf("max RSS %.1f MiB by record, %.1f MiB by /usr/bin/time -v", rss, tv.maxRSSKiB/1024)
	}
}

// TestMaxRSSFloor: a command started while profdiff holds much memory is
// charged profdiff's resident set as its max RSS (Go starts commands with
// vfork); record keeps that floor beside the figure and warns of runs at
// it, and a run well above it is not warned of.
func TestMaxRSSFloor(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux's accounting")
	}
	exe, _ := os.Executable()
	hold := make([]byte, 160<<20)
	for i := 0; i < len(hold); i += 4096 {
		hold[i] = 1
	}
	sides := []Side{{Name: "nap", Args: []string{exe, "{profile}.folded", "1"}}, {Name: "alloc", Args: []string{exe, "{profile}.folded", "400"}}}
	opts := helperOptions(t, map[string]string{"nap": "nap", "alloc": "alloc"}, sides...)
	opts.Runs, opts.Warmup, opts.loadSample = 1, 0, -1
	rec, err := Do(context.Background(), opts)
	runtime.KeepAlive(hold)
	hold = nil
	debug.FreeOSMemory() // the tests after this one start their runs beside less
	if err != nil {
		t.Fatal(err)
	}
	nap, alloc := rec.Runs[0].Resources, rec.Runs[1].Resources
	if nap.MaxRSSFloorBytes < 160<<20 || nap.MaxRSSBytes < 160<<20 || !nap.AtFloor() {
		t.Errorf("a 1 ms nap started beside 160 MiB: max RSS %d, floor %d; want both past 160 MiB, at the floor", nap.MaxRSSBytes, nap.MaxRSSFloorBytes)
	}
	if alloc.AtFloor() || alloc.MaxRSSBytes < 400<<20 {
		t.Errorf("400 MiB allocated: max RSS %d, floor %d, at the floor %v", alloc.MaxRSSBytes, alloc.MaxRSSFloorBytes, alloc.AtFloor())
	}
	var warned []string
	for _, w := range rec.Warnings {
		if strings.Contains(w, "max RSS") {
			warned = append(warned, w)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "of nap is no more than profdiff's own memory") {
		t.Errorf("warnings %q, want one of nap's max RSS", warned)
	}
}
