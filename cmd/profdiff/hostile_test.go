package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileBuild writes, into ws, the lines bundle (src: testdata/bundles/lines)
// recorded at ws/dist/app.js, whose sourceMappingURL names mapDir/app.js.map;
// that map names its sources as sourceDir/work.js and sourceDir/main.js,
// with no sourcesContent, and work.js holds a marker line. It returns the
// profile.
func hostileBuild(t *testing.T, src, ws, mapDir, sourceDir string) string {
	t.Helper()
	js, err := os.ReadFile(filepath.Join(src, "dist", "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	js = []byte(strings.Replace(string(js), "sourceMappingURL=app.js.map", "sourceMappingURL="+filepath.Join(mapDir, "app.js.map"), 1))
	var m map[string]any
	b, _ := os.ReadFile(filepath.Join(src, "dist", "app.js.map"))
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "sourcesContent")
	m["sources"] = []string{filepath.Join(sourceDir, "work.js"), filepath.Join(sourceDir, "main.js")}
	mb, _ := json.Marshal(m)
	work, _ := os.ReadFile(filepath.Join(src, "src", "work.js"))
	main, _ := os.ReadFile(filepath.Join(src, "src", "main.js"))
	prof, _ := os.ReadFile(filepath.Join(src, "lines.cpuprofile"))
	prof = []byte(strings.ReplaceAll(string(prof), "file:///tmp/wt-h-lines/testdata/bundles/lines/dist/app.js", "file://"+filepath.Join(ws, "dist", "app.js")))
	os.MkdirAll(filepath.Join(ws, "dist"), 0o755)
	os.MkdirAll(mapDir, 0o755)
	os.MkdirAll(sourceDir, 0o755)
	for path, data := range map[string][]byte{
		filepath.Join(ws, "dist", "app.js"):   js,
		filepath.Join(mapDir, "app.js.map"):   mb,
		filepath.Join(sourceDir, "work.js"):   []byte(strings.Replace(string(work), "let total = 0;", "let total = 0; // SECRET_MARKER_LINE", 1)),
		filepath.Join(sourceDir, "main.js"):   main,
		filepath.Join(ws, "lines.cpuprofile"): prof,
	} {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(ws, "lines.cpuprofile")
}

// TestAHostileProfileReadsNothingOutside: a build whose script names a map
// outside the folders given, and whose map names sources there, gets
// neither read into any output (text --source, markdown, JSON with lines,
// HTML with lines); its functions stay unmapped with a warning naming the
// map. Negative control: the same build with its map inside the working
// directory, or with --source-root naming the outside folder, shows the
// marker, so the test sees a leak when there is one.
func TestAHostileProfileReadsNothingOutside(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	src, _ := filepath.Abs(fixture("bundles/lines"))
	prof := hostileBuild(t, src, ws, filepath.Join(outside, "maps"), filepath.Join(outside, "maps"))
	t.Chdir(ws)
	outputs := [][]string{
		{"--source", "sumSquares"},
		{"--format", "markdown"},
		{"--format", "json", "--lines"},
		{"--format", "html", "--lines"},
	}
	for _, args := range outputs {
		code, out, errs := runCLI(append(args, prof)...)
		if code != 0 && code != 1 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		if strings.Contains(out+errs, "SECRET_MARKER_LINE") {
			t.Errorf("%v: a file outside the given folders reached the output", args)
		}
		if !strings.Contains(out+errs, "leads outside the folders profdiff may read") {
			t.Errorf("%v: no warning names the refused map:\n%s", args, errs)
		}
	}

	// A map inside whose sources lie outside: its names are used, its
	// sources are not read, and --source says why.
	ws2 := filepath.Join(t.TempDir(), "ws")
	prof2 := hostileBuild(t, src, ws2, filepath.Join(ws2, "dist"), filepath.Join(outside, "src"))
	t.Chdir(ws2)
	for _, args := range outputs {
		code, out, errs := runCLI(append(args, prof2)...)
		if code != 0 && code != 1 || strings.Contains(out+errs, "SECRET_MARKER_LINE") {
			t.Errorf("%v with the map inside: exit %d, or a source outside reached the output", args, code)
		}
	}
	code, out, errs := runCLI("--source", "sumSquares", prof2)
	if !strings.Contains(out, "work.js:3") || !strings.Contains(out+errs, "is outside the folders profdiff may read; add --source-root "+filepath.Join(outside, "src")) {
		t.Errorf("--source with a map inside and its sources outside:\n%s\n%s", out, errs)
	}
	t.Chdir(ws)

	// Controls: the marker shows when the map is where profdiff may read.
	code, out, errs = runCLI("--source", "sumSquares", "--source-root", outside, prof)
	if code != 0 || !strings.Contains(out, "SECRET_MARKER_LINE") {
		t.Errorf("with --source-root the source is not shown: exit %d\n%s\n%s", code, out, errs)
	}
	inside := filepath.Join(t.TempDir(), "ws")
	prof = hostileBuild(t, src, inside, filepath.Join(inside, "maps"), filepath.Join(inside, "maps"))
	t.Chdir(inside)
	code, out, errs = runCLI("--source", "sumSquares", prof)
	if code != 0 || !strings.Contains(out, "SECRET_MARKER_LINE") {
		t.Errorf("a map inside the working directory is not read: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestHostileFrameURLs: the rows of issue 48. A profile whose frame names
// /proc/self/environ, /etc/passwd, /dev/zero, a file outside the folders
// given or a link out of the working directory, or a map whose sources
// name such files, never gets any of them into --source or into markdown,
// JSON or HTML with per-line times; a refused file says why; a source
// inside the working directory is still shown. Negative control: with
// sourceFiles reading any path (os.ReadFile in source.go), the environ and
// passwd rows fail.
func TestHostileFrameURLs(t *testing.T) {
	const sentinel = "profdiff_env_sentinel_7c1"
	t.Setenv("PROFDIFF_TEST_TOKEN", sentinel)
	fixtures, _ := filepath.Abs(fixture("hostile"))
	ws, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.js"), []byte("outside_sentinel_7c1 = 1;\n"), 0o644)
	os.Symlink(outside, filepath.Join(ws, "link"))
	os.WriteFile(filepath.Join(ws, "ok.js"), []byte("function f() { return 'inside_ok' }\n"), 0o644)
	made := map[string]string{
		"outside.cpuprofile": filepath.Join(outside, "secret.js"),
		"link.cpuprofile":    filepath.Join(ws, "link", "secret.js"),
		"ok.cpuprofile":      filepath.Join(ws, "ok.js"),
	}
	base, _ := os.ReadFile(filepath.Join(fixtures, "etc-passwd.cpuprofile"))
	for name, url := range made {
		p := strings.Replace(string(base), `"/etc/passwd"`, strconvQuote(url), 1)
		os.WriteFile(filepath.Join(ws, name), []byte(p), 0o644)
	}
	t.Chdir(ws)
	leaks := func(s string) bool {
		return strings.Contains(s, sentinel) || strings.Contains(s, "root:x:0:0") || strings.Contains(s, "outside_sentinel_7c1")
	}
	var profiles []string
	for _, n := range []string{"proc-environ", "file-proc-environ", "etc-passwd", "file-etc-passwd", "dev-zero", "sys-hostname"} {
		profiles = append(profiles, filepath.Join(fixtures, n+".cpuprofile"))
	}
	profiles = append(profiles, filepath.Join(ws, "outside.cpuprofile"), filepath.Join(ws, "link.cpuprofile"))
	for _, p := range profiles {
		code, out, errs := runCLI("--source", "f", p)
		if code != 0 || leaks(out+errs) {
			t.Errorf("--source f %s: exit %d or a file outside reached the output:\n%s%s", filepath.Base(p), code, out, errs)
		}
		if !strings.Contains(out, "(source: ") {
			t.Errorf("--source f %s: no reason the source is not shown:\n%s", filepath.Base(p), out)
		}
		for _, f := range []string{"markdown", "json", "html"} {
			code, out, errs := runCLI("--lines", "-f", f, p, p)
			if code != 0 && code != 1 || leaks(out+errs) {
				t.Errorf("--lines -f %s %s: exit %d or a file outside reached the output", f, filepath.Base(p), code)
			}
		}
	}
	if _, out, _ := runCLI("--source", "f", filepath.Join(ws, "outside.cpuprofile")); !strings.Contains(out, "is outside the folders profdiff may read; add --source-root "+outside) {
		t.Errorf("a source outside does not say how to allow it:\n%s", out)
	}
	mapped := filepath.Join(fixtures, "bundle.cpuprofile")
	for _, args := range [][]string{{"--source", "a"}, {"--lines", "-f", "html"}, {"--lines", "-f", "json"}} {
		code, out, errs := runCLI(append(args, "--sourcemaps", fixtures, mapped)...)
		if code != 0 && code != 1 || leaks(out+errs) {
			t.Errorf("%v on a map whose sources name /proc and /etc: exit %d or their content reached the output:\n%.2000s%s", args, code, out, errs)
		}
	}
	if code, out, errs := runCLI("--source", "f", filepath.Join(ws, "ok.cpuprofile")); code != 0 || !strings.Contains(out, "inside_ok") {
		t.Errorf("a source inside the working directory is not shown: exit %d\n%s%s", code, out, errs)
	}
}

// strconvQuote quotes s as a JSON string.
func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
