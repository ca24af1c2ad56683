package report

import (
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/analyze/analyzetest"
	"github.com/profdiff/profdiff/diff"
)

// FuzzJSONNames puts an arbitrary name in every string a report holds
// (function, package, file, side, warning, rule offenders' rows,
// narrowing, symbolication), one side and two, and holds WriteJSON to the
// reference writer byte for byte.
func FuzzJSONNames(f *testing.F) {
	for _, s := range []string{"", "plain", hostile, "\u009b2J", "\u202egnp.exe", "\xff", "<script>", "a\u2028b", "\U0010ffff", "\ufffd", "\x7f\u0080"} {
		f.Add(s, int64(800))
	}
	f.Fuzz(func(t *testing.T, name string, self int64) {
		self = max(0, self%5000)
		mk := func(run string, calleeSelf int64) *analyze.Table {
			callee := analyze.Key{Package: name, Function: name, File: "/src/" + name + ".js", Line: 3, Column: 9}
			min := analyze.Key{Package: "app", Function: "m" + name, File: name, Line: 1, Column: 500}
			tab := analyzetest.Synthetic(6, callee, 100, 100, calleeSelf, min, 30)
			tab.File = run + name
			tab.Warnings = []analyze.Warning{{Message: name}}
			tab.Symbolication = &analyze.Symbolication{Scripts: 1, Missing: []string{name}, Minified: []string{name}, UnmappedMinifiedNs: 1}
			return tab
		}
		rule, err := diff.ParseRule("package:*>+5%")
		if err != nil {
			t.Fatal(err)
		}
		opts := diff.DefaultOptions()
		opts.Rules = []diff.Rule{rule}
		opts.Narrowing = []string{"--focus", name}
		opts.WorkUnit = name
		for _, sides := range [][]diff.Side{
			{{Name: name, Tables: []*analyze.Table{mk("a", self)}}},
			{{Name: "before", Tables: []*analyze.Table{mk("b1", 800), mk("b2", 810)}, Work: 2}, {Name: name, Tables: []*analyze.Table{mk("a1", self), mk("a2", self+5)}, Work: 2}},
		} {
			r, err := diff.Compare(sides, opts)
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, r)
		}
	})
}
