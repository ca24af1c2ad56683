package stages

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBaselineRoundTrip checks that baseline.txt keeps the base commit
// and the ratios that writeBaseline wrote, and that readBaseline refuses
// a commit line without a full hash.
func TestBaselineRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "baseline.txt")
	commit := strings.Repeat("0123456789", 4)
	r := &result{stages: []stageResult{{Name: "Read", Ratio: 0.2855, Ms: 10.3, Min: 0.28, Max: 0.29}, {Name: "Render/json", Ratio: 0.1705}}, size: [2]int64{1, 2}}
	if err := writeBaseline(path, r, commit); err != nil {
		t.Fatal(err)
	}
	got, err := readBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.commit != commit || len(got.ratios) != 2 || got.ratios["Read"] != 0.2855 || got.ratios["Render/json"] != 0.1705 {
		t.Fatalf("read back %+v", got)
	}
	if err := writeBaseline(path, r, "HEAD"); err == nil {
		t.Error("writeBaseline took a commit that is not a hash")
	}
	for _, bad := range []string{"commit 49f098d\n", "commit\n", "commit " + commit + " extra\n", "Read x\n"} {
		if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readBaseline(path); err == nil {
			t.Errorf("readBaseline took %q", bad)
		}
	}
}

// TestBaselineOfCheckout checks that the committed baseline.txt names a
// base commit, which bench/guard.sh builds to time beside this code.
func TestBaselineOfCheckout(t *testing.T) {
	b, err := readBaseline(baselineFile)
	if err != nil {
		t.Fatal(err)
	}
	if b.commit == "" {
		t.Fatalf("%s names no base commit: run bash bench/guard.sh -update", baselineFile)
	}
}
