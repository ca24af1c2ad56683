package main

import (
	"github.com/profdiff/profdiff/side"
	"os"
	"runtime"
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
func memoryLimit(sides []side.Side) (limit int64, ok bool) {
	var size int64
	for _, s := range sides {
		for _, f := range s.Files {
			if f == "-" {
				return 0, false
			}
			size += analyze.InputSize(f)
		}
	}
	return max(minMemoryLimit, memoryPerInputByte*size), true
}

// roomyGCPercent is the GC percent that a report is read and written with
// when the memory its runs are estimated to take (analyze.ReadCost) leaves
// room under the soft memory limit for a heap of 1+roomyGCPercent/100
// times that: the collector then runs half as often as at Go's default of
// 100. On the 57 MiB V8 profile that took 5-9% off the wall time of every
// report, for a higher peak (one file 35 -> 40 MiB as JSON, 45 -> 57 MiB
// as HTML; the file against a copy at most 90 MiB in 40 runs, 73 in 20
// before). A folded or pprof input (3 to 9 estimated bytes a byte, against 6
// under the limit) keeps Go's default: its heap would meet the limit, and
// a folded file of 2 M distinct stacks peaked 10% higher with it.
const roomyGCPercent = 200

// minGCPercent is the least GC percent heldRunsGCPercent gives.
const minGCPercent = 25

// heldRunsGCPercent is the GC percent for reading runs runs, atOnce of
// them at a time, when one at a time would be roomy: roomyGCPercent
// shared out over the runs held. What a run leaves live after it is read
// (its table: 2.8 MB for the 57 MiB V8 profile, most of it the call tree)
// adds up over the runs, while what reading one takes does not; with
// the same percent, the heap the collector allowed grew with every run
// (five runs a side of that profile peaked at 147-172 MiB against 79-90
// for two sides). Headroom for the runs being read, not for every run
// held, kept five a side at 95-122 MiB for the same CPU time.
func heldRunsGCPercent(runs, atOnce int) int {
	if runs <= atOnce {
		return roomyGCPercent
	}
	return max(minGCPercent, roomyGCPercent*atOnce/runs)
}

// limitMemory sets the soft memory limit for the sides, and the GC percent
// to roomyGCPercent (heldRunsGCPercent, for more runs than are read at
// once) when reading them with aopts leaves the room, unless
// GOGC sets one; it returns what restores both as they were. When
// GOMEMLIMIT sets a limit, or the size of the input is not known, it
// changes neither.
func limitMemory(sides []side.Side, aopts analyze.AggregateOptions) (restore func()) {
	limit, ok := memoryLimit(sides)
	if !ok || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	oldLimit := debug.SetMemoryLimit(limit)
	if os.Getenv("GOGC") != "" || !roomy(sides, aopts, limit) {
		return func() { debug.SetMemoryLimit(oldLimit) }
	}
	oldPercent := debug.SetGCPercent(heldRunsGCPercent(side.Runs(sides), runtime.GOMAXPROCS(0)))
	return func() {
		debug.SetMemoryLimit(oldLimit)
		debug.SetGCPercent(oldPercent)
	}
}

// roomy reports whether a heap of 1+roomyGCPercent/100 times the memory
// that reading the sides' runs with aopts is estimated to take fits under
// limit.
func roomy(sides []side.Side, aopts analyze.AggregateOptions, limit int64) bool {
	var cost int64
	for _, s := range sides {
		for _, f := range s.Files {
			cost += analyze.ReadCost(f, aopts)
		}
	}
	return cost*(100+roomyGCPercent)/100 <= limit
}
