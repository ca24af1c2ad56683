package main

import (
	"github.com/profdiff/profdiff/internal/confine"
	"github.com/profdiff/profdiff/side"

	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The router pair, the after side run from another checkout: its scripts
// are below /srv/checkouts/pr-4242/ instead of /srv/node-workload/.
var (
	routerBefore = fixture("node-router-unbundled-before.cpuprofile")
	routerAfter  = fixture("node-router-unbundled-after.cpuprofile")
	routerMoved  = fixture("checkouts/node-router-after-pr-4242.cpuprofile.gz")
)

const matchedLine = "matched node-workload/ ↔ checkouts/pr-4242/ (locations are relative to /srv/node-workload/deploy/src/ and /srv/checkouts/pr-4242/deploy/src/)"

// jsonSides reads the sides' roots and the packages' names and times
// from a JSON report.
type jsonSides struct {
	Sides []struct {
		Name string `json:"name"`
		Root string `json:"root"`
	} `json:"sides"`
	Packages []struct {
		Package string `json:"package"`
		Self    struct {
			Ns []float64 `json:"ns"`
		} `json:"self"`
	} `json:"packages"`
	Functions []struct {
		File  string `json:"file"`
		Total struct {
			Verdict string `json:"verdict"`
		} `json:"total"`
	} `json:"functions"`
}

func readJSON(t *testing.T, args ...string) jsonSides {
	t.Helper()
	code, out, errs := runCLI(append([]string{"--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var doc jsonSides
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// verdicts counts the function rows by their verdict on total time.
func (d jsonSides) verdicts() map[string]int {
	n := map[string]int{}
	for _, f := range d.Functions {
		n[f.Total.Verdict]++
	}
	return n
}

func TestTwoCheckoutsAreMatched(t *testing.T) {
	code, out, errs := runCLI(routerBefore, routerMoved)
	if code != 0 || !strings.Contains(out, "\n"+matchedLine+"\n") {
		t.Fatalf("exit %d, no %q in:\n%.600s\n%s", code, matchedLine, out, errs)
	}
	onePath, matched := readJSON(t, routerBefore, routerAfter), readJSON(t, routerBefore, routerMoved)
	unmatched := readJSON(t, "--no-root-match", routerBefore, routerMoved)
	if matched.Sides[0].Root != "/srv/node-workload/" || matched.Sides[1].Root != "/srv/checkouts/pr-4242/" || onePath.Sides[1].Root != "" || unmatched.Sides[1].Root != "" {
		t.Errorf("roots: matched %+v, one path %+v, unmatched %+v", matched.Sides, onePath.Sides, unmatched.Sides)
	}
	// Matched, the functions are those of the one-path comparison (1,023,
	// 2 better, and the after build's one new function, the bucketed
	// router's #scan); unmatched, the program's own are new and gone.
	if a, b := onePath.verdicts(), matched.verdicts(); len(onePath.Functions) != len(matched.Functions) || a["better"] != b["better"] || a["new"] != b["new"] || b["new"] > 1 || b["gone"] != 0 {
		t.Errorf("matched: %d functions %v, one path: %d functions %v", len(matched.Functions), b, len(onePath.Functions), a)
	}
	if v := unmatched.verdicts(); v["new"] < 20 || v["gone"] < 20 {
		t.Errorf("unmatched: %v, want the program's own functions new and gone", v)
	}
	// Package attribution is the one of the full paths: same names, same
	// times.
	if len(matched.Packages) != len(onePath.Packages) {
		t.Fatalf("%d packages matched, %d at one path", len(matched.Packages), len(onePath.Packages))
	}
	for i, p := range matched.Packages {
		if q := onePath.Packages[i]; p.Package != q.Package || p.Self.Ns[0] != q.Self.Ns[0] || p.Self.Ns[1] != q.Self.Ns[1] {
			t.Errorf("package %d: %+v matched, %+v at one path", i, p, q)
		}
	}
	for _, f := range matched.Functions {
		if strings.HasPrefix(f.File, "/srv/") {
			t.Errorf("a file keeps its checkout's path: %s", f.File)
		}
	}
	// A pair at one path is left as it is: no header line, paths kept.
	if _, out, _ := runCLI(routerBefore, routerAfter); strings.Contains(out, "matched ") {
		t.Errorf("one path says it matched:\n%.600s", out)
	}
}

func TestUnrelatedProgramsAreNotMatched(t *testing.T) {
	doc := readJSON(t, routerBefore, fixture("cache/before-r1.cpuprofile"))
	if doc.Sides[0].Root != "" || doc.Sides[1].Root != "" {
		t.Errorf("the router and the cache app matched: %+v", doc.Sides)
	}
	if _, out, _ := runCLI(routerBefore, fixture("cache/before-r1.cpuprofile")); strings.Contains(out, "matched ") {
		t.Errorf("unrelated programs say they matched:\n%.600s", out)
	}
}

func TestRootFlags(t *testing.T) {
	// Given, the roots are taken as they are, even where the guess would
	// take others: deploy/ is one folder too deep, so the router's files
	// (src/router.js against deploy/src/router.js) do not meet.
	code, out, errs := runCLI("--root", "before=/srv/node-workload/deploy", "--root", "after=/srv/checkouts/pr-4242", routerBefore, routerMoved)
	if code != 0 || !strings.Contains(out, "matched node-workload/deploy/ ↔ checkouts/pr-4242/ (") {
		t.Fatalf("--root: exit %d:\n%.600s\n%s", code, out, errs)
	}
	wrong := readJSON(t, "--root", "before=/srv/node-workload/deploy", "--root", "after=/srv/checkouts/pr-4242", routerBefore, routerMoved)
	if v := wrong.verdicts(); v["new"] == 0 || v["gone"] == 0 {
		t.Errorf("roots a folder apart: %v, want new and gone rows", v)
	}
	// --root-before and --root-after, slash or not, give the guess's match.
	code, out, errs = runCLI("--root-before", "/srv/node-workload", "--root-after", "/srv/checkouts/pr-4242/", routerBefore, routerMoved)
	if code != 0 || !strings.Contains(out, "\n"+matchedLine+"\n") {
		t.Errorf("--root-before/--root-after: exit %d:\n%.600s\n%s", code, out, errs)
	}
	// A root below which no file lies is said where the user looks.
	code, _, errs = runCLI("-o", filepath.Join(t.TempDir(), "r.txt"), "--root-before", "/nowhere", "--root-after", "/srv/checkouts/pr-4242", routerBefore, routerMoved)
	if code != 0 || !strings.Contains(errs, "no file of the side before lies below /nowhere/") {
		t.Errorf("an unused root: exit %d, stderr %q", code, errs)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--root-before", "/a", routerBefore, routerMoved}, "--root-before and --root-after go together"},
		{[]string{"--root", "before=/a", routerBefore, routerMoved}, "--root is given for some sides but not for after"},
		{[]string{"--root", "/a", routerBefore, routerMoved}, `--root "/a": give NAME=DIR`},
		{[]string{"--root", "other=/a", routerBefore, routerMoved}, "NAME a side (before, after)"},
		{[]string{"--root-before", "/a", "--root-after", "/b", "--no-root-match", routerBefore, routerMoved}, "contradict"},
		{[]string{"--root-before", "/a", "--root-after", "/b", "--side", "x=" + routerBefore, "--side", "y=" + routerAfter, "--side", "z=" + routerMoved}, "--root-before and --root-after are for two sides"},
		{[]string{"--root", "profile=/a", routerBefore}, "--root is for comparing sides"},
	} {
		code, _, errs := runCLI(tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
	}
}

func TestSeveralCheckouts(t *testing.T) {
	// A base, a variant run from its checkout and one from another: the
	// first takes the base's root, the other its own.
	args := []string{"--side", "base=" + routerBefore, "--side", "same=" + routerAfter, "--side", "pr=" + routerMoved}
	code, out, errs := runCLI(args...)
	want := "matched node-workload/ ↔ node-workload/ ↔ checkouts/pr-4242/ ("
	if code != 0 || !strings.Contains(out, want) {
		t.Fatalf("exit %d, no %q in:\n%.800s\n%s", code, want, out, errs)
	}
	code, out, errs = runCLI(append(args, "--format", "markdown", "--root", "base=/srv/node-workload", "--root", "same=/srv/node-workload", "--root", "pr=/srv/checkouts/pr-4242")...)
	if code != 0 || !strings.Contains(out, "_Matched node-workload/ ↔ node-workload/ ↔ checkouts/pr-4242/ (") {
		t.Errorf("--root NAME=DIR: exit %d:\n%.1200s\n%s", code, out, errs)
	}
}

func TestSourceBelowASidesRoot(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "pr-4242")
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "router.js"), []byte("function match() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSourceFiles(confine.New(root), options{})
	if text, _ := s.read("src/router.js"); text != "" {
		t.Fatalf("read a relative file without roots: %q", text)
	}
	s.relative = side.RelativeTo([]string{filepath.Join(dir, "old") + "/", root + "/"}, 1)
	if text, why := s.read("src/router.js"); text != "function match() {}\n" {
		t.Errorf("a file keyed below the after side's root: %q (%s)", text, why)
	}
}

func TestRootsAreAbsoluteOrURLs(t *testing.T) {
	out := []side.Side{{Name: "before"}, {Name: "after"}}
	if err := resolveRoots(options{rootBefore: "http://localhost:3000", rootAfter: "old"}, out); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if out[0].Root != "http://localhost:3000/" || out[1].Root != filepath.ToSlash(filepath.Join(wd, "old"))+"/" {
		t.Errorf("roots %q, %q", out[0].Root, out[1].Root)
	}
}
