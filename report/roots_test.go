package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/analyze/analyzetest"
	"github.com/profdiff/profdiff/diff"
)

// checkoutsPair is the router pair with the after side run from another
// checkout (/srv/checkouts/pr-4242/ instead of /srv/node-workload/), its
// files matched below each side's root when match is set.
func checkoutsPair(t *testing.T, match bool) *diff.Report {
	t.Helper()
	sides := []diff.Side{
		{Name: "before", Tables: []*analyze.Table{analyzetest.Table(t, "node-router-unbundled-before.cpuprofile")}},
		{Name: "after", Tables: []*analyze.Table{analyzetest.Table(t, filepath.Join("checkouts", "node-router-after-pr-4242.cpuprofile.gz"))}},
	}
	if match {
		diff.Relocate(sides, diff.GuessRoots(sides, 0))
	}
	r, err := diff.Compare(sides, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCheckoutsMatchTheOnePathComparison: the pair run from two checkouts,
// matched below their roots, reads as the pair run from one path, row for
// row, and says that it matched; unmatched, its own code is all new and
// gone.
func TestCheckoutsMatchTheOnePathComparison(t *testing.T) {
	text := func(r *diff.Report) []string {
		var b bytes.Buffer
		if err := WriteText(&b, r, TextOptions{Top: 0, Files: true}); err != nil {
			t.Fatal(err)
		}
		return strings.Split(b.String(), "\n")
	}
	one, two := text(routerPair(t, diff.DefaultOptions())), text(checkoutsPair(t, true))
	const head = "matched node-workload/ ↔ checkouts/pr-4242/ (locations are relative to /srv/node-workload/deploy/src/ and /srv/checkouts/pr-4242/deploy/src/)"
	if two[2] != head {
		t.Errorf("header line 3:\n got %s\nwant %s", two[2], head)
	}
	if one[2] != "locations are relative to /srv/node-workload/deploy/src/" {
		t.Errorf("the one-path pair's line 3: %s", one[2])
	}
	// Past the header, the rows up to the warnings (which name each
	// side's own script) are the same.
	end := func(lines []string) int {
		for i, l := range lines {
			if strings.HasPrefix(l, "Warnings") {
				return i
			}
		}
		return len(lines)
	}
	if a, b := strings.Join(one[3:end(one)], "\n"), strings.Join(two[3:end(two)], "\n"); a != b {
		t.Errorf("the rows differ from the one-path comparison's:\n%s", firstDiff(a, b))
	}
	unmatched := checkoutsPair(t, false)
	var news, gones int
	for _, r := range unmatched.Functions {
		switch r.Total.Change.Verdict {
		case diff.VerdictNew:
			news++
		case diff.VerdictGone:
			gones++
		}
	}
	if news < 20 || gones < 20 {
		t.Errorf("unmatched: %d new and %d gone functions, want the program's own all new and gone", news, gones)
	}
	if m := NewView(unmatched).Matched(); m != "" {
		t.Errorf("unmatched says %q", m)
	}

	var md bytes.Buffer
	if err := WriteMarkdown(&md, checkoutsPair(t, true), MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "_Matched node-workload/ ↔ checkouts/pr-4242/ (locations are relative to") {
		t.Errorf("markdown does not say it matched:\n%.1500s", md.String())
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, checkoutsPair(t, true)); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Sides []struct {
			Root string `json:"root"`
		} `json:"sides"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Sides) != 2 || doc.Sides[0].Root != "/srv/node-workload/" || doc.Sides[1].Root != "/srv/checkouts/pr-4242/" {
		t.Errorf("JSON sides' roots: %+v", doc.Sides)
	}
}

func TestMatchedNamesTheRoots(t *testing.T) {
	side := func(root string) diff.SideSummary { return diff.SideSummary{Name: "s", Root: root} }
	for _, tc := range []struct {
		roots         []string
		matched, root string
	}{
		{[]string{"/ci/old/", "/ci/new/"}, "matched old/ ↔ new/ (locations are relative to /ci/old/ and /ci/new/)", ""},
		{[]string{"/a/", "/b/x/"}, "matched a/ ↔ b/x/ (locations are relative to /a/ and /b/x/)", ""},
		{[]string{"/ci/base/", "", "/ci/pr/"}, "matched base/ ↔ (as recorded) ↔ pr/ (locations are relative to /ci/base/ and /ci/pr/)", ""},
		{[]string{"/ci/a/", "/ci/a/", "/ci/b/"}, "matched a/ ↔ a/ ↔ b/ (locations are relative to /ci/a/ and /ci/b/)", ""},
		{[]string{"/ci/a/", "/ci/a/"}, "", "/ci/a/"}, // one root: locations are relative to it
		{[]string{"", ""}, "", ""},
	} {
		r := &diff.Report{}
		for _, x := range tc.roots {
			r.Sides = append(r.Sides, side(x))
		}
		v := NewView(r)
		if got := v.Matched(); got != tc.matched {
			t.Errorf("%q: Matched %q, want %q", tc.roots, got, tc.matched)
		}
		if got := v.Root(); got != tc.root {
			t.Errorf("%q: Root %q, want %q", tc.roots, got, tc.root)
		}
	}
	// Files keyed below a root read from their package's folder, as the
	// files of one path do.
	r := &diff.Report{Sides: []diff.SideSummary{side("/ci/old/"), side("/ci/new/")}}
	if got := NewView(r).File(analyze.Key{Package: "lodash", File: "node_modules/lodash/lodash.js"}); got != "lodash/lodash.js" {
		t.Errorf("a package's file below a root: %q", got)
	}
}
