package side

import (
	"fmt"
	"io"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/confine"
	"github.com/profdiff/profdiff/narrow"
	"github.com/profdiff/profdiff/symbolicate"
)

// Reading is how Read reads the sides' runs.
type Reading struct {
	// Stdin is what a run named "-" is read from.
	Stdin io.Reader
	// Symbolicators are each side's (nil entries: no source maps).
	Symbolicators []*symbolicate.Symbolicator
	// Parse and Aggregate are how each run is read and aggregated.
	Parse     analyze.ParseOptions
	Aggregate analyze.AggregateOptions
	// Filters narrow each run (nil or inactive: not narrowed), and
	// NameFilter, when set, names the flag of a filter's error.
	Filters    *narrow.Filters
	NameFilter func(error) error
	// Files reads the package.json files below the sides' roots.
	Files *confine.Reader
	// KeepProfiles keeps each run's profile, for the writers that walk
	// its samples.
	KeepProfiles bool
	// MemoryBudget bounds the estimated memory (analyze.ReadCost) of the
	// runs read at once (0: DefaultMemoryBudget).
	MemoryBudget int64
}

// Read reads every run (in parallel, bounded by the cores and by a budget
// of memory), maps it through its side's source maps and aggregates it,
// with those of the calls, per-line times and call tree that r asks for.
// It returns each side's tables, and the runs' profiles when r keeps them.
func Read(sides []Side, r Reading) ([]diff.Side, [][]*analyze.Profile, error) {
	type job struct{ side, run int }
	var jobs []job
	tables := make([][]*analyze.Table, len(sides))
	aopts, keep := r.Aggregate, r.KeepProfiles
	profiles := make([][]*analyze.Profile, len(sides))
	folds := make([]*treeFold, len(sides))
	for si, s := range sides {
		if aopts.Tree && len(s.Files) > 1 {
			folds[si] = &treeFold{pending: make([]*analyze.Table, len(s.Files))}
		}
		tables[si] = make([]*analyze.Table, len(s.Files))
		profiles[si] = make([]*analyze.Profile, len(s.Files))
		for ri := range s.Files {
			jobs = append(jobs, job{si, ri})
		}
	}
	// Errors are kept per job, so that the first in the order given is
	// the one reported, whichever run failed first.
	errs := make([]error, len(jobs))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	budget := newReadBudget(DefaultMemoryBudget)
	if r.MemoryBudget > 0 {
		budget = newReadBudget(r.MemoryBudget)
	}
	for i, j := range jobs {
		cost := int64(0)
		if sides[j.side].Fetched == nil {
			cost = budget.cost(sides[j.side].Files[j.run], aopts)
		}
		budget.acquire(cost) // in job order, so that a large run waits its turn
		g.Go(func() error {
			defer budget.release(cost)
			p, err := sides[j.side].run(j.run, r.Stdin, r.Parse)
			if err != nil {
				errs[i] = err
				return nil
			}
			var sym *symbolicate.Symbolicator
			if j.side < len(r.Symbolicators) {
				sym = r.Symbolicators[j.side]
			}
			t, err := r.tabulate(p, sym, sides[j.side].Root)
			if err != nil {
				errs[i] = err
				return nil
			}
			tables[j.side][j.run] = t
			if keep {
				profiles[j.side][j.run] = p
			}
			p = nil // not live while the run waits to be folded
			folds[j.side].add(j.run, t)
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
		ds = append(ds, diff.Side{Name: s.Name, Formed: s.Formed, Tables: tables[si], Tree: folds[si].tree(), Work: s.Work, ProcessCPUNs: processCPU(s.Files), Resources: recordResources(s.Files)})
	}
	return ds, profiles, nil
}

// treeFold folds a side's runs' call trees into one as they are read
// (diff.FoldedTree), in the order of the side's runs, whichever is read
// first, and empties each run's own: a side's runs then hold one tree,
// not one each. A run read before those ahead of it waits, with its tree,
// for them; with the runs read in their order, a few at once, that is a
// run or two.
type treeFold struct {
	mu      sync.Mutex
	fold    diff.FoldedTree
	pending []*analyze.Table // the runs read and not folded yet, by run
	next    int              // the next run to fold
}

// add folds run ri, whose table is t, and every run after it that waits;
// a nil fold (a side of one run, or no tree asked for) does nothing.
func (f *treeFold) add(ri int, t *analyze.Table) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pending[ri] = t
	for f.next < len(f.pending) && f.pending[f.next] != nil {
		t := f.pending[f.next]
		f.fold.Fold(&t.Tree, t.Functions)
		t.Tree = analyze.CallTree{}
		f.pending[f.next] = nil
		f.next++
	}
	if f.next == len(f.pending) {
		f.fold.Done() // the side's last run: what folding used goes
	}
}

// tree returns the folded tree, once every run is folded; nil for a nil
// fold.
func (f *treeFold) tree() *diff.FoldedTree {
	if f == nil {
		return nil
	}
	return &f.fold
}

// DefaultMemoryBudget is the estimated memory (analyze.ReadCost) that the runs
// read at once may take when the size of the input is not known (a run
// from standard input); else the budget is the soft memory limit
// (Reading.MemoryBudget). Runs that together would take more are read one after
// another: aggregating a run of 2 M distinct folded stacks (72 MB) with its
// calls keeps some 650 MB live, and two at once went far past the limit,
// while without the calls two such runs, and two 57 MiB V8 profiles, are
// read together.
const DefaultMemoryBudget = 1 << 30

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

// run is run i of the side: a fetched query run, else read from its file.
func (s Side) run(i int, stdin io.Reader, popts analyze.ParseOptions) (*analyze.Profile, error) {
	if s.Fetched != nil {
		return s.Fetched[i], nil
	}
	return ReadRun(s.Files[i], stdin, popts)
}

// ReadRun reads one run's profile from its file, or from standard input
// for "-".
func ReadRun(name string, stdin io.Reader, popts analyze.ParseOptions) (*analyze.Profile, error) {
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
// names its packages (below the side's checkout root, when given,
// reading package.json files through r.Files), narrows it and aggregates
// it.
func (r Reading) tabulate(p *analyze.Profile, sym *symbolicate.Symbolicator, root string) (*analyze.Table, error) {
	filters := r.Filters
	if sym != nil {
		sym.Apply(p) // one at a time: the sides may share it
	}
	analyze.AttributePackagesBelow(p, r.Files, root) // names and packages as the report shows them
	var before int64
	var stalls *analyze.Stalls
	if filters.Active() {
		before = p.OnCPUNs()
		// Stalls are the whole run's: narrowing by function drops idle
		// samples, which would join stretches.
		stalls = analyze.FindStalls(p, analyze.DefaultLongestStalls)
		if err := filters.Apply(p); err != nil {
			if r.NameFilter != nil {
				err = r.NameFilter(err)
			}
			return nil, fmt.Errorf("%s: %w", p.File, err)
		}
	}
	t := analyze.Aggregate(p, r.Aggregate)
	t.Summary.NarrowedFromNs = before
	if stalls != nil {
		t.Stalls = stalls
	}
	return t, nil
}
