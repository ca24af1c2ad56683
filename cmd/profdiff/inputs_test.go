package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// routerCorpus is the corpus's bundled router pair (5 + 5 runs, each build's
// bundle and map beside them), which lives beside this repository as
// ../shared/corpus; tests that need two real builds skip without it.
func routerCorpus(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "node-router-ab")
	if _, err := os.Stat(filepath.Join(dir, "bundle-after", "app.min.js.map")); err != nil {
		t.Skipf("corpus absent (../shared/corpus beside this repository): %v", err)
	}
	return dir
}

// One --sourcemaps folder for two builds: the after run's bundle is not
// the one in the folder, so its map would give its moved functions the
// wrong names (14 "new", 14 "gone" at "maps 99.6%"). profdiff stops and
// names the side that needs its own maps; a folder holding both builds
// gives each run its own.
func TestOneMapFolderForTwoBuilds(t *testing.T) {
	c := routerCorpus(t)
	before, after := filepath.Join(c, "before-r1.cpuprofile"), filepath.Join(c, "after-r1.cpuprofile")
	code, _, errs := runCLI("--format", "json", "--sourcemaps", filepath.Join(c, "bundle-before"), before, after)
	if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 ||
		!strings.Contains(errs, "after-r1.cpuprofile") || !strings.Contains(errs, "--sourcemaps-after") || !strings.Contains(errs, "another build") {
		t.Fatalf("before's maps for both sides: exit %d, %q; want exit 2 naming after-r1.cpuprofile and --sourcemaps-after", code, errs)
	}
	code, _, errs = runCLI("--format", "json", "--sourcemaps", filepath.Join(c, "bundle-after"), before, after)
	if code != 2 || !strings.Contains(errs, "before-r1.cpuprofile") || !strings.Contains(errs, "--sourcemaps-before") {
		t.Fatalf("after's maps for both sides: exit %d, %q; want exit 2 naming the before side", code, errs)
	}
	// The folder above both builds: each run finds its own bundle.
	code, out, errs := runCLI("--format", "json", "--sourcemaps", c, before, after)
	if code != 0 {
		t.Fatalf("both builds' folder: exit %d, %s", code, errs)
	}
	// makeStore (src/data.js) runs in both builds; through the wrong map
	// it was "gone" and a function named after another ("Ry") was "new".
	for _, bad := range []string{`"Ry"`, `"timeoutMs"`} {
		if strings.Contains(out, bad) {
			t.Errorf("both builds' folder: %s is named, a function mapped through the other build's map", bad)
		}
	}
	if !strings.Contains(out, `"makeStore"`) {
		t.Errorf("both builds' folder: makeStore is not in the report")
	}
	// Per-side folders, as the error says.
	code, _, errs = runCLI("--format", "json", "--sourcemaps-before", filepath.Join(c, "bundle-before"), "--sourcemaps-after", filepath.Join(c, "bundle-after"), before, after)
	if code != 0 {
		t.Fatalf("per-side folders: exit %d, %s", code, errs)
	}
}
