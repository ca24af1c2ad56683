package diff

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// report reads a shared fixture and builds its one-sided report.
func report(t *testing.T, name string) *Report {
	t.Helper()
	path := filepath.Join("..", "testdata", name)
	p, err := analyze.ParseFile(path, analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tab := analyze.Aggregate(p, analyze.AggregateOptions{})
	tab.File = name // goldens name the fixture, not the path from this package
	r, err := Compare([]Side{{Name: "profile", Tables: []*analyze.Table{tab}}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return r
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
		t.Fatalf("%v (run go test ./diff -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test ./diff -update rewrites it):\n%s", path, firstDiff(string(want), string(got)))
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

func itoa(i int) string { return Count(int64(i)) }

var goldenFixtures = []struct{ fixture, golden string }{
	{"node-router-unbundled-before.cpuprofile", "node-router-unbundled-before"},
	{"chrome156-multi-process.trace.json.gz", "chrome156-multi-process"},
	{"go-router-before.pprof", "go-router-before"},
	{"node-pprof-before.pb.gz", "node-pprof-before"},
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
			golden(t, g.golden+".json", b.Bytes())
		})
	}
}

// TestComparedGolden pins the two-sided text, markdown and JSON of the
// unbundled router pair.
func TestComparedGolden(t *testing.T) {
	rule, err := ParseRule("package:*>+5%")
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions()
	opts.Rules = []Rule{rule}
	r := routerPair(t, opts)
	var txt, md, js bytes.Buffer
	if err := WriteText(&txt, r, TextOptions{Top: 12, Files: true}); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	// The JSON golden keeps the first 20 functions and files, to stay small.
	short := *r
	short.Functions, short.Files = r.Functions[:20], r.Files[:20]
	if err := WriteJSON(&js, &short); err != nil {
		t.Fatal(err)
	}
	golden(t, "router-compare.txt", txt.Bytes())
	golden(t, "router-compare.md", md.Bytes())
	golden(t, "router-compare.json", js.Bytes())
}

// TestJSONShape checks the version-1 shape: every row, one number per side,
// and totals that add up.
func TestJSONShape(t *testing.T) {
	r := report(t, "chrome-cdp-page.cpuprofile")
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Version int `json:"version"`
		Sides   []struct {
			Format  string `json:"format"`
			OnCPUNs int64  `json:"on_cpu_ns"`
		} `json:"sides"`
		Packages []struct {
			Self []int64 `json:"self_ns"`
		} `json:"packages"`
		Functions []struct {
			Function string  `json:"function"`
			Line     int32   `json:"line"`
			Self     []int64 `json:"self_ns"`
			Total    []int64 `json:"total_ns"`
		} `json:"functions"`
		Files    []json.RawMessage `json:"files"`
		Warnings []string          `json:"warnings"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out.Version != 1 || len(out.Sides) != 1 || out.Sides[0].Format != "cpuprofile" {
		t.Fatalf("header = %+v", out)
	}
	if len(out.Functions) != len(r.Functions) || len(out.Files) != len(r.Files) || out.Warnings == nil {
		t.Errorf("rows: %d functions of %d, %d files of %d", len(out.Functions), len(r.Functions), len(out.Files), len(r.Files))
	}
	var sum int64
	for _, p := range out.Packages {
		sum += p.Self[0]
	}
	if sum != out.Sides[0].OnCPUNs {
		t.Errorf("package self sums to %d, on-CPU is %d", sum, out.Sides[0].OnCPUNs)
	}
	for _, f := range out.Functions {
		if f.Function == "" || len(f.Self) != 1 || f.Self[0] > f.Total[0] {
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

func TestDuration(t *testing.T) {
	cases := map[int64]string{0: "0", 999: "999 ns", 1500: "2 µs", 2_340_000: "2.3 ms", 123_400_000: "123 ms", 6_810_000_000: "6.81 s", -2_000_000: "-2.0 ms"}
	for ns, want := range cases {
		if got := Duration(ns); got != want {
			t.Errorf("Duration(%d) = %q, want %q", ns, got, want)
		}
	}
	if got := Count(1234567); got != "1,234,567" {
		t.Errorf("Count = %q", got)
	}
}

func TestCutMiddle(t *testing.T) {
	if got := fitName(strings.Repeat("a", 30) + strings.Repeat("b", 30)); len([]rune(got)) != nameWidth || !strings.Contains(got, "…") {
		t.Errorf("fitName = %q", got)
	}
	if got := fitPath("/very/long/" + strings.Repeat("x/", 40) + "file.js:12"); !strings.HasSuffix(got, "file.js:12") {
		t.Errorf("fitPath lost the tail: %q", got)
	}
	if got := fitName("RegExp: a\nb"); got != `RegExp: a\nb` {
		t.Errorf("control characters: %q", got)
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
