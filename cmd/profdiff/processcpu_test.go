package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The two programs of ../shared/checks/verdicts.sh (render's loop 25%
// longer in B), recorded 5 + 5 interleaved by profdiff record on the shared
// 2-core machine: record-power at a load average near 3, record-power-loaded
// near 7, where the runs' sampled on-CPU time (511-1031 ms before) says
// little and their process CPU time (562-604 ms) a lot.
const (
	powerQuiet  = "../../testdata/record-power"
	powerLoaded = "../../testdata/record-power-loaded"
)

type recordedReport struct {
	Headline struct {
		Basis      string          `json:"basis"`
		ProcessCPU json.RawMessage `json:"process_cpu"`
	} `json:"headline"`
	Functions []struct {
		Function string `json:"function"`
		Self     struct {
			Verdict string `json:"verdict"`
		} `json:"self"`
	} `json:"functions"`
	Warnings []string `json:"warnings"`
}

func readRecorded(t *testing.T, dir string) recordedReport {
	t.Helper()
	// The programs ran in /tmp/v40p/A and /tmp/v40p/B.
	code, out, errs := runCLI("--format", "json", "--root-before", "/tmp/v40p/A", "--root-after", "/tmp/v40p/B", filepath.Join(dir, "before"), filepath.Join(dir, "after"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r recordedReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r recordedReport) worse() []string {
	var out []string
	for _, f := range r.Functions {
		if f.Self.Verdict == "worse" {
			out = append(out, f.Function)
		}
	}
	return out
}

// TestRecordedPower: at 5 v 5, render (+21%, every run) is judged worse
// and nothing else is, on the process CPU time of the runs; on the loaded
// recording the report warns that the machine was loaded.
func TestRecordedPower(t *testing.T) {
	for _, tc := range []struct {
		dir    string
		loaded bool
	}{{powerQuiet, false}, {powerLoaded, true}} {
		r := readRecorded(t, tc.dir)
		if r.Headline.Basis != "process CPU time" || len(r.Headline.ProcessCPU) == 0 {
			t.Errorf("%s: headline basis %q, process_cpu %s", tc.dir, r.Headline.Basis, r.Headline.ProcessCPU)
		}
		if w := r.worse(); len(w) != 1 || w[0] != "render" {
			t.Errorf("%s: worse %v, want render alone", tc.dir, w)
		}
		loaded := false
		for _, w := range r.Warnings {
			loaded = loaded || strings.Contains(w, "the machine was loaded")
		}
		if loaded != tc.loaded {
			t.Errorf("%s: loaded warning %v, want %v: %v", tc.dir, loaded, tc.loaded, r.Warnings)
		}
	}
}

// copyProfiles copies a recording's profiles (its before/ and after/
// folders) into a new folder, and returns it.
func copyProfiles(t *testing.T, recording string) string {
	t.Helper()
	dir := t.TempDir()
	for _, side := range []string{"before", "after"} {
		if err := os.MkdirAll(filepath.Join(dir, side), 0o755); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(recording, side, "*.cpuprofile"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, side, filepath.Base(f)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// TestRecordedWithoutRecordJSON: the same loaded runs without their
// record.json are judged on sampled time, which the load blurs: render is
// not found (the control for TestRecordedPower).
func TestRecordedWithoutRecordJSON(t *testing.T) {
	dir := copyProfiles(t, powerLoaded) // without its record.json
	r := readRecorded(t, dir)
	if r.Headline.Basis != "sampled on-CPU time" || len(r.Headline.ProcessCPU) != 0 {
		t.Errorf("headline basis %q, process_cpu %s", r.Headline.Basis, r.Headline.ProcessCPU)
	}
	if w := r.worse(); len(w) != 0 {
		t.Errorf("worse %v without process CPU times", w)
	}
}

// TestProcessCPUOutsideTheProfile: when most of each run's process CPU
// time lies outside its profile (here record.json says ten times what
// the profiles saw, as when every run builds first), the headline is not
// judged on it, nor are the rows scaled by it, and a warning says why.
// Without processMeasuresProfile the basis stays process CPU time.
func TestProcessCPUOutsideTheProfile(t *testing.T) {
	dir := copyProfiles(t, powerQuiet) // without its record.json
	b, err := os.ReadFile(filepath.Join(powerQuiet, "record.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	for _, r := range rec["runs"].([]any) {
		run := r.(map[string]any)
		if ns, ok := run["cpu_ns"].(float64); ok {
			run["cpu_ns"] = 10 * ns
		}
	}
	if b, err = json.Marshal(rec); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "record.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	r := readRecorded(t, dir)
	if r.Headline.Basis != "sampled on-CPU time" || len(r.Headline.ProcessCPU) != 0 {
		t.Errorf("headline basis %q, process_cpu %s", r.Headline.Basis, r.Headline.ProcessCPU)
	}
	said := false
	for _, w := range r.Warnings {
		said = said || strings.Contains(w, "outside them, so the headline is judged on sampled on-CPU time")
	}
	if !said {
		t.Errorf("no warning of the time outside the profiles: %q", r.Warnings)
	}
}
