package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestSmallThings: one row is "1 package", not "1 packages"; a single
// profile's markdown headline has a header for every column; --by file is
// honoured for one profile; on_cpu_js_ns is per run, like on_cpu_ns.
func TestSmallThings(t *testing.T) {
	cpu, _, _ := hostileInputs(t) // one function, one package
	_, out, _ := runCLI("--format", "text", "--by", "file", cpu)
	for _, want := range []string{"Top 1 package by self time", "Top 1 function by self time", "Top 1 file by self time"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runCLI("--format", "markdown", cpu)
	if !strings.Contains(out, "| measure | value | detail |") {
		t.Errorf("markdown headline header:\n%s", out)
	}
	dir := fixture("")
	code, out, _ := runCLI("--format", "json", "--before", filepath.Join(dir, "node-router-unbundled-before.cpuprofile"), "--before", filepath.Join(dir, "node-router-unbundled-before.cpuprofile"), "--after", filepath.Join(dir, "node-router-unbundled-after.cpuprofile"))
	var rep struct {
		Sides []struct {
			OnCPUNs int64 `json:"on_cpu_ns"`
			Sym     struct {
				OnCPUJSNs int64 `json:"on_cpu_js_ns"`
			} `json:"symbolication"`
		} `json:"sides"`
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || len(rep.Sides) != 2 {
		t.Fatalf("json: exit %d, %v", code, err)
	}
	if s := rep.Sides[0]; s.Sym.OnCPUJSNs > s.OnCPUNs {
		t.Errorf("on_cpu_js_ns %d exceeds on_cpu_ns %d: summed over runs, not per run", s.Sym.OnCPUJSNs, s.OnCPUNs)
	}
}
