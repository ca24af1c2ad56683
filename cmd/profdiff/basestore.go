package main

import (
	"errors"
	"fmt"
	"github.com/profdiff/profdiff/side"
	"slices"
	"strings"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/history"
	"github.com/profdiff/profdiff/internal/units"
)

// This file holds --base-store DIR --base-commit SHA: the base of a
// comparison is the history store's record of SHA (a pull request's merge
// base) instead of profiles, so that the commits that landed on the default
// branch since do not leak into the deltas. Every argument (or --after) is
// a run of the after side, read with the flags the record was made with.

// baseStoreSides checks a command line with --base-store and returns its
// two sides: the base, which has no files (its tables come from the record,
// see baseFromStore), and the after side.
func baseStoreSides(args []string, o options) ([]side.Side, error) {
	switch {
	case o.baseCommit == "":
		return nil, errors.New("--base-store needs --base-commit SHA: the commit whose record is the base (a pull request's merge base)")
	case len(o.before) > 0 || len(o.named) > 0:
		return nil, errors.New("--base-store takes the base from the store: give only the after runs, as arguments or with --after (no --before or --side)")
	case len(args) > 0 && len(o.after) > 0:
		return nil, errors.New("give the after runs either as arguments or with --after, not both")
	case o.base != "" || o.variant != "":
		return nil, errors.New("--base-store compares two sides, the record and the after runs: --base and --variant do not apply")
	case len(o.phases) > 0:
		return nil, errors.New("--phase reads each run's samples again, and a history record keeps none: leave --phase out with --base-store")
	case len(o.sourceDirsBefore)+len(o.sourceMapsBefore) > 0:
		return nil, errors.New("--sourcemaps-before/--sourcemap-before do not apply with --base-store: the record's names were mapped when it was made")
	case o.workBeforeSet || o.workAfterSet:
		return nil, errors.New("with --base-store give the after runs' work as --work N: the record keeps the base's (and --work N stands for it too when the record has none)")
	case len(o.roots) > 0 || o.rootBefore != "" || o.rootAfter != "":
		return nil, errors.New("--root does not apply with --base-store: the record's files are keyed as history add keyed them")
	}
	paths := slices.Concat(args, o.after)
	if len(paths) == 0 {
		return nil, errors.New("--base-store: give the after runs (profiles, directories of runs or globs)")
	}
	after := side.Side{Name: "after"}
	for _, p := range paths {
		files, err := side.ExpandPattern(p)
		if err != nil {
			return nil, err
		}
		after.Files = append(after.Files, files...)
	}
	// The store is checked before any profile is read.
	if _, _, err := history.Find(o.baseStore, o.baseCommit); err != nil {
		return nil, fmt.Errorf("--base-store: %w", err)
	}
	return []side.Side{{Name: "before"}, after}, nil
}

// baseFromStore makes the base side (ds[0], read from no file) from the
// store's record of --base-commit, keys the after side's rows as the
// record keys its rows (see history.Record.Align) and says, as the
// report's warnings, what a record cannot tell.
func (inv *invocation) baseFromStore(ds []diff.Side) error {
	o := inv.o
	rec, path, err := history.Find(o.baseStore, o.baseCommit)
	if err != nil {
		return fmt.Errorf("--base-store: %w", err)
	}
	label := "record of " + shortCommit(rec.Commit) + " from the store"
	tables, err := rec.Tables(label)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	work := inv.sides[0].Work
	if w := recordWork(rec); w > 0 {
		work = w
	}
	base := diff.Side{Name: ds[0].Name, Tables: tables, Work: work, Source: label}
	if !o.noRootMatch {
		// The record made in another checkout: both sides' files are
		// keyed below their roots before the after side is keyed as the
		// record's rows are (the comparison then finds none to match).
		pair := []diff.Side{base, ds[1]}
		if roots := diff.GuessRoots(pair, 0); roots != nil {
			diff.Relocate(pair, roots)
			base, ds[1] = pair[0], pair[1]
		}
	}
	unknown := rec.Align(ds[1].Tables, base.Root)
	base.Warnings = append(base.Warnings, analyze.Warning{Kind: analyze.WarnOther, Message: fmt.Sprintf(
		"the base is the record of %s (%s): a record keeps each run's headline and %s, not its call tree, so no call path (where it changed), call, line or stall is compared",
		rec.Commit, path, rec.Kept())})
	if len(unknown) > 0 {
		var parts []string
		for _, u := range unknown {
			parts = append(parts, units.Plural(u.Rows, u.Kind, u.Kind+"s"))
		}
		heaviest := unknown[0]
		for _, u := range unknown {
			if u.Kind == history.KindFunction {
				heaviest = u
			}
		}
		n := float64(len(ds[1].Tables))
		base.Warnings = append(base.Warnings, analyze.Warning{Kind: analyze.WarnOther, Message: fmt.Sprintf(
			"%s of the after side are not among the record's rows (it kept %s; the heaviest: %s, %s self per run): their base time is unknown, below its floor, so they are counted in %s, not as new",
			strings.Join(parts, ", "), rec.Kept(), heaviest.Heaviest, units.Duration(float64(heaviest.HeaviestSelf)/n), history.OtherName)})
	}
	if rw := recordWork(rec); rw > 0 && inv.sides[1].Work <= 0 {
		base.Warnings = append(base.Warnings, analyze.Warning{Kind: analyze.WarnOther, Message: fmt.Sprintf(
			"the record keeps the work of each run (%g %s), the after runs were given none (--work): compared per run", rw, rec.WorkUnit)})
	}
	if len(rec.Runs) > 0 && rec.Runs[0].SampledUs == 0 {
		base.Warnings = append(base.Warnings, analyze.Warning{Kind: analyze.WarnOther, Message: fmt.Sprintf(
			"the record of %s was written by an older profdiff, without the runs' sampled time: the base's busy fraction is unknown", rec.Commit)})
	}
	ds[0] = base
	return nil
}

// recordWork is the work per run the record keeps, 0 when none.
func recordWork(rec *history.Record) float64 {
	var sum float64
	for _, r := range rec.Runs {
		if r.Work <= 0 {
			return 0
		}
		sum += r.Work
	}
	return sum / float64(len(rec.Runs))
}

// shortCommit is a commit hash as people quote it: its first 7 characters.
func shortCommit(c string) string {
	if len(c) > 7 {
		return c[:7]
	}
	return c
}
