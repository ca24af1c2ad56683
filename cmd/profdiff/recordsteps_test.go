package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/record"
)

// TestRecordResources: a recording's report carries every run's resource
// use from the operating system, profiled and unprofiled runs apart, each
// judged against the base, in JSON and in text; the after side's larger
// array shows as more max RSS.
func TestRecordResources(t *testing.T) {
	before, after := twoCheckouts(t)
	// after keeps 128 MiB more alive than before.
	src, _ := os.ReadFile(filepath.Join(after, "main.js"))
	if err := os.WriteFile(filepath.Join(after, "main.js"), append(src, []byte("const keep = Buffer.alloc(128 << 20, 1); console.log(keep.length);\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "rec")
	code, stdout, stderr := runCLI("record", "--runs", "3", "--warmup", "0", "--unprofiled-runs", "1", "--out", out, "--format", "json",
		"--cmd", "node main.js", "--before-dir", before, "--after-dir", after)
	if code != 0 && code != 1 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "(unprofiled)") {
		t.Errorf("the unprofiled runs are not logged as such:\n%s", stderr)
	}
	var rep struct {
		Resources []struct {
			Step, Kind, Name, Unit string
			Mean                   []float64
			Runs                   [][]float64
			Verdict                string
			DeltaPct               float64 `json:"delta_pct"`
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range rep.Resources {
		seen[r.Kind+" "+r.Name] = true
		want := 3
		if r.Kind == "unprofiled" {
			want = 1
		}
		if len(r.Runs) != 2 || len(r.Runs[0]) != want || len(r.Runs[1]) != want {
			t.Errorf("%s %s: runs %v, want %d a side", r.Kind, r.Name, r.Runs, want)
		}
		if r.Kind == "profiled" && r.Name == "max_rss" {
			if d := r.Mean[1] - r.Mean[0]; d < 120<<20 || d > 140<<20 || r.Verdict != "worse" {
				t.Errorf("max RSS %v (%+.0f MiB) %s, want about +128 MiB, worse", r.Mean, d/(1<<20), r.Verdict)
			}
		}
	}
	for _, k := range []string{"profiled wall", "profiled user", "profiled sys", "profiled max_rss", "profiled minor_faults", "profiled major_faults",
		"profiled voluntary_ctx_switches", "profiled involuntary_ctx_switches", "unprofiled wall", "unprofiled max_rss"} {
		if !seen[k] {
			t.Errorf("no %s in the report's resources (%v)", k, seen)
		}
	}
	// profdiff DIR compares again with the same figures; text shows them.
	code, text, stderr := runCLI("--format", "text", "--source-root", filepath.Dir(before), out)
	if code != 0 && code != 1 {
		t.Fatalf("profdiff %s: exit %d, %s", out, code, stderr)
	}
	for _, want := range []string{"Resources per run, from the operating system", "max RSS", "after (unprofiled)", "profiling cost"} {
		if !strings.Contains(text, want) {
			t.Errorf("text report does not say %q:\n%.3000s", want, text)
		}
	}
}

// TestRecordSteps: --step runs each step in every run, in each side's
// folder, and compares each step apart.
func TestRecordSteps(t *testing.T) {
	before, after := twoCheckouts(t)
	for _, dir := range []string{before, after} {
		if err := os.WriteFile(filepath.Join(dir, "prep.js"), []byte("const b = Buffer.alloc(32 << 20, 1); console.log(b.length);\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "rec")
	code, stdout, stderr := runCLI("record", "--runs", "2", "--warmup", "0", "--out", out, "--format", "text", "--top", "3",
		"--step", "prep=node prep.js", "--step", "work=node main.js", "--before-dir", before, "--after-dir", after)
	if code != 0 && code != 1 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"profdiff record: step prep", "profdiff record: step work"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if n := strings.Count(stdout, "Step prep: resources per run") + strings.Count(stdout, "Step work: resources per run"); n != 2 {
		t.Errorf("%d step resource tables, want one per step:\n%s", n, stdout)
	}
	for _, f := range []string{"steps/prep/before/run-01.cpuprofile", "steps/work/after/run-02.cpuprofile"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	// profdiff DIR compares each step again.
	code2, again, stderr2 := runCLI("--source-root", filepath.Dir(before), out)
	if code2 != code || again != stdout || !strings.Contains(stderr2, "profdiff: step work") {
		t.Errorf("profdiff DIR: exit %d (record's %d), the same report %v; stderr %s", code2, code, again == stdout, stderr2)
	}
	rec, err := record.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Runs) != 4 || len(rec.Runs[0].Steps) != 2 || rec.Runs[0].Steps[0].Resources.MaxRSSBytes < 32<<20 {
		t.Errorf("record.json's runs %+v", rec.Runs)
	}
	// A side with a command of its own and steps is refused.
	code, _, stderr = runCLI("record", "--out", filepath.Join(t.TempDir(), "r2"), "--step", "a=node prep.js", "--before-cmd", "node x.js", "--after-cmd", "node y.js")
	if code != exitUsage || !strings.Contains(stderr, "a command and steps") {
		t.Errorf("steps with commands: exit %d, %s", code, stderr)
	}
}
