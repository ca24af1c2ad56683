package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/analyze/analyzetest"
	"github.com/profdiff/profdiff/diff"
)

// resourceReport compares the same fixture as n sides, each with the
// given max RSS runs (MiB) and wall runs, the first side's max RSS a bound
// when bound is set.
func resourceReport(t *testing.T, rss [][]float64, bound bool) *diff.Report {
	t.Helper()
	tab := analyzetest.Table(t, "go-router-before.pprof")
	var sides []diff.Side
	for i, runs := range rss {
		var tables []*analyze.Table
		var mib, wall, wallU []float64
		for j, x := range runs {
			tables = append(tables, tab)
			mib = append(mib, x*(1<<20))
			wall = append(wall, 1e9+float64(j)*1e7)
			wallU = append(wallU, 0.9e9+float64(j)*1e7)
		}
		sides = append(sides, diff.Side{Name: []string{"base", "head", "other"}[i], Tables: tables, Resources: []diff.ResourceRuns{
			{Kind: "profiled", Name: "wall", Unit: "ns", Runs: wall},
			{Kind: "profiled", Name: "max_rss", Unit: "bytes", Runs: mib, AtMost: bound && i == 0},
			{Kind: "unprofiled", Name: "wall", Unit: "ns", Runs: wallU},
		}})
	}
	r, err := diff.Compare(sides, diff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestResourcesText: the resource table has a row per side and kind, the
// variant's cell its change and verdict, the bound marked, and the
// profiling cost; a report without resources has no such table.
func TestResourcesText(t *testing.T) {
	r := resourceReport(t, [][]float64{{100, 101, 99, 100, 100}, {150, 151, 149, 150, 150}}, false)
	var b bytes.Buffer
	if err := WriteText(&b, r, TextOptions{Top: 3}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"Resources per run, from the operating system", "100.0 MiB ±0.7 MiB", "150.0 MiB ±0.7 MiB +50.0% worse", "head (unprofiled)",
		"profiling cost (profiled runs' mean over unprofiled runs'): base: wall +10.9%"} {
		if !strings.Contains(out, want) {
			t.Errorf("text does not say %q:\n%s", want, out[strings.Index(out, "Resources"):])
		}
	}
	bound := resourceReport(t, [][]float64{{100, 101, 99, 100, 100}, {150, 151, 149, 150, 150}}, true)
	b.Reset()
	_ = WriteText(&b, bound, TextOptions{Top: 3})
	if !strings.Contains(b.String(), "≤100.0 MiB") || !strings.Contains(b.String(), "+50.0% ~") {
		t.Errorf("a bound is not marked, or was judged:\n%s", b.String()[strings.Index(b.String(), "Resources"):])
	}
	plain, err := diff.Compare([]diff.Side{{Name: "a", Tables: []*analyze.Table{analyzetest.Table(t, "go-router-before.pprof")}}}, diff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	_ = WriteText(&b, plain, TextOptions{Top: 3})
	if strings.Contains(b.String(), "Resources per run") {
		t.Error("a report without resources shows their table")
	}
}

// TestResourcesJSON: three sides give one change per variant in vs_base;
// a pair's change is at the top as well; the bound is said.
func TestResourcesJSON(t *testing.T) {
	var doc struct {
		Resources []struct {
			Kind, Name, Unit string
			Mean             []float64
			AtMost           []bool `json:"at_most"`
			Verdict          string
			VsBase           []struct {
				Side, Verdict string
				DeltaPct      float64 `json:"delta_pct"`
			} `json:"vs_base"`
		}
	}
	var b bytes.Buffer
	three := resourceReport(t, [][]float64{{100, 101, 99, 100, 100}, {100, 100, 101, 99, 100}, {200, 201, 199, 200, 200}}, false)
	if err := WriteJSON(&b, three); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Resources) != 3 {
		t.Fatalf("%d resources, want 3", len(doc.Resources))
	}
	rss := doc.Resources[1]
	if rss.Name != "max_rss" || rss.Unit != "bytes" || len(rss.VsBase) != 2 || rss.VsBase[0].Side != "head" || rss.VsBase[0].Verdict != "~" ||
		rss.VsBase[1].Side != "other" || rss.VsBase[1].Verdict != "worse" || rss.AtMost != nil {
		t.Errorf("three sides' max RSS: %+v", rss)
	}
	b.Reset()
	if err := WriteJSON(&b, resourceReport(t, [][]float64{{100, 101, 99, 100, 100}, {150, 151, 149, 150, 150}}, true)); err != nil {
		t.Fatal(err)
	}
	doc.Resources = nil
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if rss := doc.Resources[1]; rss.Verdict != "~" || len(rss.AtMost) != 2 || !rss.AtMost[0] || len(rss.VsBase) != 1 {
		t.Errorf("a pair's bounded max RSS: %+v", rss)
	}
}

// TestResourcesMarkdown: the pull-request comment folds the resource
// tables under their own summary, the side first, each change with its
// verdict, and the profiling cost below; a report without resources has
// no such section.
func TestResourcesMarkdown(t *testing.T) {
	r := resourceReport(t, [][]float64{{100, 101, 99, 100, 100}, {150, 151, 149, 150, 150}}, false)
	var b bytes.Buffer
	if err := WriteMarkdown(&b, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	_, section, ok := strings.Cut(out, "<details><summary>Resources per run, from the operating system</summary>")
	section, _, _ = strings.Cut(section, "</details>")
	if !ok {
		t.Fatalf("no resources section:\n%s", out)
	}
	for _, want := range []string{"| side | wall | max RSS |", "| head | ", "**150.0 MiB ±0.7 MiB +50.0% worse**", "profiling cost"} {
		if !strings.Contains(section, want) {
			t.Errorf("the resources section lacks %q:\n%s", want, section)
		}
	}
	b.Reset()
	plain := resourceReport(t, [][]float64{{100}, {150}}, false)
	plain.Resources = nil
	if err := WriteMarkdown(&b, plain, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Resources per run") {
		t.Errorf("a report without resources has a resources section")
	}
}
