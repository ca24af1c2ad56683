package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestMemoryLimit: a report is read under a soft memory limit of a few
// times its input (a folded file of 2 M distinct stacks, 72 MB, peaked at
// 648 MB of RSS without one, 438 MB with), never under minMemoryLimit,
// none when a run comes from standard input, and the limit before is
// restored after.
func TestMemoryLimit(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOMEMLIMIT is set")
	}
	dir := t.TempDir()
	small := filepath.Join(dir, "small.folded")
	if err := os.WriteFile(small, []byte("main;work 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, ok := memoryLimit([]sideArg{{"a", []string{small}}}); got != minMemoryLimit || !ok {
		t.Errorf("small input: limit %d, want %d", got, minMemoryLimit)
	}
	if got, ok := memoryLimit([]sideArg{{"a", []string{small}}, {"b", []string{"-"}}}); ok {
		t.Errorf("standard input: limit %d, want none", got)
	}
	big := filepath.Join(dir, "big.folded")
	line := "main;app.handle;app.parse 3\n"
	n := minMemoryLimit/memoryPerInputByte/len(line) + 1000
	if err := os.WriteFile(big, []byte(strings.Repeat(line, n)), 0o644); err != nil {
		t.Fatal(err)
	}
	sides := []sideArg{{"before", []string{big}}, {"after", []string{big, small}}}
	want := int64(memoryPerInputByte * (2*n*len(line) + len("main;work 1\n")))
	if got, _ := memoryLimit(sides); got != want {
		t.Errorf("limit %d, want %d", got, want)
	}
	before := debug.SetMemoryLimit(-1)
	restore := limitMemory(sides)
	if got := debug.SetMemoryLimit(-1); got != want {
		t.Errorf("limit set to %d, want %d", got, want)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit %d after, %d before", got, before)
	}
}
