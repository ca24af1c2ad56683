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
	"slices"
	"strconv"
	"strings"
)

// Limits GitHub sets: a comment holds at most 65,536 characters and a job
// summary at most 1 MiB per step. The budgets leave room for the header,
// the footer and the artifact link.
const (
	commentLimit  = 65536
	commentBudget = commentLimit - 2048
	summaryLimit  = 1 << 20
	summaryBudget = summaryLimit - 8192
)

// artifactPlaceholder marks where the post step links the uploaded report.
const artifactPlaceholder = "<!-- profdiff-artifact-link -->"

// environment is the process's view of the world: its variables and its
// standard output and error.
type environment struct {
	getenv         func(string) string
	stdout, stderr io.Writer
}

// input returns the action input NAME, passed by action.yml as INPUT_NAME
// (upper case, dashes as underscores), trimmed.
func (e environment) input(name string) string {
	return strings.TrimSpace(e.getenv("INPUT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))))
}

// lines splits a multi-line input into its non-empty, trimmed lines.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// meta is what a later step (or a workflow_run workflow) needs to post the
// comment; compare writes it as meta.json in the report directory.
type meta struct {
	Name       string `json:"name"`
	Comment    string `json:"comment"` // always, on-change or never
	Changed    bool   `json:"changed"`
	Status     int    `json:"status"`
	PR         int    `json:"pr"`
	Repository string `json:"repository"`
	BaseSHA    string `json:"base_sha,omitempty"`
	HeadSHA    string `json:"head_sha,omitempty"`
	ReadOnly   bool   `json:"read_only"` // a fork's pull request: the token cannot comment
}

// namePattern is what a comment's NAME may hold, so that the marker
// <!-- profdiff: NAME --> can neither close early nor match another's.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// marker is the hidden first line that identifies a comment.
func marker(name string) string { return "<!-- profdiff: " + name + " -->" }

// compare runs profdiff and writes the report directory, the job summary
// and the step outputs. Its exit status is 0 whenever profdiff ran (the
// action's last step exits with profdiff's status, after the report is
// uploaded and posted) and 2 when the inputs are wrong.
func (e environment) compare() int {
	cfg, err := e.config()
	if err != nil {
		fmt.Fprintf(e.stderr, "::error title=profdiff::%s\n", oneLine(err.Error()))
		return 2
	}
	if err := os.MkdirAll(cfg.dir, 0o755); err != nil {
		fmt.Fprintf(e.stderr, "::error title=profdiff::%v\n", err)
		return 2
	}
	md, js := filepath.Join(cfg.dir, "report.md"), filepath.Join(cfg.dir, "report.json")
	args := append([]string{"--format", "markdown", "-o", md, "--json-output", js}, cfg.args...)
	status, stderr := e.profdiff(cfg.bin, args)
	m := meta{Name: cfg.name, Comment: cfg.comment, Status: status, Repository: e.getenv("GITHUB_REPOSITORY")}
	ev := e.event()
	m.PR, m.BaseSHA, m.HeadSHA, m.ReadOnly = ev.pr(), ev.baseSHA(), ev.headSHA(e.getenv("GITHUB_SHA")), ev.readOnly(e.getenv("GITHUB_EVENT_NAME"), m.Repository)
	if c := e.input("before-commit"); c != "" {
		m.BaseSHA = c
	}
	if c := e.input("after-commit"); c != "" {
		m.HeadSHA = c
	}
	out := map[string]string{"status": strconv.Itoa(status), "report-dir": cfg.dir, "report": md, "json": js,
		"artifact-name": "profdiff-" + cfg.name, "fork": strconv.FormatBool(m.ReadOnly)}

	var notes []string
	var rep *jsonReport
	if status == 0 || status == 1 {
		rep, err = readReport(js)
		if err != nil {
			status, stderr = 2, err.Error()
			out["status"] = "2"
			m.Status = 2
		}
	}
	if rep != nil {
		m.Changed = rep.changed()
		out["verdict"], out["on-cpu-delta-pct"] = rep.verdict(), rep.onCPUDeltaPct()
		out["broken-rules"] = strings.Join(rep.broken(), "\n")
		out["changed"] = strconv.FormatBool(m.Changed)
		if cfg.html {
			html := filepath.Join(cfg.dir, "report.html")
			hargs := append([]string{"--format", "html", "-o", html}, cfg.args...)
			if hs, herr := e.profdiff(cfg.bin, hargs); hs == 2 {
				os.Remove(html)
				notes = append(notes, "The HTML report could not be written ("+oneLine(herr)+"); this profdiff may not have --format html yet.")
			} else {
				out["html"] = html
			}
		}
	}
	version := e.version(cfg.bin)
	var body string
	if rep == nil {
		body = fmt.Sprintf("**profdiff could not compare** (exit status %d):\n\n```\n%s\n```\n", status, strings.ReplaceAll(strings.TrimSpace(stderr), "```", "'''"))
	} else {
		b, err := os.ReadFile(md)
		if err != nil {
			fmt.Fprintf(e.stderr, "::error title=profdiff::%v\n", err)
			return 2
		}
		body = string(b)
	}
	head := header(m, rep, e.getenv("GITHUB_SERVER_URL"))
	foot := footer(version, e.runURL(), notes)

	fork := ""
	if m.ReadOnly {
		fork = "\n> This pull request comes from a fork, whose token cannot comment: the report is saved as the artifact `" + out["artifact-name"] + "` for a `workflow_run` workflow to post (see the action's examples/github/profdiff-comment.yml).\n"
	}
	if cfg.summary {
		if err := appendSummary(e.getenv("GITHUB_STEP_SUMMARY"), head+fork+"\n"+cut(body, summaryBudget-len(head)-len(fork)-len(foot), "the whole report is in report.md of the report artifact")+foot); err != nil {
			fmt.Fprintf(e.stderr, "::warning title=profdiff::job summary: %v\n", err)
		}
	}
	comment := marker(cfg.name) + "\n" + head + "\n" + cut(body, commentBudget-len(head)-len(foot), "the whole report is in the job summary") + strings.Replace(foot, "</sub>", artifactPlaceholder+"</sub>", 1)
	if err := writeJSONFile(filepath.Join(cfg.dir, "meta.json"), m); err != nil {
		fmt.Fprintf(e.stderr, "::error title=profdiff::%v\n", err)
		return 2
	}
	if err := os.WriteFile(filepath.Join(cfg.dir, "comment.md"), []byte(comment), 0o644); err != nil {
		fmt.Fprintf(e.stderr, "::error title=profdiff::%v\n", err)
		return 2
	}
	out["upload"] = strconv.FormatBool(m.ReadOnly || out["html"] != "")
	switch {
	case m.ReadOnly:
		out["comment"] = "none: a fork's pull request, its token cannot comment"
		fmt.Fprintf(e.stderr, "::notice title=profdiff::%s\n", strings.TrimSpace(strings.TrimPrefix(fork, "\n> ")))
	case m.PR == 0:
		out["comment"] = "none: not a pull request"
	default:
		out["comment"] = m.Comment
	}
	if err := writeOutputs(e.getenv("GITHUB_OUTPUT"), out); err != nil {
		fmt.Fprintf(e.stderr, "::error title=profdiff::%v\n", err)
		return 2
	}
	if rep == nil {
		fmt.Fprintf(e.stderr, "::error title=profdiff::%s\n", oneLine(stderr))
	}
	return 0
}

// config are the inputs of a comparison, checked.
type config struct {
	bin, dir, name, comment string
	summary, html           bool
	args                    []string // profdiff's arguments after the output flags
}

// config reads and checks the inputs.
func (e environment) config() (config, error) {
	c := config{bin: e.getenv("PROFDIFF"), name: e.input("name"), comment: e.input("comment")}
	if c.bin == "" {
		c.bin = "profdiff"
	}
	if c.name == "" {
		c.name = "default"
	}
	if !namePattern.MatchString(c.name) {
		return c, fmt.Errorf("name %q: use letters, digits, '.', '_' and '-' (at most 64)", c.name)
	}
	switch c.comment {
	case "":
		c.comment = "always"
	case "always", "on-change", "never":
	default:
		return c, fmt.Errorf("comment %q: choose always, on-change or never", c.comment)
	}
	var err error
	if c.summary, err = boolInput("summary", e.input("summary"), true); err != nil {
		return c, err
	}
	if c.html, err = boolInput("html", e.input("html"), false); err != nil {
		return c, err
	}
	tmp := e.getenv("RUNNER_TEMP")
	if tmp == "" {
		tmp = os.TempDir()
	}
	c.dir = filepath.Join(tmp, "profdiff-"+c.name)

	before, err := side("before", e.input("before"))
	if err != nil {
		return c, err
	}
	after, err := side("after", e.input("after"))
	if err != nil {
		return c, err
	}
	for _, f := range []struct{ input, flag string }{{"work", "--work"}, {"work-before", "--work-before"}, {"work-after", "--work-after"}, {"work-unit", "--work-unit"}} {
		if v := e.input(f.input); v != "" {
			c.args = append(c.args, f.flag, v)
		}
	}
	for _, f := range []struct{ input, flag string }{{"sourcemaps-before", "--sourcemaps-before"}, {"sourcemaps-after", "--sourcemaps-after"}, {"fail-on", "--fail-on"}} {
		for _, v := range lines(e.input(f.input)) {
			c.args = append(c.args, f.flag, v)
		}
	}
	extra, err := splitArgs(e.input("args"))
	if err != nil {
		return c, fmt.Errorf("args: %v", err)
	}
	c.args = append(c.args, extra...)
	if len(before) == 1 && len(after) == 1 {
		c.args = append(c.args, "--", before[0], after[0])
	} else {
		for _, f := range before {
			c.args = append(c.args, "--before", f)
		}
		for _, f := range after {
			c.args = append(c.args, "--after", f)
		}
	}
	return c, nil
}

// boolInput reads a true/false input.
func boolInput(name, v string, def bool) (bool, error) {
	switch strings.ToLower(v) {
	case "":
		return def, nil
	case "true", "yes", "1":
		return true, nil
	case "false", "no", "0":
		return false, nil
	}
	return false, fmt.Errorf("%s %q: give true or false", name, v)
}

// side expands one side's input: lines of files, directories or globs. A
// single directory or file is passed as is (profdiff lists a directory's
// runs); several entries must be files, and a directory among them is
// expanded to its files.
func side(name, in string) ([]string, error) {
	var out []string
	for _, l := range lines(in) {
		if !strings.ContainsAny(l, "*?[") {
			out = append(out, l)
			continue
		}
		m, err := filepath.Glob(l)
		if err != nil {
			return nil, fmt.Errorf("%s: %q: %v", name, l, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("%s: %q matches no file", name, l)
		}
		out = append(out, m...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: give the profiles of this side (files, a directory of runs, or globs)", name)
	}
	if len(out) == 1 {
		return out, nil
	}
	var files []string
	for _, p := range out {
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() {
			files = append(files, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		for _, en := range entries {
			if !en.IsDir() && !strings.HasPrefix(en.Name(), ".") {
				files = append(files, filepath.Join(p, en.Name()))
			}
		}
	}
	return files, nil
}

// splitArgs splits the args input into words the way a shell would split
// plain words and quotes, and does nothing else: no variables, no command
// substitution, no globbing. "$(touch x)" is one argument, not a command.
func splitArgs(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed %c quote", quote)
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

// profdiff runs the profdiff binary and returns its exit status and
// standard error (also copied to the step's log).
func (e environment) profdiff(bin string, args []string) (int, string) {
	var stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout = e.stdout
	cmd.Stderr = io.MultiWriter(&stderr, e.stderr)
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, stderr.String()
	case errors.As(err, &ee) && ee.ExitCode() > 0:
		return ee.ExitCode(), stderr.String()
	}
	return 2, fmt.Sprintf("running %s: %v", bin, err)
}

// version asks profdiff which build it is, for the footer.
func (e environment) version(bin string) string {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return "(unknown version)"
	}
	v := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(out)), "profdiff "))
	return sanitizeInline(v)
}

// sanitizeInline keeps a value from breaking out of inline markdown.
func sanitizeInline(s string) string {
	return strings.NewReplacer("`", "'", "<", "&lt;", ">", "&gt;", "\n", " ", "\r", " ", "|", "\\|").Replace(s)
}

// runURL links the workflow run.
func (e environment) runURL() string {
	server, repo, id := e.getenv("GITHUB_SERVER_URL"), e.getenv("GITHUB_REPOSITORY"), e.getenv("GITHUB_RUN_ID")
	if server == "" || !repoPattern.MatchString(repo) || !regexp.MustCompile(`^[0-9]+$`).MatchString(id) {
		return ""
	}
	return server + "/" + repo + "/actions/runs/" + id
}

// shaPattern is a commit hash.
var shaPattern = regexp.MustCompile(`^[0-9a-f]{7,64}$`)

// header names the commits compared and the runs on each side, and the
// headline verdict.
func header(m meta, rep *jsonReport, server string) string {
	commit := func(sha string) string {
		if !shaPattern.MatchString(sha) {
			if sha == "" {
				return "?"
			}
			return "`" + sanitizeInline(sha) + "`"
		}
		short := sha
		if len(short) > 7 {
			short = short[:7]
		}
		if server != "" && repoPattern.MatchString(m.Repository) {
			return fmt.Sprintf("[`%s`](%s/%s/commit/%s)", short, server, m.Repository, sha)
		}
		return "`" + short + "`"
	}
	runs := [2]int{}
	if rep != nil && len(rep.Sides) == 2 {
		runs = [2]int{rep.Sides[0].Runs, rep.Sides[1].Runs}
	}
	plural := func(n int) string {
		if n == 1 {
			return "1 run"
		}
		return strconv.Itoa(n) + " runs"
	}
	h := fmt.Sprintf("**profdiff** compared %s (base, %s) with %s (head, %s)", commit(m.BaseSHA), plural(runs[0]), commit(m.HeadSHA), plural(runs[1]))
	if rep != nil {
		v := "**" + rep.verdict() + "**"
		if !real(rep.verdict()) {
			v = "within noise"
		}
		h += fmt.Sprintf(": on-CPU %s%%, %s", rep.onCPUDeltaPct(), v)
		if b := rep.broken(); len(b) > 0 {
			h += fmt.Sprintf(", %d rule(s) broken", len(b))
		}
		if !rep.changed() {
			h += "\n\n_No change judged real: every difference is within noise._"
		}
	}
	return h + "\n"
}

// footer names the profdiff build and links the run.
func footer(version, runURL string, notes []string) string {
	var b strings.Builder
	for _, n := range notes {
		fmt.Fprintf(&b, "\n> %s\n", sanitizeInline(n))
	}
	fmt.Fprintf(&b, "\n---\n<sub>profdiff %s", version)
	if runURL != "" {
		fmt.Fprintf(&b, " · [workflow run](%s)", runURL)
	}
	b.WriteString("</sub>\n")
	return b.String()
}

// cut keeps markdown under budget bytes (a byte is at most a character),
// cutting at a line, closing the <details> blocks the cut left open, and
// saying what was cut and where the rest is.
func cut(md string, budget int, rest string) string {
	if len(md) <= budget {
		return md
	}
	note := fmt.Sprintf("\n\n_Cut at %%d of %d bytes to stay under GitHub's limit; %s._\n", len(md), rest)
	keep := budget - len(note) - 64 - 16*strings.Count(md, "<details>")
	if keep < 0 {
		keep = 0
	}
	s := md[:keep]
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[:i+1]
	} else {
		s = ""
	}
	for open := strings.Count(s, "<details>") - strings.Count(s, "</details>"); open > 0; open-- {
		s += "\n</details>\n"
	}
	return s + fmt.Sprintf(note, len(s))
}

// appendSummary appends to $GITHUB_STEP_SUMMARY.
func appendSummary(path, md string) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f, md)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeOutputs appends step outputs to $GITHUB_OUTPUT, multi-line values
// with a delimiter that the value does not contain.
func writeOutputs(path string, out map[string]string) error {
	if path == "" {
		return nil
	}
	var b strings.Builder
	keys := make([]string, 0, len(out))
	for k := range out {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := out[k]
		if !strings.ContainsAny(v, "\r\n") {
			fmt.Fprintf(&b, "%s=%s\n", k, v)
			continue
		}
		delim := "PROFDIFF_EOF"
		for i := 0; strings.Contains(v, delim); i++ {
			delim = fmt.Sprintf("PROFDIFF_EOF_%d", i)
		}
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", k, delim, v, delim)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f, b.String())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeJSONFile writes v as indented JSON.
func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// oneLine keeps the first line of a message.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
