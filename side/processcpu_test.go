package side

import (
	"path/filepath"
	"testing"
)

// recordPower is a profdiff record folder: its record.json lists the
// process CPU time of every run.
const recordPower = "../testdata/record-power"

// TestProcessCPUNeedsEveryRun: a side whose runs record.json does not all
// list carries no process CPU times.
func TestProcessCPUNeedsEveryRun(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(recordPower, "before", "*.cpuprofile"))
	if got := processCPU(files); len(got) != len(files) || got[0] <= 0 {
		t.Fatalf("processCPU = %v", got)
	}
	if got := processCPU(append(files, filepath.Join(recordPower, "before", "run-99.cpuprofile"))); got != nil {
		t.Errorf("a run record.json does not list: %v", got)
	}
	if got := processCPU([]string{filepath.Join(recordPower, "before", files[0][len(recordPower)+8:]), "../testdata/node-router-unbundled-before.cpuprofile"}); got != nil {
		t.Errorf("runs of two folders: %v", got)
	}
}
