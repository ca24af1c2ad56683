package report

import (
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/analyze/analyzetest"
	"github.com/profdiff/profdiff/diff"
)

// minifiedRun is a synthetic run in which share of the on-CPU time is in
// the minified script lib, which had no map, among scripts.
func minifiedRun(lib string, scripts int, share int64) *analyze.Table {
	tab := analyzetest.Synthetic(6, analyzetest.Fn("parse", 20), 100, 100, 800, analyze.Key{}, 0)
	tab.Symbolication = &analyze.Symbolication{Scripts: scripts, OnCPUJSNs: tab.Summary.OnCPUNs, Missing: []string{lib},
		Minified: []string{lib}, UnmappedMinifiedNs: tab.Summary.OnCPUNs / share}
	return tab
}

// headlineRow returns the headline row of label, nil when there is none.
func headlineRow(t *testing.T, sides []diff.Side, label string) []string {
	t.Helper()
	r, err := diff.Compare(sides, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range NewView(r).HeadlineRows() {
		if h[0].Text == label {
			return Texts(h)
		}
	}
	return nil
}

// TestHeadlineUnmapped: time in minified code without a map is a
// headline row with its share and the script's name.
func TestHeadlineUnmapped(t *testing.T) {
	run := func() *analyze.Table { return minifiedRun("/srv/dist/app.min.js", 1, 2) }
	row := headlineRow(t, []diff.Side{{Name: "before", Tables: []*analyze.Table{run(), run()}}, {Name: "after", Tables: []*analyze.Table{run(), run()}}}, "unmapped")
	if row == nil || row[1] != "50.0%" || !strings.Contains(row[3], "app.min.js") || strings.Contains(row[3], "/srv") {
		t.Errorf("unmapped row %q", row)
	}
}

// TestComparedNoBundles: two sides where no script was mapped and only a
// minified library lacks a map say so, instead of "maps 0.0% 0.0%".
func TestComparedNoBundles(t *testing.T) {
	run := func() *analyze.Table { return minifiedRun("/x/lib.min.js", 3, 10) }
	row := headlineRow(t, []diff.Side{{Name: "before", Tables: []*analyze.Table{run()}}, {Name: "after", Tables: []*analyze.Table{run()}}}, "maps")
	if row == nil || row[1] != "-" || !strings.Contains(row[3], "no script mapped") {
		t.Errorf("maps row %q", row)
	}
}

// TestPathTextElidesPassingFrames: in the cache change (2 + 2 runs), the
// module loader's frames between the entry point and main pass the same
// change on: the first path's text elides them.
func TestPathTextElidesPassingFrames(t *testing.T) {
	side := func(name string, files ...string) diff.Side {
		s := diff.Side{Name: name}
		for _, f := range files {
			s.Tables = append(s.Tables, analyzetest.Table(t, "cache/"+f))
		}
		return s
	}
	r, err := diff.Compare([]diff.Side{side("before", "before-r1.cpuprofile", "before-r2.cpuprofile"),
		side("after", "after-r1.cpuprofile", "after-r2.cpuprofile")}, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Paths) == 0 {
		t.Fatal("no path")
	}
	if text := NewView(r).PathText(r.Paths[0]); !strings.Contains(text, "… 6 …") || strings.Contains(text, "Module.load") {
		t.Errorf("first path not elided: %s", text)
	}
}

// TestTopChangesHeaviestFirstOnTies: comparing a profile with itself, no
// row changes, and the top-changes tables list the heaviest rows (by total
// time, then self time), not the first names in alphabetical order.
func TestTopChangesHeaviestFirstOnTies(t *testing.T) {
	p, err := analyze.ParseFile("../testdata/node-router-unbundled-before.cpuprofile", analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tab := analyze.Aggregate(p, analyze.AggregateOptions{})
	r, err := diff.Compare([]diff.Side{{Name: "before", Tables: []*analyze.Table{tab}}, {Name: "after", Tables: []*analyze.Table{tab}}}, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	v := NewView(r)
	for name, rows := range map[string][]diff.Row{"packages": r.Packages, "functions": r.Functions} {
		top := v.TopChanges(rows, 10)
		if len(top) != 10 {
			t.Fatalf("%s: %d rows", name, len(top))
		}
		for i := 1; i < len(top); i++ {
			a, b := &top[i-1], &top[i]
			if a.Total.Mean[0] < b.Total.Mean[0] || a.Total.Mean[0] == b.Total.Mean[0] && a.Self.Mean[0] < b.Self.Mean[0] {
				t.Errorf("%s: %v (total %.0f, self %.0f) before the heavier %v (total %.0f, self %.0f)", name,
					a.Key, a.Total.Mean[0], a.Self.Mean[0], b.Key, b.Total.Mean[0], b.Self.Mean[0])
			}
		}
	}
	if got := v.TopChanges(r.Functions, 1)[0].Key.Function; got != "main" {
		t.Errorf("heaviest function %q, want main (5.80 s total)", got)
	}
}

// plainRun is a synthetic run whose JavaScript is in scripts that have no
// map and are not minified (tsc from npm, which names a map it does not
// ship): nothing to map, so no coverage to show.
func plainRun() *analyze.Table {
	tab := analyzetest.Synthetic(6, analyzetest.Fn("parse", 20), 100, 100, 800, analyze.Key{}, 0)
	tab.Symbolication = &analyze.Symbolication{Scripts: 2, OnCPUJSNs: tab.Summary.OnCPUNs, Missing: []string{"/srv/tsc.js", "/srv/_tsc.js"}}
	return tab
}

// TestNoMapsPlainCode: profiles whose scripts have no maps and no minified
// code say that no script was mapped, alone and compared, not "0.0%".
func TestNoMapsPlainCode(t *testing.T) {
	one := headlineRow(t, []diff.Side{{Name: "profile", Tables: []*analyze.Table{plainRun()}}}, "maps")
	if one == nil || one[1] != "-" || !strings.Contains(one[2], "no script mapped") || !strings.Contains(one[2], "2 scripts, none minified") {
		t.Errorf("one profile: maps row %q", one)
	}
	two := headlineRow(t, []diff.Side{{Name: "before", Tables: []*analyze.Table{plainRun()}}, {Name: "after", Tables: []*analyze.Table{plainRun()}}}, "maps")
	if two == nil || two[1] != "-" || two[2] != "-" || !strings.Contains(two[3], "no script mapped") {
		t.Errorf("compared: maps row %q", two)
	}
}
