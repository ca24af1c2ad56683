package main

import (
	"os"
	"runtime/debug"

	"github.com/profdiff/profdiff/analyze"
)

// memoryPerInputByte and minMemoryLimit make the soft memory limit that a
// report is read and written under: the runtime collects garbage sooner
// as the heap nears it, where it would otherwise let the heap grow to
// twice what is live. A folded file of 2 M distinct stacks (72 MB) keeps
// some 300 MB live at the peak and reached 640 MB of RSS.
const (
	memoryPerInputByte = 6
	minMemoryLimit     = 256 << 20
)

// memoryLimit is the soft memory limit for reading the sides' runs:
// memoryPerInputByte times their size (gzipped files as analyze.InputSize
// takes them), at least minMemoryLimit; ok is false when a run is read
// from standard input, whose size is not known. It is soft: when more is
// live, the runtime lets the heap grow and spends at most half the CPU on
// collecting.
func memoryLimit(sides []sideArg) (limit int64, ok bool) {
	var size int64
	for _, s := range sides {
		for _, f := range s.files {
			if f == "-" {
				return 0, false
			}
			size += analyze.InputSize(f)
		}
	}
	return max(minMemoryLimit, memoryPerInputByte*size), true
}

// limitMemory sets the soft memory limit for the sides, unless GOMEMLIMIT
// sets one or the size of the input is not known, and returns what
// restores the one before.
func limitMemory(sides []sideArg) (restore func()) {
	limit, ok := memoryLimit(sides)
	if !ok || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	old := debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(old) }
}
