package report

import (
	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
)

type refJSONResponsiveness struct {
	Source      string          `json:"source"`
	IntervalNs  []float64       `json:"interval_ns"`
	Longest     refJSONMeasure  `json:"longest_stall"`
	Over16ms    refJSONMeasure  `json:"stalls_over_16ms"`
	Over50ms    refJSONMeasure  `json:"stalls_over_50ms"`
	Blocking    refJSONMeasure  `json:"blocking"`
	LateFrames  *refJSONMeasure `json:"frames_over_16ms,omitempty"`
	LongestList []refJSONStall  `json:"longest"`
}

type refJSONStall struct {
	Side       string           `json:"side"`
	Run        int              `json:"run"`
	StartNs    int64            `json:"start_ns"`
	DurationNs int64            `json:"duration_ns"`
	Top        []refJSONStallFn `json:"top_functions"`
	Stack      []refJSONFrame   `json:"stack"`
}

type refJSONFrame struct {
	Name    string `json:"name"`
	Package string `json:"package"`
	File    string `json:"file"`
	Line    int32  `json:"line"`
}

type refJSONStallFn struct {
	refJSONFrame
	SelfNs int64 `json:"self_ns"`
}

func refFrame(k analyze.Key) refJSONFrame {
	return refJSONFrame{Name: diff.FunctionName(k), Package: k.Package, File: k.File, Line: k.Line}
}

// refResponsivenessJSON is the reference for the responsiveness object.
func refResponsivenessJSON(r *diff.Report) *refJSONResponsiveness {
	rs := r.Responsiveness
	if rs == nil {
		return nil
	}
	out := &refJSONResponsiveness{Source: rs.Source, IntervalNs: rs.IntervalNs,
		Longest: refMeasureJSON(r, &rs.LongestStall), Over16ms: refMeasureJSON(r, &rs.Over16ms),
		Over50ms: refMeasureJSON(r, &rs.Over50ms), Blocking: refMeasureJSON(r, &rs.Blocking), LongestList: []refJSONStall{}}
	if rs.LateFrames != nil {
		m := refMeasureJSON(r, rs.LateFrames)
		out.LateFrames = &m
	}
	for _, s := range rs.Longest {
		st := refJSONStall{Side: r.Sides[s.Side].Name, Run: s.Run, StartNs: s.Start, DurationNs: s.Duration, Top: []refJSONStallFn{}, Stack: []refJSONFrame{}}
		for _, f := range s.Top {
			st.Top = append(st.Top, refJSONStallFn{refFrame(f.Key), f.SelfNs})
		}
		for _, k := range s.Stack {
			st.Stack = append(st.Stack, refFrame(k))
		}
		out.LongestList = append(out.LongestList, st)
	}
	return out
}
