package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
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
	var m meta
	b, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "::warning title=profdiff::no report to post in %q: %v\n", dir, err)
		return 0
	}
	body, err := os.ReadFile(filepath.Join(dir, "comment.md"))
	if err != nil {
		fmt.Fprintf(e.stderr, "::warning title=profdiff::%v\n", err)
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
	if !namePattern.MatchString(name) || !repoPattern.MatchString(repo) {
		fmt.Fprintf(e.stderr, "::warning title=profdiff::cannot post: name %q or repository %q is malformed\n", name, repo)
		return 0
	}
	switch {
	case m.Comment == "never":
		fmt.Fprintln(e.stderr, "profdiff: comment: never; not posting")
		return 0
	case m.ReadOnly:
		fmt.Fprintln(e.stderr, "profdiff: a fork's pull request: not posting (the report is an artifact)")
		return 0
	case m.PR <= 0:
		fmt.Fprintln(e.stderr, "profdiff: not a pull request; nothing to comment on")
		return 0
	}
	gh := ghClient{repo: repo, stderr: e.stderr}
	if deferred {
		ev := e.event()
		if ev.WorkflowRun == nil || !shaPattern.MatchString(ev.WorkflowRun.HeadSHA) {
			fmt.Fprintln(e.stderr, "::warning title=profdiff::post-report runs in a workflow_run workflow; not posting")
			return 0
		}
		var pr struct {
			Head struct {
				SHA string `json:"sha"`
			} `json:"head"`
		}
		if err := gh.json(&pr, "repos/"+repo+"/pulls/"+strconv.Itoa(m.PR)); err != nil {
			fmt.Fprintf(e.stderr, "::warning title=profdiff::reading pull request #%d: %v\n", m.PR, err)
			return 0
		}
		if pr.Head.SHA != ev.WorkflowRun.HeadSHA {
			fmt.Fprintf(e.stderr, "::warning title=profdiff::the report names pull request #%d, whose head %.12s is not the run's commit %.12s; not posting\n", m.PR, pr.Head.SHA, ev.WorkflowRun.HeadSHA)
			return 0
		}
	}

	text := withMarker(string(body), name)
	if u := e.getenv("ARTIFACT_URL"); regexp.MustCompile(`^https://[^\s()<>\[\]]+$`).MatchString(u) {
		text = strings.Replace(text, artifactPlaceholder, " · [report artifact]("+u+")", 1)
	}
	if len(text) >= commentLimit {
		text = cut(text, commentBudget, "the whole report is in the job summary")
	}

	id, err := gh.find(m.PR, marker(name))
	if err != nil {
		fmt.Fprintf(e.stderr, "::warning title=profdiff::listing the comments of #%d: %v\n", m.PR, err)
		return 0
	}
	var res struct {
		ID      int64  `json:"id"`
		HTMLURL string `json:"html_url"`
	}
	switch {
	case id != 0:
		err = gh.send(&res, "PATCH", "repos/"+repo+"/issues/comments/"+strconv.FormatInt(id, 10), text)
	case m.Comment == "on-change" && !m.Changed:
		fmt.Fprintln(e.stderr, "profdiff: no real change and no earlier comment: not commenting (comment: on-change)")
		return 0
	default:
		err = gh.send(&res, "POST", "repos/"+repo+"/issues/"+strconv.Itoa(m.PR)+"/comments", text)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "::warning title=profdiff::posting the comment on #%d: %v (a read-only token? see the fork-safe recipe in examples/github)\n", m.PR, err)
		return 0
	}
	fmt.Fprintf(e.stderr, "profdiff: comment %s\n", res.HTMLURL)
	if err := writeOutputs(e.getenv("GITHUB_OUTPUT"), map[string]string{"comment-url": res.HTMLURL}); err != nil {
		fmt.Fprintf(e.stderr, "::warning title=profdiff::%v\n", err)
	}
	return 0
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

// ghClient calls the GitHub API through the gh CLI (authenticated by
// GH_TOKEN), with request bodies in files so that no text from a profile
// reaches a command line.
type ghClient struct {
	repo   string
	stderr io.Writer
}

// api runs gh api with args and returns its standard output.
func (g ghClient) api(args ...string) ([]byte, error) {
	var out, errb bytes.Buffer
	cmd := exec.Command("gh", append([]string{"api"}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("gh api %s: %v: %s", args[len(args)-1], err, oneLine(errb.String()))
	}
	return out.Bytes(), nil
}

// json gets path and decodes it into v.
func (g ghClient) json(v any, path string) error {
	b, err := g.api(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// find returns the id of the oldest comment of the pull request whose body
// starts with the marker, or 0.
func (g ghClient) find(pr int, mark string) (int64, error) {
	b, err := g.api("--paginate", "repos/"+g.repo+"/issues/"+strconv.Itoa(pr)+"/comments?per_page=100")
	if err != nil {
		return 0, err
	}
	// --paginate writes one JSON array per page, one after another.
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		var page []struct {
			ID   int64  `json:"id"`
			Body string `json:"body"`
		}
		if err := dec.Decode(&page); errors.Is(err, io.EOF) {
			return 0, nil
		} else if err != nil {
			return 0, fmt.Errorf("reading the comments: %v", err)
		}
		for _, c := range page {
			if strings.HasPrefix(strings.TrimSpace(c.Body), mark) {
				return c.ID, nil
			}
		}
	}
}

// send POSTs or PATCHes {"body": text} to path and decodes the answer.
func (g ghClient) send(v any, method, path, text string) error {
	f, err := os.CreateTemp("", "profdiff-comment-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	err = json.NewEncoder(f).Encode(map[string]string{"body": text})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	b, err := g.api("--method", method, path, "--input", f.Name())
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
