package side

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/record"
)

// MapsOfAnotherBuild is the error for a run whose script was found, in the
// source-map folders given for its side, only as another build (one
// --sourcemaps folder for two builds): mapping it through that build's map
// would name its moved functions wrongly, and leaving it unmapped would
// make every function new or gone. It says which side needs its own maps.
func MapsOfAnotherBuild(ds []diff.Side) error {
	for _, d := range ds {
		for _, t := range d.Tables {
			for _, w := range t.Warnings {
				if w.Kind != analyze.WarnMapSharedByBuilds {
					continue
				}
				// Which run met the map first is the order they were
				// read in: the error names the map, not the runs.
				_, rest, _ := strings.Cut(w.Message, " ran different builds of ")
				script, _, _ := strings.Cut(rest, " (")
				_, mp, _ := strings.Cut(rest, "one source map, ")
				mp = strings.TrimSuffix(mp, ", serves both")
				fix := "--sourcemaps NAME=DIR (or --sourcemap NAME=SCRIPT=MAP) for each side"
				if len(ds) == 2 {
					fix = "--sourcemaps-before DIR and --sourcemaps-after DIR (or --sourcemap-before and --sourcemap-after SCRIPT=MAP)"
				}
				return fmt.Errorf("%s: the runs ran different builds of %s (their function names differ at the same positions), and this one map serves them all, so it misnames one build's functions: give each side the maps of its own build with %s", mp, script, fix)
			}
		}
	}
	for si, d := range ds {
		for _, t := range d.Tables {
			for _, w := range t.Warnings {
				if w.Kind != analyze.WarnMapGivenOtherBuild {
					continue
				}
				fix := fmt.Sprintf("--sourcemaps %s=DIR or --sourcemap %s=SCRIPT=MAP", d.Name, d.Name)
				if len(ds) == 2 {
					side := [...]string{"before", "after"}[si]
					fix = fmt.Sprintf("--sourcemaps-%s DIR or --sourcemap-%s SCRIPT=MAP", side, side)
				}
				found, _, _ := strings.Cut(w.Message, ", found with")
				if _, file, ok := strings.Cut(found, ": "); ok { // "SCRIPT: FILE"
					found = file
				}
				return fmt.Errorf("%s: %s, found with the source maps given, is another build than this run's (its function names are not at the recorded positions), so its map would misname this run's functions: give the %s side the maps of its own build with %s", t.File, found, d.Name, fix)
			}
		}
	}
	return nil
}

// ThreadsNote says, when the runs compared have worker threads' profiles
// beside them (profdiff record keeps run-01.worker-1.cpuprofile beside
// run-01.cpuprofile, the main thread's), that each run's main thread was
// compared, which threads were not, and how to compare one; nil when there
// are none.
func ThreadsNote(sides []Side) *analyze.Warning {
	workers := map[int]int{} // worker number -> profiles
	var folders []string     // of each side, for the advice
	var given []string       // sides that are a worker thread's profiles
	for _, s := range sides {
		folder := ""
		n := -1
		for _, f := range s.Files {
			if sm := record.WorkerSuffix.FindStringSubmatch(f); sm != nil && (n < 0 || sm[1] == strconv.Itoa(n)) {
				n, _ = strconv.Atoi(sm[1])
			} else {
				n = -2 // not all one worker's
			}
		}
		if n >= 0 {
			given = append(given, fmt.Sprintf("%s is worker %d", s.Name, n))
		}
		for _, f := range s.Files {
			base := strings.TrimSuffix(f, ".cpuprofile")
			if base == f || f == "-" {
				continue
			}
			matches, _ := filepath.Glob(globEscape(base) + ".worker-*.cpuprofile")
			for _, m := range matches {
				if sm := record.WorkerSuffix.FindStringSubmatch(m); sm != nil {
					n, _ := strconv.Atoi(sm[1])
					workers[n]++
					folder = filepath.Dir(f)
				}
			}
		}
		folders = append(folders, folder)
	}
	if len(workers) == 0 {
		if len(given) > 0 {
			return &analyze.Warning{Kind: analyze.WarnOtherThreads,
				Message: "the threads compared: " + strings.Join(given, ", ") + " (a worker thread's profiles, as profdiff record names them)"}
		}
		return nil
	}
	var list []string
	for _, n := range slices.Sorted(maps.Keys(workers)) {
		list = append(list, fmt.Sprintf("worker %d (%s)", n, plural(workers[n], "1 profile", fmt.Sprintf("%d profiles", workers[n]))))
	}
	first := slices.Min(slices.Collect(maps.Keys(workers)))
	var how []string
	for i, s := range sides {
		if folders[i] != "" {
			how = append(how, fmt.Sprintf("--side '%s=%s'", s.Name, filepath.Join(folders[i], fmt.Sprintf("*.worker-%d.cpuprofile", first))))
		}
	}
	return &analyze.Warning{Kind: analyze.WarnOtherThreads,
		Message: fmt.Sprintf("each run's main thread is compared; its worker threads were profiled too and are not: %s; to compare a worker thread, give its profiles as the sides: profdiff %s",
			strings.Join(list, ", "), strings.Join(how, " "))}
}

// globEscape escapes the characters a glob would read in a path.
func globEscape(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteRune('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
