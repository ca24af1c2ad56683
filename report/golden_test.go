package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/analyze/analyzetest"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/units"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// compared builds the comparison of shared fixtures, one run a side: a
// profile alone ("profile"), or before and after.
func compared(t *testing.T, opts diff.Options, fixtures ...string) *diff.Report {
	t.Helper()
	names := []string{"before", "after"}
	if len(fixtures) == 1 {
		names = []string{"profile"}
	}
	var sides []diff.Side
	for i, f := range fixtures {
		sides = append(sides, diff.Side{Name: names[i], Tables: []*analyze.Table{analyzetest.Table(t, f)}})
	}
	r, err := diff.Compare(sides, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// report is a shared fixture's one-sided report.
func report(t *testing.T, name string) *diff.Report { return compared(t, diff.DefaultOptions(), name) }

// routerPair is the unbundled router workload, before and after bucketed
// routing: one run each side.
func routerPair(t *testing.T, opts diff.Options) *diff.Report {
	return compared(t, opts, "node-router-unbundled-before.cpuprofile", "node-router-unbundled-after.cpuprofile")
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test ./report -update rewrites it):\n%s", path, firstDiff(string(want), string(got)))
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ":\nwant: " + a + "\n got: " + b
		}
	}
	return ""
}

func itoa(i int) string { return units.Count(int64(i)) }

var goldenFixtures = []struct{ fixture, golden string }{
	{"node-router-unbundled-before.cpuprofile", "node-router-unbundled-before"},
	{"chrome156-multi-process.trace.json.gz", "chrome156-multi-process"},
	{"go-router-before.pprof", "go-router-before"},
	{"node-pprof-before.pb.gz", "node-pprof-before"},
}

// shortJSON keeps the first rows of each of a JSON report's lists, to keep
// the goldens small: the whole report is rows of one shape, and the indent
// the writer produces is tested on its own (TestIndentJSONMatchesEncoding).
func shortJSON(t *testing.T, b []byte) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"packages", "functions", "files", "calls"} {
		if rows, ok := doc[k].([]any); ok && len(rows) > 12 {
			doc[k] = rows[:12]
		}
	}
	out, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

func TestTextGolden(t *testing.T) {
	for _, g := range goldenFixtures {
		t.Run(g.golden, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteText(&b, report(t, g.fixture), TextOptions{Top: 15}); err != nil {
				t.Fatal(err)
			}
			golden(t, g.golden+".txt", b.Bytes())
		})
	}
}

func TestJSONGolden(t *testing.T) {
	for _, g := range goldenFixtures[:2] {
		t.Run(g.golden, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteJSON(&b, report(t, g.fixture)); err != nil {
				t.Fatal(err)
			}
			golden(t, g.golden+".json", shortJSON(t, b.Bytes()))
		})
	}
}

// TestComparedGolden pins the two-sided text, markdown and JSON of the
// unbundled router pair.
func TestComparedGolden(t *testing.T) {
	r := routerPair(t, withRule(t, "package:*>+5%"))
	writeGoldens(t, "router-compare", r, TextOptions{Top: 12, Files: true})
}

// withRule returns the default options with one --fail-on rule.
func withRule(t *testing.T, text string) diff.Options {
	t.Helper()
	rule, err := diff.ParseRule(text)
	if err != nil {
		t.Fatal(err)
	}
	opts := diff.DefaultOptions()
	opts.Rules = []diff.Rule{rule}
	return opts
}

// writeGoldens holds a report's text, markdown and JSON to the goldens
// NAME.txt, NAME.md and NAME.json, and returns the text and markdown.
func writeGoldens(t *testing.T, name string, r *diff.Report, topts TextOptions) (txt, md string) {
	t.Helper()
	var tb, mb, jb bytes.Buffer
	if err := WriteText(&tb, r, topts); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&mb, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&jb, r); err != nil {
		t.Fatal(err)
	}
	golden(t, name+".txt", tb.Bytes())
	golden(t, name+".md", mb.Bytes())
	golden(t, name+".json", shortJSON(t, jb.Bytes()))
	return tb.String(), mb.String()
}

// TestJSONShape checks the version-2 shape of one profile: every row,
// self and total with one number each and no change, and totals that add
// up.
func TestJSONShape(t *testing.T) {
	r := report(t, "chrome-cdp-page.cpuprofile")
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	type measure struct {
		Ns      []float64 `json:"ns"`
		Verdict *string   `json:"verdict"`
		Delta   *float64  `json:"delta_ns"`
	}
	var out struct {
		Version int `json:"version"`
		Sides   []struct {
			Format  string `json:"format"`
			OnCPUNs int64  `json:"on_cpu_ns"`
		} `json:"sides"`
		Packages []struct {
			Self measure `json:"self"`
		} `json:"packages"`
		Functions []struct {
			Function string  `json:"function"`
			Line     int32   `json:"line"`
			Self     measure `json:"self"`
			Total    measure `json:"total"`
		} `json:"functions"`
		Files    []json.RawMessage `json:"files"`
		Paths    []json.RawMessage `json:"paths"`
		Warnings []string          `json:"warnings"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out.Version != JSONVersion || len(out.Sides) != 1 || out.Sides[0].Format != "cpuprofile" {
		t.Fatalf("header = %+v", out)
	}
	if len(out.Functions) != len(r.Functions) || len(out.Files) != len(r.Files) || out.Warnings == nil || out.Paths == nil {
		t.Errorf("rows: %d functions of %d, %d files of %d", len(out.Functions), len(r.Functions), len(out.Files), len(r.Files))
	}
	var sum float64
	for _, p := range out.Packages {
		sum += p.Self.Ns[0]
	}
	if sum != float64(out.Sides[0].OnCPUNs) {
		t.Errorf("package self sums to %v, on-CPU is %d", sum, out.Sides[0].OnCPUNs)
	}
	for _, f := range out.Functions {
		if f.Function == "" || len(f.Self.Ns) != 1 || f.Self.Ns[0] > f.Total.Ns[0] || f.Self.Verdict != nil || f.Self.Delta != nil {
			t.Errorf("bad function row %+v", f)
		}
	}
}

// TestTopByTotalShowsEntryPoints: a function with no self time (an entry
// point) must appear among the top functions by total time.
func TestTopByTotalShowsEntryPoints(t *testing.T) {
	r := report(t, "go-router-before.pprof")
	var b bytes.Buffer
	if err := WriteText(&b, r, TextOptions{Top: 5}); err != nil {
		t.Fatal(err)
	}
	_, byTotal, _ := strings.Cut(b.String(), "by total time")
	lines := strings.Split(byTotal, "\n")
	if len(lines) < 3 || !strings.Contains(lines[2], "       0  0.0% example.com/routerbench.BenchmarkServe") {
		t.Errorf("the benchmark entry point (no self time) is not first by total:\n%s", byTotal)
	}
}

func TestElideShapes(t *testing.T) {
	cases := map[string]string{
		"slices.SortFunc[go.shape.[]example.com/x.E,go.shape.struct { A []string }]":     "slices.SortFunc[...]",
		"internal/sync.(*HashTrieMap[go.shape.interface {},go.shape.interface {}]).Load": "internal/sync.(*HashTrieMap[...]).Load",
		"runtime.mallocgc": "runtime.mallocgc",
	}
	for in, want := range cases {
		if got := elideShapes(in); got != want {
			t.Errorf("elideShapes(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTextColorsVerdicts: with colour, exactly the cells that show a
// verdict are coloured, by that verdict (the headline's change is not);
// without it, the text is the same but for the colours.
func TestTextColorsVerdicts(t *testing.T) {
	r := routerPair(t, diff.DefaultOptions())
	var plain, colored bytes.Buffer
	if err := WriteText(&plain, r, TextOptions{Top: 12}); err != nil {
		t.Fatal(err)
	}
	if err := WriteText(&colored, r, TextOptions{Top: 12, Color: true}); err != nil {
		t.Fatal(err)
	}
	esc := regexp.MustCompile(`\x1b\[(32|31|2)m([^\x1b]*)\x1b\[0m`)
	if got := esc.ReplaceAllString(colored.String(), "$2"); got != plain.String() {
		t.Errorf("colour changed the text:\n%s", firstDiff(plain.String(), got))
	}
	want := map[string]string{"32": "better gone", "31": "worse new", "2": "~"}
	seen := map[string]int{}
	for _, m := range esc.FindAllStringSubmatch(colored.String(), -1) {
		v := strings.TrimSuffix(strings.TrimSpace(m[2]), "*")
		if !strings.Contains(want[m[1]], v) {
			t.Errorf("%q coloured %s", m[2], m[1])
		}
		seen[m[1]]++
	}
	if seen["32"] == 0 || seen["2"] == 0 {
		t.Errorf("coloured cells: %v", seen)
	}
	head, _, _ := strings.Cut(colored.String(), "Where it changed")
	if strings.Contains(head, "\x1b") {
		t.Errorf("the headline is coloured:\n%s", head)
	}
}
