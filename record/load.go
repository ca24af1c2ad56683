package record

import (
	"fmt"
	"time"
)

// othersThreshold is the CPUs other work must keep busy, on average over
// a run (or before the first), for the recording to warn that it took a
// CPU from the runs: half a CPU.
const othersThreshold = 0.5

// minLoadWall is the shortest run whose machine load is judged: /proc/stat
// counts in hundredths of a second, too coarse below.
const minLoadWall = 200 * time.Millisecond

// busyCPUs measures how many CPUs the machine keeps busy, on average, over
// d (0 where it cannot be read).
func busyCPUs(d time.Duration) float64 {
	a, ok := machineCPU()
	if !ok {
		return 0
	}
	start := time.Now()
	time.Sleep(d)
	b, ok := machineCPU()
	if !ok {
		return 0
	}
	return float64(b-a) / float64(time.Since(start))
}

// OthersCPUs is how many CPUs other work (every process but the run's and
// the descendants it reaped, profdiff's own few milliseconds among them)
// kept busy on average while the run ran; false when the machine's busy
// time was not read or the run was too short to tell.
func (r Run) OthersCPUs() (float64, bool) {
	if r.MachineCPUNs <= 0 || r.WallNs < int64(minLoadWall) {
		return 0, false
	}
	return max(0, float64(r.MachineCPUNs-r.CPUNs)) / float64(r.WallNs), true
}

// loadWarnings warn, per side, when other work took a CPU (othersThreshold)
// during its runs: how many of them, and how much on average and at most.
func loadWarnings(runs []Run, names []string) []string {
	var ws []string
	for _, name := range names {
		n, hit := 0, 0
		sum, most := 0.0, 0.0
		for _, r := range runs {
			if r.Side != name || r.Warmup {
				continue
			}
			o, ok := r.OthersCPUs()
			if !ok {
				continue
			}
			n++
			if o >= othersThreshold {
				hit++
				sum += o
				most = max(most, o)
			}
		}
		if hit > 0 {
			ws = append(ws, fmt.Sprintf("during %d of %d runs of %s, other work kept %.1f CPUs busy on average (up to %.1f): it took CPU time from the runs, whose wall times and involuntary context switches grow with it", hit, n, name, sum/float64(hit), most))
		}
	}
	return ws
}

// floorWarnings warn, per side, of measured runs whose max RSS is at the
// floor profdiff's own memory puts under it (Resources.AtFloor): their
// figure is profdiff's, the run's own at most that.
func floorWarnings(runs []Run, names []string) []string {
	var ws []string
	for _, name := range names {
		n, hit := 0, 0
		var floor int64
		for _, r := range runs {
			if r.Side != name || r.Warmup || r.Resources == nil {
				continue
			}
			n++
			if r.Resources.AtFloor() {
				hit++
				floor = max(floor, r.Resources.MaxRSSFloorBytes)
			}
		}
		if hit > 0 {
			ws = append(ws, fmt.Sprintf("the max RSS of %d of %d runs of %s is no more than profdiff's own memory when it started them (%.1f MiB), which the kernel charges a command a Go program starts: their own max RSS is at most that", hit, n, name, float64(floor)/(1<<20)))
		}
	}
	return ws
}
