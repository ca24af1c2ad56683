package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoTerminalMeansText: /dev/null is a character device but no
// terminal; with it as standard input and output the report is text and
// the exit status 0 (a character-device test chose the explorer, which
// failed with exit 2). --format tui there is a one-line error.
func TestNoTerminalMeansText(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	var e strings.Builder
	if code := run([]string{fixture("node-router-unbundled-before.cpuprofile")}, null, null, &e); code != 0 || !onlyWarnings(e.String()) {
		t.Errorf("profdiff P > /dev/null: exit %d, stderr %q", code, e.String())
	}
	e.Reset()
	code := run([]string{"--format", "tui", fixture("node-router-unbundled-before.cpuprofile")}, null, null, &e)
	if code != 2 || strings.Count(e.String(), "\n") != 1 || !strings.Contains(e.String(), "terminal") {
		t.Errorf("--format tui without a terminal: exit %d, stderr %q", code, e.String())
	}
}

// TestMixedFormatsAcrossSides: a .cpuprofile against a pprof is an error
// naming both files, unless --allow-mixed-formats.
func TestMixedFormatsAcrossSides(t *testing.T) {
	a, b := fixture("node-router-unbundled-before.cpuprofile"), fixture("go-router-before.pprof")
	code, _, errs := runCLI("--format", "text", a, b)
	if code != 2 || !strings.Contains(errs, a) || !strings.Contains(errs, b) || strings.Count(errs, "\n") != 1 {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if code, _, errs := runCLI("--format", "text", "--allow-mixed-formats", a, b); code != 0 {
		t.Errorf("--allow-mixed-formats: exit %d, stderr %q", code, errs)
	}
}

// TestStandardInput: "-" reads a profile from standard input, on one side.
func TestStandardInput(t *testing.T) {
	data, err := os.ReadFile(fixture("node-router-unbundled-before.cpuprofile"))
	if err != nil {
		t.Fatal(err)
	}
	var o, e strings.Builder
	if code := run([]string{"--format", "json", "-"}, strings.NewReader(string(data)), &o, &e); code != 0 || !strings.Contains(o.String(), `"-"`) {
		t.Errorf("exit %d, stderr %q", code, e.String())
	}
	o.Reset()
	e.Reset()
	if code := run([]string{"--format", "text", "-", fixture("node-router-unbundled-after.cpuprofile")}, strings.NewReader(string(data)), &o, &e); code != 0 || !strings.Contains(o.String(), "better") {
		t.Errorf("- against a file: exit %d, stderr %q", code, e.String())
	}
	if code, _, errs := runCLI("-", "-"); code != 2 || !strings.Contains(errs, "one side") {
		t.Errorf("- -: exit %d, stderr %q", code, errs)
	}
}

// TestWarningsOnStderrWithOutputFile: a report written to a file still
// says its warnings on standard error.
func TestWarningsOnStderrWithOutputFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.md")
	code, _, errs := runCLI("--format", "markdown", "-o", out, "--allow-mixed-formats",
		fixture("node-router-unbundled-before.cpuprofile"), fixture("go-router-before.pprof"))
	if code != 0 || !strings.Contains(errs, "warning: the sides differ in format") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// TestExportsAndFoldedInput: the export formats write (pprof needs -o on a
// terminal only), and perf's folded stacks of a C program, 2 + 2 runs
// before and after its hash was made 4x cheaper, compare with slow_hash
// better.
func TestExportsAndFoldedInput(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"pprof", "speedscope", "folded"} {
		out := filepath.Join(dir, "x."+f)
		if code, _, errs := runCLI("--format", f, "-o", out, fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")); code != 0 || !onlyWarnings(errs) {
			t.Errorf("%s: exit %d, %q", f, code, errs)
		}
	}
	perf := func(n string) string { return fixture("folded/perf-" + n + ".folded") }
	code, out, errs := runCLI("--format", "json", "--folded-interval", "1ms", "--before", perf("before-r1"), "--before", perf("before-r2"),
		"--after", perf("after-r1"), "--after", perf("after-r2"))
	if code != 0 || !onlyWarnings(errs) || !strings.Contains(out, `"function": "slow_hash"`) {
		t.Fatalf("exit %d, %q", code, errs)
	}
	var rep struct {
		Functions []struct {
			Function string
			Self     struct{ Verdict string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Functions {
		if f.Function == "slow_hash" && f.Self.Verdict != "better" {
			t.Errorf("slow_hash %s", f.Self.Verdict)
		}
	}
	if code, _, errs := runCLI("--folded-unit", "days", fixture("folded/perf-before-r1.folded")); code != 2 || !strings.Contains(errs, "--folded-unit") {
		t.Errorf("--folded-unit days: exit %d, %q", code, errs)
	}
}

// TestNarrowing: the router comparison narrowed to handle still finds
// path-to-regexp better, and says so with the share kept; ignoring
// path-to-regexp leaves no real change in a package; bad filters exit 2
// naming the flag.
func TestNarrowing(t *testing.T) {
	before, after := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	code, out, errs := runCLI("--format", "json", "--focus", "handle", before, after)
	if code != 0 || !onlyWarnings(errs) {
		t.Fatalf("exit %d, %q", code, errs)
	}
	var rep struct {
		Narrowing []string
		Sides     []struct {
			OnCPU  int64 `json:"on_cpu_ns"`
			Before int64 `json:"narrowed_from_on_cpu_ns"`
		}
		Packages []struct {
			Package string
			Self    struct{ Verdict string }
		}
	}
	json.Unmarshal([]byte(out), &rep)
	if len(rep.Narrowing) != 1 || rep.Sides[0].Before <= rep.Sides[0].OnCPU || rep.Sides[0].OnCPU == 0 {
		t.Errorf("narrowing %v, sides %+v", rep.Narrowing, rep.Sides)
	}
	verdict := map[string]string{}
	for _, p := range rep.Packages {
		verdict[p.Package] = p.Self.Verdict
	}
	if verdict["path-to-regexp"] != "better" {
		t.Errorf("--focus handle: path-to-regexp %s", verdict["path-to-regexp"])
	}
	_, out, _ = runCLI("--format", "json", "--ignore", "path-to-regexp", before, after)
	json.Unmarshal([]byte(out), &rep)
	for _, p := range rep.Packages {
		if p.Self.Verdict != "~" || p.Package == "path-to-regexp" {
			t.Errorf("--ignore path-to-regexp: %s %s", p.Package, p.Self.Verdict)
		}
	}
	for _, args := range [][]string{{"--focus", "("}, {"--window", "3s..1s"}, {"--window", "1s..2s", fixture("go-router-before.pprof")}} {
		if len(args) == 2 {
			args = append(args, before)
		}
		code, _, errs := runCLI(args...)
		if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "--") {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}

// TestNarrowedUnmappedShare: the share of time in unmapped minified code is
// of the time read, not of the narrowed time (it said 323.5% focused on
// one function).
func TestNarrowedUnmappedShare(t *testing.T) {
	_, out, _ := runCLI("--format", "text", "--focus", "^match$", fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile"))
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "unmapped") && (strings.Contains(l, "323.5%") || !strings.Contains(l, "11.2%")) {
			t.Errorf("unmapped row: %q", l)
		}
	}
	if !strings.Contains(out, "unmapped") {
		t.Error("no unmapped row")
	}
}
