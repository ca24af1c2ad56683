package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionOf(t *testing.T) {
	none := func() string { return "" }
	settings := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	rev := "0b351468fc7d7c6cc61e947b1caf978ab73319b2"
	for _, tc := range []struct {
		name, stamped string
		bi            *debug.BuildInfo
		src           func() string
		want          string
	}{
		{"stamped", "v1.4.0", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, none, "v1.4.0"},
		{"release", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.3.0"}}, none, "v1.3.0"},
		{"pseudo", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261203022859-0b351468fc7d+dirty"}}, none, "v0.0.0-20261203022859-0b351468fc7d+dirty"},
		{"revision", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: settings("vcs.revision", rev, "vcs.modified", "true")}, none, "devel 0b351468fc7d+dirty"},
		{"checkout", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, func() string { return "0b351468fc7d" }, "devel, not stamped by the build (-buildvcs=false?); its source checkout is at 0b351468fc7d"},
	} {
		if got := versionOf(tc.stamped, tc.bi, tc.src); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := versionOf("", nil, none); got == "devel" || !strings.Contains(got, "without version information") {
		t.Errorf("no build info: %q", got)
	}
}

// TestVersionFromCheckout builds the command as a user does, with go build
// in a git checkout, and wants the revision in --version (never just
// "devel"), whether or not GOFLAGS turns VCS stamping off.
func TestVersionFromCheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not a git checkout")
	}
	bin := filepath.Join(t.TempDir(), "profdiff")
	for _, flags := range []string{"-buildvcs=false", "-buildvcs=auto"} {
		cmd := exec.Command("go", "build", "-o", bin, ".")
		cmd.Env = append(os.Environ(), "GOFLAGS="+flags)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		out, err := exec.Command(bin, "--version").Output()
		if err != nil {
			t.Fatal(err)
		}
		v := strings.TrimSpace(string(out))
		if !strings.HasPrefix(v, "profdiff ") || !regexp.MustCompile(`[0-9a-f]{12}`).MatchString(v) {
			t.Errorf("GOFLAGS=%s: --version says %q, want the revision", flags, v)
		}
		if !strings.Contains(v, string(head[:12])) {
			t.Errorf("GOFLAGS=%s: --version says %q, want revision %s", flags, v, head[:12])
		}
	}
}

// TestJSONOutputBeside: --json-output writes the same comparison as JSON
// beside the markdown, from one run, and the exit status still follows
// --fail-on.
func TestJSONOutputBeside(t *testing.T) {
	dir := t.TempDir()
	md, js := filepath.Join(dir, "r.md"), filepath.Join(dir, "r.json")
	code, _, errs := runCLI("--format", "markdown", "-o", md, "--json-output", js, "--fail-on", "package:path-to-regexp<+10%",
		fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile"))
	if code != exitRule {
		t.Errorf("exit %d, want %d (a broken rule); stderr %q", code, exitRule, errs)
	}
	m, _ := os.ReadFile(md)
	j, _ := os.ReadFile(js)
	if !strings.Contains(string(m), "profdiff") || !strings.Contains(string(j), `"headline"`) || !strings.Contains(string(j), `"broken": true`) {
		t.Errorf("markdown %d bytes, JSON %d bytes:\n%.300s", len(m), len(j), j)
	}
}
