package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// compare runs profdiff and writes the report directory, the job summary
// and the step outputs. Its exit status is 0 whenever profdiff ran (the
// action's last step exits with profdiff's status, after the report is
// uploaded and posted) and 2 when the inputs are wrong.
func (e environment) compare() int {
	cfg, err := e.config()
	if err != nil {
		return e.errorf("%s", oneLine(err.Error()))
	}
	if err := os.MkdirAll(cfg.dir, 0o755); err != nil {
		return e.errorf("%v", err)
	}
	c := e.runCompare(cfg)
	switch {
	case c.rep != nil && cfg.html && c.m.BaseRecord:
		c.notes = append(c.notes, "No HTML report: its flame graph needs the base's call tree, and the base is a history record, which keeps none.")
	case c.rep != nil && cfg.html:
		e.writeHTML(c)
	}
	version := e.version(cfg.bin)
	body, err := c.body()
	if err != nil {
		return e.errorf("%v", err)
	}
	head := header(c.m, c.rep, e.getenv("GITHUB_SERVER_URL"))
	// How to ask for more runs goes at the end of the report's first
	// screen, after the confirming-run sentence it acts on.
	if note := runsNote(c.rep, cfg.runs); note != "" {
		if i := strings.Index(body, "\n<details>"); i >= 0 {
			body = body[:i] + note + body[i:]
		} else {
			body += note
		}
	}
	foot := footer(version, e.runURL(), c.notes)
	fork := ""
	if c.m.ReadOnly {
		fork = "\n> This pull request comes from a fork, whose token cannot comment: the report is saved as the artifact `" + c.out["artifact-name"] + "` for a `workflow_run` workflow to post (see the action's examples/github/profdiff-comment.yml).\n"
	}
	// The job summary is the comment's text, so that what the check's
	// page shows and what the pull request shows are the same.
	comment := marker(cfg.name) + "\n" + head + fork + "\n" + cut(body, commentBudget-len(head)-len(fork)-len(foot), "the whole report is in report.md of the report artifact") + strings.Replace(foot, "</sub>", artifactPlaceholder+"</sub>", 1)
	if cfg.summary {
		if err := appendFile(e.getenv("GITHUB_STEP_SUMMARY"), comment); err != nil {
			e.warnf("job summary: %v", err)
		}
	}
	if err := writeJSONFile(filepath.Join(cfg.dir, "meta.json"), c.m); err != nil {
		return e.errorf("%v", err)
	}
	if err := os.WriteFile(filepath.Join(cfg.dir, "comment.md"), []byte(comment), 0o644); err != nil {
		return e.errorf("%v", err)
	}
	c.out["upload"] = strconv.FormatBool(c.m.ReadOnly || c.out["html"] != "" || c.out["history-html"] != "")
	switch {
	case c.m.ReadOnly:
		c.out["comment"] = "none: a fork's pull request, its token cannot comment"
		fmt.Fprintf(e.stderr, "::notice title=profdiff::%s\n", strings.TrimSpace(strings.TrimPrefix(fork, "\n> ")))
	case c.m.PR == 0:
		c.out["comment"] = "none: not a pull request"
	default:
		c.out["comment"] = c.m.Comment
	}
	if err := writeOutputs(e.getenv("GITHUB_OUTPUT"), c.out); err != nil {
		return e.errorf("%v", err)
	}
	if c.rep == nil {
		e.errorf("%s", oneLine(c.stderr))
	}
	return 0
}

// comparison is one run of compare: profdiff's status and standard error,
// its report (nil when it could not compare), the meta a later step reads,
// the step outputs and notes for the footer.
type comparison struct {
	cfg    config
	md, js string // the report's markdown and JSON files
	status int
	stderr string
	rep    *jsonReport
	m      meta
	out    map[string]string
	notes  []string
}

// runCompare runs profdiff for the markdown and JSON reports and reads
// what it wrote, with the pull request and commits the event names. The
// markdown names the commits compared (--commit, --base-commit) and, given
// the pull request's earlier comment (--previous), lists what earlier
// pushes measured.
func (e environment) runCompare(cfg config) *comparison {
	c := &comparison{cfg: cfg, md: filepath.Join(cfg.dir, "report.md"), js: filepath.Join(cfg.dir, "report.json")}
	m := e.eventMeta(cfg)
	prev := e.previousComment(cfg, m)
	// remember are --commit, --base-commit and --previous.
	remember := func(base string) []string {
		var r []string
		for _, f := range []struct{ flag, sha string }{{"--commit", m.HeadSHA}, {"--base-commit", base}} {
			if commitPattern.MatchString(f.sha) {
				r = append(r, f.flag+"="+f.sha)
			}
		}
		if prev != "" {
			r = append(r, "--previous="+prev)
		}
		return r
	}
	out := []string{"--format", "markdown", "-o", c.md, "--json-output", c.js}
	hb := e.historyBase(m)
	defer hb.cleanup()
	c.status = -1
	if hb.commit != "" {
		// The base is the history's record of the merge base.
		c.status, c.stderr = e.profdiff(cfg.bin, slices.Concat(out, remember(hb.commit), []string{"--base-store", hb.store}, cfg.storeArgs))
		if c.status == 2 {
			hb.note = "the history's record of " + hb.commit[:min(7, len(hb.commit))] + " could not be the base (" + oneLine(c.stderr) + ")"
			c.status = -1
		} else {
			m.BaseSHA, m.BaseRecord = hb.commit, true
		}
	}
	if c.status == -1 && cfg.args == nil {
		c.status, c.stderr = 2, "before: give the base profiles: "+cmp.Or(hb.note, "the history has no record of the base")
	} else if c.status == -1 {
		if hb.note != "" {
			c.notes = append(c.notes, "Compared with the base profiles: "+hb.note+".")
		}
		rem := remember(m.BaseSHA)
		args := append(slices.Clone(out), rem...)
		c.status, c.stderr = e.profdiff(cfg.bin, append(args, cfg.args...))
		if c.status == 2 && len(rem) > 0 && rejected(c.stderr, rem) {
			// A profdiff built at an older version (the version input) has
			// none of these flags; a comment it cannot read is not worth
			// failing the comparison for.
			e.warnf("profdiff rejected %s (%s); comparing without them", strings.Join(flagNames(rem), ", "), oneLine(c.stderr))
			c.status, c.stderr = e.profdiff(cfg.bin, append(slices.Clone(out), cfg.args...))
		}
	}
	m.Status = c.status
	c.out = map[string]string{"status": strconv.Itoa(c.status), "report-dir": cfg.dir, "report": c.md, "json": c.js,
		"artifact-name": "profdiff-" + cfg.name, "fork": strconv.FormatBool(m.ReadOnly)}
	if hb.store != "" {
		e.writeHistoryPage(c, hb.store)
	}
	c.readOutputs(&m)
	c.m = m
	return c
}

// eventMeta is what the event says of the comparison: the pull request,
// the commits compared (the before-commit and after-commit inputs win)
// and whether the token can write.
func (e environment) eventMeta(cfg config) meta {
	m := meta{Name: cfg.name, Comment: cfg.comment, Repository: e.getenv("GITHUB_REPOSITORY")}
	ev := e.event()
	m.PR, m.BaseSHA, m.HeadSHA, m.ReadOnly = ev.pr(), ev.baseSHA(), ev.headSHA(e.getenv("GITHUB_SHA")), ev.readOnly(e.getenv("GITHUB_EVENT_NAME"), m.Repository)
	if sha := e.input("before-commit"); sha != "" {
		m.BaseSHA = sha
	}
	if sha := e.input("after-commit"); sha != "" {
		m.HeadSHA = sha
	}
	return m
}

// readOutputs reads the JSON report of a comparison that ran, into the
// step's outputs (verdict, on-CPU change, broken rules, runs needed); one
// it cannot read makes the status 2.
func (c *comparison) readOutputs(m *meta) {
	if c.status == 0 || c.status == 1 {
		rep, err := readReport(c.js)
		if err != nil {
			c.status, c.stderr = 2, err.Error()
			c.out["status"] = "2"
			m.Status = 2
		}
		c.rep = rep
	}
	if c.rep != nil {
		m.Changed = c.rep.changed()
		c.out["verdict"], c.out["on-cpu-delta-pct"] = c.rep.verdict(), c.rep.onCPUDeltaPct()
		c.out["broken-rules"] = strings.Join(c.rep.broken(), "\n")
		c.out["changed"] = strconv.FormatBool(m.Changed)
		c.out["runs-needed"] = strconv.Itoa(c.rep.runsNeeded())
	}
}

// writeHTML runs profdiff again for the HTML report; a profdiff that cannot
// write one leaves a note in the footer instead.
func (e environment) writeHTML(c *comparison) {
	html := filepath.Join(c.cfg.dir, "report.html")
	hargs := append([]string{"--format", "html", "-o", html}, c.cfg.args...)
	if hs, herr := e.profdiff(c.cfg.bin, hargs); hs == 2 {
		os.Remove(html)
		c.notes = append(c.notes, "The HTML report could not be written ("+oneLine(herr)+"); this profdiff may not have --format html yet.")
	} else {
		c.out["html"] = html
	}
}

// body is the report to post: profdiff's markdown, or what went wrong.
func (c *comparison) body() (string, error) {
	if c.rep == nil {
		return fmt.Sprintf("**profdiff could not compare** (exit status %d):\n\n```\n%s\n```\n", c.status, strings.ReplaceAll(strings.TrimSpace(c.stderr), "```", "'''")), nil
	}
	b, err := os.ReadFile(c.md)
	return string(b), err
}

// errorf writes a GitHub error annotation and returns exit status 2.
func (e environment) errorf(format string, args ...any) int {
	fmt.Fprintf(e.stderr, "::error title=profdiff::"+format+"\n", args...)
	return 2
}

// profdiff runs the profdiff binary and returns its exit status and
// standard error (also copied to the step's log).
func (e environment) profdiff(bin string, args []string) (int, string) {
	var stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Env = e.profdiffEnv(os.Environ())
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

// profdiffEnv is the environment profdiff runs in: no secrets, and
// PROFDIFF_CONFINE set to the workspace and the runner's temporary
// folder, so that nothing a pull request commits (a profile that is a
// link, a map whose sources name /home/runner/.ssh/..., a history record
// linked out of the store) makes profdiff read a file outside them into
// a comment or page. A PROFDIFF_CONFINE the workflow sets is kept.
func (e environment) profdiffEnv(environ []string) []string {
	env := withoutSecrets(environ)
	for _, kv := range env {
		if strings.HasPrefix(kv, "PROFDIFF_CONFINE=") {
			return env
		}
	}
	return append(env, "PROFDIFF_CONFINE="+strings.Join(e.readableFolders(), string(filepath.ListSeparator)))
}

// readableFolders are the folders profdiff may read in a run: the
// workspace (or, outside GitHub, the working directory), the runner's
// temporary folder, where the Action puts base profiles, and the folders
// the workflow's before, after and sourcemaps inputs name (the part of
// each before its first wildcard). The workflow is trusted; what the code
// under test wrote inside those folders is not, and profdiff follows no
// link of it out of them.
func (e environment) readableFolders() []string {
	work := e.getenv("GITHUB_WORKSPACE")
	if work == "" {
		work, _ = os.Getwd()
	}
	tmp := e.getenv("RUNNER_TEMP")
	if tmp == "" {
		tmp = os.TempDir()
	}
	out := []string{work, tmp}
	for _, in := range []string{"before", "after", "sourcemaps-before", "sourcemaps-after"} {
		for _, l := range lines(e.input(in)) {
			if d := fixedFolder(l); d != "" && !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}

// fixedFolder is the folder a path or glob input names for certain: the
// path itself when it is a folder, else the folders before its first
// element with a wildcard, made absolute.
func fixedFolder(in string) string {
	p, err := filepath.Abs(in)
	if err != nil {
		return ""
	}
	if !strings.ContainsAny(p, "*?[") {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		return filepath.Dir(p)
	}
	// "/a/b/run-*.json" → "/a/b/run-" → "/a/b"
	return filepath.Dir(p[:strings.IndexAny(p, "*?[")])
}

// version asks profdiff which build it is, for the footer.
func (e environment) version(bin string) string {
	cmd := exec.Command(bin, "--version")
	cmd.Env = withoutSecrets(os.Environ())
	out, err := cmd.Output()
	if err != nil {
		return "(unknown version)"
	}
	v := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(out)), "profdiff "))
	return sanitizeInline(v)
}
