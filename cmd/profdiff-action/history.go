package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// The bot identity history commits are made as.
const (
	botName  = "github-actions[bot]"
	botEmail = "41898282+github-actions[bot]@users.noreply.github.com"
)

// pushAttempts bounds the pushes of one record: another push to the
// default branch may have added its record in between, and each retry
// puts this record on top of that one.
const pushAttempts = 5

// retryDelay is how long the n-th retry waits; the tests make it zero.
var retryDelay = func(n int) time.Duration { return time.Duration(n) * time.Second }

// branchPattern is what history-branch may be: a plain branch name.
var branchPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$`)

// history records the head's profiles in the store that the history-branch
// input keeps, on a push to the repository's default branch only: it runs
// profdiff history add into a temporary worktree of that branch (an orphan
// branch when it does not exist yet), commits only the record as the
// github-actions bot and pushes, retrying a rejected push on top of the
// branch's new tip. The job's own checkout is left as it was. Recording
// needs a token with contents: write. Anything else than such a push
// records nothing and succeeds; a record that cannot be pushed fails.
func (e environment) history() int {
	branch, dir := e.input("history-branch"), e.input("history-dir")
	if branch == "" {
		return 0
	}
	if dir == "" {
		dir = "profdiff-history"
	}
	if e.getenv("COMPARE_STATUS") == "" {
		fmt.Fprintln(e.stderr, "profdiff: no comparison ran here; not recording history")
		return 0
	}
	ev := e.event()
	def := ""
	if ev.Repository != nil {
		def = ev.Repository.DefaultBranch
	}
	if e.getenv("GITHUB_EVENT_NAME") != "push" || def == "" || ev.Ref != "refs/heads/"+def || ev.Deleted || ev.HeadCommit == nil {
		fmt.Fprintln(e.stderr, "profdiff: not a push to the default branch; not recording history")
		return 0
	}
	if err := historyPlace(branch, dir); err != nil {
		return e.errorf("%s", err)
	}
	if branch == def {
		return e.errorf("history-branch %q is the default branch: give a branch of its own for the records", branch)
	}
	sha := e.getenv("GITHUB_SHA")
	if !shaPattern.MatchString(sha) {
		return e.errorf("GITHUB_SHA %q is not a commit", sha)
	}
	args, err := e.historyArgs(sha, def, ev.HeadCommit.Timestamp, ev.HeadCommit.Message)
	if err != nil {
		return e.errorf("%s", oneLine(err.Error()))
	}
	commit, err := e.record(branch, filepath.Clean(dir), sha, args)
	if err != nil {
		return e.errorf("history: %s (the token needs contents: write)", oneLine(err.Error()))
	}
	if commit != "" {
		fmt.Fprintf(e.stderr, "profdiff: recorded %.12s in %s of branch %s (commit %.12s)\n", sha, dir, branch, commit)
	}
	return 0
}

// historyPlace checks the history-branch and history-dir inputs: a plain
// branch name, and a folder inside it.
func historyPlace(branch, dir string) error {
	switch {
	case !branchPattern.MatchString(branch) || strings.Contains(branch, "..") || strings.HasSuffix(branch, ".lock") || strings.HasSuffix(branch, "/"):
		return fmt.Errorf("history-branch %q: give a branch name (letters, digits, '.', '_', '-', '/')", branch)
	case !filepath.IsLocal(dir) || strings.HasPrefix(dir, "-") || strings.EqualFold(strings.Split(filepath.ToSlash(filepath.Clean(dir)), "/")[0], ".git"):
		return fmt.Errorf("history-dir %q: give a folder inside the branch", dir)
	}
	return nil
}

// historyArgs are profdiff history add's arguments but --store: the commit,
// its date, branch and message, and the after side's profiles with its
// source maps, work and the args input, as the comparison read them.
func (e environment) historyArgs(sha, branch, date, message string) ([]string, error) {
	args := []string{"--commit=" + sha, "--branch=" + branch}
	if _, err := time.Parse(time.RFC3339, date); err == nil {
		args = append(args, "--date="+date)
	} else {
		e.warnf("the head commit's timestamp %q is not RFC 3339; recording the time of this run", date)
	}
	if first, _, _ := strings.Cut(strings.TrimSpace(message), "\n"); first != "" {
		args = append(args, "--message="+first)
	}
	work := e.input("work-after")
	if work == "" {
		work = e.input("work")
	}
	if work != "" {
		args = append(args, "--work="+work)
	}
	if u := e.input("work-unit"); u != "" {
		args = append(args, "--work-unit="+u)
	}
	for _, d := range lines(e.input("sourcemaps-after")) {
		args = append(args, "--sourcemaps="+d)
	}
	extra, err := splitArgs(e.input("args"))
	if err != nil {
		return nil, fmt.Errorf("args: %v", err)
	}
	after, err := side("after", e.input("after"))
	if err != nil {
		return nil, err
	}
	args = append(args, extra...)
	return append(append(args, "--"), after...), nil
}

// git runs git in dir as the github-actions bot, never prompting, and
// returns its trimmed standard output.
func git(dir string, args ...string) (string, error) {
	var out, errb bytes.Buffer
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME="+botName, "GIT_AUTHOR_EMAIL="+botEmail, "GIT_COMMITTER_NAME="+botName, "GIT_COMMITTER_EMAIL="+botEmail)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", args[0], err, oneLine(errb.String()))
	}
	return strings.TrimSpace(out.String()), nil
}

// fetchTip fetches branch from origin into its remote-tracking ref and
// returns its tip, or "" when origin has no such branch.
func fetchTip(repo, branch string) (string, error) {
	heads, err := git(repo, "ls-remote", "--heads", "origin", "refs/heads/"+branch)
	if err != nil || heads == "" {
		return "", err
	}
	track := "refs/remotes/origin/" + branch
	if _, err := git(repo, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "origin", "+refs/heads/"+branch+":"+track); err != nil {
		return "", err
	}
	return git(repo, "rev-parse", "--verify", track+"^{commit}")
}

// record writes the record into a temporary worktree of the history
// branch, commits it and pushes; it returns the commit pushed, "" when
// the store already held this record as it is.
func (e environment) record(branch, dir, sha string, args []string) (string, error) {
	repo, err := git(".", "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("the job's working directory is no git checkout (use actions/checkout first): %v", err)
	}
	tmp := e.getenv("RUNNER_TEMP")
	if tmp == "" {
		tmp = os.TempDir()
	}
	tmp, err = os.MkdirTemp(tmp, "profdiff-history-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	wt := filepath.Join(tmp, "branch")
	tip, err := fetchTip(repo, branch)
	if err != nil {
		return "", err
	}
	if tip != "" {
		_, err = git(repo, "worktree", "add", "--quiet", "--detach", wt, tip)
	} else {
		// A new, orphan branch: a worktree with nothing checked out and
		// an empty index, whose first commit has no parent.
		if _, err = git(repo, "worktree", "add", "--quiet", "--detach", "--no-checkout", wt, "HEAD"); err == nil {
			_, err = git(wt, "read-tree", "--empty")
		}
	}
	if err != nil {
		return "", err
	}
	defer func() {
		git(repo, "worktree", "remove", "--force", wt)
		git(repo, "worktree", "prune")
	}()

	store := filepath.Join(wt, dir)
	status, stderr := e.profdiff(e.profdiffBin(), append([]string{"history", "add", "--store=" + store}, args...))
	if status != 0 {
		return "", fmt.Errorf("profdiff history add: exit status %d: %s", status, oneLine(stderr))
	}
	if _, err := git(wt, "add", "--all", "--", dir); err != nil {
		return "", err
	}
	if _, err := git(wt, "diff", "--cached", "--quiet"); err == nil {
		fmt.Fprintf(e.stderr, "profdiff: the history already holds %.12s as it is\n", sha)
		return "", nil
	}
	tree, err := git(wt, "write-tree")
	if err != nil {
		return "", err
	}
	msg := "profdiff history: record " + sha + "\n\nThe runs of " + sha + ", recorded by the profdiff action."
	ct := []string{"commit-tree", tree, "-m", msg}
	if tip != "" {
		ct = append(ct, "-p", tip)
	}
	commit, err := git(wt, ct...)
	if err != nil {
		return "", err
	}
	for attempt := 1; ; attempt++ {
		_, err := git(wt, "push", "--quiet", "origin", commit+":refs/heads/"+branch)
		if err == nil {
			return commit, nil
		}
		if attempt == pushAttempts {
			return "", fmt.Errorf("pushing to %s, %d times: %v", branch, attempt, err)
		}
		e.warnf("pushing the record to %s: %v; retrying on the branch's new tip", branch, oneLine(err.Error()))
		time.Sleep(retryDelay(attempt))
		if commit, err = rebaseRecord(repo, wt, branch, commit); err != nil {
			return "", err
		}
	}
}

// rebaseRecord puts the record's commit on top of the branch's new tip
// (another run's record came first) and returns the new commit.
func rebaseRecord(repo, wt, branch, commit string) (string, error) {
	tip, err := fetchTip(repo, branch)
	if err != nil {
		return "", err
	}
	if tip == "" {
		return "", errors.New("the branch is gone from origin")
	}
	if _, err := git(wt, "reset", "--quiet", "--hard", tip); err != nil {
		return "", err
	}
	if _, err := git(wt, "cherry-pick", commit); err != nil {
		git(wt, "cherry-pick", "--abort")
		return "", err
	}
	return git(wt, "rev-parse", "HEAD")
}

// profdiffBin is the profdiff the build step made.
func (e environment) profdiffBin() string {
	if b := e.getenv("PROFDIFF"); b != "" {
		return b
	}
	return "profdiff"
}
