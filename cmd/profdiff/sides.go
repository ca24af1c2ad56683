package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/fleet"
	"github.com/profdiff/profdiff/internal/confine"
	"github.com/profdiff/profdiff/narrow"
	"github.com/profdiff/profdiff/record"
	"github.com/profdiff/profdiff/symbolicate"
)

// sideArg is one side as given: its name and its profile files.
type sideArg struct {
	name  string
	files []string
	// fetched are the runs of a server query side (fleet.go), one per
	// files entry, which then only names them.
	fetched []*analyze.Profile
}

// sidesFromArgs turns BEFORE [AFTER] or BASE V1 V2 ... (files or
// directories of runs), --before/--after lists or --side NAME=PATH into
// sides.
func sidesFromArgs(args []string, o options) ([]sideArg, error) {
	sides, _, err := sidesAndNote(args, o)
	return sides, err
}

// sidesAndNote is sidesFromArgs, with the note that says how the files'
// names grouped them into sides when that is not as they were given (nil
// otherwise).
func sidesAndNote(args []string, o options) ([]sideArg, *analyze.Warning, error) {
	sides, err := givenSides(args, o)
	if err != nil || len(o.named)+len(o.before)+len(o.after) > 0 || o.baseStore != "" {
		return sides, nil, err
	}
	// Files whose names say before/after (a shell's glob of them), or the
	// one folder holding both: the sides the names say, in their order.
	var files []string
	from := ""
	switch {
	case len(args) == 1 && sides[0].files[0] != args[0]: // a folder
		files, from = sides[0].files, "the profiles in "+args[0]+" are"
	case len(args) >= 2 && !slices.ContainsFunc(args, func(a string) bool { return !isPlainFile(a) }):
		files, from = args, "the files given are"
	}
	if files == nil {
		return sides, nil, nil
	}
	named, err := sidesFromNames(files)
	if err != nil || named == nil {
		return sides, nil, err
	}
	if len(args) == 2 && named[0].files[0] == args[0] {
		return sides, nil, nil // BEFORE AFTER as given, and as named
	}
	note := groupedByName(named, from)
	return named, &note, nil
}

// givenSides is sidesFromArgs before the files' names are read for sides.
func givenSides(args []string, o options) ([]sideArg, error) {
	if o.baseStore != "" {
		return baseStoreSides(args, o) // the base is a history record (basestore.go)
	}
	if len(o.named) > 0 {
		if len(args)+len(o.before)+len(o.after) > 0 {
			return nil, fmt.Errorf("give the sides either as arguments, with --before/--after, or with --side NAME=PATH, not two of these")
		}
		return namedSides(o.named)
	}
	if len(o.before)+len(o.after) > 0 {
		if len(args) > 0 {
			return nil, fmt.Errorf("give the sides either as BEFORE AFTER or with --before/--after, not both")
		}
		if len(o.before) == 0 || len(o.after) == 0 {
			return nil, fmt.Errorf("--before and --after go together: give each side at least one file")
		}
		return []sideArg{{name: "before", files: o.before}, {name: "after", files: o.after}}, nil
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("give a profile to rank, or BEFORE AFTER to compare (see profdiff --help)")
	}
	if slices.Index(args, "-") >= 0 && slices.Index(args[slices.Index(args, "-")+1:], "-") >= 0 {
		return nil, fmt.Errorf("standard input (-) can be one side only")
	}
	var sides []sideArg
	for i, a := range args {
		if fleet.IsURI(a) {
			s, err := fleetSide(a, fleetSideName(len(args), i), o)
			if err != nil {
				return nil, err
			}
			sides = append(sides, s)
			continue
		}
		files, err := expandSide(a)
		if err != nil {
			return nil, err
		}
		var name string
		switch len(args) {
		case 1:
			name = "profile"
		case 2:
			name = [...]string{"before", "after"}[i]
		default:
			name = sideName(a)
		}
		sides = append(sides, sideArg{name: name, files: files})
	}
	if len(args) > 2 {
		sides = groupRuns(args, sides)
	}
	uniqueNames(sides)
	return sides, nil
}

// groupRuns makes the profiles of one folder that differ only in their run
// number runs of one side, so that before-r*.cpuprofile after-r*.cpuprofile,
// as a shell expands it, compares two sides of several runs rather than
// every run with the first. It groups only when that leaves at least two
// sides (runs of one build alone stay a side each, to be compared with each
// other), and never a directory, standard input or a file without a run
// number. sides holds one side per argument, in order.
func groupRuns(args []string, sides []sideArg) []sideArg {
	var grouped []sideArg
	type run struct{ folder, stem string }
	at := map[run]int{} // a run name's side in grouped
	for i, a := range args {
		stem, ok := runStem(a)
		key := run{filepath.Dir(filepath.Clean(a)), stem}
		if j, seen := at[key]; ok && seen {
			grouped[j].files = append(grouped[j].files, sides[i].files...)
			continue
		}
		if ok {
			at[key] = len(grouped)
		}
		grouped = append(grouped, sideArg{name: sides[i].name, files: slices.Clip(sides[i].files), fetched: sides[i].fetched})
	}
	if len(grouped) < 2 || len(grouped) == len(sides) {
		return sides
	}
	return grouped
}

// namedSides reads --side NAME=PATH values, in the order their names first
// appear; a name given again adds runs to its side.
func namedSides(values []string) ([]sideArg, error) {
	var sides []sideArg
	for _, v := range values {
		name, path, ok := strings.Cut(v, "=")
		if !ok || name == "" || path == "" {
			return nil, fmt.Errorf("--side %q: give NAME=PATH, PATH a profile, a directory of runs or a glob", v)
		}
		files, err := expandPattern(path)
		if err != nil {
			return nil, fmt.Errorf("--side %s: %w", name, err)
		}
		i := slices.IndexFunc(sides, func(s sideArg) bool { return s.name == name })
		if i < 0 {
			sides = append(sides, sideArg{name: name})
			i = len(sides) - 1
		}
		sides[i].files = append(sides[i].files, files...)
	}
	return sides, nil
}

// expandPattern expands a side's PATH: a glob's matches (each a profile or
// a directory of runs), else the profile or directory itself.
func expandPattern(path string) ([]string, error) {
	if !strings.ContainsAny(path, "*?[") {
		return expandSide(path)
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
		f, err := expandSide(m)
		if err != nil {
			return nil, err
		}
		files = append(files, f...)
	}
	return files, nil
}

// runSuffix is the run number at the end of a profile's name: -r1, _run2,
// .3, -4.
var runSuffix = regexp.MustCompile(`[-_.]?(r|run)?\d+$`)

// sideName names a side after its directory, or its file without the
// profile suffix and run number: runs/fast/ is "fast", base-r1.cpuprofile
// is "base".
func sideName(path string) string {
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
func uniqueNames(sides []sideArg) {
	for i := range sides {
		n := 1
		for j := range i {
			if sides[j].name == sides[i].name || strings.HasPrefix(sides[j].name, sides[i].name+"#") {
				n++
			}
		}
		if n > 1 {
			sides[i].name = fmt.Sprintf("%s#%d", sides[i].name, n)
		}
	}
}

// expandSide lists the profiles of a directory, or returns the file itself
// ("-" is standard input).
func expandSide(path string) ([]string, error) {
	if path == "-" {
		return []string{path}, nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, errors.New(errorText(err))
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

// readSides reads every run (in parallel, bounded by the cores and by a
// budget of memory: the soft memory limit the report runs under, else
// readMemoryBudget), maps it through its side's source maps and
// aggregates it, with those of the calls, per-line times and call tree
// that the output reads.
func readSides(sides []sideArg, flags []sideFlags, stdin io.Reader, syms []*symbolicate.Symbolicator, popts analyze.ParseOptions, filters *narrow.Filters, o options, need needs) ([]diff.Side, [][]*analyze.Profile, error) {
	files := userFolders(o, flags)
	type job struct{ side, run int }
	var jobs []job
	tables := make([][]*analyze.Table, len(sides))
	aopts, keep := need.aggregateOptions(len(sides)), need.profiles
	popts.Lines = need.lines
	profiles := make([][]*analyze.Profile, len(sides))
	for si, s := range sides {
		tables[si] = make([]*analyze.Table, len(s.files))
		profiles[si] = make([]*analyze.Profile, len(s.files))
		for ri := range s.files {
			jobs = append(jobs, job{si, ri})
		}
	}
	// Errors are kept per job, so that the first in the order given is
	// the one reported, whichever run failed first.
	errs := make([]error, len(jobs))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	budget := newReadBudget(readMemoryBudget)
	if limit, ok := memoryLimit(sides); ok {
		budget = newReadBudget(limit)
	}
	for i, j := range jobs {
		cost := int64(0)
		if sides[j.side].fetched == nil {
			cost = budget.cost(sides[j.side].files[j.run], aopts)
		}
		budget.acquire(cost) // in job order, so that a large run waits its turn
		g.Go(func() error {
			defer budget.release(cost)
			p, err := sideRun(sides[j.side], j.run, stdin, popts)
			if err != nil {
				errs[i] = err
				return nil
			}
			root := ""
			if j.side < len(flags) {
				root = flags[j.side].root
			}
			t, err := tabulate(p, syms[j.side], files, root, filters, aopts)
			if err != nil {
				errs[i] = err
				return nil
			}
			tables[j.side][j.run] = t
			if keep {
				profiles[j.side][j.run] = p
			}
			return nil
		})
	}
	_ = g.Wait() // the jobs report through errs
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	var ds []diff.Side
	for si, s := range sides {
		ds = append(ds, diff.Side{Name: s.name, Tables: tables[si], Work: flags[si].work, ProcessCPUNs: processCPU(s.files), Resources: recordResources(s.files)})
	}
	return ds, profiles, nil
}

// readMemoryBudget is the estimated memory (analyze.ReadCost) that the runs
// read at once may take when the size of the input is not known (a run
// from standard input); else the budget is the soft memory limit
// (memoryLimit). Runs that together would take more are read one after
// another: aggregating a run of 2 M distinct folded stacks (72 MB) with its
// calls keeps some 650 MB live, and two at once went far past the limit,
// while without the calls two such runs, and two 57 MiB V8 profiles, are
// read together.
const readMemoryBudget = 1 << 30

// readBudget admits runs to be read while their estimated memory fits a
// budget; a run that alone exceeds it is read alone.
type readBudget struct {
	mu    sync.Mutex
	cond  *sync.Cond
	limit int64
	used  int64
}

// newReadBudget returns a budget of limit bytes.
func newReadBudget(limit int64) *readBudget {
	b := &readBudget{limit: limit}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// cost is the share of the budget that reading the named run takes
// (standard input, whose size is not known, takes none).
func (b *readBudget) cost(name string, aopts analyze.AggregateOptions) int64 {
	if name == "-" {
		return 0
	}
	return min(analyze.ReadCost(name, aopts), b.limit)
}

// acquire waits until cost fits in what the runs being read leave.
func (b *readBudget) acquire(cost int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.used > 0 && b.used+cost > b.limit {
		b.cond.Wait()
	}
	b.used += cost
}

// release gives back a run's cost when it has been read and aggregated.
func (b *readBudget) release(cost int64) {
	b.mu.Lock()
	b.used -= cost
	b.mu.Unlock()
	b.cond.Broadcast()
}

// readRun reads one run's profile from its file, or from standard input
// for "-".
func readRun(name string, stdin io.Reader, popts analyze.ParseOptions) (*analyze.Profile, error) {
	if name != "-" {
		return analyze.ParseFile(name, popts)
	}
	p, err := analyze.Parse(stdin, popts)
	if err != nil {
		return nil, fmt.Errorf("standard input: %w", err)
	}
	p.File = "-"
	return p, nil
}

// tabulate maps one run through its side's source maps (sym may be nil),
// names its packages (below the side's checkout root, from --root, when
// given, reading package.json files through files), narrows it and
// aggregates it.
func tabulate(p *analyze.Profile, sym *symbolicate.Symbolicator, files *confine.Reader, root string, filters *narrow.Filters, aopts analyze.AggregateOptions) (*analyze.Table, error) {
	if sym != nil {
		sym.Apply(p) // one at a time: the sides may share it
	}
	analyze.AttributePackagesBelow(p, files, root) // names and packages as the report shows them
	var before int64
	var stalls *analyze.Stalls
	if filters.Active() {
		before = p.OnCPUNs()
		// Stalls are the whole run's: narrowing by function drops idle
		// samples, which would join stretches.
		stalls = analyze.FindStalls(p, analyze.DefaultLongestStalls)
		if err := filters.Apply(p); err != nil {
			return nil, fmt.Errorf("%s: %w", p.File, filterFlag(err))
		}
	}
	t := analyze.Aggregate(p, aopts)
	t.Summary.NarrowedFromNs = before
	if stalls != nil {
		t.Stalls = stalls
	}
	return t, nil
}

// sideSymbolicators makes each side's symbolicator from its source-map
// flags (nil ones with --no-sourcemaps); sides that look for maps the same
// way share one, so that each map is decoded once.
func sideSymbolicators(o options, flags []sideFlags) ([]*symbolicate.Symbolicator, error) {
	syms := make([]*symbolicate.Symbolicator, len(flags))
	files := userFolders(o, flags)
	for i, f := range flags {
		symOpts, err := symbolicateOptions(f.maps, f.dirs, o.pathMaps)
		if err != nil {
			return nil, err
		}
		symOpts.Files = files
		if o.noSourceMaps {
			continue
		}
		syms[i] = symbolicate.New(symOpts)
		for j := range i {
			if flags[j].sameMaps(f) {
				syms[i] = syms[j]
				break
			}
		}
	}
	return syms, nil
}

// mapsOfAnotherBuild is the error for a run whose script was found, in the
// source-map folders given for its side, only as another build (one
// --sourcemaps folder for two builds): mapping it through that build's map
// would name its moved functions wrongly, and leaving it unmapped would
// make every function new or gone. It says which side needs its own maps.
func mapsOfAnotherBuild(ds []diff.Side) error {
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

// threadsNote says, when the runs compared have worker threads' profiles
// beside them (profdiff record keeps run-01.worker-1.cpuprofile beside
// run-01.cpuprofile, the main thread's), that each run's main thread was
// compared, which threads were not, and how to compare one; nil when there
// are none.
func threadsNote(sides []sideArg) *analyze.Warning {
	workers := map[int]int{} // worker number -> profiles
	var folders []string     // of each side, for the advice
	var given []string       // sides that are a worker thread's profiles
	for _, s := range sides {
		folder := ""
		n := -1
		for _, f := range s.files {
			if sm := record.WorkerSuffix.FindStringSubmatch(f); sm != nil && (n < 0 || sm[1] == strconv.Itoa(n)) {
				n, _ = strconv.Atoi(sm[1])
			} else {
				n = -2 // not all one worker's
			}
		}
		if n >= 0 {
			given = append(given, fmt.Sprintf("%s is worker %d", s.name, n))
		}
		for _, f := range s.files {
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
			how = append(how, fmt.Sprintf("--side '%s=%s'", s.name, filepath.Join(folders[i], fmt.Sprintf("*.worker-%d.cpuprofile", first))))
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
