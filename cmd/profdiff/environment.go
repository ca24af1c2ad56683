package main

import (
	"encoding/json"
	"path/filepath"

	"github.com/profdiff/profdiff/internal/confine"
	"github.com/profdiff/profdiff/record"
	"github.com/profdiff/profdiff/report"
)

// sideEnvironments returns, for a comparison of two sides, the machine
// each side ran on as the record.json of its profdiff record folder says
// (DIR/SIDE/*.cpuprofile beside DIR/record.json): CPU model, logical CPUs,
// the load average when the recording started and the side's program
// versions. A side with no such record is left empty; nil when neither
// has one. The file is read as processCPU reads it, through a reader held
// to the record folder.
func sideEnvironments(sides []sideArg) []report.SideEnvironment {
	if len(sides) != 2 {
		return nil
	}
	out := make([]report.SideEnvironment, 2)
	found := false
	for i, s := range sides {
		if len(s.files) == 0 || s.fetched != nil {
			continue
		}
		dir := filepath.Dir(s.files[0])
		top := filepath.Dir(dir)
		b, err := confine.New(top).ReadFile(filepath.Join(top, record.FileName), maxRecordJSON)
		if err != nil {
			continue
		}
		var rec record.Recording
		if json.Unmarshal(b, &rec) != nil {
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
