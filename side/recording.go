package side

import (
	"path/filepath"
	"slices"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/record"
)

// recordResources returns what the operating system measured of each of a
// side's runs (wall, user, sys, max RSS, page faults, context switches),
// and of the side's unprofiled runs, when the side's files are the
// profiles of one profdiff record folder's measured runs, or of one step
// of them (DIR/SIDE/run-01.cpuprofile, DIR/steps/STEP/SIDE/run-01.cpuprofile,
// beside DIR/record.json); nil otherwise. Only record.json in that folder
// is read, through a reader held to the folder.
func recordResources(files []string) []diff.ResourceRuns {
	set, ok := recordRuns(files)
	if !ok {
		return nil
	}
	var out []diff.ResourceRuns
	for _, kind := range []record.Kind{record.KindMeasured, record.KindUnprofiled} {
		runs := set.Profiled
		if kind == record.KindUnprofiled {
			runs = set.Unprofiled
		}
		for _, m := range record.Measures {
			if vs, ok := record.Values(runs, m); ok {
				rr := diff.ResourceRuns{Step: set.Step, Kind: kind.String(), Name: m.String(), Unit: m.Unit(), Runs: vs}
				rr.AtMost = m == record.MeasureMaxRSS && slices.ContainsFunc(runs, func(r record.Run) bool { return r.Resources.AtFloor() })
				out = append(out, rr)
			}
		}
	}
	return out
}

// recordRuns returns the runs of the recording whose measured runs' (or
// steps') profiles files are, and that side's unprofiled runs (see
// recordResources).
func recordRuns(files []string) (record.RunSet, bool) {
	if len(files) == 0 {
		return record.RunSet{}, false
	}
	for _, up := range []int{2, 4} { // DIR/SIDE/run, DIR/steps/STEP/SIDE/run
		top := files[0]
		for range up {
			top = filepath.Dir(top)
		}
		rec := readRecording(top)
		if rec == nil {
			continue
		}
		if set, ok := rec.RunsOf(top, files); ok {
			return set, true
		}
	}
	return record.RunSet{}, false
}

// stepProcessCPU is processCPU for the profiles of one step of a
// recording's runs: each step's own CPU time; nil otherwise.
func stepProcessCPU(files []string) []int64 {
	set, ok := recordRuns(files)
	if !ok || set.Step == "" {
		return nil
	}
	var out []int64
	for _, r := range set.Profiled {
		if r.CPUNs <= 0 {
			return nil
		}
		out = append(out, r.CPUNs)
	}
	return out
}
