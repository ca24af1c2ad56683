package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHistoryCommands: history add writes one record per commit (again
// replaces it), history reads the store in each format, and bad use or a
// bad store is one line on stderr with exit status 2.
func TestHistoryCommands(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	before, after := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	for i, p := range []string{before, before, after, after} {
		commit := []string{"a1", "a2", "a3", "a4"}[i]
		if code, _, errs := runCLI("history", "add", "-q", "--store", store, "--commit", commit, "--date", "2026-11-0"+string(rune('1'+i))+"T00:00:00Z", p); code != 0 {
			t.Fatalf("history add: exit %d: %s", code, errs)
		}
	}
	if code, _, errs := runCLI("history", "add", "--store", store, "--commit", "a4", "--date", "2026-11-09T00:00:00Z", after); code != 0 {
		t.Fatal("adding a commit again")
	} else if !strings.Contains(errs, "recorded a4 (1 run) in ") {
		t.Errorf("history add says: %s", errs)
	}
	// Work per run is recorded, and the history is per unit of work.
	if code, _, errs := runCLI("history", "add", "-q", "--store", store, "--commit", "a4", "--date", "2026-11-09T00:00:00Z", "--work", "40000", "--work-unit", "request", after); code != 0 {
		t.Fatalf("history add --work: %s", errs)
	}
	rec, _ := filepath.Glob(filepath.Join(store, "*-a4.json"))
	if data, _ := os.ReadFile(rec[0]); !strings.Contains(string(data), `"work":40000`) || !strings.Contains(string(data), `"work_unit": "request"`) {
		t.Errorf("the record keeps no work:\n%.600s", data)
	}
	if files, _ := os.ReadDir(store); len(files) != 4 {
		t.Errorf("%d records for 4 commits", len(files))
	}
	for _, f := range []string{"text", "markdown", "json", "html"} {
		code, out, errs := runCLI("history", "--format", f, store)
		if code != 0 || !strings.Contains(out, "4 commits") && f != "json" || f == "json" && !strings.Contains(out, `"change_points"`) {
			t.Errorf("history --format %s: exit %d, %s %.200s", f, code, errs, out)
		}
	}
	// --last 2: the last two commits of the order, only.
	if code, out, errs := runCLI("history", "--format", "json", "--last", "2", store); code != 0 || strings.Count(out, `"commit": "a`) != 2 || !strings.Contains(out, `"commit": "a4"`) || strings.Contains(out, `"commit": "a1"`) {
		t.Errorf("history --last 2: exit %d, %s %.300s", code, errs, out)
	}
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "x.json"), []byte(`{"profdiff_history": 1, "commit": "a1"`), 0o644)
	for _, args := range [][]string{
		{"history", "add", "--store", store, before},                    // no --commit
		{"history", "add", "--store", store, "--commit", "a;b", before}, // not a commit
		{"history", "add", "--store", store, "--commit", "a5", "--date", "yesterday", before},
		{"history", bad},
		{"history", "--format", "pprof", store},
		{"history", "--last", "-1", store},
		{"history", "add", "--store", store, "--commit", "a5", "--floor", "2", before},
		{"history", "add", "--store", store, "--commit", "a5", "--process-cpu", "8s,9s", before},
	} {
		code, _, errs := runCLI(args...)
		if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || errs == "" {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}
