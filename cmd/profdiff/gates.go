package main

import (
	"fmt"
	"strings"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/units"
)

// unmatchedRule returns the error for the first --fail-on rule that names
// rows no side has (diff.Report.UnmatchedRules): such a gate could never
// break, and a misspelt name (package:lodahs) would pass silently.
func unmatchedRule(rep *diff.Report) error {
	bad := rep.UnmatchedRules()
	if len(bad) == 0 {
		return nil
	}
	r := bad[0]
	kind := r.Target
	if r.Total {
		kind += "-total"
	}
	what := fmt.Sprintf("no %s is named %s", r.Target, r.Name)
	if r.Target == "file" {
		what = fmt.Sprintf("no file's path ends in %s", r.Name)
	}
	sides := "either side"
	if len(rep.Sides) > 2 {
		sides = "any side"
	}
	if len(rep.Options.Narrowing) > 0 {
		sides += " after " + strings.Join(rep.Options.Narrowing, " ")
	}
	return fmt.Errorf("--fail-on %q: %s on %s, so the rule could never break; check the name (%s:* judges every %s)", r.Text, what, sides, kind, r.Target)
}

// narrowedAway returns a warning for each side whose narrowing (--focus,
// --window, ...) left no on-CPU time in some of its runs, naming the
// flags: every figure of such a run is 0, and an empty report must not
// read as "nothing changed".
func narrowedAway(ds []diff.Side, narrowing []string) []analyze.Warning {
	if len(narrowing) == 0 {
		return nil
	}
	var out []analyze.Warning
	for _, d := range ds {
		var empty []*analyze.Table
		for _, t := range d.Tables {
			if t.Summary.OnCPUNs == 0 && t.Summary.NarrowedFromNs > 0 {
				empty = append(empty, t)
			}
		}
		if len(empty) == 0 {
			continue
		}
		var file string
		switch {
		case len(d.Tables) == 1:
			file = empty[0].File
		case len(empty) == len(d.Tables):
			file = fmt.Sprintf("all %s runs of %s", units.Count(int64(len(d.Tables))), d.Name)
		default:
			file = fmt.Sprintf("%s of %s runs of %s", units.Count(int64(len(empty))), units.Count(int64(len(d.Tables))), d.Name)
		}
		why := "no sample matches"
		for _, n := range narrowing {
			if strings.HasPrefix(n, "--window") {
				why += ", or the window lies past the end of the recording"
				break
			}
		}
		out = append(out, analyze.Warning{Kind: analyze.WarnNarrowedAway, File: file,
			Message: fmt.Sprintf("%s leaves no on-CPU time (%s), so its figures are 0", strings.Join(narrowing, " "), why)})
	}
	return out
}

// addWarnings adds ws to the report's warnings and to those of each
// variant's pair of two sides (the pair one output draws must say them
// too), once each: for two sides the pair is the report.
func addWarnings(rep *diff.Report, ws []analyze.Warning) {
	rep.Warnings = append(rep.Warnings, ws...)
	for _, v := range rep.Variants() {
		if p := v.Pair(); p != rep {
			p.Warnings = append(p.Warnings, ws...)
		}
	}
}
