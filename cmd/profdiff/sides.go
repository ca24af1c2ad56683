package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/narrow"
	"github.com/profdiff/profdiff/symbolicate"
)

// sideArg is one side as given: its name and its profile files.
type sideArg struct {
	name  string
	files []string
}

// profileSuffixes are the file names a directory of runs is searched for.
var profileSuffixes = []string{".cpuprofile", ".cpuprofile.gz", ".json", ".json.gz", ".pprof", ".pb.gz", ".pb", ".prof", ".cpu", ".gz"}

// sidesFromArgs turns BEFORE [AFTER] (files or directories of runs) or
// --before/--after lists into sides.
func sidesFromArgs(args []string, o options) ([]sideArg, error) {
	if len(o.before)+len(o.after) > 0 {
		if len(args) > 0 {
			return nil, fmt.Errorf("give the sides either as BEFORE AFTER or with --before/--after, not both")
		}
		if len(o.before) == 0 || len(o.after) == 0 {
			return nil, fmt.Errorf("--before and --after go together: give each side at least one file")
		}
		return []sideArg{{"before", o.before}, {"after", o.after}}, nil
	}
	switch len(args) {
	case 0:
		return nil, fmt.Errorf("give a profile to rank, or BEFORE AFTER to compare (see profdiff --help)")
	case 1, 2:
	default:
		return nil, fmt.Errorf("too many arguments: give PROFILE, or BEFORE AFTER (each a file or a directory of runs)")
	}
	names := []string{"before", "after"}
	if len(args) == 1 {
		names = []string{"profile"}
	}
	if slices.Equal(args, []string{"-", "-"}) {
		return nil, fmt.Errorf("standard input (-) can be one side only")
	}
	var sides []sideArg
	for i, a := range args {
		files, err := expandSide(a)
		if err != nil {
			return nil, err
		}
		sides = append(sides, sideArg{names[i], files})
	}
	return sides, nil
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
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		for _, suf := range profileSuffixes {
			if strings.HasSuffix(name, suf) {
				files = append(files, filepath.Join(path, name))
				break
			}
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: a directory with no profiles (looked for %s)", path, strings.Join(profileSuffixes, ", "))
	}
	return files, nil
}

// readSides reads every run (in parallel, bounded by the cores), maps it
// through its side's source maps and aggregates it, with those of the
// calls, per-line times and call tree that the output reads.
func readSides(sides []sideArg, stdin io.Reader, syms []*symbolicate.Symbolicator, popts analyze.ParseOptions, filters *narrow.Filters, o options) ([]diff.Side, [][]*analyze.Profile, []string, error) {
	var mu sync.Mutex
	dirs := map[string]bool{} // the folders of the profiles' scripts
	type job struct{ side, run int }
	var jobs []job
	tables := make([][]*analyze.Table, len(sides))
	need := needsOf(o.format, o.jsonOutput != "")
	aopts, keep := need.aggregateOptions(len(sides)), need.profiles
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
	for i, j := range jobs {
		g.Go(func() error {
			p, err := readRun(sides[j.side].files[j.run], stdin, popts)
			if err != nil {
				errs[i] = err
				return nil
			}
			local := scriptFolders(p)
			mu.Lock()
			maps.Copy(dirs, local)
			mu.Unlock()
			t, err := tabulate(p, syms[j.side], filters, aopts)
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
			return nil, nil, nil, err
		}
	}
	var ds []diff.Side
	for si, s := range sides {
		ds = append(ds, diff.Side{Name: s.name, Tables: tables[si], Work: o.workOf(si)})
	}
	return ds, profiles, slices.Sorted(maps.Keys(dirs)), nil
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

// scriptFolders returns the local folders of a profile's scripts, where
// the explorer looks for their sources.
func scriptFolders(p *analyze.Profile) map[string]bool {
	local := map[string]bool{}
	for _, f := range p.Frames {
		if f.Kind == analyze.KindCode && strings.HasPrefix(f.File, "/") {
			local[filepath.Dir(f.File)] = true
		}
	}
	return local
}

// tabulate maps one run through its side's source maps (sym may be nil),
// narrows it and aggregates it.
func tabulate(p *analyze.Profile, sym *symbolicate.Symbolicator, filters *narrow.Filters, aopts analyze.AggregateOptions) (*analyze.Table, error) {
	if sym != nil {
		sym.Apply(p) // one at a time: the sides may share it
	}
	analyze.AttributePackages(p, true) // names and packages as the report shows them
	var before int64
	if filters.Active() {
		before = p.OnCPUNs()
		if err := filters.Apply(p); err != nil {
			return nil, fmt.Errorf("%s: %w", p.File, filterFlag(err))
		}
	}
	t := analyze.Aggregate(p, aopts)
	t.Summary.NarrowedFromNs = before
	return t, nil
}

// sideSymbolicators makes each side's symbolicator from its source-map
// flags (nil ones with --no-sourcemaps); sides that look for maps the same
// way share one, so that each map is decoded once.
func sideSymbolicators(o options, nsides int) ([]*symbolicate.Symbolicator, error) {
	syms := make([]*symbolicate.Symbolicator, nsides)
	for i := range syms {
		maps, dirs := o.sideSourceMaps(i, nsides)
		symOpts, err := symbolicateOptions(maps, dirs, o.pathMaps)
		if err != nil {
			return nil, err
		}
		switch {
		case o.noSourceMaps:
		case i > 0 && !o.perSideSourceMaps():
			syms[i] = syms[0]
		default:
			syms[i] = symbolicate.New(symOpts)
		}
	}
	return syms, nil
}
