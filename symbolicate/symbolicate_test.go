package symbolicate

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/internal/confine"
)

func fixture(name string) string { return filepath.Join("..", "testdata", name) }

// corpus returns a path in the shared corpus, skipping when it is absent.
func corpus(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join("..", "..", "shared", "corpus", rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus file %s absent", p)
	}
	return p
}

func parse(t *testing.T, path string) *analyze.Profile {
	t.Helper()
	p, err := analyze.ParseFile(path, analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func share(s *analyze.Symbolication) float64 {
	if s.OnCPUJSNs == 0 {
		return 0
	}
	return float64(s.OnCPUMappedNs) / float64(s.OnCPUJSNs)
}

func packages(tab *analyze.Table) map[string]int64 {
	m := map[string]int64{}
	for _, r := range tab.Packages {
		m[r.Key.Package] = r.Self
	}
	return m
}

func hasFunction(tab *analyze.Table, name, fileSuffix string) bool {
	for _, r := range tab.Functions {
		if r.Key.Function == name && strings.HasSuffix(r.Key.File, fileSuffix) {
			return true
		}
	}
	return false
}

// TestBrowserBundleThroughSearchFolder maps a Chromium CDP profile of an
// esbuild bundle served over http through --sourcemaps: the URL is never
// fetched; the bundle is found by name and its map through its comment.
func TestBrowserBundleThroughSearchFolder(t *testing.T) {
	p := parse(t, fixture("chrome-cdp-page.cpuprofile"))
	New(Options{Dirs: []string{fixture("chrome-cdp-page")}}).Apply(p)
	cov := p.Symbolication
	if cov.Scripts != 1 || cov.MappedScripts != 1 || share(cov) < 0.95 {
		t.Fatalf("coverage %+v", cov)
	}
	tab := analyze.Aggregate(p, analyze.AggregateOptions{})
	pk := packages(tab)
	for _, want := range []string{"path-to-regexp", "marked", "lodash"} {
		if pk[want] == 0 {
			t.Errorf("no time for package %s; packages %v", want, pk)
		}
	}
	if !hasFunction(tab, "match", "node-workload/src/router.js") {
		t.Errorf("Router.match not mapped to src/router.js")
	}
	for _, f := range p.Frames {
		if f.Generated != nil && (f.Generated.File != "http://127.0.0.1:46355/dist/app.min.js" || f.Generated.Line == 0) {
			t.Errorf("generated position lost: %+v", f.Generated)
		}
	}
}

// TestUnbundledCodeWarnsOnlyOfMinifiedScripts: the unbundled workload needs
// no maps for its own files, and marked ships minified without a map, as
// published: nothing the user can do, so no warning (the README's first
// command warned of it every time), though the coverage lists it.
func TestUnbundledCodeWarnsOnlyOfMinifiedScripts(t *testing.T) {
	p := parse(t, fixture("node-router-unbundled-before.cpuprofile"))
	New(Options{}).Apply(p)
	if p.Symbolication.MappedScripts != 0 || p.Symbolication.Scripts < 60 {
		t.Errorf("coverage %+v", p.Symbolication)
	}
	for _, w := range p.Warnings {
		if w.Kind == analyze.WarnMinifiedUnmapped || w.Kind == analyze.WarnNoSourceMap {
			t.Errorf("warned %q", w.Message)
		}
	}
	if m := p.Symbolication.Minified; len(m) != 1 || m[0] != "/srv/node-workload/node_modules/marked/lib/marked.esm.js" {
		t.Errorf("minified scripts %q, want marked's", m)
	}
	// The program's own script, minified the same, is warned of.
	for i := range p.Frames {
		p.Frames[i].File = strings.Replace(p.Frames[i].File, "/node_modules/marked/lib/", "/deploy/", 1)
	}
	p.Warnings = nil
	New(Options{}).Apply(p)
	var warning string
	for _, w := range p.Warnings {
		if w.Kind == analyze.WarnMinifiedUnmapped {
			warning = w.Message
		}
	}
	if !strings.Contains(warning, "no bundle was mapped, but /srv/node-workload/deploy/marked.esm.js looks minified") {
		t.Errorf("warning %q, want one naming the program's own minified script", warning)
	}
}

func TestMissingMapOfABundleIsReported(t *testing.T) {
	p := parse(t, fixture("chrome-cdp-page.cpuprofile"))
	New(Options{}).Apply(p)
	cov := p.Symbolication
	if cov.MappedScripts != 0 || len(cov.Missing) != 1 || cov.Missing[0] != "http://127.0.0.1:46355/dist/app.min.js" {
		t.Fatalf("coverage %+v", cov)
	}
	warned := false
	for _, w := range p.Warnings {
		warned = warned || (w.Kind == analyze.WarnMinifiedUnmapped && strings.Contains(w.Message, "app.min.js"))
	}
	if !warned {
		t.Errorf("no warning of the unmapped minified bundle: %q", p.Warnings)
	}
}

// TestRouterBundle is the judged case: the bundled router workload recorded
// at /srv/..., its map in the corpus folder of its build.
func TestRouterBundle(t *testing.T) {
	for _, side := range []string{"before", "after"} {
		t.Run(side, func(t *testing.T) {
			prof := corpus(t, "node-router-ab/"+side+"-r1.cpuprofile")
			p := parse(t, prof)
			New(Options{Dirs: []string{corpus(t, "node-router-ab/bundle-"+side)}}).Apply(p)
			if s := share(p.Symbolication); s < 0.95 {
				t.Errorf("%.1f%% of JavaScript time mapped, want 95%%: %+v", 100*s, p.Symbolication)
			}
			tab := analyze.Aggregate(p, analyze.AggregateOptions{})
			pk := packages(tab)
			for _, want := range []string{"path-to-regexp", "marked", "ajv", "lodash", "qs"} {
				if pk[want] == 0 {
					t.Errorf("no package row %s", want)
				}
			}
			if !hasFunction(tab, "match", "src/router.js") {
				t.Errorf("no function match in src/router.js")
			}
		})
	}
}

func TestExplicitMapAndPathMap(t *testing.T) {
	dir := fixture("chrome-cdp-page")
	for name, opts := range map[string]Options{
		"basename":   {Maps: []ScriptMap{{Script: "app.min.js", Map: filepath.Join(dir, "app.min.js.map")}}},
		"url":        {Maps: []ScriptMap{{Script: "http://127.0.0.1:46355/dist/app.min.js", Map: filepath.Join(dir, "app.min.js.map")}}},
		"path-map":   {PathMap: []PathRewrite{{From: "http://127.0.0.1:46355/dist/", To: dir + "/"}}},
		"wrong name": {Maps: []ScriptMap{{Script: "other.js", Map: filepath.Join(dir, "app.min.js.map")}}},
	} {
		p := parse(t, fixture("chrome-cdp-page.cpuprofile"))
		New(opts).Apply(p)
		want := 1
		if name == "wrong name" {
			want = 0
		}
		if p.Symbolication.MappedScripts != want {
			t.Errorf("%s: %+v", name, p.Symbolication)
		}
	}
}

// TestInlineMapFromEsbuild maps a profile of an esbuild bundle whose map is
// an inline data: URL (--sourcemap=inline); the recorded path is gone, so
// the bundle is found through the search folder.
func TestInlineMapFromEsbuild(t *testing.T) {
	dir := fixture("bundles/inline")
	p := parse(t, filepath.Join(dir, "inline.cpuprofile"))
	New(Options{Dirs: []string{filepath.Join(dir, "dist")}}).Apply(p)
	if s := share(p.Symbolication); s < 0.95 {
		t.Fatalf("coverage %+v", p.Symbolication)
	}
	tab := analyze.Aggregate(p, analyze.AggregateOptions{})
	// Expected from the fixture's EXPECTED.md, checked there with two
	// independent source-map libraries.
	for _, want := range []struct{ name, file string }{
		{"format", "node_modules/bytes/index.js"},
		{"renderLine", "src/format.js"},
		{"runWorkload", "src/main.js"},
		{"checksum", "src/format.js"},
		{"match", "node_modules/path-to-regexp/src/index.ts"},
	} {
		if !hasFunction(tab, want.name, want.file) {
			t.Errorf("no function %s in %s", want.name, want.file)
		}
	}
	pk := packages(tab)
	if pk["bytes"] == 0 || pk["path-to-regexp"] == 0 {
		t.Errorf("packages %v", pk)
	}
	for _, r := range tab.Functions {
		if r.Key.Function == "value" && r.Key.Package == "path-to-regexp" {
			t.Errorf("an arrow's parameter became a function name: %+v", r.Key)
		}
	}
}

// TestIndexMapFromMetro maps a profile of a bundle that metro-source-map's
// BundleBuilder concatenated, with an index map whose sections start
// mid-line: the column offset applies on a section's first line only.
func TestIndexMapFromMetro(t *testing.T) {
	dir := fixture("bundles/indexmap")
	p := parse(t, filepath.Join(dir, "indexmap.cpuprofile"))
	New(Options{PathMap: []PathRewrite{{From: "/tmp/symfix/indexmap/", To: dir + "/"}}}).Apply(p)
	if s := share(p.Symbolication); s < 0.95 {
		t.Fatalf("coverage %+v", p.Symbolication)
	}
	want := map[[2]int32]string{ // generated line:column (1-based) -> original
		{43, 488}: "runBenchmark src/main.js:22",
		{2, 404}:  "countWords src/tokenize.js:28",
		{32, 13}:  "movingAverage src/stats.js:37", // section 1, not its first line: no column shift
		{43, 335}: "makeCorpus src/main.js:12",
		{2, 259}:  "splitWords src/tokenize.js:16",
		{18, 13}:  "topEntries src/stats.js:20",
	}
	found := 0
	for _, f := range p.Frames {
		if f.Generated == nil {
			continue
		}
		w, ok := want[[2]int32{f.Generated.Line, f.Generated.Column}]
		if !ok {
			continue
		}
		found++
		got := f.Name + " " + f.File + ":" + strconv.Itoa(int(f.Line))
		if !strings.HasSuffix(got, strings.SplitN(w, " ", 2)[1]) || !strings.HasPrefix(got, strings.SplitN(w, " ", 2)[0]+" ") {
			t.Errorf("%v maps to %q, want %q", f.Generated, got, w)
		}
	}
	if found != len(want) {
		t.Errorf("found %d of the %d expected frames", found, len(want))
	}
}

// TestRollupBundle: rollup + commonjs + terser. The module's top level has
// no mapping of its own (the first segment of its line comes later): it
// must stay the bundle's, not become path-to-regexp's with everything the
// program runs under it. A function expression in a conditional's branch
// (lodash's baseSetToString = !defineProperty ? identity : function...) is
// named by the assignment, not by the other branch.
func TestRollupBundle(t *testing.T) {
	dir := fixture("bundles/rollup")
	p := parse(t, filepath.Join(dir, "rollup.cpuprofile"))
	New(Options{Dirs: []string{filepath.Join(dir, "dist")}}).Apply(p)
	if s := share(p.Symbolication); s < 0.95 {
		t.Fatalf("coverage %+v", p.Symbolication)
	}
	tab := analyze.Aggregate(p, analyze.AggregateOptions{})
	for _, r := range tab.Packages {
		if r.Key.Package == "path-to-regexp" && r.Total > tab.Summary.OnCPUNs/4 {
			t.Errorf("path-to-regexp total %d of on-CPU %d: the bundle's top level was charged to it", r.Total, tab.Summary.OnCPUNs)
		}
	}
	if !hasFunction(tab, "baseSetToString", "node_modules/lodash/lodash.js") {
		t.Errorf("no baseSetToString in lodash.js")
	}
	for _, want := range []string{"Workload.constructor", "crunch", "hashString", "runLoop"} {
		if !hasFunction(tab, want, "src/main.js") {
			t.Errorf("no %s in src/main.js", want)
		}
	}
	if hasFunction(tab, "identity", "lodash.js") && !hasFunction(tab, "baseSetToString", "lodash.js") {
		t.Errorf("identity named for the else branch")
	}
}

// TestEsbuildTypeScript: esbuild bundling TypeScript; the conditional's
// branch is named by its assignment, and the script's top level (1:1) stays
// unmapped rather than taking the first function's name.
func TestEsbuildTypeScript(t *testing.T) {
	dir := fixture("bundles/esbuild-ts")
	p := parse(t, filepath.Join(dir, "esbuild-ts.cpuprofile"))
	New(Options{Dirs: []string{filepath.Join(dir, "dist")}}).Apply(p)
	tab := analyze.Aggregate(p, analyze.AggregateOptions{})
	for _, want := range []string{"genericSpin", "plainSpin", "ternarySpin"} {
		if !hasFunction(tab, want, "src/micro.ts") {
			t.Errorf("no %s in src/micro.ts", want)
		}
	}
	if hasFunction(tab, "identity", "src/micro.ts") {
		t.Errorf("identity appears: the top level or the conditional took its name")
	}
}

// TestSourceMappingURLStaysInBounds: a script's comment may not lead out of
// the folders the user gave (here the checkout, app/), nor to the network;
// a script outside them is not read at all, and says so.
func TestSourceMappingURLStaysInBounds(t *testing.T) {
	root := t.TempDir()
	app := filepath.Join(root, "app")
	dist := filepath.Join(app, "dist")
	os.MkdirAll(dist, 0o755)
	files := confine.New(app)
	secret := filepath.Join(root, "secret.map")
	os.WriteFile(secret, []byte(`{"version":3,"sources":["x.js"],"mappings":"AAAA"}`), 0o644)
	for ref, want := range map[string]string{
		"../../secret.map":               "leads outside the folders profdiff may read",
		secret:                           "leads outside the folders profdiff may read",
		"https://cdn.example/app.js.map": "never fetches over the network",
		"file:///" + strings.TrimPrefix(secret, "/"): "leads outside the folders profdiff may read",
	} {
		script := filepath.Join(dist, "app.js")
		os.WriteFile(script, []byte("f();\n//# sourceMappingURL="+ref+"\n"), 0o644)
		s := New(Options{Files: files})
		lm, reason := s.mapFor(script, nil, nil)
		if lm != nil || !strings.Contains(reason.Message, want) {
			t.Errorf("%s: map %v, reason %q; want %q", ref, lm != nil, reason, want)
		}
	}
	// Within the folders it is followed.
	os.MkdirAll(filepath.Join(dist, "maps"), 0o755)
	os.WriteFile(filepath.Join(dist, "maps", "app.js.map"), []byte(`{"version":3,"sources":["x.js"],"mappings":"AAAA"}`), 0o644)
	os.WriteFile(filepath.Join(dist, "app.js"), []byte("f();\n//# sourceMappingURL=maps/app.js.map\n"), 0o644)
	if lm, reason := New(Options{Files: files}).mapFor(filepath.Join(dist, "app.js"), nil, nil); lm == nil {
		t.Errorf("map in the script's tree refused: %s", reason)
	}
	// The script's own folder is no root: with none given, it is not read.
	if lm, reason := New(Options{}).mapFor(filepath.Join(dist, "app.js"), nil, nil); lm != nil || reason.Kind != analyze.WarnScriptOutside || !strings.Contains(reason.Message, "outside the folders profdiff may read") {
		t.Errorf("a script outside every folder given: map %v, reason %q", lm != nil, reason)
	}
	// And a folder the user named widens the bounds.
	os.WriteFile(filepath.Join(dist, "app.js"), []byte("f();\n//# sourceMappingURL=../../secret.map\n"), 0o644)
	if lm, reason := New(Options{Files: files, Dirs: []string{root}}).mapFor(filepath.Join(dist, "app.js"), nil, nil); lm == nil {
		t.Errorf("map in a named folder refused: %s", reason)
	}
}

// BenchmarkApply symbolicates the bundled compiler's profile through its
// 9.3 MiB map: finding, reading and decoding the map, looking up every
// frame and naming functions from the sources' text. Bytes are the map's.
func BenchmarkApply(b *testing.B) {
	const dir = "../../shared/corpus/large/"
	st, err := os.Stat(dir + "bundle-tsc/tsc.min.js.map")
	if err != nil {
		b.Skipf("corpus absent (../shared/corpus beside this repository): %v", err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		p, err := analyze.ParseFile(dir+"tsc-rxjs-bundled.cpuprofile", analyze.ParseOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		New(Options{Dirs: []string{dir + "bundle-tsc"}}).Apply(p)
		if c := p.Symbolication; c == nil || c.OnCPUMappedNs == 0 {
			b.Fatalf("nothing mapped: %+v", c)
		}
	}
}

// TestLooksMinified: a quarter of a script's functions far along their
// lines make it minified; one such function does not.
func TestLooksMinified(t *testing.T) {
	p := &analyze.Profile{}
	var frames []int32
	for i, col := range []int32{1, 5, 20, 900, 3, 8, 12, 40} {
		p.Frames = append(p.Frames, analyze.Frame{Kind: analyze.KindCode, File: "/srv/app/lib.js", Line: int32(i + 1), Column: col})
		frames = append(frames, int32(i))
	}
	if looksMinified(p, frames) {
		t.Error("one long line made the script minified")
	}
	p.Frames[0].Column = 700
	if !looksMinified(p, frames) {
		t.Error("two of eight functions far along their lines: not taken as minified")
	}
}

// TestAdviseHugePages: the hint leaves buffers of every size usable.
func TestAdviseHugePages(t *testing.T) {
	for _, n := range []int{0, 1, 4 << 20, 5<<20 + 3, 9 << 20} {
		b := make([]byte, n)
		adviseHugePages(b)
		for i := range b {
			b[i] = byte(i)
		}
		for i := 0; i < n; i += 4099 {
			if b[i] != byte(i) {
				t.Fatalf("size %d: byte %d reads %d", n, i, b[i])
			}
		}
	}
}

// TestAnotherBuildAtTheRecordedPath: the router's before run, its bundle
// recorded at a path that now holds the after build (a stand-in folder
// here). With no flags the script there is found to be another build: a
// warning, and its map unused (it renamed 19 rows before). With the
// before side's folder given, that folder wins and every name is the one
// of the before build's own map; with the before build at the path, it is
// used.
func TestAnotherBuildAtTheRecordedPath(t *testing.T) {
	const recorded = "/srv/node-workload/deploy/dist/app.min.js"
	prof := corpus(t, "node-router-ab/before-r1.cpuprofile")
	at := func(t *testing.T, build string) string {
		dir := t.TempDir()
		for _, f := range []string{"app.min.js", "app.min.js.map"} {
			b, err := os.ReadFile(corpus(t, "node-router-ab/bundle-"+build+"/"+f))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, f), b, 0o644)
		}
		return dir
	}
	moved := func(t *testing.T, dir string) *analyze.Profile {
		p := parse(t, prof)
		for i := range p.Frames {
			if p.Frames[i].File == recorded {
				p.Frames[i].File = filepath.Join(dir, "app.min.js")
			}
		}
		return p
	}
	names := func(p *analyze.Profile) []string {
		var out []string
		for _, f := range p.Frames {
			if f.Generated != nil {
				out = append(out, f.Name+"@"+filepath.Base(f.File))
			}
		}
		return out
	}
	after := at(t, "after")

	p := moved(t, after)
	New(Options{Files: confine.New(after)}).Apply(p)
	if p.Symbolication.MappedScripts != 0 || len(p.Warnings) == 0 || p.Warnings[0].Kind != analyze.WarnMapOtherBuild {
		t.Errorf("after build at the path: %d mapped, warnings %q", p.Symbolication.MappedScripts, p.Warnings)
	}

	beforeDir := at(t, "before")
	want := moved(t, beforeDir)
	New(Options{Files: confine.New(beforeDir)}).Apply(want)
	if want.Symbolication.MappedScripts != 1 || slices.ContainsFunc(want.Warnings, func(w analyze.Warning) bool { return w.Kind == analyze.WarnMapOtherBuild }) {
		t.Fatalf("its own build at the path: %d mapped, warnings %q", want.Symbolication.MappedScripts, want.Warnings)
	}

	p = moved(t, after)
	New(Options{Dirs: []string{corpus(t, "node-router-ab/bundle-before")}}).Apply(p)
	if got, w := names(p), names(want); !slices.Equal(got, w) || len(w) < 100 {
		t.Errorf("the side's folder given: %d mapped frames, want the %d of the before build's map", len(got), len(w))
	}
}

// TestMapsThatAreNotFiles: a script whose sourceMappingURL names /dev/zero,
// a FIFO, or a symbolic link to a file outside its folder gets no map (and
// reading does not block on the FIFO); a FIFO where the script should be is
// not opened.
func TestMapsThatAreNotFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.map")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink("/etc/passwd", filepath.Join(dir, "link.map"))
	for _, ref := range []string{"/dev/zero", "pipe.map", "link.map"} {
		script := filepath.Join(dir, "s-"+strings.TrimSuffix(filepath.Base(ref), ".map")+".js")
		os.WriteFile(script, []byte("function a(){}\n//# sourceMappingURL="+ref+"\n"), 0o644)
		done := make(chan *loadedMap)
		go func() {
			lm, _ := New(Options{Files: confine.New(dir)}).mapFor(script, nil, nil)
			done <- lm
		}()
		select {
		case lm := <-done:
			if lm != nil {
				t.Errorf("%s: a map was loaded", ref)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: reading blocked", ref)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan bool)
	go func() { _, _ = New(Options{}).mapFor(filepath.Join(dir, "fifo.js"), nil, nil); done <- true }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a FIFO as the script blocked")
	}
}
