package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// writeDistinctStacks writes n distinct folded stacks of 4 to 8 frames over
// names functions, as a profile of many distinct stacks (a CI run's perf
// script output) has them.
func writeDistinctStacks(t *testing.T, path string, n, names int, seed int64) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	r := rand.New(rand.NewSource(seed))
	for i := 0; i < n; i++ {
		for d := 4 + r.Intn(5); d > 0; d-- {
			fmt.Fprintf(w, "f%d;", r.Intn(names))
		}
		fmt.Fprintf(w, "f%d", r.Intn(names))
		fmt.Fprintf(w, " %d\n", 1+r.Intn(5))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestDistinctStacksMemory: comparing two folded files of many distinct
// stacks as JSON allocates in proportion to their stacks, not hundreds of
// bytes for every call between functions: each of their hundreds of
// thousands of calls had a Measure of 200 bytes, where the report writes
// 5,000 calls and the real ones (5.0 KB allocated a stack here, 2.9 KB
// since; two files of 2 M stacks peaked at 4.9 GB of RSS, now 2.9 GB).
func TestDistinctStacksMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and compares two files of 100,000 stacks")
	}
	const n = 100_000
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.folded"), filepath.Join(dir, "b.folded")
	writeDistinctStacks(t, a, n, 1000, 1)
	writeDistinctStacks(t, b, n, 1000, 2)
	var size int64
	for _, p := range []string{a, b} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		size += st.Size()
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if code := run([]string{"--format", "json", "-o", filepath.Join(dir, "out.json"), a, b}, nil, io.Discard, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes of input, %d allocated (%.1fx, %d a stack)", size, alloc, float64(alloc)/float64(size), alloc/(2*n))
	if perStack := alloc / (2 * n); perStack > 4000 {
		t.Errorf("comparing %d distinct stacks as JSON allocates %d bytes a stack (%.1fx the input)", 2*n, perStack, float64(alloc)/float64(size))
	}
}
