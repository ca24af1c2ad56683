package main

import (
	"strings"
	"testing"
)

// TestStallRuleOnPprofIsRefused: a --fail-on stall rule on profiles
// without sample times fails with a message saying stalls cannot be
// measured from them (exit 2), and without such a rule a pprof comparison
// says nothing about stalls.
func TestStallRuleOnPprofIsRefused(t *testing.T) {
	p := fixture("go-router-before.pprof")
	code, _, stderr := runCLI("--fail-on", "longest-stall>+10%", p, p)
	if code != 2 || !strings.Contains(stderr, "stalls cannot be measured") || !strings.Contains(stderr, "no sample times") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, stdout, _ := runCLI(p, p)
	if code != 0 || strings.Contains(strings.ToLower(stdout), "stall") {
		t.Errorf("exit %d; a pprof comparison mentions stalls:\n%s", code, stdout)
	}
}

// TestStallRuleBreaks: the loader's stall shrank by about 400 ms, which a
// rule in ms sees, and which breaks a rule on shrinking (exit 1).
func TestStallRuleBreaks(t *testing.T) {
	b, a := fixture("responsiveness/before-r1.cpuprofile.gz"), fixture("responsiveness/after-r1.cpuprofile.gz")
	if code, _, stderr := runCLI("--fail-on", "longest-stall>+10ms", b, a); code != 0 {
		t.Errorf("a stall that shrank broke longest-stall>+10ms: exit %d %s", code, stderr)
	}
	code, stdout, _ := runCLI("--fail-on", "longest-stall<-100ms", b, a)
	if code != 1 || !strings.Contains(stdout, "FAILED longest-stall<-100ms") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
}

// TestStallsAreOfWholeRuns: narrowing by function drops the idle samples
// between stretches, so stalls are measured before it: --focus leaves the
// loader's longest stall as it was.
func TestStallsAreOfWholeRuns(t *testing.T) {
	b := fixture("responsiveness/before-r1.cpuprofile.gz")
	_, whole, _ := runCLI("--format", "json", b)
	code, focused, stderr := runCLI("--format", "json", "--focus", "tokenize", b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	longest := func(out string) string {
		i := strings.Index(out, `"longest_stall"`)
		if i < 0 {
			return ""
		}
		return out[i : i+strings.Index(out[i:], "]")]
	}
	if longest(whole) == "" || longest(whole) != longest(focused) {
		t.Errorf("longest stall %q, under --focus %q", longest(whole), longest(focused))
	}
}
