package flamegraph

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
)

// hostile is what a profile's names may hold: markup, control characters,
// invalid UTF-8, line separators, C1 controls and bidi overrides.
const hostile = "</script><!--<&>\x00\x1b[31m\t\"\\ \u009b\xff\xc3 \u2028\u2029 \u202e\ufeff 😀"

// TestWriteMatchesReference holds the streaming Write to the writer it
// replaced (write_reference_test.go), byte for byte: one side and two,
// every fixture, hostile names and titles, sets of runs, no tree, no
// paths, the whole tree, per unit of work, a few table sizes.
func TestWriteMatchesReference(t *testing.T) {
	type pageCase struct {
		r    *diff.Report
		opts Options
	}
	cases := map[string]pageCase{}
	cmp := func(name string, opts diff.Options, page Options, tabs ...*analyze.Table) {
		t.Helper()
		var sides []diff.Side
		for i, tab := range tabs {
			sides = append(sides, diff.Side{Name: []string{"before", "after"}[i], Tables: []*analyze.Table{tab}})
		}
		r, err := diff.Compare(sides, opts)
		if err != nil {
			t.Fatal(err)
		}
		cases[name] = pageCase{r, page}
	}
	fixtures, _ := filepath.Glob(filepath.Join("..", "testdata", "*.*"))
	for _, f := range fixtures {
		if strings.HasSuffix(f, ".md") {
			continue
		}
		name := filepath.Base(f)
		cmp("one "+name, diff.DefaultOptions(), Options{Title: name}, aggregate(t, name, nil))
	}
	before := aggregate(t, "node-router-unbundled-before.cpuprofile", nil)
	after := aggregate(t, "node-router-unbundled-after.cpuprofile", nil)
	rename := map[string]string{"handle": hostile, "match": evil, "next": hostile + "next"}
	hb := aggregate(t, "node-router-unbundled-before.cpuprofile", rename)
	ha := aggregate(t, "node-router-unbundled-after.cpuprofile", rename)
	def := diff.DefaultOptions()
	cmp("router pair", def, Options{Title: "test"}, before, after)
	cmp("router pair untitled top 3", def, Options{Top: 3}, before, after)
	cmp("router pair top 1000", def, Options{Title: "x", Top: 1000}, before, after)
	cmp("router reversed", def, Options{Title: hostile}, after, before)
	cmp("router against itself", def, Options{Title: "same"}, before, before)
	cmp("router hostile", def, Options{Title: evil}, hb, ha)
	cmp("router hostile one side", def, Options{Title: evil}, hb)
	opts := diff.DefaultOptions()
	opts.MaxPaths, opts.TreeMinShare = -1, -1
	cmp("router no paths whole tree", opts, Options{}, before, after)
	opts = diff.DefaultOptions()
	opts.TreeMinShare = 0.05
	cmp("router small tree", opts, Options{}, before, after)
	// No call tree at all.
	p, err := analyze.ParseFile(filepath.Join("..", "testdata", "go-router-before.pprof"), analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	flat := analyze.Aggregate(p, analyze.AggregateOptions{})
	cmp("no tree one side", def, Options{}, flat)
	cmp("no tree two sides", def, Options{}, flat, flat)
	// Per unit of work.
	r, err := diff.Compare([]diff.Side{{Name: "before", Tables: []*analyze.Table{before}, Work: 40000}, {Name: "after", Tables: []*analyze.Table{after}, Work: 40000}},
		func() diff.Options { o := diff.DefaultOptions(); o.WorkUnit = "request"; return o }())
	if err != nil {
		t.Fatal(err)
	}
	cases["router per request"] = pageCase{r, Options{Title: "work"}}
	// Five runs a side, from the corpus.
	var sides []diff.Side
	for _, name := range []string{"before", "after"} {
		s := diff.Side{Name: name}
		for i := 1; i <= 5; i++ {
			path := filepath.Join("..", "..", "shared", "corpus", "node-router-ab", fmt.Sprintf("%s-r%d.cpuprofile", name, i))
			if _, err := os.Stat(path); err != nil {
				break
			}
			p, err := analyze.ParseFile(path, analyze.ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			s.Tables = append(s.Tables, analyze.Aggregate(p, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true}))
		}
		sides = append(sides, s)
	}
	if len(sides[0].Tables) > 0 && len(sides[1].Tables) > 0 {
		r, err := diff.Compare(sides, diff.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		cases["corpus router runs"] = pageCase{r, Options{Title: "corpus"}}
		r, err = diff.Compare(sides[:1], diff.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		cases["corpus router one side"] = pageCase{r, Options{}}
	}
	if len(cases) < 20 {
		t.Fatalf("only %d cases", len(cases))
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var got, want bytes.Buffer
			if err := writeReference(&want, c.r, c.opts); err != nil {
				t.Fatalf("reference: %v", err)
			}
			if err := Write(&got, c.r, c.opts); err != nil {
				t.Fatalf("Write: %v", err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				g, w := got.Bytes(), want.Bytes()
				i := 0
				for i < len(g) && i < len(w) && g[i] == w[i] {
					i++
				}
				t.Fatalf("Write differs from the reference at byte %d of %d/%d:\n got: %.200s\nwant: %.200s", i, len(g), len(w), g[i:], w[i:])
			}
		})
	}
}
