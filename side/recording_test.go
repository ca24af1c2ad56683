package side

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/profdiff/profdiff/record"
)

// TestRecordResourcesOlderRecording: a record.json made before resources
// were kept still reads, and its report has no resources.
func TestRecordResourcesOlderRecording(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "before"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := `{"version": 1, "sides": [{"name": "before", "command": ["node", "a.js"], "profiler": "node", "folder": "before"}, {"name": "after", "command": ["node", "a.js"], "profiler": "node", "folder": "after"}],
 "runs": [{"side": "before", "index": 1, "warmup": false, "wall_ns": 5, "cpu_ns": 4, "exit": 0, "profile": "before/run-01.cpuprofile", "stdout": "", "stderr": ""}]}`
	if err := os.WriteFile(filepath.Join(dir, record.FileName), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := record.Read(dir); err != nil {
		t.Fatal(err)
	}
	got := recordResources([]string{filepath.Join(dir, "before", "run-01.cpuprofile")})
	if len(got) != 1 || got[0].Name != "wall" {
		t.Errorf("an older recording's resources: %+v, want its wall time alone", got)
	}
}
