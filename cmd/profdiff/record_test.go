package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/profdiff/profdiff/record"
)

// twoCheckouts writes two checkouts of a small node program, the after
// one's sortKey made slower, and returns their folders.
func twoCheckouts(t *testing.T) (before, after string) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	root := t.TempDir()
	prog := `function sortKey(x) { return x %% 1000; }
function work(n) { let s = 0; for (let i = 0; i < n; i++) s += sortKey(i); return s; }
%sconsole.log(work(3e5));
`
	for dir, extra := range map[string]string{"old": "", "new": "function slow(x) { let s = 0; for (let j = 0; j < 20; j++) s += Math.sqrt(x + j); return s; }\n"} {
		src := strings.Replace(prog, "%s", extra, 1)
		src = strings.ReplaceAll(src, "%%", "%")
		if extra != "" {
			src = strings.Replace(src, "return x % 1000;", "return slow(x) % 1000;", 1)
		}
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, dir, "main.js"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(root, "old"), filepath.Join(root, "new")
}

// TestRecordTwoCheckouts: --cmd with --before-dir and --after-dir runs the
// sides in turns, and compares them as profdiff DIR/before DIR/after with
// the checkouts as roots: the functions of the two checkouts match.
func TestRecordTwoCheckouts(t *testing.T) {
	before, after := twoCheckouts(t)
	out := filepath.Join(t.TempDir(), "rec")
	code, stdout, stderr := runCLI("record", "--runs", "2", "--warmup", "0", "--out", out, "--format", "json", "--top", "5",
		"--cmd", "node main.js", "--before-dir", before, "--after-dir", after)
	if code != 0 && code != 1 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var log []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "profdiff: [") {
			f := strings.Fields(l)
			log = append(log, f[2]+f[3])
		}
	}
	if want := []string{"before#1", "after#1", "before#2", "after#2"}; !slices.Equal(log, want) {
		t.Errorf("runs logged %q, want %q\n%s", log, want, stderr)
	}
	if !regexp.MustCompile(`profdiff record: before +wall [0-9.]+ m?s ±[0-9.]+ m?s +\(.* … .*\) +CPU .* profiled .* 2 runs`).MatchString(stderr) ||
		!strings.Contains(stderr, "profdiff record: after / before: wall ") {
		t.Errorf("no summary of the runs on stderr:\n%s", stderr)
	}
	var rep struct {
		Functions []struct {
			Function string
			Total    struct{ Verdict string }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%.500s", err, stdout)
	}
	seen := map[string]string{}
	for _, f := range rep.Functions {
		seen[f.Function] = f.Total.Verdict
	}
	// (sortKey and slow are not asked for: V8 may inline them into work,
	// which runs once, on-stack replaced.)
	for _, f := range []string{"work"} {
		if v, ok := seen[f]; !ok || v == "new" || v == "gone" {
			t.Errorf("%s is %q: the checkouts' functions did not match (%v)", f, v, seen)
		}
	}
	// The same comparison later, from the folder, says the same.
	code2, again, _ := runCLI("--format", "json", "--top", "5", "--root-before", before, "--root-after", after,
		filepath.Join(out, "before"), filepath.Join(out, "after"))
	if code2 != code || again != stdout {
		t.Errorf("profdiff DIR/before DIR/after gave exit %d and another report than record's (exit %d)", code2, code)
	}
}

func TestRecordFailingCommand(t *testing.T) {
	before, _ := twoCheckouts(t)
	out := filepath.Join(t.TempDir(), "rec")
	code, stdout, stderr := runCLI("record", "--runs", "2", "--warmup", "0", "--out", out,
		"--before-cmd", "node "+filepath.Join(before, "main.js"), "--after-cmd", `node -e "console.error('bad input'); process.exit(4)"`)
	if code != exitUsage || stdout != "" {
		t.Fatalf("exit %d, stdout %q, want 2 and nothing", code, stdout)
	}
	for _, want := range []string{"run after #1", "exited with status 4", "bad input"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "compares them") {
		t.Errorf("stderr offers to compare runs of which the after side has none:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "before", "run-01.cpuprofile")); err != nil {
		t.Errorf("the finished run was not kept: %v", err)
	}
}

// TestRecordRefusals: what cannot be recorded is refused before any run,
// with what to do instead, and nothing is written.
func TestRecordRefusals(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--before-cmd", "ls -l", "--after-cmd", "ls"}, []string{"does not know how to profile ls", "NODE_OPTIONS", "{profile}"}},
		{[]string{"--runs", "2"}, []string{"nothing to record", "--cmd"}},
		{[]string{"--before-cmd", "node a.js"}, []string{"the side after has no command: give --cmd, or its own (--after-cmd)"}},
		{[]string{"--cmd", "node a.js", "--before-dir", ".", "--after-dir", ".", "--fail-on", "nonsense"}, []string{"--fail-on"}},
		{[]string{"--cmd", "node a.js", "--before-dir", ".", "--after-dir", ".", "--order", "abab"}, []string{"--order \"abab\""}},
		{[]string{"--cmd", "node a.js", "--before-dir", ".", "--after-dir", ".", "runs/"}, []string{"takes no profiles"}},
		{[]string{"--cmd", "node a.js", "--before", "a.cpuprofile", "--after", "b.cpuprofile"}, []string{"--before-cmd"}},
		{[]string{"--cmd", "node a.js", "--before-dir", ".", "--side-dir", "x=."}, []string{"not both"}},
		{[]string{"--before-cmd", "node 'a.js", "--after-cmd", "node a.js"}, []string{"unclosed ' quote"}},
		{[]string{"--bogus"}, []string{"unknown flag: --bogus"}},
	} {
		out := filepath.Join(t.TempDir(), "rec")
		code, _, stderr := runCLI(append([]string{"record", "--out", out}, tc.args...)...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want 2", tc.args, code)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%q: stderr %q does not say %q", tc.args, stderr, w)
			}
		}
		if strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%q: more than one line: %q", tc.args, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: %s was created for a refused recording", tc.args, out)
		}
	}
}

func TestRecordHelp(t *testing.T) {
	code, out, _ := runCLI("record", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"--before-dir", "--runs", "--order", "{profile}", "NODE_OPTIONS", "Examples:"} {
		if !strings.Contains(out, want) {
			t.Errorf("record --help does not mention %s", want)
		}
	}
	if strings.Contains(out, "--sourcemaps-before") {
		t.Error("record --help lists the comparison's flags, which profdiff --help lists")
	}
}

// TestComparisonArgs: record's own flags and their values are left out of
// the comparison's arguments, whatever their form; the others are kept.
func TestComparisonArgs(t *testing.T) {
	var o options
	var r recordOptions
	fs := newFlagSet(&o)
	own := recordFlags(fs, &r)
	args := []string{"--runs", "3", "-f", "json", "--cmd=node a.js", "--fail-on", "on-cpu>+5%", "-q", "--before-dir", "old",
		"--no-sourcemaps", "-n5", "--focus", "--runs", "--timeout", "1m", "--work=4"}
	got := comparisonArgs(args, fs, own)
	want := []string{"-f", "json", "--fail-on", "on-cpu>+5%", "-q", "--no-sourcemaps", "-n5", "--focus", "--runs", "--work=4"}
	if !slices.Equal(got, want) {
		t.Errorf("comparisonArgs = %q, want %q", got, want)
	}
	var _ *pflag.FlagSet = fs
}

// TestRecordNamedSides: --side-dir with --cmd records named sides, each in
// its checkout, compared as profdiff --side NAME=DIR/NAME... would.
func TestRecordNamedSides(t *testing.T) {
	before, after := twoCheckouts(t)
	out := filepath.Join(t.TempDir(), "rec")
	code, stdout, stderr := runCLI("record", "--runs", "1", "--warmup", "0", "--out", out, "--format", "json",
		"--cmd", "node main.js", "--side-dir", "base="+before, "--side-dir", "head="+after, "--side-dir", "again="+before)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, side := range []string{"base", "head", "again"} {
		if _, err := os.Stat(filepath.Join(out, side, "run-01.cpuprofile")); err != nil {
			t.Errorf("side %s: %v", side, err)
		}
	}
	if !strings.Contains(stdout, `"head"`) || !strings.Contains(stdout, `"again"`) {
		t.Errorf("the report does not name the sides head and again:\n%.400s", stdout)
	}
}

// TestRecordRunFailures: a run that outlives --timeout, one that writes no
// profile and one ended by a signal each stop the recording with one line
// and exit status 2.
func TestRecordRunFailures(t *testing.T) {
	before, _ := twoCheckouts(t)
	ok := "node " + filepath.Join(before, "main.js")
	for _, tc := range []struct {
		after string
		extra []string
		want  string
	}{
		// The timeout is every run's, and a loaded machine (the whole
		// suite at once) can take a second or more to start node.
		{`node -e "setTimeout(() => {}, 20000)"`, []string{"--timeout", "4s"}, "took longer than --timeout 4s and was stopped"},
		{`node -e 0 {profile}`, nil, "wrote no profile at "},
		{`node -e "process.kill(process.pid, 'SIGKILL')"`, nil, "was ended by the signal SIGKILL"},
	} {
		out := filepath.Join(t.TempDir(), "rec")
		args := append([]string{"record", "--runs", "1", "--warmup", "0", "--out", out, "--before-cmd", ok, "--after-cmd", tc.after}, tc.extra...)
		start := time.Now()
		code, stdout, stderr := runCLI(args...)
		if code != exitUsage || stdout != "" {
			t.Errorf("%s: exit %d, stdout %q; want 2 and nothing", tc.after, code, stdout)
		}
		if !strings.Contains(stderr, "profdiff record: run after #1 (node -e ") || !strings.Contains(stderr, ") "+tc.want) {
			t.Errorf("%s: stderr does not say %q:\n%s", tc.after, tc.want, stderr)
		}
		if d := time.Since(start); d > 15*time.Second {
			t.Errorf("%s: took %s", tc.after, d)
		}
	}
}

// TestEverySideRanWithSteps: a recording of steps keeps its profiles in
// its runs' steps, and a recording that stopped after each side ran a
// step still says where the finished runs are. Without profiled, the
// steps' profiles are not seen.
func TestEverySideRanWithSteps(t *testing.T) {
	rec := &record.Recording{Sides: []record.SideRecord{{Name: "before"}, {Name: "after"}}}
	for _, side := range []string{"before", "after"} {
		rec.Runs = append(rec.Runs, record.Run{Side: side, Index: 1, Steps: []record.StepRun{{Name: "install", Profile: "steps/install/" + side + "/run-01.cpuprofile"}}})
	}
	if !everySideRan(rec) {
		t.Error("every side ran a step, but everySideRan says no")
	}
	rec.Runs = rec.Runs[:1]
	if everySideRan(rec) {
		t.Error("after never ran, but everySideRan says yes")
	}
}
