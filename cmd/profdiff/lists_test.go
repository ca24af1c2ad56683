package main

import (
	"slices"
	"strings"
	"testing"
)

func TestExpandListFlags(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"--before", "b1", "b2", "--after", "a1", "a2"}, []string{"--before", "b1", "--before", "b2", "--after", "a1", "--after", "a2"}},
		{[]string{"--before=b1", "b2", "--after", "a1"}, []string{"--before=b1", "--before", "b2", "--after", "a1"}},
		{[]string{"--format", "json", "x", "y"}, []string{"--format", "json", "x", "y"}},
		{[]string{"--before", "b1", "--top", "5", "--after", "a1"}, []string{"--before", "b1", "--top", "5", "--after", "a1"}},
		{[]string{"--before", "b1", "--", "x"}, []string{"--before", "b1", "--", "x"}},
	} {
		if got := expandListFlags(c.in); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
	// From the command line, as the usage line shows it (issue 26, item 13).
	b, a := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	if code, out, errs := runCLI("--format", "json", "--before", b, b, "--after", a, a); code != 0 || !onlyWarnings(errs) || !strings.Contains(out, `"runs": 2`) {
		t.Errorf("--before b1 b2 --after a1 a2: exit %d %q", code, errs)
	}
}
