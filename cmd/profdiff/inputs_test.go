package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// routerCorpus is the corpus's bundled router pair (5 + 5 runs, each build's
// bundle and map beside them), which lives beside this repository as
// ../shared/corpus; tests that need two real builds skip without it.
func routerCorpus(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "node-router-ab")
	if _, err := os.Stat(filepath.Join(dir, "bundle-after", "app.min.js.map")); err != nil {
		t.Skipf("corpus absent (../shared/corpus beside this repository): %v", err)
	}
	return dir
}

// One --sourcemaps folder for two builds: the after run's bundle is not
// the one in the folder, so its map would give its moved functions the
// wrong names (14 "new", 14 "gone" at "maps 99.6%"). profdiff stops and
// names the side that needs its own maps; a folder holding both builds
// gives each run its own.
func TestOneMapFolderForTwoBuilds(t *testing.T) {
	c := routerCorpus(t)
	before, after := filepath.Join(c, "before-r1.cpuprofile"), filepath.Join(c, "after-r1.cpuprofile")
	code, _, errs := runCLI("--format", "json", "--sourcemaps", filepath.Join(c, "bundle-before"), before, after)
	if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 ||
		!strings.Contains(errs, "after-r1.cpuprofile") || !strings.Contains(errs, "--sourcemaps-after") || !strings.Contains(errs, "another build") {
		t.Fatalf("before's maps for both sides: exit %d, %q; want exit 2 naming after-r1.cpuprofile and --sourcemaps-after", code, errs)
	}
	code, _, errs = runCLI("--format", "json", "--sourcemaps", filepath.Join(c, "bundle-after"), before, after)
	if code != 2 || !strings.Contains(errs, "before-r1.cpuprofile") || !strings.Contains(errs, "--sourcemaps-before") {
		t.Fatalf("after's maps for both sides: exit %d, %q; want exit 2 naming the before side", code, errs)
	}
	// One --sourcemap pair for both sides: the bundle beside the map is
	// the before build.
	code, _, errs = runCLI("--format", "json", "--sourcemap", "app.min.js="+filepath.Join(c, "bundle-before", "app.min.js.map"), before, after)
	if code != 2 || !strings.Contains(errs, "after-r1.cpuprofile") || !strings.Contains(errs, "--sourcemap-after SCRIPT=MAP") {
		t.Fatalf("one --sourcemap for both sides: exit %d, %q", code, errs)
	}
	// A folder with the before build's map alone, no bundle to check
	// against: the two sides' runs record other names at the same
	// positions, so one map cannot fit both; two runs of one build pass.
	maps := t.TempDir()
	copyFile(t, filepath.Join(c, "bundle-before", "app.min.js.map"), filepath.Join(maps, "app.min.js.map"))
	code, _, errs = runCLI("--format", "json", "--sourcemaps", maps, before, after)
	if code != 2 || !strings.Contains(errs, "app.min.js.map") || !strings.Contains(errs, "different builds") || !strings.Contains(errs, "--sourcemaps-after") {
		t.Fatalf("one map alone for both sides: exit %d, %q", code, errs)
	}
	if code, _, errs = runCLI("--format", "json", "--sourcemaps", maps, before, filepath.Join(c, "before-r2.cpuprofile")); code != 0 {
		t.Fatalf("one map alone for two runs of its build: exit %d, %q", code, errs)
	}
	// The folder above both builds: each run finds its own bundle.
	code, out, errs := runCLI("--format", "json", "--sourcemaps", c, before, after)
	if code != 0 {
		t.Fatalf("both builds' folder: exit %d, %s", code, errs)
	}
	// makeStore (src/data.js) runs in both builds; through the wrong map
	// it was "gone" and a function named after another ("Ry") was "new".
	for _, bad := range []string{`"Ry"`, `"timeoutMs"`} {
		if strings.Contains(out, bad) {
			t.Errorf("both builds' folder: %s is named, a function mapped through the other build's map", bad)
		}
	}
	if !strings.Contains(out, `"makeStore"`) {
		t.Errorf("both builds' folder: makeStore is not in the report")
	}
	// Per-side folders, as the error says.
	code, _, errs = runCLI("--format", "json", "--sourcemaps-before", filepath.Join(c, "bundle-before"), "--sourcemaps-after", filepath.Join(c, "bundle-after"), before, after)
	if code != 0 {
		t.Fatalf("per-side folders: exit %d, %s", code, errs)
	}
}

// Sides from a shell glob: dir/*.cpuprofile lists after-r1 before
// before-r1, and a folder holding both builds' runs was one side of all of
// them. Files whose names say before/after are grouped by that word, in
// that order, and the report says so; a folder holding both groups is split
// the same way; files it cannot group are an error naming them.
func TestSidesFromNames(t *testing.T) {
	dir := fixture("cache")
	glob, err := filepath.Glob(filepath.Join(dir, "*.cpuprofile")) // sorted, as a shell expands it
	if err != nil || len(glob) != 4 || !strings.Contains(glob[0], "after") {
		t.Fatalf("glob %v %v", glob, err)
	}
	want := func(args ...string) string {
		t.Helper()
		code, out, errs := runCLI(append([]string{"--format", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errs)
		}
		return out
	}
	explicit := want("--before", filepath.Join(dir, "before-r1.cpuprofile"), "--before", filepath.Join(dir, "before-r2.cpuprofile"),
		"--after", filepath.Join(dir, "after-r1.cpuprofile"), "--after", filepath.Join(dir, "after-r2.cpuprofile"))
	for _, args := range [][]string{glob, {dir}} {
		out := want(args...)
		var rep struct {
			Sides []struct {
				Name  string
				Files []string
			}
			Warnings []string
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Sides) != 2 || rep.Sides[0].Name != "before" || len(rep.Sides[0].Files) != 2 || !strings.Contains(rep.Sides[0].Files[0], "before-r1") ||
			rep.Sides[1].Name != "after" || !strings.Contains(rep.Sides[1].Files[1], "after-r2") {
			t.Errorf("%v: sides %+v", args, rep.Sides)
		}
		said := false
		for _, w := range rep.Warnings {
			said = said || strings.Contains(w, "grouped into sides by the word in their names")
		}
		if !said {
			t.Errorf("%v: the report does not say how the sides were grouped: %q", args, rep.Warnings)
		}
		// Apart from that warning, the comparison is the one asked for
		// explicitly.
		if i := strings.Index(out, `"warnings"`); i < 0 || !strings.Contains(explicit, out[strings.Index(out, `"headline"`):i]) {
			t.Errorf("%v: the comparison differs from --before/--after's", args)
		}
	}
	// Said where the user looks at once, too, not only in the report.
	if _, _, errs := runCLI(glob...); !strings.Contains(errs, "profdiff: warning: the files given are grouped into sides") {
		t.Errorf("the grouping is not said on standard error: %q", errs)
	}
	// Reversed as two arguments, the names put them in order.
	two := []string{filepath.Join(dir, "after-r1.cpuprofile"), filepath.Join(dir, "before-r1.cpuprofile")}
	var rep struct {
		Sides []struct {
			Name  string
			Files []string
		}
	}
	if err := json.Unmarshal([]byte(want(two...)), &rep); err != nil || len(rep.Sides) != 2 || rep.Sides[0].Name != "before" || rep.Sides[0].Files[0] != two[1] {
		t.Errorf("after before: sides %+v %v", rep.Sides, err)
	}
	// A mix: a profile named neither before nor after among them.
	mixed := t.TempDir()
	for _, f := range []string{"before-r1.cpuprofile", "after-r1.cpuprofile"} {
		copyFile(t, filepath.Join(dir, f), filepath.Join(mixed, f))
	}
	copyFile(t, filepath.Join(dir, "after-r2.cpuprofile"), filepath.Join(mixed, "profile.cpuprofile"))
	for _, args := range [][]string{{mixed}, {filepath.Join(mixed, "after-r1.cpuprofile"), filepath.Join(mixed, "before-r1.cpuprofile"), filepath.Join(mixed, "profile.cpuprofile")}} {
		code, _, errs := runCLI(append([]string{"--format", "json"}, args...)...)
		if code != 2 || !strings.Contains(errs, "profile.cpuprofile") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d %q, want exit 2 naming profile.cpuprofile", args, code, errs)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err == nil {
		err = os.WriteFile(to, b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// record output compared again: profdiff RECORD_DIR reproduces record's
// report byte for byte, because record.json keeps every flag that shaped
// the comparison (here the checkouts' roots that --before-dir and
// --after-dir gave, and --format, --top, --min-frame-share). Compared
// without them (profdiff DIR/before DIR/after), the two checkouts' files do
// not match, as the issue found.
func TestRecordFolderComparedAgain(t *testing.T) {
	before, after := twoCheckouts(t)
	out := filepath.Join(t.TempDir(), "rec")
	args := []string{"record", "--runs", "2", "--warmup", "0", "--out", out, "--format", "json", "--top", "5", "--min-frame-share", "0",
		"--json-output", filepath.Join(t.TempDir(), "also.json"), "--cmd", "node main.js", "--before-dir", before, "--after-dir", after}
	code, recorded, stderr := runCLI(args...)
	if code != 0 && code != 1 {
		t.Fatalf("record: exit %d\n%s", code, stderr)
	}
	// The checkouts lie outside this folder and the recording's: a
	// record.json does not grant them (a fork's job can write one), the
	// user does, with --source-root.
	if code, _, errs := runCLI(out); code != 2 || !strings.Contains(errs, "--source-root "+before) {
		t.Errorf("a recording whose flags read outside the folders given: exit %d %q", code, errs)
	}
	code2, again, stderr2 := runCLI("--source-root", before, "--source-root", after, out)
	if code2 != code || again != recorded {
		t.Fatalf("profdiff %s: exit %d (record's %d), and the report differs from record's:\n%s\n%.400s", out, code2, code, stderr2, again)
	}
	// Flags given now come after the kept ones.
	if code, md, errs := runCLI("--source-root", before, "--source-root", after, "--format", "markdown", out); code > 1 || !strings.HasPrefix(md, "#") && !strings.Contains(md, "|") {
		t.Errorf("profdiff --format markdown %s: exit %d %s\n%.200s", out, code, errs, md)
	}
	_, plain, _ := runCLI("--format", "json", "--top", "5", "--min-frame-share", "0", filepath.Join(out, "before"), filepath.Join(out, "after"))
	if plain == recorded {
		t.Errorf("compared without the roots record used, the report is the same: this test would not see them lost")
	}
	if !strings.Contains(plain, "which record compared with") || !strings.Contains(plain, "--root-before") {
		t.Errorf("DIR/before DIR/after without record's flags does not say so:\n%.300s", plain)
	}
	// A record.json that keeps no comparison (an older recording) is an
	// error naming it, not a comparison without the flags.
	b, err := os.ReadFile(filepath.Join(out, "record.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	delete(rec, "comparison")
	b, _ = json.Marshal(rec)
	if err := os.WriteFile(filepath.Join(out, "record.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI(out); code != 2 || !strings.Contains(errs, "record.json") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("record.json without its comparison: exit %d %q", code, errs)
	}
}

// "Where it changed" called a call path [gone] (-100%) when only the path
// moved: path-to-regexp's match still runs in the after build, called
// through Router's new #scan. A path is gone (new) only when its leaf
// function is; otherwise it says where the time went (came from).
func TestPathGoneOnlyWhenLeafGone(t *testing.T) {
	pairs := [][]string{
		{fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")},
		{"--before", fixture("cache/before-r1.cpuprofile"), "--before", fixture("cache/before-r2.cpuprofile"),
			"--after", fixture("cache/after-r1.cpuprofile"), "--after", fixture("cache/after-r2.cpuprofile")},
	}
	if c := filepath.Join("..", "..", "..", "shared", "corpus", "node-router-ab"); dirExists(c) {
		pairs = append(pairs, []string{"--sourcemaps", c, c})
	}
	for i, args := range pairs {
		code, out, errs := runCLI(append([]string{"--format", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errs)
		}
		var rep struct {
			Functions []struct {
				Function string
				Total    struct{ Ns []float64 }
			}
			Paths []struct {
				Steps []struct {
					Function      string
					FunctionIndex int `json:"function_index"`
				}
				End       string
				Text      string
				Elsewhere *struct{ Functions []string }
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		moved := 0
		for _, p := range rep.Paths {
			leaf := rep.Functions[p.Steps[len(p.Steps)-1].FunctionIndex]
			before, after := leaf.Total.Ns[0], leaf.Total.Ns[1]
			switch p.End {
			case "gone":
				if after != 0 {
					t.Errorf("%v: %q is gone, but %s runs for %.0f ns after", args, p.Text, leaf.Function, after)
				}
			case "new":
				if before != 0 {
					t.Errorf("%v: %q is new, but %s ran for %.0f ns before", args, p.Text, leaf.Function, before)
				}
			case "moved":
				moved++
				if after == 0 || p.Elsewhere == nil || !strings.Contains(p.Text, "not gone: it now runs as") {
					t.Errorf("%v: moved path %q: after %.0f ns, elsewhere %v", args, p.Text, after, p.Elsewhere)
				}
			}
		}
		if i == 0 {
			// The router pair: the matcher's path under Router.match moved
			// under #scan.
			if moved == 0 || rep.Paths[0].End != "moved" || !slices.Equal(rep.Paths[0].Elsewhere.Functions[len(rep.Paths[0].Elsewhere.Functions)-2:], []string{"#scan", "match"}) {
				t.Errorf("router pair: first path %+v, want moved under #scan", rep.Paths[0])
			}
		}
	}
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// Per-line times add up: a function's lines plus its unattributed line
// equal its self time in every run of every side, also in a run where
// none of its nodes recorded positionTicks (normalizeString in the
// corpus's three-run responsiveness pair, and functions of the router
// pair's runs, had lines on no line at all in such a run).
func TestLinesAddUpToSelf(t *testing.T) {
	inputs := [][]string{
		{fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")},
		{fixture("cache")},
		{fixture("node-pprof-before-lines.pb.gz")},
	}
	if c := filepath.Join("..", "..", "..", "shared", "corpus", "responsiveness"); dirExists(c) {
		inputs = append(inputs, []string{"--before", filepath.Join(c, "before-r1.cpuprofile"), "--before", filepath.Join(c, "before-r2.cpuprofile"), "--before", filepath.Join(c, "before-r3.cpuprofile"),
			"--after", filepath.Join(c, "after-r1.cpuprofile"), "--after", filepath.Join(c, "after-r2.cpuprofile"), "--after", filepath.Join(c, "after-r3.cpuprofile")})
	}
	for _, args := range inputs {
		code, out, errs := runCLI(append([]string{"--format", "json", "--lines"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errs)
		}
		var rep struct {
			Functions []struct {
				Function string
				Self     struct {
					RunsNs [][]float64 `json:"runs_ns"`
				}
				Lines []struct {
					Line *int
					Self struct {
						RunsNs [][]float64 `json:"runs_ns"`
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		withLines, bad := 0, 0
		for _, f := range rep.Functions {
			if len(f.Lines) == 0 {
				continue
			}
			withLines++
			for si, runs := range f.Self.RunsNs {
				for ri, self := range runs {
					var sum float64
					for _, l := range f.Lines {
						sum += l.Self.RunsNs[si][ri]
					}
					if math.Abs(sum-self) > 1 {
						if bad++; bad <= 3 {
							t.Errorf("%v: %s, side %d run %d: lines sum to %.0f ns, self is %.0f ns", args, f.Function, si, ri, sum, self)
						}
					}
				}
			}
		}
		if withLines == 0 {
			t.Errorf("%v: no function has lines: the test checks nothing", args)
		}
		if bad > 3 {
			t.Errorf("%v: %d more", args, bad-3)
		}
	}
}

// --source finds what the comparison finds: a source moved with its
// checkout, through --path-map (the cache runs recorded /tmp/cache2/w/app.js,
// which is testdata/cache/app-before.js here), and a map's source that has
// no sourcesContent, relative to the map (the lines bundle's map, as esbuild
// writes it with --sources-content=false). Both said "not at hand".
func TestSourceResolvedAsTheComparison(t *testing.T) {
	moved := t.TempDir()
	copyFile(t, fixture("cache/app-before.js"), filepath.Join(moved, "app.js"))
	code, out, errs := runCLI("--source", "^parse$", "--path-map", "/tmp/cache2/w="+moved, fixture("cache/before-r1.cpuprofile"))
	if code != 0 || strings.Contains(out, "not at hand") || !strings.Contains(out, "function parse(text) {") {
		t.Errorf("--path-map: exit %d %s\n%s", code, errs, out)
	}
	// The map without its sources' content, beside the bundle; the
	// sources where the map names them (../src/ from dist/), which is not
	// where the frames' paths (src/work.js) lead from here.
	dir := t.TempDir()
	for _, f := range []string{"dist/app.js", "src/work.js", "src/main.js", "lines.cpuprofile"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		copyFile(t, fixture("bundles/lines/"+f), filepath.Join(dir, f))
	}
	b, err := os.ReadFile(fixture("bundles/lines/dist/app.js.map"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "sourcesContent")
	b, _ = json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, "dist", "app.js.map"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	// (The build's folder is given: a map's sources are read only below
	// the folders the user gave, as the bundle and map are.)
	code, out, errs = runCLI("--source", "^sumSquares$", "--sourcemaps", dir, filepath.Join(dir, "lines.cpuprofile"))
	if code != 0 || strings.Contains(out, "not at hand") || !strings.Contains(out, "export function sumSquares(n) {") {
		t.Errorf("a map without sourcesContent: exit %d %s\n%s", code, errs, out)
	}
}

// Worker threads: node writes one profile per thread, and record kept one
// (with --cpu-prof-name every thread wrote the same file). Every thread's
// profile is kept, named for its thread; the comparison compares each
// run's main thread, says which worker threads it did not compare, and
// compares a worker's when given as the sides.
func TestRecordKeepsWorkerThreads(t *testing.T) {
	before, after := twoCheckouts(t)
	prog := `const { Worker, isMainThread } = require('node:worker_threads');
function spin(ms) { const end = Date.now() + ms; let s = 0; while (Date.now() < end) s += Math.sqrt(s + 1); return s; }
function inWorker() { return spin(150); }
function onMain() { return spin(100); }
if (isMainThread) { new Worker(__filename); onMain(); } else { inWorker(); }
`
	for _, d := range []string{before, after} {
		if err := os.WriteFile(filepath.Join(d, "threads.js"), []byte(prog), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "rec")
	code, report, stderr := runCLI("record", "--runs", "2", "--warmup", "0", "--out", out, "--format", "json",
		"--cmd", "node threads.js", "--before-dir", before, "--after-dir", after)
	if code != 0 && code != 1 {
		t.Fatalf("record: exit %d\n%s", code, stderr)
	}
	for _, side := range []string{"before", "after"} {
		for _, run := range []string{"run-01", "run-02"} {
			for _, f := range []string{run + ".cpuprofile", run + ".worker-1.cpuprofile"} {
				if st, err := os.Stat(filepath.Join(out, side, f)); err != nil || st.Size() == 0 {
					t.Errorf("%s/%s: %v", side, f, err)
				}
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "record.json"))
	if err != nil || !strings.Contains(string(b), `"threads": [`) || !strings.Contains(string(b), "run-01.worker-1.cpuprofile") {
		t.Errorf("record.json does not list the worker threads' profiles: %v\n%.300s", err, b)
	}
	var rep struct {
		Sides []struct {
			Name  string
			Files []string
		}
		Functions []struct{ Function string }
		Warnings  []string
	}
	if err := json.Unmarshal([]byte(report), &rep); err != nil {
		t.Fatal(err)
	}
	fns := func() map[string]bool {
		m := map[string]bool{}
		for _, f := range rep.Functions {
			m[f.Function] = true
		}
		return m
	}
	if len(rep.Sides) != 2 || len(rep.Sides[0].Files) != 2 || strings.Contains(strings.Join(rep.Sides[0].Files, " "), "worker") {
		t.Errorf("sides %+v: want each run's main thread only", rep.Sides)
	}
	if f := fns(); !f["onMain"] || f["inWorker"] {
		t.Errorf("main threads compared: functions %v", f)
	}
	said := false
	for _, w := range rep.Warnings {
		said = said || strings.Contains(w, "main thread is compared") && strings.Contains(w, "worker 1 (4 profiles)")
	}
	if !said {
		t.Errorf("the report does not list the worker threads: %q", rep.Warnings)
	}
	// Worker 1, thread by thread.
	code, report, stderr = runCLI("--format", "json", "--side", "before="+filepath.Join(out, "before", "*.worker-1.cpuprofile"), "--side", "after="+filepath.Join(out, "after", "*.worker-1.cpuprofile"))
	if code != 0 {
		t.Fatalf("worker 1: exit %d %s", code, stderr)
	}
	rep.Functions, rep.Warnings = nil, nil
	if err := json.Unmarshal([]byte(report), &rep); err != nil {
		t.Fatal(err)
	}
	if f := fns(); !f["inWorker"] || f["onMain"] {
		t.Errorf("worker 1 compared: functions %v", f)
	}
	if !slices.ContainsFunc(rep.Warnings, func(w string) bool { return strings.Contains(w, "before is worker 1") }) {
		t.Errorf("the report does not name the thread compared: %q", rep.Warnings)
	}
}
