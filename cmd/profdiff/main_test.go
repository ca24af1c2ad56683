package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, strings.NewReader(""), &o, &e)
	return code, o.String(), e.String()
}

func fixture(name string) string { return filepath.Join("..", "..", "testdata", name) }

// onlyWarnings reports whether standard error holds warnings only (said
// there too when the report goes elsewhere than a terminal), no error.
func onlyWarnings(errs string) bool {
	for _, l := range strings.Split(strings.TrimSuffix(errs, "\n"), "\n") {
		if l != "" && !strings.HasPrefix(l, "profdiff: warning: ") {
			return false
		}
	}
	return true
}

func TestRankOneProfile(t *testing.T) {
	code, out, errs := runCLI("--top", "3", fixture("node-router-unbundled-before.cpuprofile"))
	if code != 0 || !onlyWarnings(errs) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"(V8 .cpuprofile)", "on-CPU", "Top 3 of 22 packages by self time", "Top 3 of ", "by total time"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestJSONToFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, errs := runCLI("-f", "json", "-o", out, fixture("go-router-before.pprof"))
	if code != 0 || stdout != "" || errs != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Version int `json:"version"`
		Sides   []struct {
			Format string `json:"format"`
		} `json:"sides"`
	}
	if err := json.Unmarshal(data, &r); err != nil || r.Version != 3 || r.Sides[0].Format != "pprof" {
		t.Errorf("json = %+v, %v", r, err)
	}
}

func TestListAndThread(t *testing.T) {
	code, out, _ := runCLI("--list", fixture("chrome156-multi-thread.trace.json.gz"))
	if code != 0 || !strings.Contains(out, "* CrRendererMain (pid 5380, tid 5380") || !strings.Contains(out, "  DedicatedWorker thread (pid 5380, tid 5431") {
		t.Errorf("--list: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI("--thread", "DedicatedWorker thread", "-n", "2", fixture("chrome156-multi-thread.trace.json.gz"))
	if code != 0 || !strings.Contains(out, "thread: DedicatedWorker thread (pid 5380, tid 5431") {
		t.Errorf("--thread: exit %d\n%s", code, out)
	}
}

func TestErrorsAreOneLineWithStatus2(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "before.cpuprofile")
	os.WriteFile(bad, []byte(`{"nodes":[{"id":17,"callFrame":{"functionName":"(root)"}}],"samples":[99],"timeDeltas":[1]}`), 0o644)
	empty := filepath.Join(dir, "empty.cpuprofile")
	os.WriteFile(empty, nil, 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{bad}, "profdiff: " + bad + ": sample 0 names node 99, which does not exist (no sample names a node the profile holds)\n"},
		{[]string{empty}, "profdiff: " + empty + ": empty file\n"},
		{[]string{filepath.Join(dir, "nope.pprof")}, "profdiff: " + filepath.Join(dir, "nope.pprof") + ": no such file or directory\n"},
		{[]string{dir}, "profdiff: " + bad + ": sample 0 names node 99"}, // a directory is a side of runs
		{[]string{}, "profdiff: give a profile to rank"},
		{[]string{"--format", "xml", bad}, `profdiff: --format "xml": choose text, markdown, json, html, tui, pprof, speedscope or folded`},
		{[]string{"--bogus"}, "profdiff: unknown flag: --bogus"},
		{[]string{"--sample-type", "alloc", fixture("go-router-before.pprof")}, `no sample type "alloc"`},
		{[]string{"--max-input-size", "lots", bad}, "--max-input-size"},
	}
	for _, c := range cases {
		code, out, errs := runCLI(c.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", c.args, code)
		}
		if out != "" || !strings.HasPrefix(errs, "profdiff: ") || !strings.Contains(errs, strings.TrimSuffix(c.want, "\n")) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: stdout %q, stderr %q, want one line containing %q", c.args, out, errs, c.want)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	code, out, _ := runCLI("--help")
	if code != 0 || !strings.Contains(out, "Usage:") || !strings.Contains(out, "profdiff help flags") {
		t.Errorf("--help: exit %d\n%s", code, out)
	}
	if _, flags, _ := runCLI("help", "flags"); !strings.Contains(flags, "--thread") {
		t.Errorf("help flags lacks --thread:\n%s", flags)
	}
	code, out, _ = runCLI("--help-all")
	examples := strings.LastIndex(out, "Examples:")
	if code != 0 || !strings.Contains(out, "--thread") || examples < 0 || strings.Contains(out[examples:], "--format string") {
		t.Errorf("--help-all must list the flags and end with worked examples:\n%s", out)
	}
	if code, out, _ := runCLI("--version"); code != 0 || !strings.HasPrefix(out, "profdiff ") {
		t.Errorf("--version: exit %d %q", code, out)
	}
}

// TestBinary runs the built command once, as a user would, with a timeout.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "profdiff")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Skipf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, fixture("node-pprof-before.pb.gz"))
	done := make(chan error, 1)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil || !strings.Contains(out.String(), "Top 20 of") {
			t.Errorf("err %v, output:\n%s", err, out.String())
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("profdiff did not finish in 30 s")
	}
	cmd = exec.Command(bin, fixture("nope"))
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Errorf("missing file: %v, want exit status 2", err)
	}
}

func TestCompareExitStatus(t *testing.T) {
	before, after := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	code, out, errs := runCLI("--fail-on", "package:*>+5%", before, after)
	if code != 0 || !onlyWarnings(errs) || !strings.Contains(out, "path-to-regexp") {
		t.Errorf("A/B: exit %d, stderr %q", code, errs)
	}
	// Reversed, path-to-regexp gets worse: the rule breaks after the
	// report is written. (Given as AFTER BEFORE, the files' names would
	// put them back in order.)
	code, out, _ = runCLI("--fail-on", "package:*>+5%", "--format", "markdown", "--before", after, "--after", before)
	if code != 1 || !strings.Contains(out, "**Failed:**") || !strings.Contains(out, "| path-to-regexp |") {
		t.Errorf("reversed: exit %d\n%s", code, out)
	}
	code, _, _ = runCLI("--fail-on", "package:*>+5%", "--before", before, "--after", before)
	if code != 0 {
		t.Errorf("A/A: exit %d", code)
	}
	code, _, errs = runCLI("--fail-on", "nonsense", before, after)
	if code != 2 || !strings.Contains(errs, "--fail-on") {
		t.Errorf("bad rule: exit %d %q", code, errs)
	}
	code, _, errs = runCLI("--work-before", "5", before, after)
	if code != 2 || !strings.Contains(errs, "go together") {
		t.Errorf("half the work: exit %d %q", code, errs)
	}
}

func TestDirectoryOfRuns(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"r1.cpuprofile", "r2.cpuprofile"} {
		data, err := os.ReadFile(fixture("node-router-unbundled-before.cpuprofile"))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, n), data, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "run-log.jsonl"), []byte("{}\n"), 0o644) // not a profile: skipped
	code, out, errs := runCLI("--format", "json", dir, fixture("node-router-unbundled-after.cpuprofile"))
	checkSideFiles(t, code, out, errs, 2)
	empty := t.TempDir()
	if code, _, errs := runCLI(empty, dir); code != 2 || !strings.Contains(errs, "no profiles") {
		t.Errorf("empty directory: exit %d %q", code, errs)
	}
}

// TestDeterministicOutput: the same inputs give byte-identical text,
// markdown and JSON whatever GOMAXPROCS is and in whatever order the runs
// of a directory side were written.
func TestDeterministicOutput(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir()}
	names := []string{"r1.cpuprofile", "r2.cpuprofile", "r3.cpuprofile"}
	srcs := []string{"node-router-unbundled-before.cpuprofile", "node-router-unbundled-after.cpuprofile", "chrome-cdp-page.cpuprofile"}
	for d, order := range [][]int{{0, 1, 2}, {2, 0, 1}} {
		for _, i := range order {
			data, err := os.ReadFile(fixture(srcs[i]))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dirs[d], names[i]), data, 0o644)
		}
	}
	after := fixture("node-router-unbundled-after.cpuprofile")
	for _, format := range []string{"text", "markdown", "json"} {
		var outs []string
		for _, procs := range []int{1, 2, 4} {
			for _, dir := range dirs {
				prev := runtime.GOMAXPROCS(procs)
				code, out, errs := runCLI("--format", format, dir, after)
				runtime.GOMAXPROCS(prev)
				if code != 0 {
					t.Fatalf("exit %d %q", code, errs)
				}
				outs = append(outs, strings.ReplaceAll(out, dir, "DIR"))
			}
		}
		for i := 1; i < len(outs); i++ {
			if outs[i] != outs[0] {
				t.Errorf("%s: run %d differs from run 0", format, i)
			}
		}
	}
}

// TestBrokenSourceMapsAreWarnings: a map that cannot be used leaves its
// frames as recorded and says why, naming the map; the report still comes.
func TestBrokenSourceMapsAreWarnings(t *testing.T) {
	script, err := os.ReadFile(fixture("chrome-cdp-page/app.min.js"))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"invalid VLQ":     `{"version":3,"sources":["a.js"],"names":[],"mappings":"A!AA"}`,
		"source index":    `{"version":3,"sources":["a.js"],"names":[],"mappings":"AAAA,ACAA"}`,
		"name index":      `{"version":3,"sources":["a.js"],"names":[],"mappings":"AAAAC"}`,
		"nested sections": `{"version":3,"sections":[{"offset":{"line":0,"column":0},"map":{"version":3,"sections":[]}}]}`,
		"overlapping":     `{"version":3,"sections":[{"offset":{"line":1,"column":0},"map":{"version":3,"sources":[],"mappings":""}},{"offset":{"line":0,"column":0},"map":{"version":3,"sources":[],"mappings":""}}]}`,
		"not JSON":        `<html>404</html>`,
		"truncated":       `{"version":3,"sources":["a.js"],"mappi`,
	}
	for name, mapText := range cases {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "app.min.js"), script, 0o644)
		os.WriteFile(filepath.Join(dir, "app.min.js.map"), []byte(mapText), 0o644)
		code, out, errs := runCLI("-n", "2", "--sourcemaps", dir, fixture("chrome-cdp-page.cpuprofile"))
		if code != 0 || !onlyWarnings(errs) {
			t.Errorf("%s: exit %d, stderr %q", name, code, errs)
			continue
		}
		if !strings.Contains(out, "source map "+filepath.Join(dir, "app.min.js.map")+": ") {
			t.Errorf("%s: no warning naming the map:\n%s", name, out)
		}
	}
}

// Under --focus the focused package is all of the narrowed time on both
// sides: its change is judged on the runs' whole on-CPU time, so it is
// better, and a rule on it breaks as it does without the focus.
func TestFocusedRowIsJudged(t *testing.T) {
	before, after := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	for _, focus := range [][]string{nil, {"--focus", "^path-to-regexp$"}} {
		args := append(append([]string{"--format", "json", "--fail-on", "package:path-to-regexp<-10%"}, focus...), before, after)
		code, out, _ := runCLI(args...)
		var rep struct {
			Packages []struct {
				Package string `json:"package"`
				Total   struct {
					Verdict string  `json:"verdict"`
					DeltaPP float64 `json:"delta_pp"`
				} `json:"total"`
			} `json:"packages"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		for _, p := range rep.Packages {
			if p.Package == "path-to-regexp" && (p.Total.Verdict != "better" || p.Total.DeltaPP > -5) {
				t.Errorf("%v: path-to-regexp %+v", focus, p.Total)
			}
		}
		if code != 1 {
			t.Errorf("%v: the rule did not break (exit %d)", focus, code)
		}
	}
}

// --top 0 lists every row, those with total time only too (issue 26, item
// 16): the text names every package the JSON has.
func TestTopZeroListsAll(t *testing.T) {
	profile := fixture("node-router-unbundled-before.cpuprofile")
	_, js, _ := runCLI("--format", "json", profile)
	var rep struct {
		Packages []struct {
			Package string `json:"package"`
		} `json:"packages"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--top", "0", profile}, {"--top", "0", profile, fixture("node-router-unbundled-after.cpuprofile")}} {
		_, out, _ := runCLI(args...)
		for _, p := range rep.Packages {
			if !strings.Contains(out, " "+p.Package+"\n") {
				t.Errorf("%v: package %s missing", args, p.Package)
			}
		}
	}
}

// TestDirectoryOfFoldedRuns: a directory of folded stacks, as --format
// folded writes them (run.folded) and as async-profiler does (.collapsed),
// gzipped or not, is a side of runs like one of .cpuprofile files.
func TestDirectoryOfFoldedRuns(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"r1.folded", "r2.collapsed", "r3.folded.txt"} {
		os.WriteFile(filepath.Join(dir, name), []byte("main;app.work 30\nmain;app.idle 10\n"), 0o644)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("main;app.work 20\nmain;app.idle 10\n"))
	zw.Close()
	os.WriteFile(filepath.Join(dir, "r4.folded.gz"), gz.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a profile\n"), 0o644) // skipped
	code, out, errs := runCLI("--format", "json", dir, dir)
	checkSideFiles(t, code, out, errs, 4)
}

// TestFoldedNamedAsAFormat: --help and the error for a file of no format
// name folded stacks among the formats read (both left them out).
func TestFoldedNamedAsAFormat(t *testing.T) {
	if _, out, _ := runCLI("--help"); !strings.Contains(strings.Join(strings.Fields(out), " "), `folded stacks ("frame;frame;... count" lines`) {
		t.Errorf("--help does not name folded stacks:\n%s", out[:min(len(out), 600)])
	}
	bad := filepath.Join(t.TempDir(), "x.prof")
	os.WriteFile(bad, []byte("\x01\x02\x03binary"), 0o644)
	if code, _, errs := runCLI(bad); code != 2 || !strings.HasPrefix(errs, "profdiff: "+bad+": not a profile") || !strings.Contains(errs, "folded stacks") || strings.Count(errs, "\n") != 1 {
		t.Errorf("exit %d %q", code, errs)
	}
}

// checkSideFiles checks that a --format json run exited 0 with two sides,
// the first of n files.
func checkSideFiles(t *testing.T, code int, out, errs string, n int) {
	t.Helper()
	if code != 0 {
		t.Fatalf("exit %d %q", code, errs)
	}
	var r struct {
		Sides []struct {
			Files []string `json:"files"`
		} `json:"sides"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Sides) != 2 || len(r.Sides[0].Files) != n {
		t.Errorf("sides %+v %v", r, err)
	}
}
