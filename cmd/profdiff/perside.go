package main

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// sideFlags are the flags of one side, once every form that names a side
// (--sourcemaps NAME=DIR, --work NAME=N, --sourcemaps-before DIR, ...) is
// resolved.
type sideFlags struct {
	maps []string // SCRIPT=MAP
	dirs []string
	work float64 // 0: not given
	root string  // --root: the side's checkout, with a trailing "/"; "" when not given
}

// sameMaps reports whether two sides look for source maps the same way, so
// that they can share one symbolicator.
func (a sideFlags) sameMaps(b sideFlags) bool {
	return slices.Equal(a.maps, b.maps) && slices.Equal(a.dirs, b.dirs)
}

// splitSide splits a flag value NAME=REST when NAME is one of the sides'
// names; ok is false otherwise, and the value keeps its meaning for every
// side.
func splitSide(value string, sides []sideArg) (side int, rest string, ok bool) {
	name, rest, found := strings.Cut(value, "=")
	if !found {
		return 0, value, false
	}
	for i, s := range sides {
		if s.name == name {
			return i, rest, true
		}
	}
	return 0, value, false
}

// resolveSideFlags gives each side its flags: the values for every side,
// then those naming it.
func resolveSideFlags(o options, sides []sideArg) ([]sideFlags, error) {
	out := make([]sideFlags, len(sides))
	var maps, dirs []string // for every side
	for _, v := range o.sourceMapDirs {
		if i, dir, ok := splitSide(v, sides); ok {
			out[i].dirs = append(out[i].dirs, dir)
		} else {
			dirs = append(dirs, v)
		}
	}
	for _, v := range o.sourceMaps {
		// NAME=SCRIPT=MAP names a side; SCRIPT=MAP does not, even when
		// SCRIPT is a side's name.
		if i, m, ok := splitSide(v, sides); ok && strings.Contains(m, "=") {
			out[i].maps = append(out[i].maps, m)
		} else {
			maps = append(maps, v)
		}
	}
	if o.perSideSourceMaps() {
		if len(sides) != 2 {
			return nil, fmt.Errorf("--sourcemaps-before/--sourcemaps-after/--sourcemap-before/--sourcemap-after are for comparing two sides; name the side instead, as --sourcemaps %s=DIR", sides[0].name)
		}
		out[0].maps, out[0].dirs = append(out[0].maps, o.sourceMapsBefore...), append(out[0].dirs, o.sourceDirsBefore...)
		out[1].maps, out[1].dirs = append(out[1].maps, o.sourceMapsAfter...), append(out[1].dirs, o.sourceDirsAfter...)
	}
	for i := range out {
		out[i].maps = append(slices.Clone(maps), out[i].maps...)
		out[i].dirs = append(slices.Clone(dirs), out[i].dirs...)
	}
	if err := resolveRoots(o, sides, out); err != nil {
		return nil, err
	}
	return out, resolveWork(o, sides, out)
}

// resolveRoots sets each side's root from --root NAME=DIR, --root-before
// and --root-after: every side's, or none (the roots are then guessed). A
// folder is made absolute; a URL prefix is kept as given.
func resolveRoots(o options, sides []sideArg, out []sideFlags) error {
	for _, v := range o.roots {
		i, dir, ok := splitSide(v, sides)
		if !ok || dir == "" {
			return fmt.Errorf("--root %q: give NAME=DIR, NAME a side (%s) and DIR its checkout", v, sideNames(sides))
		}
		out[i].root = dir
	}
	if o.rootBefore != "" || o.rootAfter != "" {
		if len(sides) != 2 {
			return fmt.Errorf("--root-before and --root-after are for two sides; name the side instead, as --root %s=DIR", sides[0].name)
		}
		if o.rootBefore == "" || o.rootAfter == "" {
			return fmt.Errorf("--root-before and --root-after go together: give each side's checkout")
		}
		out[0].root, out[1].root = o.rootBefore, o.rootAfter
	}
	var missing []string
	for i, s := range sides {
		if out[i].root == "" {
			missing = append(missing, s.name)
			continue
		}
		root := out[i].root
		if !strings.Contains(root, "://") { // a URL prefix (http://localhost:3000/) is taken as it is
			abs, err := filepath.Abs(root)
			if err != nil {
				return fmt.Errorf("--root %s=%s: %v", s.name, root, err)
			}
			root = filepath.ToSlash(abs)
		}
		out[i].root = strings.TrimSuffix(root, "/") + "/"
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

// sideNames lists the sides' names, for messages.
func sideNames(sides []sideArg) string {
	var names []string
	for _, s := range sides {
		names = append(names, s.name)
	}
	return strings.Join(names, ", ")
}

// resolveWork sets each side's work per run from --work N, --work NAME=N,
// --work-before and --work-after; each value given must be a usable
// amount of work (checkWork), 0 included: it is never taken as "not
// given".
func resolveWork(o options, sides []sideArg, out []sideFlags) error {
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
			out[i].work, named[i] = w, true
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
			return fmt.Errorf("--work-before and --work-after are for two sides; name the side instead, as --work %s=N", sides[0].name)
		}
		out[0].work, out[1].work = o.workBefore, o.workAfter
		named[0], named[1] = true, true
	}
	given := 0
	for i := range out {
		if !named[i] && all > 0 {
			out[i].work = all
		}
		if out[i].work > 0 {
			given++
		}
	}
	if given > 0 && len(sides) == 1 && !o.workOfOneSide {
		return fmt.Errorf("--fail-on and --work are for comparing two sides")
	}
	if given > 0 && given < len(sides) {
		var missing []string
		for i, s := range sides {
			if out[i].work == 0 {
				missing = append(missing, s.name)
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

// sideIndex finds the side a flag names, or returns def when it names none.
func sideIndex(sides []sideArg, name, flag string, def int) (int, error) {
	if name == "" {
		return def, nil
	}
	for i, s := range sides {
		if s.name == name {
			return i, nil
		}
	}
	var names []string
	for _, s := range sides {
		names = append(names, s.name)
	}
	return 0, fmt.Errorf("%s %q: no side has that name (the sides are %s)", flag, name, strings.Join(names, ", "))
}
