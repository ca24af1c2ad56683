package main

import (
	"os"
	"path/filepath"
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
		// On standard output the report advises, and stderr does not
		// repeat it (issue 26, item 14); written to a file, stderr says it.
		code, out, errs := runCLI(fixture(c.file))
		if code != 0 || !strings.Contains(out, c.advice) || strings.Contains(errs, c.advice) {
			t.Errorf("%s: exit %d; the report, not stderr, should advise %q:\n%s\n%s", c.file, code, c.advice, out, errs)
		}
		file := filepath.Join(t.TempDir(), "report.txt")
		code, _, errs = runCLI("-o", file, fixture(c.file))
		if written, _ := os.ReadFile(file); code != 0 || !strings.Contains(string(written), c.advice) || !strings.Contains(errs, c.advice) {
			t.Errorf("%s -o: exit %d; the report and stderr should advise %q:\n%s", c.file, code, c.advice, errs)
		}
		if code, _, errs = runCLI("-q", "-o", file, fixture(c.file)); code != 0 || errs != "" {
			t.Errorf("%s -q: exit %d, stderr %q", c.file, code, errs)
		}
	}
}

// A report on standard output that nobody reads (/dev/null, as in CI) has
// its warnings said on stderr; one written to a redirected file does not
// (issue 26, item 14).
func TestWarningsOnStderrOnlyWhenTheReportIsNotRead(t *testing.T) {
	profile := fixture("chrome-cdp-page.cpuprofile") // warns: a minified script without a map
	for _, c := range []struct {
		stdout string
		want   bool
	}{{os.DevNull, true}, {filepath.Join(t.TempDir(), "report.txt"), false}} {
		f, err := os.Create(c.stdout)
		if err != nil {
			t.Fatal(err)
		}
		var errs strings.Builder
		code := run([]string{profile}, strings.NewReader(""), f, &errs)
		f.Close()
		if code != 0 || strings.Contains(errs.String(), "warning:") != c.want {
			t.Errorf("stdout %s: exit %d, stderr %q", c.stdout, code, errs.String())
		}
	}
}
