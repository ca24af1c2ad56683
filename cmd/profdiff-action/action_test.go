package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The tests run action.yml's steps as GitHub's runner would: each step's
// env: block evaluated (inputs, step outputs), its run: body given to bash
// with GitHub's variables and a faked event payload, actions (setup-go,
// upload-artifact) simulated. gh on PATH is this test binary, which records
// the calls and keeps the pull request's comments in a file.

func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "gh" {
		os.Exit(ghStub(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// stubState is what the stub gh knows: the pull request's comments and
// the head of each pull request.
type stubState struct {
	Comments []stubComment     `json:"comments"`
	NextID   int64             `json:"next_id"`
	Heads    map[string]string `json:"heads"`
}

type stubComment struct {
	ID   int64  `json:"id"`
	Body string `json:"body"`
}

// ghStub answers gh api calls from GH_STUB_STATE and logs them to
// GH_STUB_LOG, one JSON array of arguments a line.
func ghStub(args []string) int {
	logf, _ := os.OpenFile(os.Getenv("GH_STUB_LOG"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	b, _ := json.Marshal(args)
	fmt.Fprintf(logf, "%s\n", b)
	logf.Close()
	if os.Getenv("GH_TOKEN") == "" {
		fmt.Fprintln(os.Stderr, "gh: no GH_TOKEN")
		return 4
	}
	var st stubState
	sb, _ := os.ReadFile(os.Getenv("GH_STUB_STATE"))
	_ = json.Unmarshal(sb, &st)
	if len(args) == 0 || args[0] != "api" {
		return 1
	}
	method, input, path := "GET", "", ""
	for i := 1; i < len(args); i++ {
		switch args[i] {
		case "--paginate":
		case "--method":
			i++
			method = args[i]
		case "--input":
			i++
			input = args[i]
		default:
			path = args[i]
		}
	}
	var body struct {
		Body string `json:"body"`
	}
	if input != "" {
		ib, err := os.ReadFile(input)
		if err != nil || json.Unmarshal(ib, &body) != nil {
			fmt.Fprintln(os.Stderr, "gh: bad --input")
			return 1
		}
	}
	save := func() {
		sb, _ := json.Marshal(st)
		_ = os.WriteFile(os.Getenv("GH_STUB_STATE"), sb, 0o644)
	}
	answer := func(c stubComment) {
		json.NewEncoder(os.Stdout).Encode(map[string]any{"id": c.ID, "body": c.Body, "html_url": fmt.Sprintf("https://github.com/o/r/pull/7#issuecomment-%d", c.ID)})
	}
	switch {
	case method == "GET" && regexp.MustCompile(`^repos/o/r/issues/7/comments`).MatchString(path):
		// One page per comment, as --paginate concatenates pages.
		if len(st.Comments) == 0 {
			fmt.Println("[]")
		}
		for _, c := range st.Comments {
			b, _ := json.Marshal([]stubComment{c})
			fmt.Println(string(b))
		}
	case method == "POST" && path == "repos/o/r/issues/7/comments":
		st.NextID++
		c := stubComment{ID: 1000 + st.NextID, Body: body.Body}
		st.Comments = append(st.Comments, c)
		save()
		answer(c)
	case method == "PATCH" && strings.HasPrefix(path, "repos/o/r/issues/comments/"):
		for i, c := range st.Comments {
			if fmt.Sprint(c.ID) == strings.TrimPrefix(path, "repos/o/r/issues/comments/") {
				st.Comments[i].Body = body.Body
				save()
				answer(st.Comments[i])
				return 0
			}
		}
		fmt.Fprintln(os.Stderr, "gh: HTTP 404")
		return 1
	case method == "GET" && strings.HasPrefix(path, "repos/o/r/pulls/"):
		fmt.Printf(`{"head":{"sha":%q}}`+"\n", st.Heads[strings.TrimPrefix(path, "repos/o/r/pulls/")])
	default:
		fmt.Fprintf(os.Stderr, "gh stub: unexpected %s %s\n", method, path)
		return 1
	}
	return 0
}

// actionFile is the part of action.yml the runner reads.
type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID    string            `yaml:"id"`
			Name  string            `yaml:"name"`
			If    string            `yaml:"if"`
			Uses  string            `yaml:"uses"`
			Shell string            `yaml:"shell"`
			Run   string            `yaml:"run"`
			Env   map[string]string `yaml:"env"`
			With  map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// runner runs action.yml's steps in one job: the build step runs once
// and its outputs are reused, as later steps of a job would.
type runner struct {
	t        *testing.T
	root     string // the action's checkout (GITHUB_ACTION_PATH)
	temp     string // RUNNER_TEMP
	bin      string // PATH entry holding gh
	built    map[string]string
	state    string
	log      string
	action   actionFile
	uploaded []string // paths the upload-artifact step was given
	cwd      string   // the job's working directory (GITHUB_WORKSPACE); a new one per run when empty
	sha      string   // GITHUB_SHA; feedface… when empty
	profdiff string   // when set, the profdiff the later steps run instead of the one built
}

func newRunner(t *testing.T) *runner {
	t.Helper()
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	b, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{t: t, root: root, temp: t.TempDir(), bin: t.TempDir()}
	if err := yaml.Unmarshal(b, &r.action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if r.action.Runs.Using != "composite" {
		t.Fatalf("action.yml runs using %q, want composite", r.action.Runs.Using)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(r.bin, "gh")); err != nil {
		t.Fatal(err)
	}
	r.state, r.log = filepath.Join(r.temp, "gh-state.json"), filepath.Join(r.temp, "gh-calls.log")
	return r
}

// result is one run of the action.
type result struct {
	status  int               // the job's step status: 0 or the failing step's
	outputs map[string]string // the action's outputs
	summary string
	calls   [][]string // gh calls of this run
	stderr  string
}

var exprPattern = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// run runs the action's steps with inputs for a pull_request-like event.
func (r *runner) run(eventName string, event any, inputs map[string]string) result {
	t := r.t
	t.Helper()
	for k := range inputs {
		if _, ok := r.action.Inputs[k]; !ok {
			t.Fatalf("action.yml has no input %q", k)
		}
	}
	dir := t.TempDir()
	evPath := filepath.Join(dir, "event.json")
	eb, _ := json.Marshal(event)
	if err := os.WriteFile(evPath, eb, 0o644); err != nil {
		t.Fatal(err)
	}
	summary := filepath.Join(dir, "summary.md")
	os.Remove(r.log)
	steps := map[string]map[string]string{}
	lookup := func(expr string) string {
		switch {
		case strings.HasPrefix(expr, "inputs."):
			k := strings.TrimPrefix(expr, "inputs.")
			in, ok := r.action.Inputs[k]
			if !ok {
				t.Fatalf("unknown input %s", expr)
			}
			if v, ok := inputs[k]; ok {
				return v
			}
			if in.Default == "${{ github.token }}" {
				return "ghs_faketoken"
			}
			return in.Default
		case strings.HasPrefix(expr, "steps."):
			p := strings.Split(expr, ".")
			if len(p) != 4 || p[2] != "outputs" {
				t.Fatalf("unsupported expression %q", expr)
			}
			return steps[p[1]][p[3]]
		case expr == "github.action_path":
			return r.root
		case expr == "github.action_ref":
			return "v0-test"
		case expr == "github.token":
			return "ghs_faketoken"
		}
		t.Fatalf("unsupported expression %q", expr)
		return ""
	}
	eval := func(s string) string {
		return exprPattern.ReplaceAllStringFunc(s, func(m string) string { return lookup(exprPattern.FindStringSubmatch(m)[1]) })
	}
	// cond evaluates the if: forms action.yml uses: terms joined by ||,
	// each LHS == 'literal' or LHS != 'literal'.
	cond := func(s string) bool {
		if s == "" {
			return true
		}
		for _, term := range strings.Split(s, "||") {
			m := regexp.MustCompile(`^\s*([a-z0-9_.-]+)\s*(==|!=)\s*'([^']*)'\s*$`).FindStringSubmatch(term)
			if m == nil {
				t.Fatalf("unsupported if: %q", s)
			}
			if (lookup(m[1]) == m[3]) == (m[2] == "==") {
				return true
			}
		}
		return false
	}
	res := result{outputs: map[string]string{}}
	var stderr strings.Builder
	for _, st := range r.action.Runs.Steps {
		if !cond(st.If) {
			continue
		}
		switch {
		case strings.HasPrefix(st.Uses, "actions/setup-go@"):
			continue // Go is here
		case strings.HasPrefix(st.Uses, "actions/upload-artifact@"):
			r.uploaded = append(r.uploaded, eval(st.With["path"]))
			if eval(st.With["name"]) == "" {
				t.Errorf("upload-artifact without a name")
			}
			steps[st.ID] = map[string]string{"artifact-url": "https://github.com/o/r/actions/runs/1/artifacts/9"}
			continue
		case st.Uses != "":
			t.Fatalf("step %q uses %s, which this runner does not simulate", st.Name, st.Uses)
		}
		if strings.Contains(st.Run, "${{") {
			t.Fatalf("step %q interpolates an expression into its script; pass it through env:", st.Name)
		}
		if st.ID == "build" && r.built != nil && inputs["version"] == "" {
			steps["build"] = r.built
			if r.profdiff != "" {
				steps["build"]["profdiff"] = r.profdiff
			}
			continue
		}
		out := filepath.Join(dir, "output-"+st.ID)
		env := append(os.Environ(),
			"PATH="+r.bin+string(os.PathListSeparator)+os.Getenv("PATH"),
			"GITHUB_ACTION_PATH="+r.root, "GITHUB_OUTPUT="+out, "GITHUB_STEP_SUMMARY="+summary,
			"GITHUB_EVENT_NAME="+eventName, "GITHUB_EVENT_PATH="+evPath, "GITHUB_REPOSITORY=o/r",
			"GITHUB_SERVER_URL=https://github.com", "GITHUB_RUN_ID=1", "GITHUB_SHA="+cmp.Or(r.sha, "feedfacefeedfacefeedfacefeedfacefeedface"),
			"RUNNER_TEMP="+r.temp, "GH_STUB_STATE="+r.state, "GH_STUB_LOG="+r.log)
		for k, v := range st.Env {
			env = append(env, k+"="+eval(v))
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", st.Run)
		cmd.Dir = dir
		if r.cwd != "" {
			cmd.Dir = r.cwd
		}
		cmd.Env = env
		var so, se strings.Builder
		cmd.Stdout, cmd.Stderr = &so, &se
		err := cmd.Run()
		stderr.WriteString(se.String())
		steps[st.ID] = readOutputs(t, out)
		if st.ID == "build" {
			if err != nil && inputs["version"] == "" {
				t.Fatalf("build step: %v\n%s", err, se.String())
			}
			if inputs["version"] == "" {
				r.built = steps["build"]
			}
			if r.profdiff != "" {
				steps["build"]["profdiff"] = r.profdiff
			}
		}
		if err != nil {
			res.status = cmd.ProcessState.ExitCode()
			break
		}
	}
	for k, o := range r.action.Outputs {
		res.outputs[k] = eval(o.Value)
	}
	sb, _ := os.ReadFile(summary)
	res.summary = string(sb)
	res.stderr = stderr.String()
	if lb, err := os.ReadFile(r.log); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(lb)), "\n") {
			var c []string
			_ = json.Unmarshal([]byte(l), &c)
			res.calls = append(res.calls, c)
		}
	}
	return res
}

// readOutputs parses a $GITHUB_OUTPUT file, with NAME<<DELIM values.
func readOutputs(t *testing.T, path string) map[string]string {
	out := map[string]string{}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if k, delim, ok := strings.Cut(l, "<<"); ok && !strings.Contains(k, "=") {
			var v []string
			for sc.Scan() && sc.Text() != delim {
				v = append(v, sc.Text())
			}
			out[k] = strings.Join(v, "\n")
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			t.Errorf("malformed output line %q", l)
		}
		out[k] = v
	}
	return out
}

// comments returns the stub's comments.
func (r *runner) comments() []stubComment {
	var st stubState
	b, _ := os.ReadFile(r.state)
	_ = json.Unmarshal(b, &st)
	return st.Comments
}

// methods lists the methods of the run's gh api calls.
func (res result) methods() []string {
	var m []string
	for _, c := range res.calls {
		method := "GET"
		if i := slices.Index(c, "--method"); i >= 0 {
			method = c[i+1]
		}
		m = append(m, method)
	}
	return m
}

func fixture(name string) string {
	p, _ := filepath.Abs(filepath.Join("..", "..", "testdata", name))
	return p
}

// prEvent is a pull_request payload, from the repository o/r or a fork.
func prEvent(headRepo string) map[string]any {
	return map[string]any{"pull_request": map[string]any{
		"number": 7,
		"base":   map[string]any{"sha": "1111111111111111111111111111111111111111", "repo": map[string]any{"full_name": "o/r"}},
		"head":   map[string]any{"sha": "2222222222222222222222222222222222222222", "repo": map[string]any{"full_name": headRepo}},
	}}
}

func TestActionSameRepoThenFork(t *testing.T) {
	if testing.Short() {
		t.Skip("builds profdiff")
	}
	r := newRunner(t)
	ab := map[string]string{
		"before": fixture("node-router-unbundled-before.cpuprofile"),
		"after":  fixture("node-router-unbundled-after.cpuprofile"),
	}

	// 1. A pull request from the same repository: one comment, created.
	// Two listings: compare reads the earlier comment for --previous (none
	// yet), and post looks for it again before creating one, since another
	// run may have posted in between.
	res := r.run("pull_request", prEvent("o/r"), ab)
	if res.status != 0 {
		t.Fatalf("first run: status %d\n%s", res.status, res.stderr)
	}
	if got := res.methods(); !slices.Equal(got, []string{"GET", "GET", "POST"}) {
		t.Errorf("first run: gh calls %v, want two listings (compare's, post's) then one POST", res.calls)
	}
	cs := r.comments()
	if len(cs) != 1 || !strings.HasPrefix(cs[0].Body, "<!-- profdiff: default -->\n") {
		t.Fatalf("first run: comments %+v", cs)
	}
	body := cs[0].Body
	for _, want := range []string{"`1111111`", "`2222222`", "(base, 1 run)", "(head, 1 run)", "### profdiff", "<sub>profdiff ", "path-to-regexp"} {
		if !strings.Contains(body, want) {
			t.Errorf("comment lacks %q:\n%.600s", want, body)
		}
	}
	if !regexp.MustCompile(`<sub>profdiff [^<]*[0-9a-f]{7}`).MatchString(body) && !strings.Contains(body, "<sub>profdiff v") {
		t.Errorf("the footer does not name profdiff's version: %q", body[strings.LastIndex(body, "<sub>"):])
	}
	if len(body) >= commentLimit {
		t.Errorf("comment of %d bytes", len(body))
	}
	if !strings.Contains(res.summary, "### profdiff") || strings.Count(res.summary, "### profdiff") != 1 {
		t.Errorf("the job summary lacks the report:\n%.300s", res.summary)
	}
	if res.summary != body {
		t.Errorf("the job summary is not the comment's text:\nsummary %d bytes, comment %d bytes", len(res.summary), len(body))
	}
	if res.outputs["verdict"] == "" || res.outputs["on-cpu-delta-pct"] == "" || res.outputs["status"] != "0" || res.outputs["broken-rules"] != "" {
		t.Errorf("outputs %v", res.outputs)
	}
	if st, err := os.Stat(res.outputs["report"]); err != nil || st.Size() == 0 {
		t.Errorf("report %q: %v", res.outputs["report"], err)
	}
	if res.outputs["comment-url"] == "" {
		t.Errorf("no comment-url output: %v", res.outputs)
	}
	if len(r.uploaded) != 0 {
		t.Errorf("uploaded %v without html or a fork", r.uploaded)
	}

	// 2. A second push: the same comment is edited, no second one; a broken
	// rule fails the action after posting, with exit status 1.
	in := map[string]string{"fail-on": "on-cpu>+50%\npackage:path-to-regexp<+10%", "html": "true"}
	for k, v := range ab {
		in[k] = v
	}
	res = r.run("pull_request", prEvent("o/r"), in)
	if res.status != 1 {
		t.Errorf("a broken rule: status %d, want 1\n%s", res.status, res.stderr)
	}
	if got := res.methods(); !slices.Equal(got, []string{"GET", "GET", "PATCH"}) {
		t.Errorf("second run: gh calls %v, want two listings (compare's, post's) then one PATCH", res.calls)
	}
	cs = r.comments()
	if len(cs) != 1 || cs[0].Body == body || !strings.Contains(cs[0].Body, "rule(s) broken") {
		t.Errorf("second run: %d comments, first %.300q", len(cs), cs[0].Body)
	}
	if res.outputs["broken-rules"] != "package:path-to-regexp<+10%" || res.outputs["status"] != "1" {
		t.Errorf("outputs %v", res.outputs)
	}
	// html: profdiff has --format html, so the HTML page is written into
	// the report directory, uploaded with it and linked from the comment.
	html := res.outputs["html"]
	if page, err := os.ReadFile(html); html == "" || err != nil || !strings.Contains(strings.ToLower(string(page[:min(len(page), 200)])), "<!doctype html") {
		t.Errorf("html: output %q, %v, comment %q", html, err, cs[0].Body[strings.LastIndex(cs[0].Body, "<sub>"):])
	} else if filepath.Dir(html) != res.outputs["report-dir"] || !slices.Contains(r.uploaded, res.outputs["report-dir"]) || !strings.Contains(cs[0].Body, "[report artifact](https://") {
		t.Errorf("html: uploaded %v, comment footer %q", r.uploaded, cs[0].Body[strings.LastIndex(cs[0].Body, "<sub>"):])
	}

	// 3. on-change with an A/A pair, under another name: nothing created.
	aa := map[string]string{"before": ab["before"], "after": ab["before"], "comment": "on-change", "name": "aa"}
	res = r.run("pull_request", prEvent("o/r"), aa)
	if res.status != 0 || slices.Contains(res.methods(), "POST") || slices.Contains(res.methods(), "PATCH") {
		t.Errorf("on-change A/A: status %d, gh calls %v\n%s", res.status, res.calls, res.stderr)
	}
	if len(r.comments()) != 1 || res.outputs["verdict"] != "~" {
		t.Errorf("on-change A/A: comments %d, verdict %q", len(r.comments()), res.outputs["verdict"])
	}

	// 4. A fork: nothing posted, no failure, the report left as an
	// artifact, the summary says why. Its read-only token still reads the
	// comments, once, for the earlier results.
	res = r.run("pull_request", prEvent("someone/r"), ab)
	if res.status != 0 || !slices.Equal(res.methods(), []string{"GET"}) {
		t.Errorf("fork: status %d, gh calls %v\n%s", res.status, res.calls, res.stderr)
	}
	dir := res.outputs["report-dir"]
	if !slices.Contains(r.uploaded, dir) {
		t.Errorf("fork: uploaded %v, want the report directory %q", r.uploaded, dir)
	}
	for _, f := range []string{"comment.md", "meta.json", "report.md", "report.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("fork: %v", err)
		}
	}
	if !strings.Contains(res.summary, "fork") || !strings.Contains(res.summary, "### profdiff") {
		t.Errorf("fork: summary %.400s", res.summary)
	}

	// 5. The workflow_run workflow posts the fork's report, on its own pull
	// request only.
	post := map[string]string{"post-report": dir}
	wr := map[string]any{"workflow_run": map[string]any{"id": 1, "event": "pull_request", "head_sha": "2222222222222222222222222222222222222222"}}
	os.WriteFile(r.state, []byte(`{"heads":{"7":"3333333333333333333333333333333333333333"}}`), 0o644)
	res = r.run("workflow_run", wr, post)
	if res.status != 0 || len(r.comments()) != 0 {
		t.Errorf("workflow_run for another head: status %d, comments %v, calls %v", res.status, r.comments(), res.calls)
	}
	os.WriteFile(r.state, []byte(`{"heads":{"7":"2222222222222222222222222222222222222222"}}`), 0o644)
	res = r.run("workflow_run", wr, post)
	if cs := r.comments(); res.status != 0 || len(cs) != 1 || !strings.HasPrefix(cs[0].Body, "<!-- profdiff: default -->") {
		t.Errorf("workflow_run: status %d, comments %v, calls %v\n%s", res.status, cs, res.calls, res.stderr)
	}
}

// TestActionInputsRunNothing: inputs holding command substitutions and
// backticks reach profdiff as text, and no shell runs them.
func TestActionInputsRunNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds profdiff")
	}
	r := newRunner(t)
	pwned := filepath.Join(t.TempDir(), "pwned")
	evil := "$(touch " + pwned + ")"
	tick := "`touch " + pwned + "`"
	for i, in := range []map[string]string{
		{"before": evil, "after": tick},
		{"before": fixture("node-router-unbundled-before.cpuprofile"), "after": fixture("node-router-unbundled-after.cpuprofile"),
			"args": evil + " " + tick, "fail-on": evil + "\n" + tick, "work-unit": tick, "sourcemaps-before": evil},
		{"before": fixture("node-router-unbundled-before.cpuprofile"), "after": fixture("node-router-unbundled-after.cpuprofile"), "name": evil},
		{"before": fixture("node-router-unbundled-before.cpuprofile"), "after": fixture("node-router-unbundled-after.cpuprofile"), "version": tick},
		{"post-report": evil, "name": tick},
	} {
		res := r.run("pull_request", prEvent("o/r"), in)
		if _, err := os.Stat(pwned); err == nil {
			t.Fatalf("case %d: an input ran a command", i)
		}
		t.Logf("case %d: status %d", i, res.status)
	}
}

// TestCut keeps a long report under GitHub's comment limit with the
// <details> it cut through closed.
func TestCut(t *testing.T) {
	md := "### profdiff\n\n<details><summary>all</summary>\n\n" + strings.Repeat("| a | b |\n", 20000) + "</details>\n"
	got := cut(md, commentBudget, "the rest is elsewhere")
	if len(got) > commentBudget || !strings.HasSuffix(strings.TrimSpace(got), "the rest is elsewhere._") || strings.Count(got, "<details>") != strings.Count(got, "</details>") {
		t.Errorf("cut: %d bytes, ends %q", len(got), got[len(got)-200:])
	}
	if cut("short", 100, "x") != "short" {
		t.Error("cut a short report")
	}
}

func TestSplitArgs(t *testing.T) {
	got, err := splitArgs(`--alpha 0.01  --by 'file' "--min-delta" "1 pp" $(x) ` + "`y`")
	want := []string{"--alpha", "0.01", "--by", "file", "--min-delta", "1 pp", "$(x)", "`y`"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("splitArgs: %q %v", got, err)
	}
	if _, err := splitArgs(`'open`); err == nil {
		t.Error("an unclosed quote passed")
	}
	if got, err := splitArgs("  \n "); err != nil || len(got) != 0 {
		t.Errorf("an empty args input: %q %v, want no arguments", got, err)
	}
}

// prEventAt is a same-repository pull_request payload whose head is sha.
func prEventAt(sha string) map[string]any {
	ev := prEvent("o/r")
	ev["pull_request"].(map[string]any)["head"].(map[string]any)["sha"] = sha
	return ev
}

// TestActionCommentRemembersPushes: each run reads the pull request's
// earlier comment and gives it to profdiff as --previous, so the edited
// comment lists the earlier pushes, at most 10; a comment that cannot be
// read or understood is a warning, and the comparison goes on.
func TestActionCommentRemembersPushes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds profdiff")
	}
	r := newRunner(t)
	ab := map[string]string{
		"before": fixture("node-router-unbundled-before.cpuprofile"),
		"after":  fixture("node-router-unbundled-after.cpuprofile"),
	}
	first, second := "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	body := func() string {
		t.Helper()
		cs := r.comments()
		if len(cs) != 1 {
			t.Fatalf("%d comments, want one", len(cs))
		}
		return cs[0].Body
	}

	res := r.run("pull_request", prEventAt(first), ab)
	b := body()
	if res.status != 0 || strings.Contains(b, "Previous results") || !strings.Contains(b, "<!-- profdiff-results ") {
		t.Fatalf("first run: status %d, comment %.800s\n%s", res.status, b, res.stderr)
	}
	if !strings.Contains(b, "against base 1111111111111111111111111111111111111111") || !strings.Contains(b, "_Commit "+first) {
		t.Errorf("first run: the markdown does not name the commits (--commit, --base-commit): %.800s", b)
	}

	res = r.run("pull_request", prEventAt(second), ab)
	b = body()
	prev := b[max(0, strings.Index(b, "Previous results")):]
	if res.status != 0 || !strings.Contains(b, "Previous results (1)") || !strings.Contains(prev, first) {
		t.Fatalf("second run: status %d, comment %.1500s\n%s", res.status, b, res.stderr)
	}

	// A comment holding 11 results (10 older pushes and the last one):
	// the next keeps the newest 10 earlier ones, newest first.
	var results []string
	for i := 11; i >= 1; i-- {
		results = append(results, fmt.Sprintf(`{"commit":"c%039d","base":"1111111","date":"2026-11-%02dT08:00:00Z","per":"run","before_ns":1e9,"after_ns":9e8,"delta_pct":-10,"verdict":"better"}`, i, i))
	}
	seeded := "<!-- profdiff: default -->\nearlier\n<!-- profdiff-results {\"version\":1,\"results\":[" + strings.Join(results, ",") + "]} -->\n"
	setBody := func(s string) {
		st := stubState{Comments: []stubComment{{ID: r.comments()[0].ID, Body: s}}, NextID: 1}
		sb, _ := json.Marshal(st)
		os.WriteFile(r.state, sb, 0o644)
	}
	setBody(seeded)
	res = r.run("pull_request", prEventAt("cccccccccccccccccccccccccccccccccccccccc"), ab)
	b = body()
	if res.status != 0 || !strings.Contains(b, "Previous results (10)") || !strings.Contains(b, fmt.Sprintf("c%039d", 11)) || strings.Contains(b, fmt.Sprintf("c%039d", 1)) {
		t.Errorf("third run: status %d, comment %.3000s\n%s", res.status, b, res.stderr)
	}
	if strings.Index(b, fmt.Sprintf("c%039d", 11)) > strings.Index(b, fmt.Sprintf("c%039d", 10)) {
		t.Errorf("third run: the earlier results are not newest first")
	}

	// A block this profdiff cannot read, and a token that cannot list the
	// comments: warnings, and the comparison is posted without them.
	setBody("<!-- profdiff: default -->\n<!-- profdiff-results {\"version\":99,\"results\":[]} -->\n")
	res = r.run("pull_request", prEventAt(first), ab)
	if b = body(); res.status != 0 || !strings.Contains(res.stderr, "::warning") || strings.Contains(b, "Previous results") || !strings.Contains(b, "### profdiff") {
		t.Errorf("unreadable block: status %d, comment %.600s\n%s", res.status, b, res.stderr)
	}
	in := map[string]string{"token": ""}
	for k, v := range ab {
		in[k] = v
	}
	res = r.run("pull_request", prEventAt(second), in)
	if res.status != 0 || res.outputs["status"] != "0" || !strings.Contains(res.stderr, "::warning title=profdiff::no token to read the earlier comment") {
		t.Errorf("no token: status %d, outputs %v\n%s", res.status, res.outputs, res.stderr)
	}
}

// TestProfdiffGetsNoToken: profdiff, which parses a pull request's
// profiles, runs without the tokens the action's steps hold.
func TestProfdiffGetsNoToken(t *testing.T) {
	got := withoutSecrets([]string{"PATH=/bin", "GH_TOKEN=x", "GITHUB_TOKEN=y", "INPUT_TOKEN=z", "ACTIONS_ID_TOKEN_REQUEST_TOKEN=w", "HOME=/h"})
	if !slices.Equal(got, []string{"PATH=/bin", "HOME=/h"}) {
		t.Errorf("withoutSecrets: %v", got)
	}
}

// gitT runs git in dir for a test and returns its trimmed output.
func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// fakeHistoryProfdiff writes a profdiff that runs the real one (built into
// RUNNER_TEMP by the build step) except for history add, which writes a
// record file STORE/<date>-<sha>.json holding its arguments and the tokens
// it saw (none, it should see). With FAKE_RACE_ORIGIN set, its first history add also
// pushes another commit to the history branch of that origin first, as a
// concurrent run would, so that the action's first push is rejected.
func fakeHistoryProfdiff(t *testing.T, r *runner) string {
	fake := filepath.Join(t.TempDir(), "profdiff")
	script := `#!/usr/bin/env bash
set -eu
if [ "${1:-}" != history ]; then exec "` + filepath.Join(r.temp, "profdiff-bin", "profdiff") + `" "$@"; fi
[ "$2" = add ] || exit 2
store= commit= date=2026-01-01T00:00:00Z
for a in "$@"; do
  case "$a" in
    --store=*) store=${a#--store=} ;;
    --commit=*) commit=${a#--commit=} ;;
    --date=*) date=${a#--date=} ;;
  esac
done
if [ -n "${FAKE_RACE_ORIGIN:-}" ] && [ ! -e "$FAKE_RACE_ORIGIN.raced" ]; then
  touch "$FAKE_RACE_ORIGIN.raced"
  racer=$(mktemp -d)
  git clone -q --branch "$FAKE_RACE_BRANCH" "$FAKE_RACE_ORIGIN" "$racer/c"
  echo other > "$racer/c/racer.txt"
  git -C "$racer/c" add racer.txt
  git -C "$racer/c" -c user.name=racer -c user.email=r@example.com commit -qm "another run's record"
  git -C "$racer/c" push -q origin "HEAD:$FAKE_RACE_BRANCH"
fi
mkdir -p "$store"
{ printf '%s\n' "$@"; echo "token=${GH_TOKEN:-}${GITHUB_TOKEN:-}"; } > "$store/$(date -u -d "$date" +%Y%m%dT%H%M%SZ)-$commit.json"
`
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return fake
}

// pushEvent is a push payload for sha on branch of o/r, whose default
// branch is main.
func pushEvent(branch, sha, date, message string) map[string]any {
	return map[string]any{"ref": "refs/heads/" + branch, "after": sha,
		"repository":  map[string]any{"default_branch": "main", "full_name": "o/r"},
		"head_commit": map[string]any{"id": sha, "timestamp": date, "message": message}}
}

// TestActionKeepsHistory: with history-branch, a push to the default
// branch commits the head's record, and only it, to that branch of
// origin (a local bare repository here), made as an orphan branch first;
// a pull request or a push elsewhere records nothing; a second push adds a
// second record on top, leaving the first as it was, even when another
// run's push came first; the job's checkout is left as it was.
func TestActionKeepsHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds profdiff")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Setenv("GITHUB_TOKEN", "ghs_jobtoken") // as a workflow may set for its steps
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
	r.profdiff = fakeHistoryProfdiff(t, r)

	const branch, dir = "profdiff-data", "perf/history"
	in := map[string]string{
		"before":           fixture("node-router-unbundled-before.cpuprofile"),
		"after":            fixture("node-router-unbundled-after.cpuprofile"),
		"sourcemaps-after": t.TempDir(),
		"work":             "100",
		"history-branch":   branch,
		"history-dir":      dir,
	}
	tip := func() string {
		out, _ := exec.Command("git", "-C", origin, "rev-parse", "--verify", "-q", "refs/heads/"+branch).Output()
		return strings.TrimSpace(string(out))
	}

	// A pull request and a push to another branch: nothing recorded.
	res := r.run("pull_request", prEvent("o/r"), in)
	res2 := r.run("push", pushEvent("feature", "feedfacefeedfacefeedfacefeedfacefeedface", "2026-12-04T10:00:00+01:00", "wip"), in)
	if res.status != 0 || res2.status != 0 || tip() != "" {
		t.Fatalf("a pull request or another branch recorded: status %d, %d, branch at %q\n%s%s", res.status, res2.status, tip(), res.stderr, res2.stderr)
	}

	// The first push to main: one orphan commit by the bot, holding only
	// the record.
	first := "feedfacefeedfacefeedfacefeedfacefeedface"
	r.sha = first
	res = r.run("push", pushEvent("main", first, "2026-12-04T10:00:00+01:00", "router: cache compiled routes\n\nThe body."), in)
	if res.status != 0 || tip() == "" {
		t.Fatalf("first push: status %d, branch at %q\n%s", res.status, tip(), res.stderr)
	}
	rec1 := dir + "/20261204T090000Z-" + first + ".json"
	if got := gitT(t, origin, "log", "--format=%P|%an|%ae", branch); got != "|github-actions[bot]|41898282+github-actions[bot]@users.noreply.github.com" {
		t.Errorf("first push: the branch's log %q, want one parentless commit by the bot", got)
	}
	if got := gitT(t, origin, "ls-tree", "-r", "--name-only", branch); got != rec1 {
		t.Errorf("first push: the branch holds %q, want only %s", got, rec1)
	}
	content := gitT(t, origin, "show", branch+":"+rec1)
	for _, want := range []string{"--commit=" + first, "--date=2026-12-04T10:00:00+01:00", "--branch=main", "--message=router: cache compiled routes",
		"--work=100", "--sourcemaps=" + in["sourcemaps-after"], "--\n" + in["after"] + "\ntoken="} {
		if !strings.Contains(content, want) {
			t.Errorf("first push: profdiff history add was not given %q:\n%s", want, content)
		}
	}
	if !strings.HasSuffix(content, "\ntoken=") || strings.Contains(content, "The body.") || strings.Contains(content, in["before"]) {
		t.Errorf("first push: profdiff history add was given a token, or more than the head's first line and profiles:\n%s", content)
	}
	blob1 := gitT(t, origin, "rev-parse", branch+":"+rec1)

	// The second push, with another run's push to the branch just before
	// this one's: a second record on top of both, the first untouched.
	t.Setenv("FAKE_RACE_ORIGIN", origin)
	t.Setenv("FAKE_RACE_BRANCH", branch)
	second := "deadbeefdeadbeefdeadbeefdeadbeefdeadbeef"
	r.sha = second
	res = r.run("push", pushEvent("main", second, "2026-12-05T08:30:00Z", "router: faster matching"), in)
	if res.status != 0 {
		t.Fatalf("second push: status %d\n%s", res.status, res.stderr)
	}
	if _, err := os.Stat(origin + ".raced"); err != nil {
		t.Fatalf("the concurrent push did not happen: %v", err)
	}
	rec2 := dir + "/20261205T083000Z-" + second + ".json"
	if got := strings.Fields(gitT(t, origin, "ls-tree", "-r", "--name-only", branch)); !slices.Equal(got, []string{rec1, rec2, "racer.txt"}) {
		t.Errorf("second push: the branch holds %q", got)
	}
	if got := gitT(t, origin, "log", "--format=%s", branch); got != "profdiff history: record "+second+"\nanother run's record\nprofdiff history: record "+first {
		t.Errorf("second push: the branch's log\n%s", got)
	}
	if got := gitT(t, origin, "diff", "--name-status", branch+"~1", branch); got != "A\t"+rec2 {
		t.Errorf("second push: its commit changed %q, want only its record added", got)
	}
	if got := gitT(t, origin, "rev-parse", branch+":"+rec1); got != blob1 {
		t.Errorf("second push: the first record changed")
	}
	if !strings.Contains(res.stderr, "retrying") {
		t.Errorf("second push: no retry after the rejected push:\n%s", res.stderr)
	}

	// The job's checkout is as it was: same head, clean, no worktree or
	// branch left behind.
	if got := gitT(t, job, "rev-parse", "HEAD"); got != jobHead {
		t.Errorf("the job's HEAD moved to %s", got)
	}
	if got := gitT(t, job, "status", "--porcelain"); got != "" {
		t.Errorf("the job's checkout is not clean:\n%s", got)
	}
	if got := gitT(t, job, "worktree", "list"); strings.Count(got, "\n") != 0 {
		t.Errorf("worktrees left:\n%s", got)
	}
	if got := gitT(t, job, "branch", "--format=%(refname:short)"); got != "main" {
		t.Errorf("local branches %q", got)
	}
}

// TestHistoryRefusesBadPlaces: the records never go to the default branch
// itself nor outside the history branch's checkout.
func TestHistoryRefusesBadPlaces(t *testing.T) {
	ev := filepath.Join(t.TempDir(), "event.json")
	b, _ := json.Marshal(pushEvent("main", "feedfacefeedfacefeedfacefeedfacefeedface", "2026-12-04T10:00:00Z", "m"))
	os.WriteFile(ev, b, 0o644)
	for _, c := range []struct{ branch, dir, want string }{
		{"main", "", "is the default branch"},
		{"data", "../x", "history-dir"},
		{"data", "/tmp/x", "history-dir"},
		{"data", ".git/x", "history-dir"},
		{"-data", "", "history-branch"},
		{"a..b", "", "history-branch"},
	} {
		vars := map[string]string{"INPUT_HISTORY_BRANCH": c.branch, "INPUT_HISTORY_DIR": c.dir, "COMPARE_STATUS": "0",
			"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": ev, "GITHUB_SHA": "feedfacefeedfacefeedfacefeedfacefeedface"}
		var stderr strings.Builder
		status := run([]string{"history"}, func(k string) string { return vars[k] }, io.Discard, &stderr)
		if status != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("history-branch %q, history-dir %q: status %d, %q", c.branch, c.dir, status, stderr.String())
		}
	}
}

// TestFixedFolder: the folder the Action grants profdiff for an input is
// the part of it before its first wildcard, never a glob's match.
func TestFixedFolder(t *testing.T) {
	dir := t.TempDir()
	for in, want := range map[string]string{
		dir:                                dir,
		filepath.Join(dir, "a.cpuprofile"): dir,
		filepath.Join(dir, "runs", "run-*.cpuprofile"): filepath.Join(dir, "runs"),
		filepath.Join(dir, "b*", "x", "*.json"):        dir,
		filepath.Join(dir, "[ab]"):                     dir,
	} {
		if got := fixedFolder(in); got != want {
			t.Errorf("fixedFolder(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestActionReadsNoFileOutsideTheWorkspace: a pull request's code can
// leave, where the workflow collects profiles, a link to any file of the
// runner; one of "name count" lines would read as folded stacks and
// print its words into the comment. Under the Action, profdiff refuses
// it (PROFDIFF_CONFINE), the job fails, and no comment, summary or log
// holds the file's content. Negative control: without profdiffEnv's
// PROFDIFF_CONFINE the run succeeds and the comment names the secret.
func TestActionReadsNoFileOutsideTheWorkspace(t *testing.T) {
	if testing.Short() {
		t.Skip("builds profdiff")
	}
	r := newRunner(t)
	ws := t.TempDir()
	r.cwd = ws
	secret := filepath.Join(t.TempDir(), "credentials")
	if err := os.WriteFile(secret, []byte("secret_token_4242 100000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(ws, "after.folded")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(ws, "before.folded"), []byte("main;work 100000\n"), 0o644)
	res := r.run("pull_request", prEvent("o/r"), map[string]string{
		"before": filepath.Join(ws, "before.folded"),
		"after":  filepath.Join(ws, "after.folded"),
	})
	if res.status == 0 {
		t.Errorf("a profile linked out of the workspace was read: status 0")
	}
	all := res.stderr + res.summary
	for _, c := range r.comments() {
		all += c.Body
	}
	if strings.Contains(all, "secret_token") {
		t.Errorf("the secret reached the job's output:\n%s", all)
	}
	if !strings.Contains(res.stderr, "outside the folders profdiff may read") {
		t.Errorf("the refusal is not said:\n%s", res.stderr)
	}
}

// TestActionAsksForRuns: one run a side cannot settle the router pair's
// -26% headline (about 2 runs a side would); with the runs input at 1 the
// comment says to raise it to 2, the runs-needed output is 2, and a
// runs input that is no number fails the step.
func TestActionAsksForRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds profdiff")
	}
	r := newRunner(t)
	ab := map[string]string{
		"before": fixture("node-router-unbundled-before.cpuprofile"),
		"after":  fixture("node-router-unbundled-after.cpuprofile"),
		"runs":   "1",
	}
	res := r.run("pull_request", prEvent("o/r"), ab)
	if res.status != 0 {
		t.Fatalf("status %d\n%s", res.status, res.stderr)
	}
	cs := r.comments()
	if len(cs) != 1 {
		t.Fatalf("comments %+v", cs)
	}
	for _, want := range []string{"about 2 runs a side would settle it", "set this step's `runs` input to 2 (now 1)"} {
		if !strings.Contains(cs[0].Body, want) {
			t.Errorf("comment lacks %q:\n%.1500s", want, cs[0].Body)
		}
	}
	if res.outputs["runs-needed"] != "2" {
		t.Errorf("runs-needed output %q", res.outputs["runs-needed"])
	}
	ab["runs"] = "five"
	if res := r.run("pull_request", prEvent("o/r"), ab); res.status != 2 || !strings.Contains(res.stderr, "runs \"five\"") {
		t.Errorf("runs five: status %d: %s", res.status, res.stderr)
	}
}
