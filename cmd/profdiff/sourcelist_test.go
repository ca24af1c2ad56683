package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSourceFlag: --source prints each matching function's lines with
// their times: on the unbundled pair, numbered lines with each side's self
// time and the change; through a bundle built without minifying, the
// original lines with their text from the map's sourcesContent; through a
// minified bundle, one line saying so instead of numbers.
func TestSourceFlag(t *testing.T) {
	code, out, errs := runCLI("--source", "^match$", fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile"))
	if code != exitOK || !onlyWarnings(errs) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "ROUTINE match") || !regexp.MustCompile(`(?m)^\s+17\s+34\.9 ms\s+\.\s+-34\.9 ms`).MatchString(out) {
		t.Errorf("unbundled pair:\n%s", out)
	}

	code, out, errs = runCLI("--source", "sumSquares", "--sourcemaps", fixture("bundles/lines/dist"), fixture("bundles/lines/lines.cpuprofile"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !regexp.MustCompile(`(?m)^\s+7\s+\d+(\.\d+)? ms\s+total = \(total \+ sq\) % 1000003;$`).MatchString(out) {
		t.Errorf("non-minified bundle:\n%s", out)
	}

	code, out, errs = runCLI("--source", "Spin", "--sourcemaps", fixture("bundles/esbuild-ts/dist"), fixture("bundles/esbuild-ts/esbuild-ts.cpuprofile"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "the bundle is minified: lines are not recorded finely enough") || regexp.MustCompile(`(?m)^\s+\d+\s`).MatchString(out) {
		t.Errorf("minified bundle:\n%s", out)
	}

	for _, args := range [][]string{
		{"--source", "(", fixture("go-router-before.pprof")},
		{"--source", "x", "--format", "json", fixture("go-router-before.pprof")},
		{"--source", "nothing-is-called-this", fixture("go-router-before.pprof")},
	} {
		if code, _, errs := runCLI(args...); code != exitUsage || errs == "" {
			t.Errorf("%q: exit %d, %q", args, code, errs)
		}
	}
}

// TestSourceReadsNoFileOutsideTheFolders: a map whose source names
// /etc/passwd (without sourcesContent) gets its lines mapped, but its text
// is not read: the listing says why and shows nothing of the file.
func TestSourceReadsNoFileOutsideTheFolders(t *testing.T) {
	dir := t.TempDir()
	js, err := os.ReadFile(fixture("bundles/lines/dist/app.js"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	data, err := os.ReadFile(fixture("bundles/lines/dist/app.js.map"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m["sources"] = []string{"/etc/passwd", "../src/main.js"}
	delete(m, "sourcesContent")
	data, _ = json.Marshal(m)
	os.WriteFile(filepath.Join(dir, "app.js"), js, 0o644)
	os.WriteFile(filepath.Join(dir, "app.js.map"), data, 0o644)
	code, out, errs := runCLI("--source", "sumSquares", "--sourcemaps", dir, fixture("bundles/lines/lines.cpuprofile"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, "root:") || !strings.Contains(out, "outside") || !regexp.MustCompile(`(?m)^\s+7\s+\d`).MatchString(out) {
		t.Errorf("hostile map:\n%s", out)
	}
}

// TestLinesFlag: --lines adds lines[] to the JSON functions, and to the
// HTML page each function's source with its lines' times (the text from
// the map's sourcesContent); by default neither has them.
func TestLinesFlag(t *testing.T) {
	for _, lines := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "page.html")
		args := []string{"--format", "html", "-o", out, "--sourcemaps", fixture("bundles/lines/dist"), fixture("bundles/lines/lines.cpuprofile")}
		if lines {
			args = append([]string{"--lines"}, args...)
		}
		if code, _, errs := runCLI(args...); code != exitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		page, _ := os.ReadFile(out)
		if got := strings.Contains(string(page), `"sources":`) && strings.Contains(string(page), "total = (total + sq) % 1000003;"); got != lines {
			t.Errorf("--lines %v: the page has the source: %v", lines, got)
		}
	}
	for _, lines := range []bool{false, true} {
		args := []string{"--format", "json", fixture("go-router-before.pprof")}
		if lines {
			args = append([]string{"--lines"}, args...)
		}
		code, out, errs := runCLI(args...)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if got := strings.Contains(out, `"lines": [`); got != lines {
			t.Errorf("--lines %v: lines in the JSON: %v", lines, got)
		}
		// --json-output, beside markdown, has them as --format json does.
		file := filepath.Join(t.TempDir(), "out.json")
		if code, _, errs := runCLI(append(args[:len(args)-1:len(args)-1], "--format", "markdown", "--json-output", file, fixture("go-router-before.pprof"))...); code != exitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		data, _ := os.ReadFile(file)
		if got := strings.Contains(string(data), `"lines": [`); got != lines {
			t.Errorf("--lines %v: lines in --json-output: %v", lines, got)
		}
	}
}
