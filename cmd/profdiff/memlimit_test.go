package main

import (
	"github.com/profdiff/profdiff/side"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
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
	if got, ok := memoryLimit([]side.Side{{Name: "a", Files: []string{small}}}); got != minMemoryLimit || !ok {
		t.Errorf("small input: limit %d, want %d", got, minMemoryLimit)
	}
	if got, ok := memoryLimit([]side.Side{{Name: "a", Files: []string{small}}, {Name: "b", Files: []string{"-"}}}); ok {
		t.Errorf("standard input: limit %d, want none", got)
	}
	big := filepath.Join(dir, "big.folded")
	line := "main;app.handle;app.parse 3\n"
	n := minMemoryLimit/memoryPerInputByte/len(line) + 1000
	if err := os.WriteFile(big, []byte(strings.Repeat(line, n)), 0o644); err != nil {
		t.Fatal(err)
	}
	sides := []side.Side{{Name: "before", Files: []string{big}}, {Name: "after", Files: []string{big, small}}}
	want := int64(memoryPerInputByte * (2*n*len(line) + len("main;work 1\n")))
	if got, _ := memoryLimit(sides); got != want {
		t.Errorf("limit %d, want %d", got, want)
	}
	before := debug.SetMemoryLimit(-1)
	restore := limitMemory(sides, analyze.AggregateOptions{})
	if got := debug.SetMemoryLimit(-1); got != want {
		t.Errorf("limit set to %d, want %d", got, want)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit %d after, %d before", got, before)
	}
}

// TestRoomyGCPercent: a report whose runs' estimated memory leaves room
// under the memory limit (a V8 profile, 1 estimated byte a byte) collects
// garbage half as often (GC percent roomyGCPercent), one whose heap would
// meet the limit (a folded file with its calls, 9 bytes a byte, past the
// minimum limit) keeps Go's default, GOGC wins over both, and the percent
// before is restored after. Without the SetGCPercent in limitMemory the
// first case fails.
func TestRoomyGCPercent(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" {
		t.Skip("GOMEMLIMIT or GOGC is set")
	}
	dir := t.TempDir()
	v8 := filepath.Join("..", "..", "testdata", "node-router-unbundled-before.cpuprofile")
	big := filepath.Join(dir, "big.folded")
	line := "main;app.handle;app.parse 3\n"
	if err := os.WriteFile(big, []byte(strings.Repeat(line, minMemoryLimit/memoryPerInputByte/len(line)+1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	edges := analyze.AggregateOptions{Edges: true}
	percentWhile := func(sides []side.Side) int {
		restore := limitMemory(sides, edges)
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		restore()
		return p
	}
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	if got := percentWhile([]side.Side{{Name: "before", Files: []string{v8}}, {Name: "after", Files: []string{v8}}}); got != roomyGCPercent {
		t.Errorf("V8 profiles: GC percent %d, want %d", got, roomyGCPercent)
	}
	many := slices.Repeat([]string{v8}, 5)
	if got, want := percentWhile([]side.Side{{Name: "before", Files: many}, {Name: "after", Files: many}}), heldRunsGCPercent(10, runtime.GOMAXPROCS(0)); got != want || (runtime.GOMAXPROCS(0) < 10 && got >= roomyGCPercent) {
		t.Errorf("five runs a side: GC percent %d, want %d, less than %d", got, want, roomyGCPercent)
	}
	if got := percentWhile([]side.Side{{Name: "a", Files: []string{big}}}); got != 100 {
		t.Errorf("a large folded file with its calls: GC percent %d, want Go's 100", got)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent %d after, want the 100 before", got)
	}
	t.Setenv("GOGC", "150")
	if got := percentWhile([]side.Side{{Name: "a", Files: []string{v8}}}); got != 100 {
		t.Errorf("GOGC set: GC percent %d, want it left alone", got)
	}
}

// TestHeldRunsGCPercent: the headroom is shared out over the runs held,
// down to minGCPercent; runs read all at once keep roomyGCPercent.
func TestHeldRunsGCPercent(t *testing.T) {
	for _, c := range []struct{ runs, atOnce, want int }{{2, 2, roomyGCPercent}, {1, 4, roomyGCPercent}, {10, 2, 40}, {6, 2, 66}, {100, 2, minGCPercent}} {
		if got := heldRunsGCPercent(c.runs, c.atOnce); got != c.want {
			t.Errorf("%d runs, %d at once: %d, want %d", c.runs, c.atOnce, got, c.want)
		}
	}
}
