// Package side holds a side of a comparison as one value, and the stage
// that turns what a user names (arguments, --side NAME=PATH, globs,
// folders of runs, server queries) into sides and reads each side's runs
// into the tables diff compares: grouping runs, mapping them through the
// side's source maps, keying files below the side's checkout, within a
// budget of memory.
package side

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/profdiff/profdiff/analyze"
)

// Side is one side of a comparison: its name, its runs, and how they are
// read (the source maps and the checkout that are the side's own).
type Side struct {
	Name string
	// Files are the runs' profiles ("-" is standard input), or, for a
	// server query side, the names of its runs.
	Files []string
	// Fetched are the runs of a server query side, one per Files entry
	// (nil for a side of files).
	Fetched []*analyze.Profile
	// Maps are SCRIPT=MAP pairs and MapDirs folders of source maps.
	Maps, MapDirs []string
	// Work is the work each run did (0: not given).
	Work float64
	// Root is the side's checkout, ending in "/" ("" when not given).
	Root string
	// Formed says how a server query side's runs were formed ("3 runs,
	// one per instance, each over 15m"); "" for a side of files.
	Formed string
}

// SameMaps reports whether two sides look for source maps the same way, so
// that they can share one symbolicator.
func (s Side) SameMaps(t Side) bool {
	return slices.Equal(s.Maps, t.Maps) && slices.Equal(s.MapDirs, t.MapDirs)
}

// Names lists the sides' names, for messages: "before, after".
func Names(sides []Side) string {
	var names []string
	for _, s := range sides {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

// Index finds the side a flag names, or returns def when name is "".
func Index(sides []Side, name, flag string, def int) (int, error) {
	if name == "" {
		return def, nil
	}
	for i, s := range sides {
		if s.Name == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%s %q: no side has that name (the sides are %s)", flag, name, Names(sides))
}

// Runs counts the runs of the sides.
func Runs(sides []Side) int {
	n := 0
	for _, s := range sides {
		n += len(s.Files)
	}
	return n
}

// CheckStdin allows "-" (standard input) for one profile only, however the
// sides are given (BEFORE AFTER, or --before/--after lists): it can be
// read once, and a second read finds it empty.
func CheckStdin(sides []Side) error {
	n := 0
	for _, s := range sides {
		for _, f := range s.Files {
			if f == "-" {
				n++
			}
		}
	}
	if n > 1 {
		return fmt.Errorf("standard input (-) can be one side only, and one run of it: it can be read once")
	}
	return nil
}

// pathErrorText is a file error as one line that names the file:
// "runs/x: no such file or directory".
func pathErrorText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s: %v", pe.Path, pe.Err)
	}
	return err.Error()
}
