package main

import (
	"path/filepath"

	"github.com/profdiff/profdiff/report"
	"github.com/profdiff/profdiff/side"
)

// sideEnvironments returns, for a comparison of two sides, the machine
// each side ran on as the record.json of its profdiff record folder says
// (DIR/SIDE/*.cpuprofile beside DIR/record.json): CPU model, logical CPUs,
// the load average when the recording started and the side's program
// versions. A side with no such record is left empty; nil when neither
// has one (see side.Recording).
func sideEnvironments(sides []side.Side) []report.SideEnvironment {
	if len(sides) != 2 {
		return nil
	}
	out := make([]report.SideEnvironment, 2)
	found := false
	for i, s := range sides {
		rec, dir := side.Recording(s)
		if rec == nil {
			continue
		}
		e := rec.Environment
		out[i] = report.SideEnvironment{CPUModel: e.CPUModel, CPUs: e.LogicalCPUs, Versions: e.Versions[filepath.Base(dir)]}
		if len(e.LoadAverage) > 0 {
			out[i].Load = e.LoadAverage[0]
		}
		found = true
	}
	if !found {
		return nil
	}
	return out
}
