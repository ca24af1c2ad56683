package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// --cpuprofile writes a CPU profile of profdiff's own run that profdiff,
// and so go tool pprof, reads; --memprofile an allocations profile; an
// unwritable path is a usage error naming it.
func TestSelfProfile(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	code, _, stderr := runCLI("--format", "json", "-o", filepath.Join(dir, "out.json"), "--cpuprofile", cpu, "--memprofile", mem,
		filepath.Join(repoRoot, "testdata", "node-router-unbundled-before.cpuprofile"), filepath.Join(repoRoot, "testdata", "node-router-unbundled-after.cpuprofile"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	p, err := analyze.ParseFile(cpu, analyze.ParseOptions{})
	if err != nil {
		t.Fatalf("the CPU profile does not read: %v", err)
	}
	if p.Format != analyze.FormatPprof || !strings.HasPrefix(p.SampleType, "cpu") {
		t.Errorf("the CPU profile is %s of %q", p.Format.Describe(), p.SampleType)
	}
	// profdiff refuses it as no time profile, naming its sample types:
	// that it reads them says it is a pprof allocations profile.
	if _, err := analyze.ListFile(mem, analyze.ParseOptions{}); err == nil || !strings.Contains(err.Error(), "alloc_space/bytes") {
		t.Errorf("the allocations profile: %v", err)
	}
	code, _, stderr = runCLI("--cpuprofile", filepath.Join(dir, "no", "such", "dir", "cpu.pprof"), filepath.Join(repoRoot, "testdata", "node-router-unbundled-before.cpuprofile"))
	if code != exitUsage || !strings.Contains(stderr, "cpu.pprof") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("unwritable --cpuprofile: exit %d, %q", code, stderr)
	}
}
