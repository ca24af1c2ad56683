package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// Three sides from the command line: the router before (the base), after
// (bucketed routing) and before again, named with --side.
func TestSeveralSides(t *testing.T) {
	before, after := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	sides := []string{"--side", "base=" + before, "--side", "bucketed=" + after, "--side", "again=" + before}
	code, out, errs := runCLI(append([]string{"--format", "json", "--work", "1000", "--work", "again=1000"}, sides...)...)
	if code != 0 || !onlyWarnings(errs) {
		t.Fatalf("json: exit %d %q", code, errs)
	}
	var rep struct {
		Version int    `json:"version"`
		Base    string `json:"base"`
		Sides   []struct {
			Name string  `json:"name"`
			Work float64 `json:"work"`
		} `json:"sides"`
		Headline struct {
			PerWork struct {
				Ns     []float64 `json:"ns"`
				VsBase []struct {
					Side    string `json:"side"`
					Verdict string `json:"verdict"`
				} `json:"vs_base"`
			} `json:"per_work"`
		} `json:"headline"`
		Packages []struct {
			Package string `json:"package"`
			Self    struct {
				VsBase []struct {
					Side    string `json:"side"`
					Verdict string `json:"verdict"`
				} `json:"vs_base"`
			} `json:"self"`
		} `json:"packages"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Version != 3 || rep.Base != "base" || len(rep.Sides) != 3 || rep.Sides[2].Name != "again" || rep.Sides[1].Work != 1000 || len(rep.Headline.PerWork.Ns) != 3 {
		t.Fatalf("shape: %+v", rep)
	}
	for _, p := range rep.Packages {
		if len(p.Self.VsBase) != 2 || p.Self.VsBase[1].Side != "again" || p.Self.VsBase[1].Verdict != "~" {
			t.Errorf("%s: %+v", p.Package, p.Self.VsBase)
		}
		if p.Package == "path-to-regexp" && p.Self.VsBase[0].Verdict != "better" {
			t.Errorf("path-to-regexp in bucketed: %+v", p.Self.VsBase[0])
		}
	}
	// A rule broken by one variant fails the run, and says which.
	code, out, _ = runCLI(append([]string{"--fail-on", "package:path-to-regexp<-10%"}, sides...)...)
	if code != 1 || !strings.Contains(out, "FAILED (bucketed)") || strings.Contains(out, "FAILED (again)") {
		t.Errorf("rule: exit %d\n%s", code, out)
	}
	// --base bucketed: the others are judged against it.
	code, out, _ = runCLI(append([]string{"--base", "bucketed", "--format", "markdown"}, sides...)...)
	if code != 0 || !strings.Contains(out, "each judged against bucketed") || !strings.Contains(out, "| **bucketed** |") {
		t.Errorf("--base: exit %d\n%s", code, out)
	}
	// The flame graph draws one pair: the base against --variant.
	code, out, _ = runCLI(append([]string{"--variant", "again", "--format", "html"}, sides...)...)
	if code != 0 || !strings.Contains(out, "profdiff: base → again") {
		t.Errorf("--variant: exit %d", code)
	}
	for _, bad := range [][]string{{"--base", "nope"}, {"--variant", "base"}, {"--work-before", "5", "--work-after", "6"}, {"--phase", "x=..1s", "--format", "html"}} {
		if code, _, errs := runCLI(append(bad, sides...)...); code != 2 || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: exit %d %q", bad, code, errs)
		}
	}
}

func TestPhases(t *testing.T) {
	before, after := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	code, out, errs := runCLI("--format", "json", "--phase", "start=..1s", "--phase", "rest=1s..", before, after)
	if code != 0 || !onlyWarnings(errs) {
		t.Fatalf("exit %d %q", code, errs)
	}
	var rep struct {
		Headline struct {
			OnCPU struct {
				Ns []float64 `json:"ns"`
			} `json:"on_cpu"`
		} `json:"headline"`
		Phases []struct {
			Name     string `json:"name"`
			Window   string `json:"window"`
			Headline struct {
				OnCPU struct {
					Ns []float64 `json:"ns"`
				} `json:"on_cpu"`
			} `json:"headline"`
		} `json:"phases"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Phases) != 2 || rep.Phases[0].Name != "start" || rep.Phases[1].Window != "1s.." {
		t.Fatalf("phases: %+v", rep.Phases)
	}
	// The two phases split every run at 1 s: their on-CPU times add up
	// to the whole run's, to the nanosecond.
	for side := range 2 {
		whole, parts := rep.Headline.OnCPU.Ns[side], rep.Phases[0].Headline.OnCPU.Ns[side]+rep.Phases[1].Headline.OnCPU.Ns[side]
		if whole != parts || rep.Phases[0].Headline.OnCPU.Ns[side] <= 0 {
			t.Errorf("side %d: whole %v, phases %v", side, whole, parts)
		}
	}
	code, out, _ = runCLI("--format", "markdown", "--phase", "start=..1s", before, after)
	if code != 0 || !strings.Contains(out, "#### Phase start (..1s)") {
		t.Errorf("markdown: exit %d\n%s", code, out)
	}
	if code, _, errs := runCLIStdin(before, "--phase", "a=..1s", "-"); code != 2 || !strings.Contains(errs, "standard input") {
		t.Errorf("--phase with standard input: exit %d %q", code, errs)
	}
	for _, bad := range [][]string{{"--phase", "x"}, {"--phase", "x=2s..1s"}, {"--phase", "x=..1s", "--phase", "x=1s.."}, {"--phase", "x=..1s", "--window", "..2s"}} {
		if code, _, errs := runCLI(append(bad, before, after)...); code != 2 || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: exit %d %q", bad, code, errs)
		}
	}
}

// runCLIStdin runs the command with the file as its standard input.
func runCLIStdin(file string, args ...string) (code int, stdout, stderr string) {
	data, err := os.ReadFile(file)
	if err != nil {
		return -1, "", err.Error()
	}
	var o, e bytes.Buffer
	code = run(args, bytes.NewReader(data), &o, &e)
	return code, o.String(), e.String()
}

// An export of three sides holds the two --variant draws, base first: the
// same bytes as the export of those two sides alone, whichever side the
// base is.
func TestSeveralSidesExportThePairDrawn(t *testing.T) {
	before, after := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	three := []string{"--side", "base=" + before, "--side", "bucketed=" + after, "--side", "again=" + before}
	for _, c := range []struct {
		flags []string
		pair  []string
		head  string // the sides as the folded header names them
	}{
		{[]string{"--variant", "bucketed"}, []string{"--side", "base=" + before, "--side", "bucketed=" + after}, "stacks: base bucketed,"},
		{[]string{"--base", "bucketed", "--variant", "again"}, []string{"--side", "bucketed=" + after, "--side", "again=" + before}, "stacks: bucketed again,"},
	} {
		code, got, errs := runCLI(append(append([]string{"--format", "folded"}, c.flags...), three...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d %q", c.flags, code, errs)
		}
		code, want, errs := runCLI(append([]string{"--format", "folded"}, c.pair...)...)
		if code != 0 {
			t.Fatalf("the pair alone: exit %d %q", code, errs)
		}
		if first, _, _ := strings.Cut(got, "\n"); !strings.Contains(first, c.head) {
			t.Errorf("%v: header %q, want the base first (%q)", c.flags, first, c.head)
		}
		if got != want || !strings.Contains(got, ";") {
			t.Errorf("%v: the export of three sides (%d bytes) is not the pair's (%d bytes)", c.flags, len(got), len(want))
		}
	}
}
