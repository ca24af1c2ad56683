package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
)

// jsonReport is the part of profdiff's JSON the action reads: the same in
// version 2 and in version 3, which keeps a pair's top-level change members.
type jsonReport struct {
	Version int `json:"version"`
	Sides   []struct {
		Name string `json:"name"`
		Runs int    `json:"runs"`
	} `json:"sides"`
	Headline struct {
		OnCPU   *measure `json:"on_cpu"`
		PerWork *measure `json:"per_work"`
		// RunsNeeded is how many runs a side would settle the headline's
		// change, when the runs cannot.
		RunsNeeded int `json:"runs_needed"`
	} `json:"headline"`
	Packages  []row `json:"packages"`
	Functions []row `json:"functions"`
	Rules     []struct {
		Rule      string   `json:"rule"`
		Broken    bool     `json:"broken"`
		Offenders []string `json:"offenders"`
	} `json:"rules"`
}

// row is a package's or function's judged self and total time.
type row struct {
	Self  measure `json:"self"`
	Total measure `json:"total"`
}

// measure is one judged change.
type measure struct {
	DeltaPct   *float64 `json:"delta_pct"`
	DeltaPP    *float64 `json:"delta_pp"`
	Verdict    string   `json:"verdict"`
	RunsNeeded int      `json:"runs_needed"`
}

// real reports whether a verdict says the change is not noise.
func real(verdict string) bool { return verdict != "" && verdict != "~" }

// readReport reads profdiff's JSON.
func readReport(path string) (*jsonReport, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r jsonReport
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if r.Version < 2 || r.Version > 3 || len(r.Sides) != 2 || r.Headline.OnCPU == nil {
		return nil, fmt.Errorf("%s: not a comparison of two sides in profdiff's JSON version 2 or 3", path)
	}
	return &r, nil
}

// headline is the measure the verdict is about: on-CPU per unit of work
// when the work was given, else on-CPU per run.
func (r *jsonReport) headline() *measure {
	if r.Headline.PerWork != nil {
		return r.Headline.PerWork
	}
	return r.Headline.OnCPU
}

// verdict is the headline verdict: better, worse or ~.
func (r *jsonReport) verdict() string { return r.headline().Verdict }

// onCPUDeltaPct is the headline's relative change, signed, one decimal.
func (r *jsonReport) onCPUDeltaPct() string {
	h := r.headline()
	if h.DeltaPct == nil {
		return ""
	}
	return strconv.FormatFloat(*h.DeltaPct, 'f', 1, 64)
}

// broken lists the --fail-on rules that broke, with their offenders.
func (r *jsonReport) broken() []string {
	var out []string
	for _, rule := range r.Rules {
		if rule.Broken {
			out = append(out, rule.Rule)
		}
	}
	return out
}

// changed reports whether the comparison found a real change: in the
// headline, in a package's self or total time, or a broken rule.
func (r *jsonReport) changed() bool {
	if real(r.Headline.OnCPU.Verdict) || (r.Headline.PerWork != nil && real(r.Headline.PerWork.Verdict)) || len(r.broken()) > 0 {
		return true
	}
	for _, p := range r.Packages {
		if real(p.Self.Verdict) || real(p.Total.Verdict) {
			return true
		}
	}
	return false
}

// runsNeeded is how many runs a side would settle the change the comment's
// confirming-run sentence names: the headline's when its runs cannot
// settle it, else the largest change (in points of on-CPU time, at least
// one) of a package or function that passes the minimum effect but is not
// significant; 0 when there is none. It is the rule profdiff's markdown
// follows (report.View.RunsNeeded).
func (r *jsonReport) runsNeeded() int {
	if r.Headline.RunsNeeded > 0 {
		return r.Headline.RunsNeeded
	}
	n, best := 0, 0.0
	for _, rows := range [][]row{r.Packages, r.Functions} {
		for _, x := range rows {
			for _, m := range []measure{x.Self, x.Total} {
				if m.RunsNeeded == 0 || m.DeltaPP == nil || math.Abs(*m.DeltaPP) < 1 || math.Abs(*m.DeltaPP) <= best {
					continue
				}
				n, best = m.RunsNeeded, math.Abs(*m.DeltaPP)
			}
		}
	}
	return n
}
