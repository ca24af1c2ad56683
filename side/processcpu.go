package side

import (
	"encoding/json"
	"path/filepath"

	"github.com/profdiff/profdiff/internal/confine"
	"github.com/profdiff/profdiff/record"
)

// maxRecordJSON bounds the size of a record.json read for process CPU
// times: a recording of thousands of runs is well under it.
const maxRecordJSON = 16 << 20

// processCPU returns the process CPU time of each of a side's runs when
// they are the profiles of one profdiff record folder (DIR/before/*.cpuprofile
// beside DIR/record.json) and it measured every one of them; nil
// otherwise. Only record.json in the folder above the side's own is
// read, through a reader held to that folder.
func processCPU(files []string) []int64 {
	if len(files) == 0 {
		return nil
	}
	top := filepath.Dir(filepath.Dir(files[0]))
	for _, f := range files {
		if filepath.Dir(filepath.Dir(f)) != top {
			return nil
		}
	}
	rec := readRecording(top)
	if rec == nil {
		return stepProcessCPU(files) // DIR/steps/STEP/SIDE/run-01...
	}
	byFile := map[string]int64{}
	for _, r := range rec.Runs {
		if r.Profile != "" && !r.Warmup && r.CPUNs > 0 {
			byFile[filepath.Clean(filepath.Join(top, r.Profile))] = r.CPUNs
		}
	}
	out := make([]int64, len(files))
	for i, f := range files {
		ns, ok := byFile[filepath.Clean(f)]
		if !ok {
			return nil
		}
		out[i] = ns
	}
	return out
}

// Recording returns the record.json of the profdiff record folder that
// the side's first run comes from (DIR/SIDE/run.cpuprofile beside
// DIR/record.json), and the folder of its runs (DIR/SIDE); nil for a side
// of no such folder, or a server query side. Only that record.json is
// read, through a reader held to DIR.
func Recording(s Side) (*record.Recording, string) {
	if len(s.Files) == 0 || s.Fetched != nil {
		return nil, ""
	}
	dir := filepath.Dir(s.Files[0])
	return readRecording(filepath.Dir(dir)), dir
}

// readRecording reads top's record.json through a reader held to top; nil
// when there is none or it does not decode.
func readRecording(top string) *record.Recording {
	b, err := confine.New(top).ReadFile(filepath.Join(top, record.FileName), maxRecordJSON)
	if err != nil {
		return nil
	}
	var rec record.Recording
	if json.Unmarshal(b, &rec) != nil {
		return nil
	}
	return &rec
}
