package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// A --fail-on rule naming rows that no side has could never break: a
// misspelt package:lodahs>+5% exited 0 as a passed gate. It is an error
// naming the rule, unless the name is * (issue 26, item 9).
func TestGateMatchingNothingIsAnError(t *testing.T) {
	b, a := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	for _, rule := range []string{"package:lodahs>+5%", "function:nosuchfunction<-5%", "file:nosuch.js>+5pp", "package-total:lodahs>+5%", "function-total:nosuch>+1%"} {
		code, stdout, errs := runCLI("--fail-on", rule, b, a)
		if code != 2 || stdout != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, rule) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and one line naming the rule", rule, code, errs)
		}
	}
	for _, rule := range []string{"package:lodash>+5%", "package-total:path-to-regexp<-10%", "function:match>+500%", "file:router.js>+5%", "package:*>+1000%", "on-cpu>+5%"} {
		if code, _, errs := runCLI("--fail-on", rule, b, a); code == 2 {
			t.Errorf("%s: exit 2: %s", rule, errs)
		}
	}
	// Narrowed to nothing, a named rule matches nothing either; * is
	// still a gate.
	if code, _, errs := runCLI("--focus", "zzzz", "--fail-on", "package:lodash>+5%", b, a); code != 2 || !strings.Contains(errs, "--focus zzzz") {
		t.Errorf("focused away: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI("--focus", "zzzz", "--fail-on", "package:*>+5%", b, a); code != 0 {
		t.Errorf("package:* focused away: exit %d, %q", code, errs)
	}
	// With a base and variants, a name found in any pair is judged; one
	// found in none is the error.
	sides := []string{"--side", "base=" + b, "--side", "bucketed=" + a, "--side", "again=" + b}
	if code, _, errs := runCLI(append([]string{"--fail-on", "package:lodahs>+5%"}, sides...)...); code != 2 || !strings.Contains(errs, "lodahs") {
		t.Errorf("several sides: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(append([]string{"--fail-on", "package:lodash>+500%"}, sides...)...); code != 0 {
		t.Errorf("several sides, a real name: exit %d, %q", code, errs)
	}
}

// A narrowing that leaves nothing (--focus matching no frame, --window
// past the end) gave an empty report and exit 0 without a word: it is a
// warning, on standard error and in the report (issue 26, item 9).
func TestNarrowedToNothingWarns(t *testing.T) {
	b, a := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	for _, flags := range [][]string{{"--focus", "zzzz"}, {"--window", "100s..200s"}, {"--window", "3600s.."}} {
		code, out, errs := runCLI(append(append([]string{"--format", "json"}, flags...), b, a)...)
		if code != 0 || !strings.Contains(errs, "leaves no on-CPU time") {
			t.Errorf("%q: exit %d, stderr %q", flags, code, errs)
		}
		var rep struct {
			Warnings []json.RawMessage `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(joinRaw(rep.Warnings)), "leaves no on-CPU time") {
			t.Errorf("%q: the report's warnings do not say so: %s", flags, joinRaw(rep.Warnings))
		}
	}
	code, out, _ := runCLI("--focus", "zzzz", fixture("go-router-before.pprof"))
	if code != 0 || !strings.Contains(out, "--focus zzzz leaves no on-CPU time") {
		t.Errorf("one profile: exit %d\n%s", code, out)
	}
	// A narrowing that keeps something says nothing of the kind.
	if _, out, errs := runCLI("--focus", "lodash", b, a); strings.Contains(out+errs, "leaves no on-CPU time") {
		t.Errorf("--focus lodash warned:\n%s", errs)
	}
}

func joinRaw(ms []json.RawMessage) []byte {
	var out []byte
	for _, m := range ms {
		out = append(out, m...)
	}
	return out
}

// profdiff help rules lists every rule target, the -total forms included.
func TestHelpListsRuleTargets(t *testing.T) {
	_, out, _ := runCLI("help", "rules")
	for _, want := range []string{"package-total:NAME", "function-total:NAME", "file-total:NAME", "matches no row"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}

// --top -1 was taken (issue 26, item 16): a negative count of rows is a
// usage error.
func TestTopNegativeRefused(t *testing.T) {
	code, stdout, errs := runCLI("--top", "-1", fixture("go-router-before.pprof"))
	if code != 2 || stdout != "" || !strings.HasPrefix(errs, "profdiff: --top -1") || strings.Count(errs, "\n") != 1 {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// --sample-type on a file that is not a pprof was ignored without a word
// (issue 26, item 16): it warns, as --thread does on a file that is not a
// trace, and pointing at the flag.
func TestSampleTypeOnNonPprofWarns(t *testing.T) {
	code, out, errs := runCLI("--sample-type", "wall", "--format", "json", fixture("node-router-unbundled-before.cpuprofile"))
	if code != 0 || !strings.Contains(errs, `a sample type ("wall") was asked for, but only pprof files have sample types`) || !strings.Contains(errs, "(--sample-type)") || !strings.Contains(out, "only pprof files have sample types") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if _, _, errs := runCLI("--sample-type", "cpu", "--format", "json", fixture("go-router-before.pprof")); strings.Contains(errs, "sample type") {
		t.Errorf("a pprof warned: %q", errs)
	}
}
