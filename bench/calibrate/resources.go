package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/record"
)

// resourceNames are the measures of a run the operating system takes, in
// record's order: the columns of the resource table.
var resourceNames = func() []string {
	var out []string
	for _, m := range record.Measures {
		out = append(out, m.String())
	}
	return out
}()

// resourceCount is, for one set and runs a side, the A/A draws in which
// any resource measure was judged better or worse, the same per measure,
// and the draws in which user CPU time made longer by userChange in every
// run of the after side was judged worse, out of those whose runs have it.
type resourceCount struct {
	any, found, withUser int
	per                  map[string]int
}

// userChange is the factor user CPU time is made longer by in every after
// run for the resource table's power column (+30%).
const userChange = 1.3

// recordRuns returns, for each profile (absolute paths), its run in the
// record.json of the recording above dir (profdiff record's folder), by
// the profile's absolute path; nothing when there is none.
func recordRuns(dir string, runs map[string]record.Run) {
	top := filepath.Dir(dir)
	rec, err := record.Read(top)
	if err != nil {
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			continue
		}
		if set, ok := rec.RunsOf(top, []string{abs}); ok {
			runs[abs] = set.Profiled[0]
		}
	}
}

// resources returns the measures of runs idx as profdiff gives a side of a
// recording's profiles (side.recordResources: profiled runs, max RSS only a
// bound when a run's is at record's floor), user CPU time scaled by
// userFactor; nil when a run has no record.
func (s *set) resources(idx []int, userFactor float64) []diff.ResourceRuns {
	var runs []record.Run
	for _, i := range idx {
		if !s.recorded[i] {
			return nil
		}
		runs = append(runs, s.runs[i])
	}
	var out []diff.ResourceRuns
	for _, m := range record.Measures {
		vs, ok := record.Values(runs, m)
		if !ok {
			continue
		}
		if m == record.MeasureUser {
			for i := range vs {
				vs[i] *= userFactor
			}
		}
		rr := diff.ResourceRuns{Kind: record.KindMeasured.String(), Name: m.String(), Unit: m.Unit(), Runs: vs}
		rr.AtMost = m == record.MeasureMaxRSS && slices.ContainsFunc(runs, func(r record.Run) bool { return r.Resources.AtFloor() })
		out = append(out, rr)
	}
	return out
}

// countResources adds one A/A draw's resource verdicts (r, sides a and b
// of the set) to c, and judges the same draw with the after side's user
// CPU time made longer by userChange in every run (-v lists the flags on
// standard error).
func (s *set) countResources(o options, c *resourceCount, r *diff.Report, a, b []int, n int) error {
	var flags []string
	for _, res := range r.Resources {
		if v := res.Measure.Change.Verdict; v.Real() {
			flags = append(flags, res.Name+" "+v.String())
			c.per[res.Name]++
		}
	}
	if len(flags) > 0 {
		c.any++
		if o.verbose {
			fmt.Fprintf(os.Stderr, "%s %d v %d A/A resources: %v\n", s.name, n, n, flags)
		}
	}
	after := s.resources(b, userChange)
	if after == nil {
		return nil
	}
	sa, sb := s.side("A", a, nil), s.side("B", b, nil)
	sb.Resources = after
	r2, err := diff.Compare([]diff.Side{sa, sb}, diff.DefaultOptions())
	if err != nil {
		return err
	}
	for _, res := range r2.Resources {
		if res.Name == "user" {
			c.withUser++
			if res.Measure.Change.Verdict == diff.VerdictWorse {
				c.found++
			}
		}
	}
	return nil
}

// resourceTable prints, for each set and runs a side, the share of A/A
// reports with any resource measure judged better or worse, per measure,
// and the share of the same draws in which user CPU time +30% in every
// after run is judged worse.
func resourceTable(out io.Writer, draws int, rows []resourceRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(out, "| set | runs a side | A/A reports with a resource flagged | %s | user %+.0f%% every run found |\n", strings.Join(resourceNames, " | "), 100*(userChange-1))
	fmt.Fprintf(out, "|---|---:|---:|%s---:|\n", strings.Repeat("---:|", len(resourceNames)))
	for _, row := range rows {
		cells := []string{row.set, fmt.Sprint(row.n), pct(row.c.any, draws)}
		for _, name := range resourceNames {
			cells = append(cells, pct(row.c.per[name], draws))
		}
		found := "-"
		if row.c.withUser > 0 {
			found = pct(row.c.found, row.c.withUser)
		}
		fmt.Fprintf(out, "| %s | %s |\n", strings.Join(cells, " | "), found)
	}
	fmt.Fprintln(out)
}

// resourceRow is one row of the resource table.
type resourceRow struct {
	set string
	n   int
	c   resourceCount
}

// hasResources says whether every run of s has a record.
func (s *set) hasResources() bool {
	return len(s.recorded) > 0 && !slices.Contains(s.recorded, false)
}
