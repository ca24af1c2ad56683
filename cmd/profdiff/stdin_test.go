package main

import (
	"os"
	"strings"
	"testing"
)

// TestStandardInputOnce: "-" given twice through --before/--after (not
// only as BEFORE AFTER) is one clear error, not "empty file" from the
// second read; --list - lists the profiles of standard input.
func TestStandardInputOnce(t *testing.T) {
	for _, args := range [][]string{
		{"--before", "-", "--after", "-"},
		{"--before", "-", "--before", "-", "--after", fixture("node-router-unbundled-after.cpuprofile")},
	} {
		code, _, errs := runCLI(args...)
		if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "standard input (-) can be one side only") {
			t.Errorf("%q: exit %d, stderr %q", args, code, errs)
		}
	}
	data, err := os.ReadFile(fixture("chrome156-multi-thread.trace.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	var o, e strings.Builder
	if code := run([]string{"--list", "-"}, strings.NewReader(string(data)), &o, &e); code != 0 || !strings.Contains(o.String(), "* CrRendererMain (pid 5380") {
		t.Errorf("--list -: exit %d, stdout %q, stderr %q", code, o.String(), e.String())
	}
}
