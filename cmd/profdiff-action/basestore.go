package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// On a pull request, with the history-branch input set, the base of the
// comparison is the history's record of the pull request's merge base
// (else of its base commit) when the branch holds one: profdiff
// --base-store STORE --base-commit SHA with the head's profiles, so that
// the commits that landed on the default branch since the pull request
// branched do not leak into its deltas. Without such a record the base
// profiles (the before input) are compared as usual, and the comment says
// why. Either way, when the branch holds records, profdiff history
// --format html renders their series into history.html of the report
// artifact, which the comment points to.

// historyBase is the history branch checked out for a comparison.
type historyBase struct {
	// store is the records' folder in a checkout of the branch; "" when
	// the branch could not be checked out (note says why).
	store string
	// commit is the commit whose record is the base; "" when the store
	// has no record of the merge base or the base commit.
	commit string
	note   string
	// cleanup removes the checkout.
	cleanup func()
}

// historyBase checks out the history branch, when the history-branch input
// is set and this is a pull request, and looks for the record of the pull
// request's merge base, then of its base commit. Anything that goes wrong
// is a note (the comparison goes on with the base profiles), never a
// failure.
func (e environment) historyBase(m meta) historyBase {
	hb := historyBase{cleanup: func() {}}
	branch, dir := e.input("history-branch"), e.input("history-dir")
	if branch == "" || m.PR <= 0 {
		return hb
	}
	if dir == "" {
		dir = "profdiff-history"
	}
	if err := historyPlace(branch, dir); err != nil {
		hb.note = err.Error()
		return hb
	}
	repo, err := git(".", "rev-parse", "--show-toplevel")
	if err != nil {
		hb.note = "the job's working directory is no git checkout, so the history branch " + branch + " could not be read"
		return hb
	}
	tip, err := fetchTip(repo, branch)
	switch {
	case err != nil:
		hb.note = "the history branch " + branch + " could not be fetched (" + oneLine(err.Error()) + ")"
		return hb
	case tip == "":
		hb.note = "the history branch " + branch + " does not exist yet (a push to the default branch makes it)"
		return hb
	}
	tmp := e.getenv("RUNNER_TEMP")
	if tmp == "" {
		tmp = os.TempDir()
	}
	tmp, err = os.MkdirTemp(tmp, "profdiff-base-")
	if err != nil {
		hb.note = err.Error()
		return hb
	}
	wt := filepath.Join(tmp, "branch")
	if _, err := git(repo, "worktree", "add", "--quiet", "--detach", wt, tip); err != nil {
		os.RemoveAll(tmp)
		hb.note = "the history branch " + branch + " could not be checked out (" + oneLine(err.Error()) + ")"
		return hb
	}
	hb.cleanup = func() {
		git(repo, "worktree", "remove", "--force", wt)
		git(repo, "worktree", "prune")
		os.RemoveAll(tmp)
	}
	hb.store = filepath.Join(wt, filepath.Clean(dir))
	var tried []string
	if shaPattern.MatchString(m.BaseSHA) && shaPattern.MatchString(m.HeadSHA) {
		if mb, err := git(repo, "merge-base", m.BaseSHA, m.HeadSHA); err == nil && shaPattern.MatchString(mb) {
			tried = append(tried, mb)
		}
	}
	if shaPattern.MatchString(m.BaseSHA) && (len(tried) == 0 || tried[0] != m.BaseSHA) {
		tried = append(tried, m.BaseSHA)
	}
	for _, sha := range tried {
		if hasRecord(hb.store, sha) {
			hb.commit = sha
			return hb
		}
	}
	short := make([]string, len(tried))
	for i, s := range tried {
		short[i] = s[:min(7, len(s))]
	}
	hb.note = fmt.Sprintf("the history branch %s has no record of %s", branch, orNone(strings.Join(short, " (the merge base) nor of ")))
	return hb
}

func orNone(s string) string {
	if s == "" {
		return "the pull request's base (its commit is unknown)"
	}
	return s
}

// hasRecord reports whether the store holds the record of commit, as
// profdiff history add names it: <date>-<commit>.json.
func hasRecord(store, commit string) bool {
	entries, err := os.ReadDir(store)
	if err != nil {
		return false
	}
	for _, en := range entries {
		if n := en.Name(); !en.IsDir() && (n == commit+".json" || strings.HasSuffix(n, "-"+commit+".json")) {
			return true
		}
	}
	return false
}

// records counts the store's records.
func records(store string) int {
	entries, err := os.ReadDir(store)
	if err != nil {
		return 0
	}
	n := 0
	for _, en := range entries {
		if !en.IsDir() && strings.HasSuffix(en.Name(), ".json") && !strings.HasPrefix(en.Name(), ".") {
			n++
		}
	}
	return n
}

// historyPageCommits is how many of the store's last commits the history
// page shows.
const historyPageCommits = 200

// writeHistoryPage renders the store's records as history.html in the
// report directory (profdiff history --format html); a profdiff that
// cannot leaves a note.
func (e environment) writeHistoryPage(c *comparison, store string) {
	n := records(store)
	if n == 0 {
		return
	}
	page := filepath.Join(c.cfg.dir, "history.html")
	// The page shows the last historyPageCommits commits: profdiff reads
	// only their records, so a pull request's run does not grow with the
	// store.
	n = min(n, historyPageCommits)
	if status, stderr := e.profdiff(c.cfg.bin, []string{"history", "--format", "html", "--last", strconv.Itoa(historyPageCommits), "-o", page, store}); status != 0 && status != 1 {
		os.Remove(page)
		c.notes = append(c.notes, "The history page could not be written ("+oneLine(stderr)+").")
		return
	}
	c.out["history-html"] = page
	commits := fmt.Sprintf("the %d commits", n)
	if n == historyPageCommits {
		commits = fmt.Sprintf("the last %d commits", n)
	}
	if n == 1 {
		commits = "the one commit"
	}
	c.notes = append(c.notes, "The series of "+commits+" recorded on the history branch, with their change points, are history.html in the report artifact.")
}
