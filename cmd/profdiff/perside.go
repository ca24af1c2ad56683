package main

import (
	"errors"
	"fmt"
	"github.com/profdiff/profdiff/side"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// splitSide splits a flag value NAME=REST when NAME is one of the sides'
// names; ok is false otherwise, and the value keeps its meaning for every
// side.
func splitSide(value string, sides []side.Side) (side int, rest string, ok bool) {
	name, rest, found := strings.Cut(value, "=")
	if !found {
		return 0, value, false
	}
	for i, s := range sides {
		if s.Name == name {
			return i, rest, true
		}
	}
	return 0, value, false
}

// resolveSideFlags gives each side its flags (source maps, root, work):
// the values for every side, then those naming it.
func resolveSideFlags(o options, sides []side.Side) error {
	out := sides
	var maps, dirs []string // for every side
	for _, v := range o.sourceMapDirs {
		if i, dir, ok := splitSide(v, sides); ok {
			out[i].MapDirs = append(out[i].MapDirs, dir)
		} else {
			dirs = append(dirs, v)
		}
	}
	for _, v := range o.sourceMaps {
		// NAME=SCRIPT=MAP names a side; SCRIPT=MAP does not, even when
		// SCRIPT is a side's name.
		if i, m, ok := splitSide(v, sides); ok && strings.Contains(m, "=") {
			out[i].Maps = append(out[i].Maps, m)
		} else {
			maps = append(maps, v)
		}
	}
	if o.perSideSourceMaps() {
		if len(sides) != 2 {
			return fmt.Errorf("--sourcemaps-before/--sourcemaps-after/--sourcemap-before/--sourcemap-after are for comparing two sides; name the side instead, as --sourcemaps %s=DIR", sides[0].Name)
		}
		out[0].Maps, out[0].MapDirs = append(out[0].Maps, o.sourceMapsBefore...), append(out[0].MapDirs, o.sourceDirsBefore...)
		out[1].Maps, out[1].MapDirs = append(out[1].Maps, o.sourceMapsAfter...), append(out[1].MapDirs, o.sourceDirsAfter...)
	}
	for i := range out {
		out[i].Maps = append(slices.Clone(maps), out[i].Maps...)
		out[i].MapDirs = append(slices.Clone(dirs), out[i].MapDirs...)
	}
	if err := resolveRoots(o, sides); err != nil {
		return err
	}
	return resolveWork(o, sides)
}

// resolveRoots sets each side's root from --root NAME=DIR, --root-before
// and --root-after: every side's, or none (the roots are then guessed). A
// folder is made absolute; a URL prefix is kept as given.
func resolveRoots(o options, sides []side.Side) error {
	out := sides
	for _, v := range o.roots {
		i, dir, ok := splitSide(v, sides)
		if !ok || dir == "" {
			return fmt.Errorf("--root %q: give NAME=DIR, NAME a side (%s) and DIR its checkout", v, side.Names(sides))
		}
		out[i].Root = dir
	}
	if o.rootBefore != "" || o.rootAfter != "" {
		if len(sides) != 2 {
			return fmt.Errorf("--root-before and --root-after are for two sides; name the side instead, as --root %s=DIR", sides[0].Name)
		}
		if o.rootBefore == "" || o.rootAfter == "" {
			return fmt.Errorf("--root-before and --root-after go together: give each side's checkout")
		}
		out[0].Root, out[1].Root = o.rootBefore, o.rootAfter
	}
	var missing []string
	for i, s := range sides {
		if out[i].Root == "" {
			missing = append(missing, s.Name)
			continue
		}
		root := out[i].Root
		if !strings.Contains(root, "://") { // a URL prefix (http://localhost:3000/) is taken as it is
			abs, err := filepath.Abs(root)
			if err != nil {
				return fmt.Errorf("--root %s=%s: %v", s.Name, root, err)
			}
			root = filepath.ToSlash(abs)
		}
		out[i].Root = strings.TrimSuffix(root, "/") + "/"
	}
	switch given := len(sides) - len(missing); {
	case given == 0:
	case len(sides) == 1:
		return fmt.Errorf("--root is for comparing sides run from different checkouts")
	case o.noRootMatch:
		return fmt.Errorf("--root and --no-root-match contradict each other: give one")
	case len(missing) > 0:
		return fmt.Errorf("--root is given for some sides but not for %s: give each side's checkout", strings.Join(missing, ", "))
	}
	return nil
}

// resolveWork sets each side's work per run from --work N, --work NAME=N,
// --work-before and --work-after; each value given must be a usable
// amount of work (checkWork), 0 included: it is never taken as "not
// given".
func resolveWork(o options, sides []side.Side) error {
	out := sides
	var all float64
	named := make([]bool, len(sides))
	for _, v := range o.works {
		i, num, ok := splitSide(v, sides)
		w, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
		if err == nil {
			err = checkWork(w)
		}
		if err != nil {
			return fmt.Errorf("--work %q: give the work each run did as a positive number, or NAME=N for the side NAME (%v)", v, workReason(err))
		}
		if ok {
			out[i].Work, named[i] = w, true
		} else {
			all = w
		}
	}
	// Given on the command line, or set: 0 is refused, not taken as absent.
	beforeSet, afterSet := o.workBeforeSet || o.workBefore != 0, o.workAfterSet || o.workAfter != 0
	for _, f := range []struct {
		flag string
		set  bool
		w    float64
	}{{"--work-before", beforeSet, o.workBefore}, {"--work-after", afterSet, o.workAfter}} {
		if !f.set {
			continue
		}
		if err := checkWork(f.w); err != nil {
			return fmt.Errorf("%s %v: give the work each run did as a positive number (%v)", f.flag, f.w, err)
		}
	}
	if beforeSet != afterSet {
		return fmt.Errorf("--work-before and --work-after go together (or give --work for both)")
	}
	if beforeSet {
		if len(sides) != 2 {
			return fmt.Errorf("--work-before and --work-after are for two sides; name the side instead, as --work %s=N", sides[0].Name)
		}
		out[0].Work, out[1].Work = o.workBefore, o.workAfter
		named[0], named[1] = true, true
	}
	given := 0
	for i := range out {
		if !named[i] && all > 0 {
			out[i].Work = all
		}
		if out[i].Work > 0 {
			given++
		}
	}
	if given > 0 && len(sides) == 1 && !o.workOfOneSide {
		return fmt.Errorf("--fail-on and --work are for comparing two sides")
	}
	if given > 0 && given < len(sides) {
		var missing []string
		for i, s := range sides {
			if out[i].Work == 0 {
				missing = append(missing, s.Name)
			}
		}
		return fmt.Errorf("--work is given for some sides but not for %s: give it for every side (--work N for all, --work NAME=N for one)", strings.Join(missing, ", "))
	}
	return nil
}

// checkWork returns why w cannot be the work a run did: not a number,
// infinite, zero or negative, or so small (every subnormal number, and
// normal ones below about 5e-290) that a time in nanoseconds divided by it
// overflows to +Inf.
func checkWork(w float64) error {
	switch {
	case math.IsNaN(w):
		return errors.New("not a number")
	case math.IsInf(w, 0):
		return errors.New("infinite")
	case w <= 0:
		return errors.New("not positive")
	case math.IsInf(math.MaxInt64/w, 0):
		return errors.New("too small: values per unit would overflow")
	}
	return nil
}

// workReason says why a --work value was refused: checkWork's reason, or
// that it is not a number at all.
func workReason(err error) string {
	if errors.Is(err, strconv.ErrSyntax) || errors.Is(err, strconv.ErrRange) {
		return "not a number"
	}
	return err.Error()
}
