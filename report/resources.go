package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
)

// ResourceTable is one table of the measures the operating system took of
// the runs (Report.Resources), for one step ("" for whole runs) and one
// group of measures: a row per side and kind of run (profiled, then
// unprofiled), a column per measure, each cell the side's mean ±σ and,
// beside a variant's, its change against the base and the verdict.
type ResourceTable struct {
	Step   string
	Header []string // the measures' titles, then "side"
	Rows   [][]Cell // the measures' cells, then the side's name and kind
}

// Table is the resource table as a typed table: a column per measure,
// then the side's name.
func (t *ResourceTable) Table() Table {
	out := Table{Title: "resources", Total: len(t.Rows)}
	for i, h := range t.Header {
		k := KindMeasure
		if i == len(t.Header)-1 {
			k = KindName
		}
		out.Columns = append(out.Columns, col(h, k))
	}
	for _, cs := range t.Rows {
		out.Rows = append(out.Rows, Row{Index: -1, Cells: cs})
	}
	return out
}

// resourceGroups are the measures of each resource table, in order: the
// times and memory, then the counts (as users write them by hand: wall
// ±σ user sys RSS, then faults and context switches).
var resourceGroups = [][]string{
	{"wall", "user", "sys", "max_rss"},
	{"minor_faults", "major_faults", "voluntary_ctx_switches", "involuntary_ctx_switches"},
}

// resourceTitles are the measures' column titles.
var resourceTitles = map[string]string{"wall": "wall", "user": "user", "sys": "sys", "max_rss": "max RSS",
	"minor_faults": "minor faults", "major_faults": "major faults", "voluntary_ctx_switches": "vol. ctx sw", "involuntary_ctx_switches": "invol. ctx sw"}

// ResourceTables returns the report's resource tables, steps in the order
// the report has them; nil without resources.
func (v *View) ResourceTables() []ResourceTable {
	rs := v.r.Resources
	if len(rs) == 0 {
		return nil
	}
	var steps []string
	seen := map[string]bool{}
	for _, r := range rs {
		if !seen[r.Step] {
			seen[r.Step] = true
			steps = append(steps, r.Step)
		}
	}
	find := func(step, kind, name string) *diff.Resource {
		for i := range rs {
			if rs[i].Step == step && rs[i].Kind == kind && rs[i].Name == name {
				return &rs[i]
			}
		}
		return nil
	}
	var out []ResourceTable
	for _, step := range steps {
		for _, group := range resourceGroups {
			t := ResourceTable{Step: step}
			var names []string
			for _, name := range group {
				if find(step, "profiled", name) != nil || find(step, "unprofiled", name) != nil {
					names = append(names, name)
					t.Header = append(t.Header, resourceTitles[name])
				}
			}
			if len(names) == 0 {
				continue
			}
			t.Header = append(t.Header, "side")
			for _, kind := range []string{"profiled", "unprofiled"} {
				for si, s := range v.r.Sides {
					var row []Cell
					any := false
					for _, name := range names {
						res := find(step, kind, name)
						if res == nil || len(res.Measure.Runs[si]) == 0 {
							row = append(row, Cell{Text: "-"})
							continue
						}
						any = true
						row = append(row, v.resourceCell(res, si))
					}
					if !any {
						continue
					}
					label := termtext.Clean(s.Name)
					if kind == "unprofiled" {
						label += " (unprofiled)"
					}
					out := append(row, Cell{Text: label})
					t.Rows = append(t.Rows, out)
				}
			}
			out = append(out, t)
		}
	}
	return out
}

// resourceCell is a side's cell of a resource: its mean ±σ (σ in the
// mean's unit, as 3.13 s ±0.18 s), and for a side other than the base its
// change and verdict.
func (v *View) resourceCell(res *diff.Resource, side int) Cell {
	m := &res.Measure
	text := resourceValue(m.Mean[side], res.Unit)
	if sp := m.Spread(side); !math.IsNaN(sp) && m.Mean[side] > 0 {
		text = resourceSpread(m.Mean[side], sp, res.Unit)
	}
	if res.AtMost != nil && res.AtMost[side] {
		text = "≤" + text // a bound: profdiff's own memory (see record's warning)
	}
	if side == v.r.Base {
		return Cell{Text: text}
	}
	ch := m.ChangeFor(side)
	if math.IsNaN(ch.Delta) {
		return Cell{Text: text}
	}
	pct := units.SignedPct(ch.DeltaPct) + " "
	switch {
	case ch.Delta == 0:
		pct = ""
	case math.IsNaN(ch.DeltaPct): // none on the base's side
		pct = "from 0 "
	}
	return Cell{Text: text + " " + pct + ch.Verdict.String(), Verdict: ch.Verdict}
}

// resourceSpread is a mean and its σ in the mean's unit and scale:
// 100.3 MiB ±0.7 MiB, 25.0K ±0.3K, 3.13 s ±0.18 s.
func resourceSpread(mean, sd float64, unit string) string {
	if unit == "ns" {
		return units.DurationSpread(mean, sd)
	}
	m := resourceValue(mean, unit)
	var div float64
	var suffix, format string
	switch {
	case unit == "bytes" && mean >= 1<<30:
		div, suffix, format = 1<<30, " GiB", "%.2f"
	case unit == "bytes" && mean >= 1<<20:
		div, suffix, format = 1<<20, " MiB", "%.1f"
	case unit == "bytes":
		div, suffix, format = 1<<10, " KiB", "%.0f"
	case mean >= 1e7:
		div, suffix, format = 1e6, "M", "%.1f"
	case mean >= 1e4:
		div, suffix, format = 1e3, "K", "%.1f"
	default:
		div, suffix, format = 1, "", "%.0f"
	}
	x := sd / div
	switch {
	case x >= 0.1 || x == 0 || div == 1:
	case unit == "bytes":
		format = "%.2g" // two figures, not "±0.0": 67.2 MiB ±0.012 MiB
	default:
		return m + " ±" + units.Count(int64(math.Round(sd))) // 23.7K ±3 faults
	}
	return m + " ±" + fmt.Sprintf(format, x) + suffix
}

// resourceValue formats a resource's value in its unit: a duration, bytes
// in KiB, MiB or GiB, or a count (with K or M past ten thousand).
func resourceValue(x float64, unit string) string {
	switch unit {
	case "ns":
		return units.Duration(x)
	case "bytes":
		switch {
		case x >= 1<<30:
			return fmt.Sprintf("%.2f GiB", x/(1<<30))
		case x >= 1<<20:
			return fmt.Sprintf("%.1f MiB", x/(1<<20))
		}
		return fmt.Sprintf("%.0f KiB", x/(1<<10))
	}
	switch {
	case x >= 1e7:
		return fmt.Sprintf("%.1fM", x/1e6)
	case x >= 1e4:
		return fmt.Sprintf("%.1fK", x/1e3)
	}
	return units.Count(int64(math.Round(x)))
}

// ProfilingCost says, per side with unprofiled runs, how much longer (wall
// and user+sys CPU time, as means) its profiled runs took than its
// unprofiled ones, for the step: "before: wall +12%, CPU +15%"; "" when no
// side has unprofiled runs.
func (v *View) ProfilingCost(step string) string {
	mean := func(kind, name string, si int) float64 {
		for i := range v.r.Resources {
			r := &v.r.Resources[i]
			if r.Step == step && r.Kind == kind && r.Name == name && len(r.Measure.Runs[si]) > 0 {
				return r.Measure.Mean[si]
			}
		}
		return math.NaN()
	}
	var parts []string
	for si, s := range v.r.Sides {
		pw, uw := mean("profiled", "wall", si), mean("unprofiled", "wall", si)
		if math.IsNaN(uw) || math.IsNaN(pw) || uw <= 0 {
			continue
		}
		part := termtext.Clean(s.Name) + ": wall " + units.SignedPct(100*(pw/uw-1))
		pc := mean("profiled", "user", si) + mean("profiled", "sys", si)
		uc := mean("unprofiled", "user", si) + mean("unprofiled", "sys", si)
		if uc > 0 && !math.IsNaN(pc) {
			part += ", CPU " + units.SignedPct(100*(pc/uc-1))
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return ""
	}
	return "profiling cost (profiled runs' mean over unprofiled runs'): " + strings.Join(parts, "; ")
}

// writeTextResources writes the resource tables, under a title per step;
// false when there are none.
func writeTextResources(tw *textWriter, v *View) bool {
	tables := v.ResourceTables()
	first := true // the report's first lines: no blank line above
	last := "\x00"
	for _, t := range tables {
		if t.Step != last {
			if last != "\x00" {
				if c := v.ProfilingCost(last); c != "" {
					tw.printf("  %s\n", c)
				}
			}
			last = t.Step
			title := "Resources per run, from the operating system (mean ±σ"
			if len(v.r.Sides) > 1 {
				title += "; change against " + termtext.Clean(v.r.Sides[v.r.Base].Name) + ", " + legendShort(v.r)
			}
			title += ")"
			if t.Step != "" {
				title = "Step " + termtext.Clean(t.Step) + ": r" + strings.TrimPrefix(title, "R")
			}
			if !first {
				tw.printf("\n")
			}
			tw.printf("%s\n", title)
			first = false
		}
		tt := t.Table()
		tw.layout(&tt)
	}
	if last != "\x00" {
		if c := v.ProfilingCost(last); c != "" {
			tw.printf("  %s\n", c)
		}
	}
	return len(tables) > 0
}
