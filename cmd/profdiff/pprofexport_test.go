package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"
)

// comparisonJSON is the part of --format json that TestPprofExportsCompare
// compares.
type comparisonJSON struct {
	Sides []struct {
		WallNs int64 `json:"wall_ns"`
		GCNs   int64 `json:"gc_ns"`
	} `json:"sides"`
	Packages []struct {
		Package string `json:"package"`
		Self    struct {
			Ns      []int64 `json:"ns"`
			Verdict string  `json:"verdict"`
		} `json:"self"`
	} `json:"packages"`
}

// compareJSON runs a comparison in --format json and decodes it.
func compareJSON(t *testing.T, args ...string) comparisonJSON {
	t.Helper()
	code, out, errs := runCLI(append([]string{"--format", "json"}, args...)...)
	if code != 0 || !onlyWarnings(errs) {
		t.Fatalf("%v: exit %d, stderr %q", args, code, errs)
	}
	var c comparisonJSON
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPprofExportsCompareAsTheirInputs: each side exported with --format
// pprof, the exports compared find what comparing the profiles finds:
// the same packages with the same self times and verdicts (path-to-regexp
// better), the same GC and wall time (issue 26, item 4: they were src,
// dist, lib, GC 0 and wall 0, and path-to-regexp was gone).
func TestPprofExportsCompareAsTheirInputs(t *testing.T) {
	dir := t.TempDir()
	sides := []string{fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")}
	var exports []string
	for i, in := range sides {
		out := filepath.Join(dir, []string{"before.pb.gz", "after.pb.gz"}[i])
		if code, _, errs := runCLI("--format", "pprof", "-o", out, in); code != 0 || !onlyWarnings(errs) {
			t.Fatalf("export %s: exit %d, stderr %q", in, code, errs)
		}
		exports = append(exports, out)
	}
	direct, back := compareJSON(t, sides...), compareJSON(t, exports...)
	for i := range direct.Sides {
		d, b := direct.Sides[i], back.Sides[i]
		if b.WallNs != d.WallNs || math.Abs(float64(b.GCNs-d.GCNs)) > 1e4 {
			t.Errorf("side %d: exports wall %d ns, GC %d ns; profiles %d, %d", i, b.WallNs, b.GCNs, d.WallNs, d.GCNs)
		}
	}
	if len(back.Packages) != len(direct.Packages) {
		t.Errorf("exports have %d packages, profiles %d", len(back.Packages), len(direct.Packages))
	}
	found := false
	for i := range min(len(direct.Packages), len(back.Packages)) {
		d, b := direct.Packages[i], back.Packages[i]
		if b.Package != d.Package || b.Self.Verdict != d.Self.Verdict ||
			math.Abs(float64(b.Self.Ns[0]-d.Self.Ns[0])) > 1e4 || math.Abs(float64(b.Self.Ns[1]-d.Self.Ns[1])) > 1e4 {
			t.Errorf("package row %d: exports %q %v %q, profiles %q %v %q", i, b.Package, b.Self.Ns, b.Self.Verdict, d.Package, d.Self.Ns, d.Self.Verdict)
		}
		found = found || b.Package == "path-to-regexp" && b.Self.Verdict == "better"
	}
	if !found {
		t.Errorf("comparing the exports does not find path-to-regexp better")
	}
}
