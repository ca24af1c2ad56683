package side

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/profdiff/profdiff/analyze"
)

// rolePairs are the words whose files' names say which side a run is of,
// the earlier side first.
var rolePairs = [...][2]string{{"before", "after"}, {"base", "head"}, {"old", "new"}, {"a", "b"}}

// nameWord splits a profile's name into its words: before-r1 is before, r1.
var nameWord = regexp.MustCompile(`[-_.]+`)

// roleOf finds the role word in a profile file's Name: the pair and its
// side (0 the earlier); ok is false for a name with none, or with words of
// two roles.
func roleOf(path string) (pair, side int, ok bool) {
	pair, side, _, ok = roleAndRest(path)
	return pair, side, ok
}

// roleAndRest is roleOf, and the name's other words (less a run number):
// runs of one build differ only in their run number, so after-r1 and
// after-r2 have the same rest, after and after-pr-4242 do not.
func roleAndRest(path string) (pair, side int, rest string, ok bool) {
	stem := withoutProfileSuffix(filepath.Base(path))
	if s, cut := cutRunNumber(stem); cut {
		stem = s
	}
	found := 0
	var others []string
	for _, w := range nameWord.Split(strings.ToLower(stem), -1) {
		role := false
		for pi, p := range rolePairs {
			for si, r := range p {
				if w == r {
					found++
					role = true
					pair, side = pi, si
				}
			}
		}
		if !role {
			others = append(others, w)
		}
	}
	return pair, side, strings.Join(others, "-"), found == 1
}

// fromNames groups profile files into the two sides their names say
// (before/after, base/head, old/new, a/b), the earlier side first, however
// the shell ordered them: dir/*.cpuprofile lists after-r1 before
// before-r1. files are the files given, or those of the one folder given.
// It returns no sides when the names do not hold both words of one pair (a
// base and its variants, runs of one build), and an error naming the files
// that fit neither side when they do: a mix that cannot be grouped.
func fromNames(files []string) ([]Side, error) {
	type role struct {
		pair, side int
		ok         bool
	}
	roles := make([]role, len(files))
	seen := map[[2]int]bool{}
	for i, f := range files {
		p, s, ok := roleOf(f)
		roles[i] = role{p, s, ok}
		if ok {
			seen[[2]int{p, s}] = true
		}
	}
	pair := -1
	for pi := range rolePairs {
		if seen[[2]int{pi, 0}] && seen[[2]int{pi, 1}] {
			if pair >= 0 {
				return nil, fmt.Errorf("the files' names say %s and %s: give the two sides as BEFORE AFTER folders, or with --before/--after", strings.Join(rolePairs[pair][:], "/"), strings.Join(rolePairs[pi][:], "/"))
			}
			pair = pi
		}
	}
	if pair < 0 {
		return nil, nil
	}
	sides := []Side{{Name: rolePairs[pair][0]}, {Name: rolePairs[pair][1]}}
	var odd []string
	for i, f := range files {
		r := roles[i]
		if !r.ok || r.pair != pair {
			odd = append(odd, f)
			continue
		}
		sides[r.side].Files = append(sides[r.side].Files, f)
	}
	// A side's files must be runs of one build: after and after-pr-4242
	// are two builds, given in the order the user meant.
	for _, side := range sides {
		_, _, first, _ := roleAndRest(side.Files[0])
		for _, f := range side.Files[1:] {
			if _, _, rest, _ := roleAndRest(f); rest != first {
				return nil, nil
			}
		}
	}
	if len(odd) > 0 {
		return nil, fmt.Errorf("%s: of these profiles some are named %s and some %s, but %s: give the two sides as BEFORE AFTER folders, or with --before/--after",
			strings.Join(odd, ", "), rolePairs[pair][0], rolePairs[pair][1], plural(len(odd), "this one is neither", "these are neither"))
	}
	return sides, nil
}

// plural picks the words for n things.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// groupedByName is the note that says how sides were formed from the
// files' names, when that is not the order they were given in.
func groupedByName(sides []Side, from string) analyze.Warning {
	var parts []string
	for _, s := range sides {
		first, last := filepath.Base(s.Files[0]), filepath.Base(s.Files[len(s.Files)-1])
		names := first
		if len(s.Files) > 1 {
			names = fmt.Sprintf("%s … %s, %d runs", first, last, len(s.Files))
		}
		parts = append(parts, fmt.Sprintf("%s = %s", s.Name, names))
	}
	return analyze.Warning{Kind: analyze.WarnSidesFromNames,
		Message: fmt.Sprintf("%s grouped into sides by the word in their names, in that order: %s", from, strings.Join(parts, "; "))}
}

// isPlainFile reports whether an argument is a profile file (not a folder
// or standard input).
func isPlainFile(a string) bool {
	if a == "-" {
		return false
	}
	st, err := os.Stat(a)
	return err == nil && !st.IsDir()
}
