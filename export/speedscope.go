package export

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/profdiff/profdiff/analyze"
)

// speedscopeSchema is the JSON schema speedscope's file format names.
const speedscopeSchema = "https://www.speedscope.app/file-format-schema.json"

type speedscopeFile struct {
	Schema   string              `json:"$schema"`
	Shared   speedscopeShared    `json:"shared"`
	Profiles []speedscopeProfile `json:"profiles"`
	Name     string              `json:"name"`
	Exporter string              `json:"exporter"`
}

type speedscopeShared struct {
	Frames []speedscopeFrame `json:"frames"`
}

type speedscopeFrame struct {
	Name string `json:"name"`
	File string `json:"file,omitempty"`
	Line int32  `json:"line,omitempty"`
	Col  int32  `json:"col,omitempty"`
}

type speedscopeProfile struct {
	Type       string    `json:"type"`
	Name       string    `json:"name"`
	Unit       string    `json:"unit"`
	StartValue int64     `json:"startValue"`
	EndValue   int64     `json:"endValue"`
	Samples    [][]int32 `json:"samples"`
	Weights    []int64   `json:"weights"`
}

// WriteSpeedscope writes every run of every side as one sampled profile of
// a speedscope file, its samples in the order they were taken and
// weighted in nanoseconds (speedscope's time axis), on-CPU samples only;
// frames are shared, named as profdiff's report names them.
func WriteSpeedscope(w io.Writer, sides []Side, exporter string) error {
	f := speedscopeFile{Schema: speedscopeSchema, Exporter: exporter, Shared: speedscopeShared{Frames: []speedscopeFrame{}}}
	frames := map[analyze.Key]int32{}
	for _, s := range sides {
		for ri, r := range s.Runs {
			if f.Name == "" {
				f.Name = r.Profile.File
			}
			prof := speedscopeProfile{Type: "sampled", Unit: "nanoseconds", Samples: [][]int32{}, Weights: []int64{},
				Name: fmt.Sprintf("%s %d: %s", s.Name, ri+1, r.Profile.File)}
			if len(sides) == 1 && len(s.Runs) == 1 {
				prof.Name = r.Profile.File
			}
			// Samples in the order taken; a node's stack of frame ids is
			// made once and shared by its samples.
			byNode := map[int32][]int32{}
			var buf []int32
			for _, smp := range r.Profile.Samples {
				if !r.onCPU(smp) {
					continue
				}
				ids, ok := byNode[smp.Node]
				if !ok {
					buf = r.stack(smp.Node, buf)
					ids = make([]int32, len(buf))
					for i, fn := range buf {
						k := r.Table.Functions[fn].Key
						id, ok := frames[k]
						if !ok {
							id = int32(len(f.Shared.Frames))
							frames[k] = id
							f.Shared.Frames = append(f.Shared.Frames, speedscopeFrame{Name: name(k), File: k.File, Line: k.Line, Col: k.Column})
						}
						ids[i] = id
					}
					byNode[smp.Node] = ids
				}
				if len(ids) == 0 {
					continue
				}
				prof.Samples = append(prof.Samples, ids)
				prof.Weights = append(prof.Weights, smp.Weight)
				prof.EndValue += smp.Weight
			}
			f.Profiles = append(f.Profiles, prof)
		}
	}
	enc := json.NewEncoder(w)
	return enc.Encode(f)
}
