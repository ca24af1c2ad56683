package record

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperEnv makes the test binary act as a profiling tool (see helper).
const helperEnv = "PROFDIFF_RECORD_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// helper is a tool in the manner of go test -cpuprofile: "profile PATH"
// writes a folded profile to PATH; "fail PATH" says why on stderr and exits
// 3; "silent PATH" exits 0 without a profile; "hang PATH" starts a child of
// its own (writing its pid to PATH.child) and waits for ever; "sleep"
// waits for ever.
func helper(mode string, args []string) int {
	path := ""
	if len(args) > 0 {
		path = args[0]
	}
	switch mode {
	case "profile":
		fmt.Println("working")
		if err := os.WriteFile(path, []byte("main;work;compareRows 7\nmain;work 3\n"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "fail":
		fmt.Fprintln(os.Stderr, "loading config\nconfig.json: no such file")
		return 3
	case "silent":
		return 0
	case "hang":
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), helperEnv+"=sleep")
		if err := child.Start(); err != nil {
			return 1
		}
		_ = os.WriteFile(path+".child", []byte(strconv.Itoa(child.Process.Pid)), 0o644)
		time.Sleep(time.Hour)
	case "sleep":
		time.Sleep(time.Hour)
	default:
		if code, ok := resourceHelper(mode, args); ok {
			return code
		}
	}
	return 2
}

// helperSide is a side run by the helper in mode.
func helperSide(t *testing.T, name, mode string) Side {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Side{Name: name, Args: []string{exe, "{profile}.folded"}, Dir: t.TempDir()}
}

// helperOptions record sides whose helper modes are given per side.
func helperOptions(t *testing.T, modes map[string]string, sides ...Side) Options {
	return Options{Sides: sides, Runs: 3, Warmup: 1, Out: filepath.Join(t.TempDir(), "rec"),
		Env: os.Environ(), envFor: func(side string) []string { return []string{helperEnv + "=" + modes[side]} }}
}

func TestRecordRuns(t *testing.T) {
	opts := helperOptions(t, map[string]string{"before": "profile", "after": "profile"},
		helperSide(t, "before", ""), helperSide(t, "after", ""))
	var started, finished []string
	opts.Started = func(s Slot, side Side) {
		started = append(started, fmt.Sprintf("%s%d%v", side.Name, s.Index, s.Warmup))
	}
	opts.Finished = func(r Run) { finished = append(finished, fmt.Sprintf("%s%d%v", r.Side, r.Index, r.Warmup)) }
	rec, err := Do(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"before1true", "after1true", "before1false", "after1false", "before2false", "after2false", "before3false", "after3false"}
	if !slices.Equal(started, want) || !slices.Equal(finished, want) {
		t.Errorf("started %q, finished %q, want %q", started, finished, want)
	}
	// record.json is the recording, runs in the order they ran.
	b, err := os.ReadFile(filepath.Join(opts.Out, FileName))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []map[string]any `json:"runs"`
		Env  map[string]any   `json:"environment"`
		Wall []Wall           `json:"wall"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 8 || len(rec.Runs) != 8 {
		t.Fatalf("%d runs in record.json, %d returned, want 8", len(doc.Runs), len(rec.Runs))
	}
	for _, key := range []string{"side", "index", "warmup", "wall_ns", "cpu_ns", "exit", "profile", "stdout", "stderr"} {
		if _, ok := doc.Runs[0][key]; !ok {
			t.Errorf("a run in record.json has no %q: %v", key, doc.Runs[0])
		}
	}
	for _, key := range []string{"os", "arch", "logical_cpus"} {
		if _, ok := doc.Env[key]; !ok {
			t.Errorf("the environment has no %q: %v", key, doc.Env)
		}
	}
	if len(doc.Wall) != 2 || doc.Wall[0].Runs != 3 || doc.Wall[1].P == nil {
		t.Errorf("wall times %+v, want both sides' 3 runs, judged", doc.Wall)
	}
	for _, r := range rec.Runs {
		if r.WallNs <= 0 || r.Exit != 0 {
			t.Errorf("run %+v: no wall time, or not exit 0", r)
		}
		wantDir := r.Side
		if r.Warmup {
			wantDir = "warmup"
		}
		if filepath.Dir(r.Profile) != wantDir {
			t.Errorf("run %s #%d (warm-up %v): profile %s, want it in %s/", r.Side, r.Index, r.Warmup, r.Profile, wantDir)
		}
		if out, err := os.ReadFile(filepath.Join(opts.Out, r.Stdout)); err != nil || string(out) != "working\n" {
			t.Errorf("run %s #%d: standard output %q, %v", r.Side, r.Index, out, err)
		}
	}
	// Each side's folder holds its measured runs' profiles, and nothing else.
	for _, side := range []string{"before", "after"} {
		entries, _ := os.ReadDir(filepath.Join(opts.Out, side))
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if want := []string{"run-01.folded", "run-02.folded", "run-03.folded"}; !slices.Equal(names, want) {
			t.Errorf("%s/ holds %q, want %q", side, names, want)
		}
	}
	// A folder that holds a recording is not recorded over.
	if _, err := Do(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "holds a recording already") {
		t.Errorf("recording again into %s: %v", opts.Out, err)
	}
}

func TestRecordStopsAtAFailedRun(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want []string
	}{
		{"fail", []string{"run after warm-up #1", "exited with status 3", "config.json: no such file", "loading config"}},
		{"silent", []string{"run after warm-up #1", "wrote no profile"}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			opts := helperOptions(t, map[string]string{"before": "profile", "after": tc.mode},
				helperSide(t, "before", ""), helperSide(t, "after", ""))
			rec, err := Do(context.Background(), opts)
			var re *RunError
			if !errors.As(err, &re) {
				t.Fatalf("err %v, want a *RunError", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q is not one line", err)
			}
			if rec == nil || len(rec.Runs) != 2 || rec.Stopped == "" {
				t.Fatalf("recording %+v: want the two runs that ran, and why it stopped", rec)
			}
			b, _ := os.ReadFile(filepath.Join(opts.Out, FileName))
			if !strings.Contains(string(b), `"stopped"`) {
				t.Errorf("record.json does not say the recording stopped:\n%s", b)
			}
		})
	}
}

// TestTimeoutStopsTheGroup: a run that outlives --timeout is stopped with
// the process it started, and a process outside its group is not touched.
func TestTimeoutStopsTheGroup(t *testing.T) {
	exe, _ := os.Executable()
	bystander := exec.Command(exe)
	bystander.Env = append(os.Environ(), helperEnv+"=sleep")
	bystander.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := bystander.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = bystander.Process.Kill(); _ = bystander.Wait() }()

	opts := helperOptions(t, map[string]string{"before": "hang", "after": "profile"},
		helperSide(t, "before", ""), helperSide(t, "after", ""))
	opts.Warmup, opts.Timeout, opts.Grace = 0, 300*time.Millisecond, 200*time.Millisecond
	start := time.Now()
	rec, err := Do(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "took longer than --timeout 300ms") {
		t.Fatalf("err %v, want the timeout", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the timed-out run took %s to stop", d)
	}
	if len(rec.Runs) != 1 || !rec.Runs[0].TimedOut {
		t.Errorf("runs %+v, want one timed out", rec.Runs)
	}
	b, err := os.ReadFile(filepath.Join(opts.Out, "before", "run-01.folded.child"))
	if err != nil {
		t.Fatal(err)
	}
	child, _ := strconv.Atoi(string(b))
	deadline := time.Now().Add(2 * time.Second)
	for alive(child) {
		if time.Now().After(deadline) {
			t.Fatalf("the run's child %d outlived the timeout", child)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !alive(bystander.Process.Pid) {
		t.Error("a process outside the run's group was stopped")
	}
}

// alive reports whether pid runs (a zombie, which its new parent has not
// reaped yet, does not).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil && !errors.Is(err, os.ErrNotExist)
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}

// TestInterruptKeepsFinishedRuns: an interrupt (the context's end) stops
// the running command and keeps the runs that finished.
func TestInterruptKeepsFinishedRuns(t *testing.T) {
	opts := helperOptions(t, map[string]string{"before": "profile", "after": "hang"},
		helperSide(t, "before", ""), helperSide(t, "after", ""))
	opts.Warmup, opts.Grace = 0, 200*time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	opts.Started = func(s Slot, side Side) {
		if side.Name == "after" {
			time.AfterFunc(200*time.Millisecond, cancel)
		}
	}
	rec, err := Do(ctx, opts)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err %v, want ErrInterrupted", err)
	}
	if len(rec.Runs) != 2 || rec.Runs[0].Profile == "" || rec.Runs[1].Signal == "" {
		t.Errorf("runs %+v, want before's finished and after's stopped by a signal", rec.Runs)
	}
	if _, err := os.Stat(filepath.Join(opts.Out, "before", "run-01.folded")); err != nil {
		t.Errorf("the finished run's profile is gone: %v", err)
	}
}

func TestRecordChecks(t *testing.T) {
	exe, _ := os.Executable()
	ok := Side{Name: "before", Args: []string{exe, "{profile}"}}
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{Sides: []Side{ok, {Name: "after", Args: []string{"ls", "-l"}}}, Runs: 1, Out: t.TempDir()}, "ls -l: profdiff does not know how to profile ls"},
		{Options{Sides: []Side{ok, ok}, Runs: 1, Out: t.TempDir()}, `side "before" is given twice`},
		{Options{Sides: []Side{ok, {Name: "logs", Args: ok.Args}}, Runs: 1, Out: t.TempDir()}, "other than logs, warmup and steps"},
		{Options{Sides: []Side{ok}, Runs: 0, Out: t.TempDir()}, "--runs 0"},
		{Options{Sides: []Side{ok, {Name: "after", Args: ok.Args, Dir: "/no/such/dir"}}, Runs: 1, Out: t.TempDir()}, "/no/such/dir is not a folder"},
	} {
		_, err := Do(context.Background(), tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err %v, want %q", err, tc.want)
		}
		if entries, _ := os.ReadDir(tc.opts.Out); len(entries) > 0 {
			t.Errorf("a refused recording wrote %d entries to %s", len(entries), tc.opts.Out)
		}
	}
}

// TestRecordNode records a small node script, when node is installed.
func TestRecordNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	// spin runs for 100 ms of wall time rather than a count of steps: 2e6
	// steps took a few ms, and on a loaded machine the profiler's thread
	// once took no sample in them.
	script := "function spin(ms) { let s = 0; const end = Date.now() + ms; for (let i = 0; Date.now() < end; i++) s += Math.sqrt(i); return s; }\nconsole.log(spin(100) > 0);\n"
	if err := os.WriteFile(filepath.Join(dir, "main.js"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	side := func(name string) Side { return Side{Name: name, Args: []string{node, "main.js"}, Dir: dir} }
	opts := Options{Sides: []Side{side("before"), side("after")}, Runs: 1, Warmup: 0, Out: filepath.Join(t.TempDir(), "rec"),
		Env: os.Environ(), Interval: 500 * time.Microsecond}
	rec, err := Do(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rec.Runs {
		b, err := os.ReadFile(filepath.Join(opts.Out, r.Profile))
		if err != nil || !strings.Contains(string(b), `"spin"`) {
			t.Errorf("run %s: profile %s does not hold spin (%v)", r.Side, r.Profile, err)
		}
		if r.CPUNs <= 0 {
			t.Errorf("run %s: no CPU time", r.Side)
		}
	}
	if v := rec.Environment.Versions["before"]["node"]; !strings.HasPrefix(v, "v") {
		t.Errorf("node's version %q not in the fingerprint", v)
	}
}

// TestInterruptBetweenRuns: an interrupt that comes between two runs starts
// no further run.
func TestInterruptBetweenRuns(t *testing.T) {
	opts := helperOptions(t, map[string]string{"before": "profile", "after": "profile"},
		helperSide(t, "before", ""), helperSide(t, "after", ""))
	ctx, cancel := context.WithCancel(context.Background())
	opts.Finished = func(Run) { cancel() }
	rec, err := Do(ctx, opts)
	if !errors.Is(err, ErrInterrupted) || len(rec.Runs) != 1 {
		t.Fatalf("err %v, %d runs; want ErrInterrupted after the one run", err, len(rec.Runs))
	}
	if !strings.Contains(rec.Stopped, "interrupted before run after #1") {
		t.Errorf("stopped %q", rec.Stopped)
	}
}
