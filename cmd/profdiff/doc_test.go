package main

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The documentation runs as tests, as x/perf's benchstat runs its
// doc_test.go: every example command of the README and of docs/*.md (a line of a code block
// that starts with "profdiff " or "go run ./cmd/profdiff", and the commands
// of the README's tables) and of --help runs here and must exit 0, or 1
// where it has --fail-on (the documented status of a broken rule). A
// command names the user's files (profile.cpuprofile, ./dist, runs-before/);
// docSubstitutes gives each one a fixture of the same kind, and a file the
// test has no fixture for fails the test, so that a new example cannot go
// unchecked.

// repoRoot is the repository's root, from this package's folder.
var repoRoot = filepath.Join("..", "..")

// docSubstitutes maps the file and folder names the examples use to
// fixtures of the same kind, relative to the repository root; "$OUT/" names
// a file the command writes, in a temporary folder, and "$RUNS/" a folder of
// repeated runs the test makes.
var docSubstitutes = map[string]string{
	// One V8 profile; the bundled app's, so that its maps are found.
	"CPU.20260101.120000.4242.0.001.cpuprofile": "testdata/chrome-cdp-page.cpuprofile",
	"profile.cpuprofile":                        "testdata/chrome-cdp-page.cpuprofile",
	"run.cpuprofile":                            "testdata/node-router-unbundled-before.cpuprofile",
	// A bundle's folder (a script and its .map), wherever it is named.
	"./dist":    "testdata/chrome-cdp-page",
	"./build":   "testdata/chrome-cdp-page",
	"old/dist":  "testdata/chrome-cdp-page",
	"new/dist":  "testdata/chrome-cdp-page",
	"base/dist": "testdata/chrome-cdp-page",
	"head/dist": "testdata/chrome-cdp-page",
	// Other formats.
	"cpu.pprof":                  "testdata/go-router-before.pprof",
	"profile.pb.gz":              "testdata/node-pprof-before.pb.gz", // cpu and wall sample types
	"Trace-20260101T120000.json": "testdata/chrome156-multi-process.trace.json.gz",
	"trace.json":                 "testdata/chrome156-multi-process.trace.json.gz",
	// Two profiles of a change.
	"before.cpuprofile": "testdata/node-router-unbundled-before.cpuprofile",
	"after.cpuprofile":  "testdata/node-router-unbundled-after.cpuprofile",
	// Two folders of repeated runs.
	"runs-before/":  "$RUNS/before",
	"runs-after/":   "$RUNS/after",
	"before/":       "$RUNS/before",
	"after/":        "$RUNS/after",
	"before":        "$RUNS/before",
	"after":         "$RUNS/after",
	"profiles/base": "$RUNS/before",
	"profiles/head": "$RUNS/after",
	// Repeated runs as a shell's glob names them.
	"before-r*.cpuprofile": "$RUNS/before/before-r*.cpuprofile",
	"after-r*.cpuprofile":  "$RUNS/after/after-r*.cpuprofile",
	// One folder of both builds' runs, named before-r1, after-r1...
	"runs/*.cpuprofile": "testdata/cache/*.cpuprofile",
	"runs/":             "testdata/cache",
	// A base and its variants, each a folder of runs.
	"base/":        "$RUNS/before",
	"worker-pool/": "$RUNS/after",
	"full-stack/":  "$RUNS/before",
	"runs/2869/":   "$RUNS/before",
	"runs/2870/":   "$RUNS/after",
	"runs/2871/":   "$RUNS/before",
	"dist-2869":    "testdata/chrome-cdp-page",
	"dist-2870":    "testdata/chrome-cdp-page",
	"dist-2871":    "testdata/chrome-cdp-page",
	// A history store, written by the history add examples and read by
	// the history example after them.
	"perf-history": "$RUNS/history",
	// Two checkouts of a small node program (profdiff record).
	"old": "testdata/record/old",
	"new": "testdata/record/new",
}

// docOutputs are the files the examples write (-o, --json-output).
var docOutputs = []string{"ranking.json", "out.json", "report.md", "report.json", "report.html",
	"run.pb.gz", "diff.pb.gz", "run.speedscope.json", "run.folded", "diff.folded", "profdiff.pprof",
	"recording"} // profdiff record --out

func TestREADMEExamplesRun(t *testing.T) {
	var cmds []string
	for _, doc := range docFiles(t) {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		these := readmeCommands(string(b))
		// What the README shows must keep being run: its quick start
		// and its Use block; the pages of docs/ their own examples.
		if filepath.Base(doc) == "README.md" && len(these) < 10 {
			t.Fatalf("found %d example commands in the README, want at least 10: %q", len(these), these)
		}
		cmds = append(cmds, these...)
	}
	if len(cmds) < 30 {
		t.Fatalf("found %d example commands in the README and docs/, want at least 30: %q", len(cmds), cmds)
	}
	runDocCommands(t, cmds)
}

// docFiles are the README and the pages of docs/, whose examples run here.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no pages in docs/ (%v)", err)
	}
	return append([]string{filepath.Join(repoRoot, "README.md")}, docs...)
}

// TestHelpExamplesRun runs the examples of --help (compare, --source,
// --format html, record, history) and of profdiff help examples.
func TestHelpExamplesRun(t *testing.T) {
	var cmds []string
	for _, args := range [][]string{{"--help"}, {"help", "examples"}} {
		code, out, _ := runCLI(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		_, examples, ok := strings.Cut("\n"+out, "\nExamples:\n")
		if !ok {
			t.Fatalf("%v has no Examples section", args)
		}
		var these []string
		for _, c := range joinContinued(strings.Split(examples, "\n")) {
			if c = strings.TrimSpace(c); strings.HasPrefix(c, "profdiff ") {
				these = append(these, docCommand(c))
			}
		}
		if args[0] == "--help" {
			for _, want := range []string{"--source ", "--format html", "profdiff record ", "profdiff history add ", "profdiff history "} {
				if !slices.ContainsFunc(these, func(c string) bool { return strings.Contains(c, want) }) {
					t.Errorf("--help has no example of %q: %q", want, these)
				}
			}
		}
		cmds = append(cmds, these...)
	}
	if len(cmds) < 15 {
		t.Fatalf("found %d example commands in the help, want at least 15: %q", len(cmds), cmds)
	}
	runDocCommands(t, cmds)
}

// TestREADMEPointsInsideTheRepository: the README and docs/ may not send a
// reader to a file beside the repository (../shared/...), which a user
// does not have, and each page they link to exists; the README stays
// short (a newcomer's quick start, use and layout, under 450 lines), the
// rest in docs/.
func TestREADMEPointsInsideTheRepository(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)
	for _, doc := range docFiles(t) {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		if m := regexp.MustCompile(`(^|[^.])\.\./[A-Za-z0-9_./-]+`).FindString(string(b)); m != "" && !strings.Contains(m, "../README.md") {
			t.Errorf("%s points outside the repository: %s", doc, m)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			if _, err := os.Stat(filepath.Join(filepath.Dir(doc), m[1])); err != nil {
				t.Errorf("%s links to %s, which is not there", doc, m[1])
			}
		}
		if n := strings.Count(string(b), "\n"); filepath.Base(doc) == "README.md" && n >= 450 {
			t.Errorf("the README is %d lines, want under 450: move reference to docs/", n)
		}
	}
}

// readmeCommands returns the example commands of a README: the lines of its
// code blocks (fenced, or indented by four spaces) and the code spans of its
// tables that start with "profdiff " or "go run ./cmd/profdiff ", with
// continued lines joined.
func readmeCommands(md string) []string {
	var block []string
	fenced := false
	for _, l := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(l, "```"):
			fenced = !fenced
		case fenced || strings.HasPrefix(l, "    "):
			block = append(block, l)
		case strings.HasPrefix(l, "|"):
			for _, span := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(l, -1) {
				block = append(block, span[1])
			}
		}
	}
	var cmds []string
	for _, c := range joinContinued(block) {
		c = strings.TrimSpace(c)
		if strings.HasPrefix(c, "profdiff ") || strings.HasPrefix(c, "go run ./cmd/profdiff ") {
			cmds = append(cmds, docCommand(c))
		}
	}
	return cmds
}

// joinContinued joins the lines that end in a backslash with the next.
func joinContinued(lines []string) []string {
	var out []string
	cur := ""
	for _, l := range lines {
		if s, ok := strings.CutSuffix(strings.TrimRight(l, " "), `\`); ok {
			cur += s + " "
			continue
		}
		out = append(out, cur+l)
		cur = ""
	}
	return out
}

// runDocCommands runs each command in this process, its files replaced by
// fixtures, and checks its exit status.
func runDocCommands(t *testing.T, cmds []string) {
	runs := t.TempDir()
	for side, files := range map[string][]string{"before": {"before-r1.cpuprofile", "before-r2.cpuprofile"}, "after": {"after-r1.cpuprofile", "after-r2.cpuprofile"}} {
		dir := filepath.Join(runs, side)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(fixture(filepath.Join("cache", f)))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, cmd := range cmds {
		t.Run(cmd, func(t *testing.T) {
			args := docArgs(cmd, runs, t.TempDir())
			if _, err := exec.LookPath("node"); err != nil && len(args) > 0 && args[0] == "record" {
				t.Skip("profdiff record's examples run node, which is not installed")
			}
			code, out, errs := runCLI(args...)
			want := []int{exitOK}
			if slices.Contains(args, "--fail-on") {
				want = append(want, exitRule) // documented: the report is written, then 1
			}
			if !slices.Contains(want, code) {
				t.Fatalf("profdiff %q: exit %d, want %v\nstderr: %s\nstdout: %.2000s", args, code, want, errs, out)
			}
			for i, a := range args {
				if i > 0 && (args[i-1] == "-o" || args[i-1] == "--json-output") {
					if st, err := os.Stat(a); err != nil || st.Size() == 0 {
						t.Errorf("%s was not written: %v", a, err)
					}
				}
			}
		})
	}
}

// docCommand is a documented command without what follows it on its line
// (a "# comment", a shell "|| ..."), its spaces collapsed.
func docCommand(line string) string {
	line, _, _ = strings.Cut(line, " || ")
	line, _, _ = strings.Cut(line, " # ")
	return strings.Join(strings.Fields(line), " ")
}

// docArgs splits a documented command into profdiff's arguments (after
// "profdiff" or "go run ./cmd/profdiff"; shell quotes removed), replaces
// the user's files by fixtures and expands an unquoted glob as a shell
// would.
func docArgs(cmd, runs, out string) []string {
	if rest, ok := strings.CutPrefix(cmd, "go run ./cmd/profdiff "); ok {
		cmd = rest
	} else {
		cmd = strings.TrimPrefix(cmd, "profdiff ")
	}
	var args []string
	for _, w := range shellWords(cmd) {
		f := docFile(w.text, runs, out)
		if !w.quoted && !strings.HasPrefix(f, "-") && strings.ContainsAny(f, "*?[") {
			if m, _ := filepath.Glob(f); len(m) > 0 {
				args = append(args, m...)
				continue
			}
		}
		args = append(args, f)
	}
	return args
}

// docFile is the fixture for a file an example names, or the word itself.
func docFile(w, runs, out string) string {
	if slices.Contains(docOutputs, w) {
		return filepath.Join(out, w)
	}
	if from, to, ok := strings.Cut(w, "="); ok && !strings.HasPrefix(w, "-") {
		if dir, file := path.Split(to); strings.HasSuffix(file, ".map") {
			return from + "=" + filepath.Join(docFile(strings.TrimSuffix(dir, "/"), runs, out), file) // SCRIPT=MAP
		}
		return from + "=" + docFile(to, runs, out) // FROM=TO
	}
	if s, ok := docSubstitutes[w]; ok {
		if rest, ok := strings.CutPrefix(s, "$RUNS/"); ok {
			return filepath.Join(runs, rest)
		}
		return filepath.Join(repoRoot, s)
	}
	if strings.HasPrefix(w, "testdata/") {
		return filepath.Join(repoRoot, w) // the README's own fixtures, from the repository root
	}
	return w
}

// shellWord is a word of a documented command, and whether it was quoted.
type shellWord struct {
	text   string
	quoted bool
}

// shellWords splits a command line at spaces, keeping quoted words whole
// (the examples quote whole words only, and use no other shell syntax).
func shellWords(s string) []shellWord {
	var words []shellWord
	for _, w := range regexp.MustCompile(`'[^']*'|"[^"]*"|\S+`).FindAllString(s, -1) {
		if len(w) >= 2 && (w[0] == '\'' || w[0] == '"') && w[len(w)-1] == w[0] {
			words = append(words, shellWord{w[1 : len(w)-1], true})
			continue
		}
		words = append(words, shellWord{w, false})
	}
	return words
}

// TestLayoutNamesEveryFolder: the README's layout section names every
// folder at the top of the repository.
func TestLayoutNamesEveryFolder(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, layout, _ := strings.Cut(string(b), "\n## Layout\n")
	layout, _, _ = strings.Cut(layout, "\n## ")
	entries, err := os.ReadDir(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && !strings.Contains(layout, "`"+e.Name()) {
			t.Errorf("the README's layout does not name %s/", e.Name())
		}
	}
}
