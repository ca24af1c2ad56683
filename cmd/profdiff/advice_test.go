package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/symbolicate"
)

// TestWarningsNameNoFlagsButTheCommandAdvises: the libraries' warnings say
// what happened without naming a flag; the report the command writes adds
// the flag to act on. Without advise, the second half fails.
func TestWarningsNameNoFlagsButTheCommandAdvises(t *testing.T) {
	flag := regexp.MustCompile(`(^|\s)--[a-z]`)
	cases := []struct{ file, advice string }{
		{"chrome156-multi-process.trace.json.gz", "(see --list, pick with --thread)"},
		{"chrome-cdp-page.cpuprofile", "point --sourcemaps at the folder holding each script"},
	}
	for _, c := range cases {
		p, err := analyze.ParseFile(fixture(c.file), analyze.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		symbolicate.New(symbolicate.Options{}).Apply(p)
		tab := analyze.Aggregate(p, analyze.AggregateOptions{})
		r, err := diff.Compare([]diff.Side{{Name: "before", Tables: []*analyze.Table{tab}}, {Name: "after", Tables: []*analyze.Table{tab}}}, diff.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Warnings) == 0 {
			t.Fatalf("%s: no warning", c.file)
		}
		for _, w := range r.Warnings {
			if flag.MatchString(w.String()) {
				t.Errorf("%s: a library names a flag: %q", c.file, w)
			}
		}
		code, out, errs := runCLI(fixture(c.file))
		if code != 0 || !strings.Contains(out, c.advice) || !strings.Contains(errs, c.advice) {
			t.Errorf("%s: exit %d; the report and stderr should advise %q:\n%s\n%s", c.file, code, c.advice, out, errs)
		}
	}
}
