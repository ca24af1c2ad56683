package side

import (
	"fmt"
	"slices"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
)

// ChooseRoots returns the directory each side's files are matched below:
// the sides' own roots when given (every side has one, or none), else the
// guess from the sides' files against the base's (nil for none, or when
// match is false), with a warning for each root given that holds none of
// its side's files.
func ChooseRoots(ds []diff.Side, sides []Side, base int, match bool) ([]string, []analyze.Warning) {
	if !match || len(ds) < 2 {
		return nil, nil
	}
	if sides[0].Root == "" {
		return diff.GuessRoots(ds, base), nil
	}
	roots := make([]string, len(ds))
	var ws []analyze.Warning
	for i, d := range ds {
		roots[i] = sides[i].Root
		if !holdsFile(d, roots[i]) {
			ws = append(ws, analyze.Warning{Kind: analyze.WarnRootUnused,
				Message: fmt.Sprintf("no file of the side %s lies below %s, its root (--root)", d.Name, roots[i])})
		}
	}
	return roots, ws
}

// holdsFile reports whether a file with time on the side lies below root.
func holdsFile(d diff.Side, root string) bool {
	for _, t := range d.Tables {
		for _, r := range t.Files {
			if analyze.Relative(r.Key.File, root) != r.Key.File {
				return true
			}
		}
	}
	return false
}

// Relocate keys the sides' files below their roots (see diff.Relocate),
// and the frames of the runs kept for the exports alike; nil roots leave
// them as they are.
func Relocate(ds []diff.Side, profiles [][]*analyze.Profile, roots []string) {
	if roots == nil {
		return
	}
	diff.Relocate(ds, roots)
	for i, runs := range profiles {
		for _, p := range runs {
			if p != nil {
				p.Relocate(roots[i])
			}
		}
	}
}

// RelativeTo returns, for the explorer's source pane, the roots a file
// keyed relative to its side's root may lie below: the variant's first,
// the code a reader looks at, then the others'. nil when no side has one.
func RelativeTo(roots []string, first int) []string {
	var out []string
	if first >= 0 && first < len(roots) && roots[first] != "" {
		out = append(out, roots[first])
	}
	for i, r := range roots {
		if i != first && r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}
