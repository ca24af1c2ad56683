package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/profdiff/profdiff/internal/confine"
)

// post creates or edits the pull request's comment that starts with the
// marker, from the report directory $COMPARE_REPORT_DIR that compare wrote.
// With the post-report input it runs in a workflow_run workflow on a report
// a fork's pull request uploaded: the report's pull request number is only
// trusted when that pull request's head is the commit the run was for.
// A comment that cannot be posted is a warning, never a failed job.
func (e environment) post() int {
	dir, deferred := e.getenv("COMPARE_REPORT_DIR"), false
	if d := e.input("post-report"); d != "" {
		dir, deferred = d, true
	}
	m, body, err := readPosted(dir)
	if err != nil {
		e.warnf("%v", err)
		return 0
	}
	name, repo := m.Name, e.getenv("GITHUB_REPOSITORY")
	if deferred {
		// The report came from a fork's workflow: only its numbers are
		// read, and the name, policy and repository are this workflow's.
		if name = e.input("name"); name == "" {
			name = "default"
		}
		if m.Comment = e.input("comment"); m.Comment == "" {
			m.Comment = "always"
		}
		m.ReadOnly = false
	}
	if !e.mayPost(m, name, repo) {
		return 0
	}
	gh := ghClient{repo: repo, stderr: e.stderr}
	if deferred && !e.runIsPR(gh, m.PR) {
		return 0
	}
	text := withMarker(body, name)
	if u := e.getenv("ARTIFACT_URL"); regexp.MustCompile(`^https://[^\s()<>\[\]]+$`).MatchString(u) {
		text = strings.Replace(text, artifactPlaceholder, " · [report artifact]("+u+")", 1)
	}
	if len(text) >= commentLimit {
		text = cut(text, commentBudget, "the whole report is in the job summary")
	}
	url := e.postComment(gh, m, name, text)
	if url == "" {
		return 0
	}
	fmt.Fprintf(e.stderr, "profdiff: comment %s\n", url)
	if err := writeOutputs(e.getenv("GITHUB_OUTPUT"), map[string]string{"comment-url": url}); err != nil {
		e.warnf("%v", err)
	}
	return 0
}

// readPosted reads the meta.json and comment.md that compare wrote in dir.
// The folder is an artifact of a run on a pull request's code, so both are
// read as regular files in it, never through a link out of it.
func readPosted(dir string) (meta, string, error) {
	var m meta
	files := confine.New(dir)
	b, err := files.ReadFile(filepath.Join(dir, "meta.json"), 1<<20)
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		return m, "", fmt.Errorf("no report to post in %q: %v", dir, err)
	}
	body, err := files.ReadFile(filepath.Join(dir, "comment.md"), 1<<20)
	return m, string(body), err
}

// mayPost says whether the comment is to be posted (a well-formed name and
// repository, a pull request whose token can comment, a policy that is not
// "never"), and says why not when it is not.
func (e environment) mayPost(m meta, name, repo string) bool {
	if !namePattern.MatchString(name) || !repoPattern.MatchString(repo) {
		e.warnf("cannot post: name %q or repository %q is malformed", name, repo)
		return false
	}
	switch {
	case m.Comment == "never":
		fmt.Fprintln(e.stderr, "profdiff: comment: never; not posting")
		return false
	case m.ReadOnly:
		fmt.Fprintln(e.stderr, "profdiff: a fork's pull request: not posting (the report is an artifact)")
		return false
	case m.PR <= 0:
		fmt.Fprintln(e.stderr, "profdiff: not a pull request; nothing to comment on")
		return false
	}
	return true
}

// runIsPR says whether, in a workflow_run workflow, pull request pr's head
// is the commit the run was for, so that a report's number can be trusted.
func (e environment) runIsPR(gh ghClient, pr int) bool {
	ev := e.event()
	if ev.WorkflowRun == nil || !shaPattern.MatchString(ev.WorkflowRun.HeadSHA) {
		fmt.Fprintln(e.stderr, "::warning title=profdiff::post-report runs in a workflow_run workflow; not posting")
		return false
	}
	var got struct {
		Head struct {
			SHA string `json:"sha"`
		} `json:"head"`
	}
	if err := gh.json(&got, "repos/"+gh.repo+"/pulls/"+strconv.Itoa(pr)); err != nil {
		e.warnf("reading pull request #%d: %v", pr, err)
		return false
	}
	if got.Head.SHA != ev.WorkflowRun.HeadSHA {
		e.warnf("the report names pull request #%d, whose head %.12s is not the run's commit %.12s; not posting", pr, got.Head.SHA, ev.WorkflowRun.HeadSHA)
		return false
	}
	return true
}

// postComment edits the pull request's comment with this name, or creates
// one (with comment: on-change, only for a real change), and returns its
// URL, or "" when nothing was posted.
func (e environment) postComment(gh ghClient, m meta, name, text string) string {
	found, err := gh.find(m.PR, marker(name))
	id := found.ID
	if err != nil {
		e.warnf("listing the comments of #%d: %v", m.PR, err)
		return ""
	}
	var res struct {
		ID      int64  `json:"id"`
		HTMLURL string `json:"html_url"`
	}
	switch {
	case id != 0:
		err = gh.send(&res, "PATCH", "repos/"+gh.repo+"/issues/comments/"+strconv.FormatInt(id, 10), text)
	case m.Comment == "on-change" && !m.Changed:
		fmt.Fprintln(e.stderr, "profdiff: no real change and no earlier comment: not commenting (comment: on-change)")
		return ""
	default:
		err = gh.send(&res, "POST", "repos/"+gh.repo+"/issues/"+strconv.Itoa(m.PR)+"/comments", text)
	}
	if err != nil {
		e.warnf("posting the comment on #%d: %v (a read-only token? see the fork-safe recipe in examples/github)", m.PR, err)
		return ""
	}
	return res.HTMLURL
}

// warnf writes a GitHub warning annotation.
func (e environment) warnf(format string, args ...any) {
	fmt.Fprintf(e.stderr, "::warning title=profdiff::"+format+"\n", args...)
}

// withMarker makes the body start with this workflow's marker, replacing
// the marker line the report came with.
func withMarker(body, name string) string {
	if strings.HasPrefix(body, "<!-- profdiff: ") {
		if i := strings.IndexByte(body, '\n'); i >= 0 {
			body = body[i+1:]
		}
	}
	return marker(name) + "\n" + body
}
