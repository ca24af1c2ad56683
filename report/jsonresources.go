package report

import "github.com/profdiff/profdiff/diff"

// resources writes the measures the operating system took of the runs
// (profdiff record's record.json), each judged against the base: absent
// without them. Each entry: step ("" for whole runs), kind ("profiled",
// or "unprofiled" for the runs made without the profiler, what profiling
// costs), name (wall, user, sys, max_rss, minor_faults, major_faults,
// voluntary_ctx_switches, involuntary_ctx_switches), unit ("ns", "bytes"
// or "count"), mean (each side's, null for a side without runs), runs
// (each side's values, in the order they ran), spread (each side's σ,
// null with one run), at_most (per side, true when its values are in part
// only bounds from above, a max RSS at profdiff's own memory, and then
// untested; absent when no side's are), and for a pair delta, delta_pct (null when the
// base's is 0), verdict ("better", "worse", "~"; fewer is better for
// every measure) and p (corrected; null when untested), and vs_base, one
// such change per side other than the base, with side, its name.
func (j *jsonReport) resources() {
	r := j.r
	if len(r.Resources) == 0 {
		return
	}
	j.Key("resources")
	j.BeginArray()
	for i := range r.Resources {
		res := &r.Resources[i]
		m := &res.Measure
		j.BeginObject()
		j.Key("step")
		j.String(res.Step)
		j.Key("kind")
		j.String(res.Kind)
		j.Key("name")
		j.String(res.Name)
		j.Key("unit")
		j.String(res.Unit)
		j.Key("mean")
		j.BeginArray()
		for _, v := range m.Mean {
			j.num(v)
		}
		j.EndArray()
		j.Key("runs")
		j.BeginArray()
		for _, run := range m.Runs {
			j.BeginArray()
			for _, v := range run {
				j.num(v)
			}
			j.EndArray()
		}
		j.EndArray()
		j.Key("spread")
		j.BeginArray()
		for si := range m.Runs {
			j.num(m.Spread(si))
		}
		j.EndArray()
		if res.AtMost != nil {
			j.Key("at_most")
			j.BeginArray()
			for _, b := range res.AtMost {
				j.Bool(b)
			}
			j.EndArray()
		}
		if j.layout == LayoutPair {
			// A pair's change at the top too, as for the rows.
			j.resourceChange(&m.Change)
		}
		if sides := j.variantSides(); len(sides) > 0 { // judgeResources judges every variant
			j.Key("vs_base")
			j.BeginArray()
			for _, side := range sides {
				c := m.ChangeFor(side)
				j.BeginObject()
				j.Key("side")
				j.String(r.Sides[side].Name)
				j.resourceChange(&c)
				j.EndObject()
			}
			j.EndArray()
		}
		j.EndObject()
	}
	j.EndArray()
}

// resourceChange writes a resource's judged change: delta, delta_pct,
// verdict and p.
func (j *jsonReport) resourceChange(c *diff.Change) {
	j.Key("delta")
	j.num(c.Delta)
	j.Key("delta_pct")
	j.num(c.DeltaPct)
	j.Key("verdict")
	j.String(c.Verdict.String())
	j.Key("p")
	j.num(c.P)
}
