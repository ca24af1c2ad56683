package report

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/analyze/analyzetest"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/confine"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/narrow"
)

// hostile is what a profile's names may hold: markup, every kind of
// control character, invalid UTF-8, line separators, C1 controls, bidi
// overrides, zero-width and non-characters, and a rune above U+FFFF.
const hostile = "</script><&>\x00\x1b[31m\t\"\\ \u009b2J\u0085 \xff\xfe\xc3 \u2028\u2029 \u202e\u2066\u200e\u061c \u200b\ufeff\ufffe\uffff\ufffd 😀 名"

// parsed reads a fixture (a path from this package), hostile renaming
// every third frame's name and every fifth one's file, and narrowing it
// when filters are given, as the command does.
func parsed(t testing.TB, path string, rename bool, filters *narrow.Filters) *analyze.Table {
	t.Helper()
	p, err := analyze.ParseFile(path, analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rename {
		for i := range p.Frames {
			f := &p.Frames[i]
			if i%3 == 1 {
				f.Name = hostile + f.Name
			}
			if i%5 == 2 && f.File != "" {
				f.File = "/srv/" + hostile + "/node_modules/" + hostile + "/" + f.File
			}
		}
	}
	var before int64
	if filters != nil {
		analyze.AttributePackages(p, confine.New("."))
		before = p.OnCPUNs()
		if err := filters.Apply(p); err != nil {
			t.Fatal(err)
		}
	}
	tab := analyze.Aggregate(p, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true})
	tab.Summary.NarrowedFromNs = before
	tab.File = filepath.Base(path)
	return tab
}

// corpus is a path in the shared corpus, or "" (the test then skips that
// report) when the corpus is absent.
func corpus(name string) string {
	p := filepath.Join("..", "..", "shared", "corpus", name)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// identityReports are the reports the streaming WriteJSON is held to the
// reference on: every fixture alone, pairs and sets of runs, per unit of
// work, rules, narrowing, symbolication counts, warnings, hostile names,
// renamed and aliased functions, NaN spreads and changes, no paths.
func identityReports(t *testing.T) map[string]*diff.Report {
	t.Helper()
	reports := map[string]*diff.Report{}
	cmp := func(name string, opts diff.Options, sides ...diff.Side) {
		t.Helper()
		r, err := diff.Compare(sides, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		reports[name] = r
	}
	td := func(name string) string { return filepath.Join("..", "testdata", name) }
	side := func(name string, work float64, tabs ...*analyze.Table) diff.Side {
		return diff.Side{Name: name, Tables: tabs, Work: work}
	}
	fixtures, _ := filepath.Glob(td("*.*"))
	folded, _ := filepath.Glob(td("folded/*.folded"))
	cache, _ := filepath.Glob(td("cache/*.cpuprofile"))
	for _, f := range append(append(fixtures, folded...), cache...) {
		if strings.HasSuffix(f, ".md") {
			continue
		}
		cmp("one "+filepath.Base(f), diff.DefaultOptions(), side("profile", 0, parsed(t, f, false, nil)))
	}
	before, after := td("node-router-unbundled-before.cpuprofile"), td("node-router-unbundled-after.cpuprofile")
	b, a := parsed(t, before, false, nil), parsed(t, after, false, nil)
	cmp("router pair", diff.DefaultOptions(), side("before", 0, b), side("after", 0, a))
	cmp("router reversed", diff.DefaultOptions(), side("before", 0, a), side("after", 0, b))
	cmp("router against itself", diff.DefaultOptions(), side("before", 0, b), side("after", 0, b))
	cmp("router one side two runs", diff.DefaultOptions(), side("before", 0, b, a))
	// Two checkouts of the program: each side's files matched below its
	// root, which each side carries (freshly read: the tables are changed).
	moved := td("checkouts/node-router-after-pr-4242.cpuprofile.gz")
	checkouts := []diff.Side{side("before", 0, parsed(t, before, false, nil)), side("after", 0, parsed(t, moved, false, nil))}
	diff.Relocate(checkouts, diff.GuessRoots(checkouts, 0))
	cmp("router two checkouts", diff.DefaultOptions(), checkouts...)

	opts := diff.DefaultOptions()
	for _, text := range []string{"package:*>+5%", "package:path-to-regexp<-50%", "function-total:match>+5%", "on-cpu>+50%", "file:index.js>+1pp"} {
		rule, err := diff.ParseRule(text)
		if err != nil {
			t.Fatal(err)
		}
		opts.Rules = append(opts.Rules, rule)
	}
	cmp("router rules", opts, side("before", 0, b), side("after", 0, a))
	cmp("router rules reversed", opts, side("before", 0, a), side("after", 0, b))

	opts = diff.DefaultOptions()
	opts.WorkUnit = "request"
	cmp("router per request", opts, side("before", 40000, b), side("after", 40000, a))
	opts.WorkUnit = ""
	cmp("router per unnamed unit", opts, side("before", 3, b), side("after", 7.5, a))
	cmp("router work one side only", diff.DefaultOptions(), side("before", 3, b), side("after", 0, a))

	opts = diff.DefaultOptions()
	opts.MaxPaths = -1
	opts.TreeMinShare = -1
	cmp("router no paths whole tree", opts, side("before", 0, b), side("after", 0, a))
	opts = diff.DefaultOptions()
	opts.MinDeltaPP, opts.MinDeltaPct, opts.Alpha = 0, 0, 0.5
	cmp("router lenient", opts, side("before", 0, b), side("after", 0, a))

	hb, ha := parsed(t, before, true, nil), parsed(t, after, true, nil)
	cmp("router hostile", diff.DefaultOptions(), side("before", 0, hb), side("after", 0, ha))
	cmp("router hostile one side", diff.DefaultOptions(), side(hostile, 0, hb))

	opts = diff.DefaultOptions()
	filters := &narrow.Filters{Focus: regexp.MustCompile(`handle|match`), Hide: regexp.MustCompile(`^next$`)}
	opts.Narrowing = append(filters.Describe(), hostile)
	cmp("router narrowed", opts, side("before", 0, parsed(t, before, false, filters)), side("after", 0, parsed(t, after, false, filters)))
	cmp("router narrowed one side", opts, side("before", 0, parsed(t, before, false, filters)))

	// Symbolication counts and warnings, on synthetic runs whose minified
	// function was renamed between builds.
	mk := func(file string, self int64, callee analyze.Key, minified analyze.Key, warnings ...string) *analyze.Table {
		tab := analyzetest.Synthetic(6, callee, 100, 100, self, minified, 300)
		tab.File = file
		for _, w := range warnings {
			tab.Warnings = append(tab.Warnings, analyze.Warning{Message: w})
		}
		tab.Symbolication = &analyze.Symbolication{Scripts: 2, MappedScripts: 1, OnCPUJSNs: tab.Summary.OnCPUNs, OnCPUMappedNs: tab.Summary.OnCPUNs / 3,
			Missing: []string{"/srv/dist/app.min.js", hostile}, Minified: []string{"/srv/dist/app.min.js"}, UnmappedMinifiedNs: tab.Summary.OnCPUNs / 2}
		return tab
	}
	f3 := analyze.Key{Package: "app", Function: "f3", File: "/dist/app.min.js", Line: 1, Column: 500}
	d3 := f3
	d3.Function = "d3"
	const noMap = "no source map for /srv/dist/app.min.js"
	cmp("synthetic symbolication", diff.DefaultOptions(),
		side("before", 0, mk("b1", 800, analyzetest.Fn("parse", 20), f3, noMap), mk("b2", 820, analyzetest.Fn("parse", 20), f3, noMap, "1 negative time deltas were clamped to 0")),
		side("after", 0, mk("a1", 60, analyzetest.Fn("lookup", 30), d3, noMap), mk("a2", 55, analyzetest.Fn("lookup", 30), d3, noMap, hostile)))
	bare := analyzetest.Synthetic(6, analyzetest.Fn("parse", 20), 100, 100, 800, analyze.Key{}, 0)
	cmp("synthetic mixed symbolication", diff.DefaultOptions(), side("before", 0, bare), side("after", 0, mk("a1", 60, analyzetest.Fn("lookup", 30), d3)))
	// A function that is new (before 0: Δ% NaN) and empty runs.
	empty := analyzetest.Synthetic(6, analyzetest.Fn("parse", 20), 0, 0, 0, analyze.Key{}, 0)
	cmp("synthetic empty before", diff.DefaultOptions(), side("before", 0, empty), side("after", 0, bare))
	cmp("synthetic empty", diff.DefaultOptions(), side("only", 0, empty))

	// Sets of runs from the corpus: bundled (aliases of renamed
	// positions), unbundled, Go's pprof with a sample type.
	for _, set := range []struct {
		name, dir, ext string
		runs           int
	}{{"corpus router", "node-router-ab", "cpuprofile", 5}, {"corpus go", "go-pprof", "pprof", 3}} {
		dir := corpus(set.dir)
		if dir == "" {
			continue
		}
		var sides []diff.Side
		for _, name := range []string{"before", "after"} {
			s := diff.Side{Name: name}
			for i := 1; i <= set.runs; i++ {
				s.Tables = append(s.Tables, parsed(t, filepath.Join(dir, fmt.Sprintf("%s-r%d.%s", name, i, set.ext)), false, nil))
			}
			sides = append(sides, s)
		}
		cmp(set.name, diff.DefaultOptions(), sides...)
		cmp(set.name+" first runs", diff.DefaultOptions(), diff.Side{Name: "before", Tables: sides[0].Tables[:1]}, diff.Side{Name: "after", Tables: sides[1].Tables[:1]})
	}
	if dir := corpus("node-router-ab-unbundled"); dir != "" {
		cmp("corpus unbundled", diff.DefaultOptions(), side("before", 0, parsed(t, filepath.Join(dir, "before.cpuprofile"), true, nil)),
			side("after", 0, parsed(t, filepath.Join(dir, "after.cpuprofile"), true, nil)))
	}
	return reports
}

// TestWriteJSONMatchesReference holds the streaming WriteJSON to the
// writer it replaced (json_reference_test.go), byte for byte, on every
// report identityReports builds, and on the 63 MiB profile against itself
// (more calls than MaxJSONCalls) when the corpus has it.
func TestWriteJSONMatchesReference(t *testing.T) {
	reports := identityReports(t)
	if len(reports) < 30 {
		t.Fatalf("only %d reports", len(reports))
	}
	if p := corpus("large/tsc-effect-unbundled.cpuprofile"); p != "" && !testing.Short() {
		tab := parsed(t, p, false, nil)
		r, err := diff.Compare([]diff.Side{{Name: "before", Tables: []*analyze.Table{tab}}, {Name: "after", Tables: []*analyze.Table{tab}}}, diff.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Calls) <= MaxJSONCalls {
			t.Errorf("the large profile has %d calls", len(r.Calls))
		}
		reports["large against itself"] = r
		reports["large alone"], err = diff.Compare([]diff.Side{{Name: "only", Tables: []*analyze.Table{tab}}}, diff.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
	}
	for name, r := range reports {
		t.Run(name, func(t *testing.T) { sameJSON(t, r) })
	}
}

// sameJSON checks that WriteJSON and the reference write the same bytes
// for r.
func sameJSON(t testing.TB, r *diff.Report) {
	t.Helper()
	var got, want bytes.Buffer
	if err := writeJSONReference(&want, r); err != nil {
		t.Fatalf("reference: %v", err)
	}
	if err := WriteJSON(&got, r); err != nil {
		t.Fatalf("WriteJSON: %v", err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("WriteJSON differs from the reference (%d bytes against %d):\n%s", got.Len(), want.Len(), firstDiff(want.String(), got.String()))
	}
}

// TestWriteJSONNotANumber: a number JSON cannot hold where the schema has
// no null is an error, as json.Marshal's was.
func TestWriteJSONNotANumber(t *testing.T) {
	r, err := diff.Compare([]diff.Side{{Name: "a", Tables: []*analyze.Table{analyzetest.Synthetic(6, analyzetest.Fn("parse", 20), 100, 100, 800, analyze.Key{}, 0)}}}, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	r.Functions[0].Self.Mean[0] = math.NaN()
	var b bytes.Buffer
	if err := writeJSONReference(&b, r); err == nil {
		t.Fatal("the reference wrote NaN")
	}
	if err := WriteJSON(&b, r); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("WriteJSON: %v", err)
	}
}

// TestEscapeJSON: EscapeJSON (for JSON encoding/json wrote, as the
// speedscope export's) escapes what WriteJSON escapes as it writes.
func TestEscapeJSON(t *testing.T) {
	in := []byte(`{"a":"x` + "\u009b\u202e\u2066\ufeff\uffff" + `y","b":"` + "名 😀 \ufffd" + `"}`)
	want := `{"a":"x\u009b\u202e\u2066\ufeff\uffffy","b":"名 😀 ` + "\ufffd" + `"}`
	if got := EscapeJSON(in); string(got) != want {
		t.Errorf("EscapeJSON = %s", got)
	}
	if got := EscapeJSON([]byte(`{"plain":"名"}`)); string(got) != `{"plain":"名"}` {
		t.Errorf("EscapeJSON of plain JSON = %s", got)
	}
	for r := rune(0x80); r <= 0xffff; r++ {
		if jsonUnsafe(r) != termtext.Escapes(r) {
			t.Fatalf("jsonUnsafe(%U) = %v", r, jsonUnsafe(r))
		}
	}
}
