package main

import (
	"io"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/fleet"
	"github.com/profdiff/profdiff/narrow"
	"github.com/profdiff/profdiff/side"
	"github.com/profdiff/profdiff/symbolicate"
)

// sidesAndNote turns the arguments and the side flags into sides (see
// side.FromArgs; with --base-store, the base is a history record, see
// basestore.go), with the note that says how the files' names grouped
// them into sides when that is not as they were given (nil otherwise).
func sidesAndNote(args []string, o options) ([]side.Side, *analyze.Warning, error) {
	if o.baseStore != "" {
		sides, err := baseStoreSides(args, o)
		return sides, nil, err
	}
	return side.FromArgs(args, side.Given{
		Named: o.named, Before: o.before, After: o.after,
		IsQuery: fleet.IsURI,
		Query:   func(uri, name string) (side.Side, error) { return fleetSide(uri, name, o) },
	})
}

// sidesFromArgs is sidesAndNote without the note.
func sidesFromArgs(args []string, o options) ([]side.Side, error) {
	sides, _, err := sidesAndNote(args, o)
	return sides, err
}

// prepareSides gives each side its flags (resolveSideFlags), checks the
// folders they name against what profdiff may read, and makes each
// side's symbolicator.
func prepareSides(o options, sides []side.Side) ([]*symbolicate.Symbolicator, error) {
	err := resolveSideFlags(o, sides)
	if err == nil {
		err = checkSourceRoots(o.sourceRoots)
	}
	if err == nil {
		err = checkConfined(o, sides)
	}
	if err != nil {
		return nil, err
	}
	return sideSymbolicators(o, sides)
}

// readSides reads every run of the sides (side.Read), with those of the
// calls, per-line times and call tree that the output reads, under the
// soft memory limit the report runs under.
func readSides(sides []side.Side, stdin io.Reader, syms []*symbolicate.Symbolicator, popts analyze.ParseOptions, filters *narrow.Filters, o options, need needs) ([]diff.Side, [][]*analyze.Profile, error) {
	popts.Lines = need.lines
	r := side.Reading{
		Stdin: stdin, Symbolicators: syms, Parse: popts,
		Aggregate: need.aggregateOptions(len(sides)), KeepProfiles: need.profiles,
		Filters: filters, NameFilter: filterFlag,
		Files: userFolders(o, sides),
	}
	if limit, ok := memoryLimit(sides); ok {
		r.MemoryBudget = limit
	}
	return side.Read(sides, r)
}

// sideSymbolicators makes each side's symbolicator from its source-map
// flags (nil ones with --no-sourcemaps); sides that look for maps the same
// way share one, so that each map is decoded once.
func sideSymbolicators(o options, sides []side.Side) ([]*symbolicate.Symbolicator, error) {
	syms := make([]*symbolicate.Symbolicator, len(sides))
	files := userFolders(o, sides)
	for i, f := range sides {
		symOpts, err := symbolicateOptions(f.Maps, f.MapDirs, o.pathMaps)
		if err != nil {
			return nil, err
		}
		symOpts.Files = files
		if o.noSourceMaps {
			continue
		}
		syms[i] = symbolicate.New(symOpts)
		for j := range i {
			if sides[j].SameMaps(f) {
				syms[i] = syms[j]
				break
			}
		}
	}
	return syms, nil
}
