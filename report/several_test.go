package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/analyze/analyzetest"
	"github.com/profdiff/profdiff/diff"
)

// threeSides is the unbundled router workload: before as the base, after
// (bucketed routing), and before again as a variant that changed nothing.
func threeSides(t *testing.T, opts diff.Options) (*diff.Report, []diff.Side) {
	t.Helper()
	before := analyzetest.Table(t, "node-router-unbundled-before.cpuprofile")
	after := analyzetest.Table(t, "node-router-unbundled-after.cpuprofile")
	sides := []diff.Side{
		{Name: "base", Tables: []*analyze.Table{before}},
		{Name: "bucketed", Tables: []*analyze.Table{after}},
		{Name: "again", Tables: []*analyze.Table{before}},
	}
	r, err := diff.Compare(sides, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r, sides
}

// The report of three sides, as text, markdown and JSON: pinned by
// goldens, and the markdown stays readable on a pull request: no table
// wider than 7 columns, even per unit of work, and no stray escapes.
func TestSeveralGolden(t *testing.T) {
	opts := withRule(t, "package:path-to-regexp<-10%")
	r, _ := threeSides(t, opts)
	txt, _ := writeGoldens(t, "router-several", r, TextOptions{Top: 12})
	for _, want := range []string{"FAILED (bucketed)", "bucketed takes the least on-CPU time", "path-to-regexp"} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	if strings.Contains(txt, "FAILED (again)") {
		t.Error("the base's own profile broke a rule")
	}

	perWork := make([]diff.Side, 3)
	_, sides := threeSides(t, opts)
	for i, s := range sides {
		s.Work = 1000
		perWork[i] = s
	}
	rw, err := diff.Compare(perWork, opts)
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, rw, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	cell := regexp.MustCompile(`(?:^|[^\\])\|`)
	for _, l := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(l, "|") && len(cell.FindAllString(l, -1))-1 > 7 {
			t.Errorf("a row of more than 7 columns: %s", l)
		}
	}
	if strings.Contains(md.String(), `\(`) || strings.Contains(md.String(), `\~`) {
		t.Errorf("stray escapes:\n%s", md.String())
	}
}
