package side

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/record"
)

// Given is how the sides were named on the command line, besides the
// arguments: --side NAME=PATH values, --before and --after lists, and how
// to fetch a side that is a query of a profiling server.
type Given struct {
	// Named are --side NAME=PATH values (PATH a profile, a directory of
	// runs, a glob, or a query when IsQuery says so).
	Named []string
	// Before and After are the --before and --after lists.
	Before, After []string
	// IsQuery reports whether an argument is a server query (nil: none
	// is), and Query fetches the runs of one as the side name.
	IsQuery func(arg string) bool
	Query   func(uri, name string) (Side, error)
}

// FromArgs turns BEFORE [AFTER] or BASE V1 V2 ... (files, directories of
// runs or server queries), --before/--after lists or --side NAME=PATH
// into sides, and returns with them the note that says how the files'
// names grouped them into sides when that is not as they were given (nil
// otherwise).
func FromArgs(args []string, g Given) ([]Side, *analyze.Warning, error) {
	sides, err := given(args, g)
	if err != nil || len(g.Named)+len(g.Before)+len(g.After) > 0 {
		return sides, nil, err
	}
	// Files whose names say before/after (a shell's glob of them), or the
	// one folder holding both: the sides the names say, in their order.
	var files []string
	from := ""
	switch {
	case len(args) == 1 && sides[0].Files[0] != args[0] && sides[0].Fetched == nil: // a folder
		files, from = sides[0].Files, "the profiles in "+args[0]+" are"
	case len(args) >= 2 && !slices.ContainsFunc(args, func(a string) bool { return !isPlainFile(a) }):
		files, from = args, "the files given are"
	}
	if files == nil {
		return sides, nil, nil
	}
	named, err := fromNames(files)
	if err != nil || named == nil {
		return sides, nil, err
	}
	if len(args) == 2 && named[0].Files[0] == args[0] {
		return sides, nil, nil // BEFORE AFTER as given, and as named
	}
	note := groupedByName(named, from)
	return named, &note, nil
}

// isQuery reports whether g reads arg as a server query.
func (g Given) isQuery(arg string) bool { return g.IsQuery != nil && g.IsQuery(arg) }

// given is FromArgs before the files' names are read for sides.
func given(args []string, g Given) ([]Side, error) {
	if len(g.Named) > 0 {
		if len(args)+len(g.Before)+len(g.After) > 0 {
			return nil, fmt.Errorf("give the sides either as arguments, with --before/--after, or with --side NAME=PATH, not two of these")
		}
		return namedSides(g)
	}
	if len(g.Before)+len(g.After) > 0 {
		if len(args) > 0 {
			return nil, fmt.Errorf("give the sides either as BEFORE AFTER or with --before/--after, not both")
		}
		if len(g.Before) == 0 || len(g.After) == 0 {
			return nil, fmt.Errorf("--before and --after go together: give each side at least one file")
		}
		return []Side{{Name: "before", Files: g.Before}, {Name: "after", Files: g.After}}, nil
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("give a profile to rank, or BEFORE AFTER to compare (see profdiff --help)")
	}
	if slices.Index(args, "-") >= 0 && slices.Index(args[slices.Index(args, "-")+1:], "-") >= 0 {
		return nil, fmt.Errorf("standard input (-) can be one side only")
	}
	var sides []Side
	for i, a := range args {
		if g.isQuery(a) {
			s, err := g.Query(a, argName(len(args), i, fmt.Sprintf("side%d", i+1)))
			if err != nil {
				return nil, err
			}
			sides = append(sides, s)
			continue
		}
		files, err := Expand(a)
		if err != nil {
			return nil, err
		}
		sides = append(sides, Side{Name: argName(len(args), i, NameOf(a)), Files: files})
	}
	if len(args) > 2 {
		sides = groupRuns(args, sides)
	}
	uniqueNames(sides)
	return sides, nil
}

// argName is the name of side i of n given as arguments: profile for one,
// before and after for two, else many.
func argName(n, i int, many string) string {
	switch n {
	case 1:
		return "profile"
	case 2:
		return [...]string{"before", "after"}[i]
	}
	return many
}

// groupRuns makes the profiles of one folder that differ only in their run
// number runs of one side, so that before-r*.cpuprofile after-r*.cpuprofile,
// as a shell expands it, compares two sides of several runs rather than
// every run with the first. It groups only when that leaves at least two
// sides (runs of one build alone stay a side each, to be compared with each
// other), and never a directory, standard input or a file without a run
// number. sides holds one side per argument, in order.
func groupRuns(args []string, sides []Side) []Side {
	var grouped []Side
	type run struct{ folder, stem string }
	at := map[run]int{} // a run name's side in grouped
	for i, a := range args {
		stem, ok := runStem(a)
		key := run{filepath.Dir(filepath.Clean(a)), stem}
		if j, seen := at[key]; ok && seen {
			grouped[j].Files = append(grouped[j].Files, sides[i].Files...)
			continue
		}
		if ok {
			at[key] = len(grouped)
		}
		grouped = append(grouped, Side{Name: sides[i].Name, Files: slices.Clip(sides[i].Files), Fetched: sides[i].Fetched})
	}
	if len(grouped) < 2 || len(grouped) == len(sides) {
		return sides
	}
	return grouped
}

// namedSides reads --side NAME=PATH values, in the order their names first
// appear; a name given again adds runs to its side. A server query is a
// side of its own, given once: its runs come from the query.
func namedSides(g Given) ([]Side, error) {
	var sides []Side
	for _, v := range g.Named {
		name, path, ok := strings.Cut(v, "=")
		if !ok || name == "" || path == "" {
			return nil, fmt.Errorf("--side %q: give NAME=PATH, PATH a profile, a directory of runs, a glob or a server query", v)
		}
		var s Side
		var err error
		if g.isQuery(path) {
			s, err = g.Query(path, name)
		} else {
			s.Name = name
			s.Files, err = ExpandPattern(path)
		}
		if err != nil {
			return nil, fmt.Errorf("--side %s: %w", name, err)
		}
		i := slices.IndexFunc(sides, func(t Side) bool { return t.Name == name })
		switch {
		case i < 0:
			sides = append(sides, s)
		case sides[i].Fetched != nil || s.Fetched != nil:
			return nil, fmt.Errorf("--side %s is given twice and one is a server query: a query side is given once (its runs come from the query)", name)
		default:
			sides[i].Files = append(sides[i].Files, s.Files...)
		}
	}
	return sides, nil
}

// ExpandPattern expands a side's PATH: a glob's matches (each a profile or
// a directory of runs), else the profile or directory itself.
func ExpandPattern(path string) ([]string, error) {
	if !strings.ContainsAny(path, "*?[") {
		return Expand(path)
	}
	matches, err := filepath.Glob(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(matches) == 0 {
		return nil, fmt.Errorf("%s matches no file", path)
	}
	var files []string
	for _, m := range matches {
		f, err := Expand(m)
		if err != nil {
			return nil, err
		}
		files = append(files, f...)
	}
	return files, nil
}

// runSuffix is the run number at the end of a profile's Name: -r1, _run2,
// .3, -4.
var runSuffix = regexp.MustCompile(`[-_.]?(r|run)?\d+$`)

// NameOf names a side after its directory, or its file without the
// profile suffix and run number: runs/fast/ is "fast", base-r1.cpuprofile
// is "base".
func NameOf(path string) string {
	if path == "-" {
		return "stdin"
	}
	base := filepath.Base(filepath.Clean(path))
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return base
	}
	base = withoutProfileSuffix(base)
	if s, ok := cutRunNumber(base); ok {
		return s
	}
	return base
}

// runStem is the name of a profile file that ends in a run number, without
// its profile suffix and that number (base-r1.cpuprofile is "base"); ok is
// false for a directory, standard input and a file without a run number.
func runStem(path string) (string, bool) {
	if path == "-" {
		return "", false
	}
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		return "", false
	}
	return cutRunNumber(withoutProfileSuffix(filepath.Base(path)))
}

// withoutProfileSuffix cuts a profile suffix that the readers know
// (.cpuprofile, .pb.gz, ...) from a file's name.
func withoutProfileSuffix(name string) string {
	for _, suf := range analyze.FileSuffixes() {
		if s, ok := strings.CutSuffix(name, suf); ok && s != "" {
			return s
		}
	}
	return name
}

// cutRunNumber cuts the run number from a name (base-r1 is base), if it
// ends in one and something is left.
func cutRunNumber(name string) (string, bool) {
	s := runSuffix.ReplaceAllString(name, "")
	return s, s != "" && s != name
}

// uniqueNames numbers the sides whose names repeat: fast, fast#2.
func uniqueNames(sides []Side) {
	for i := range sides {
		n := 1
		for j := range i {
			if sides[j].Name == sides[i].Name || strings.HasPrefix(sides[j].Name, sides[i].Name+"#") {
				n++
			}
		}
		if n > 1 {
			sides[i].Name = fmt.Sprintf("%s#%d", sides[i].Name, n)
		}
	}
}

// Expand lists the profiles of a directory, or returns the file itself
// ("-" is standard input). A worker thread's profile beside a run's is
// not a run (see ThreadsNote).
func Expand(path string) ([]string, error) {
	if path == "-" {
		return []string{path}, nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, errors.New(pathErrorText(err))
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var files []string
	suffixes := analyze.FileSuffixes() // the files of every format the readers read
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") || record.WorkerSuffix.MatchString(name) {
			continue // a worker thread's profile is not a run (see threadsNote)
		}
		for _, suf := range suffixes {
			if strings.HasSuffix(name, suf) {
				files = append(files, filepath.Join(path, name))
				break
			}
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: a directory with no profiles (looked for %s)", path, strings.Join(suffixes, ", "))
	}
	return files, nil
}
