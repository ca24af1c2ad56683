package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// prEventOn is a pull request of o/r whose base is base.
func prEventOn(base string) map[string]any {
	ev := prEvent("o/r")
	ev["pull_request"].(map[string]any)["base"].(map[string]any)["sha"] = base
	return ev
}

// TestActionBaseFromHistory: with history-branch, a push to the default
// branch records its runs; a pull request whose base has a record is
// compared with that record (profdiff --base-store), without base
// profiles, and its comment says so and points to history.html in the
// uploaded report; a pull request whose base has none is compared with
// the base profiles, saying why, or fails saying that the base profiles
// are needed; the job's checkout is left as it was.
func TestActionBaseFromHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds profdiff")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	r := newRunner(t)
	base := t.TempDir()
	origin := filepath.Join(base, "origin.git")
	gitT(t, base, "init", "-q", "--bare", "-b", "main", origin)
	seed := filepath.Join(base, "seed")
	gitT(t, base, "clone", "-q", origin, seed)
	os.WriteFile(filepath.Join(seed, "README"), []byte("app\n"), 0o644)
	gitT(t, seed, "add", "README")
	gitT(t, seed, "commit", "-qm", "app")
	gitT(t, seed, "push", "-q", "origin", "HEAD:main")
	job := filepath.Join(base, "job")
	gitT(t, base, "clone", "-q", origin, job)
	jobHead := gitT(t, job, "rev-parse", "HEAD")
	r.cwd = job

	const branch, dir = "profdiff-data", "perf"
	before, after := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	first := "feedfacefeedfacefeedfacefeedfacefeedface"
	r.sha = first
	res := r.run("push", pushEvent("main", first, "2026-12-04T10:00:00Z", "router"), map[string]string{
		"before": before, "after": before, "history-branch": branch, "history-dir": dir, "comment": "never"})
	if res.status != 0 {
		t.Fatalf("push: status %d\n%s", res.status, res.stderr)
	}

	// The pull request's base has a record: no base profiles needed.
	in := map[string]string{"after": after, "history-branch": branch, "history-dir": dir}
	res = r.run("pull_request", prEventOn(first), in)
	cs := r.comments()
	if res.status != 0 || len(cs) != 1 {
		t.Fatalf("pull request on a recorded base: status %d, %d comments\n%s", res.status, len(cs), res.stderr)
	}
	for _, want := range []string{"(base: its record in the history, 1 run)", "### profdiff: record of feedfac from the store → ",
		"history.html in the report artifact", "[report artifact](https://"} {
		if !strings.Contains(cs[0].Body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, cs[0].Body)
		}
	}
	page := filepath.Join(res.outputs["report-dir"], "history.html")
	if st, err := os.Stat(page); err != nil || st.Size() == 0 || !slices.Contains(r.uploaded, res.outputs["report-dir"]) {
		t.Errorf("history.html: %v; uploaded %v", err, r.uploaded)
	}

	// A base the history has no record of: the base profiles, and why.
	other := "1111111111111111111111111111111111111111"
	in["before"] = before
	res = r.run("pull_request", prEventOn(other), in)
	cs = r.comments()
	if res.status != 0 || len(cs) != 1 || !strings.Contains(cs[0].Body, "Compared with the base profiles: the history branch profdiff-data has no record of 1111111") ||
		strings.Contains(cs[0].Body, "record of feedfac from the store") {
		t.Errorf("pull request on an unrecorded base: status %d\n%s\n%s", res.status, res.stderr, cs[0].Body)
	}
	// … and without base profiles, an error that says they are needed.
	delete(in, "before")
	res = r.run("pull_request", prEventOn(other), in)
	if res.outputs["status"] != "2" || !strings.Contains(res.stderr, "give the base profiles") {
		t.Errorf("no record, no base profiles: status %q\n%s", res.outputs["status"], res.stderr)
	}

	if got := gitT(t, job, "rev-parse", "HEAD"); got != jobHead {
		t.Errorf("the job's HEAD moved to %s", got)
	}
	if got := gitT(t, job, "status", "--porcelain"); got != "" {
		t.Errorf("the job's checkout is not clean:\n%s", got)
	}
	if got := gitT(t, job, "worktree", "list"); strings.Count(got, "\n") != 0 {
		t.Errorf("worktrees left:\n%s", got)
	}
}
