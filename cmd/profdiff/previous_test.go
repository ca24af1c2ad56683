package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreviousCommentIsRemembered: a markdown comment made with --commit
// keeps its result; the next one, given it as --previous, lists it under
// "Previous results (1)" and says which commit its base is. A --previous
// that is not there, or a commit that is not one, is a usage error.
func TestPreviousCommentIsRemembered(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "c1.md")
	before, after := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	if code, _, errs := runCLI("--format", "markdown", "-o", first, "--commit", "c0ffee06", "--base-commit", "c0ffee01", before, after); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, out, errs := runCLI("--format", "markdown", "--commit", "c0ffee07", "--base-commit", "c0ffee01", "--previous", first, before, after)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "Previous results (1)") || !strings.Contains(out, "| c0ffee06 | c0ffee01 |") || !strings.Contains(out, "_Commit c0ffee07 against base c0ffee01._") {
		t.Errorf("second comment:\n%s", out)
	}
	// A first comment by an older profdiff keeps nothing: no list, and this one starts keeping.
	old := filepath.Join(dir, "old.md")
	os.WriteFile(old, []byte("### profdiff: before → after\n"), 0o644)
	if code, out, _ := runCLI("--format", "markdown", "--commit", "c0ffee08", "--previous", old, before, after); code != 0 || strings.Contains(out, "Previous results") || !strings.Contains(out, "<!-- profdiff-results ") {
		t.Errorf("exit %d after an older comment", code)
	}
	for _, args := range [][]string{{"--previous", filepath.Join(dir, "none.md")}, {"--commit", "<img>"}} {
		if code, _, errs := runCLI(append(append([]string{"--format", "markdown"}, args...), before, after)...); code != 2 || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}
