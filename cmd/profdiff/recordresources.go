package main

import (
	"encoding/json"
	"path/filepath"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/confine"
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
	if len(files) == 0 {
		return nil
	}
	for _, up := range []int{2, 4} { // DIR/SIDE/run, DIR/steps/STEP/SIDE/run
		top := files[0]
		for range up {
			top = filepath.Dir(top)
		}
		b, err := confine.New(top).ReadFile(filepath.Join(top, record.FileName), maxRecordJSON)
		if err != nil {
			continue
		}
		var rec record.Recording
		if json.Unmarshal(b, &rec) != nil {
			return nil
		}
		set, ok := rec.RunsOf(top, files)
		if !ok {
			continue
		}
		var out []diff.ResourceRuns
		for _, kind := range []record.Kind{record.KindMeasured, record.KindUnprofiled} {
			runs := set.Profiled
			if kind == record.KindUnprofiled {
				runs = set.Unprofiled
			}
			for _, m := range record.Measures {
				if vs, ok := record.Values(runs, m); ok {
					out = append(out, diff.ResourceRuns{Step: set.Step, Kind: kind.String(), Name: m.String(), Unit: m.Unit(), Runs: vs})
				}
			}
		}
		return out
	}
	return nil
}
