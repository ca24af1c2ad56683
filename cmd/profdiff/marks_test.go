package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// --window-marks narrows a Chrome trace to the time between two User
// Timing marks and says so; bad marks exit 2 with one line naming the flag.
func TestWindowMarksFlag(t *testing.T) {
	trace := fixture("chromium-user-timing.trace.json.gz")
	code, out, errs := runCLI("--format", "json", "--window-marks", "A..B", trace)
	var rep struct {
		Narrowing []string `json:"narrowing"`
		Sides     []struct {
			OnCPUNs int64 `json:"on_cpu_ns"`
			WallNs  int64 `json:"wall_ns"`
		} `json:"sides"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("exit %d, %v, %s", code, err, errs)
	}
	// The page worked 600 ms between the marks.
	if s := rep.Sides[0]; len(rep.Narrowing) != 2 || rep.Narrowing[0] != "--window-marks A..B" || rep.Narrowing[1] != "(chromium-user-timing.trace.json.gz: 504.841ms..1105.246ms)" || s.WallNs < 590e6 || s.WallNs > 610e6 || s.OnCPUNs < 550e6 || s.OnCPUNs > 610e6 {
		t.Errorf("narrowing %v, sides %+v", rep.Narrowing, rep.Sides)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--window-marks", "A..Z", trace}, `--window-marks: no User Timing mark or measure "Z"`},
		{[]string{"--window-marks", "B..A", trace}, "--window-marks: the window B..A is empty"},
		{[]string{"--window-marks", "A..B", fixture("node-router-unbundled-before.cpuprofile")}, "--window-marks: V8 .cpuprofile records no User Timing marks"},
		{[]string{"--window-marks", "A..B", "--window", "1s..", trace}, "--window-marks and --window"},
		{[]string{"--window-marks", "..B", trace}, "--window-marks: "},
	} {
		code, out, errs := runCLI(append([]string{"--format", "text"}, c.args...)...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out, errs)
		}
	}
}
