package history

import (
	"bufio"
	"cmp"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
)

// Options tune the search for change points.
type Options struct {
	// Alpha is the family-wise false-alarm rate over every series tested.
	Alpha float64
	// MinDeltaPct and MinDeltaPP are the floors a change must pass: its
	// relative size, and its size in percentage points of the mean on-CPU
	// time.
	MinDeltaPct, MinDeltaPP float64
	// Permutations is the number of permutations of the test; 0 means
	// DefaultPermutations.
	Permutations int
	// Seed makes the permutations, and so the result, reproducible.
	Seed uint64
}

// DefaultPermutations is the permutation count when Options leave it 0.
const DefaultPermutations = 2000

// Metric names what a series measures of its row.
const (
	MetricSelf  = "self"
	MetricTotal = "total"
)

// KindHeadline is the kind of the series of on-CPU time per run (or per
// unit of work).
const KindHeadline = "headline"

// Names of the headline series.
const (
	HeadlineOnCPU      = "on-CPU"
	HeadlineProcessCPU = "process CPU"
)

// Series is one measure over the commits: a row's self or total time, or
// a headline (on-CPU time, process CPU time).
type Series struct {
	Kind, Name, Package, File, Metric string
	// Means are the mean per run of each commit, in nanoseconds (per unit
	// of work when every run gave its work); NaN where the commit has no
	// runs of it (a headline never). Where the commit's record left the
	// row out for being under its floor, Means holds that floor (the most
	// the row can have had) and Below is true.
	Means []float64
	// Below marks the commits whose record had the row below its floor:
	// its time there is known only to be under Means. Nil when none did.
	Below []bool
	// Runs are each commit's values, one per run; nil in a history of
	// more than PermutationCommits commits, which keeps only the means.
	// A commit where the row was below the floor has no runs.
	Runs [][]float64
	// ChangesAt are the indexes of the commits where it changed.
	ChangesAt []int
}

// Change is a series' change at a change point.
type Change struct {
	Kind, Name, Package, File, Metric string
	// BeforeNs and AfterNs are the means of the stretches before and
	// after the change point (up to the series' neighbouring change
	// points). Where runs were below the floor they are the ends of the
	// two means' ranges nearest each other: the least change they allow.
	BeforeNs, AfterNs float64
	// BeforeBelow and AfterBelow say that every commit of the stretch had
	// the row below its record's floor: its time there is under BeforeNs
	// (AfterNs), not measured.
	BeforeBelow, AfterBelow bool
	// DeltaPct is the relative change, NaN from zero or from below the
	// floor.
	DeltaPct float64
	// Verdict is "better" or "worse", or "new" or "gone" for a row with
	// no time (or time below the floor) before or after.
	Verdict string
	// P is the p-value, adjusted over every series tested.
	P float64
}

// ChangePoint is a commit at which at least one series changed.
type ChangePoint struct {
	// Index is the commit's position in Result.Commits.
	Index                 int
	Commit, Date, Message string
	Changes               []Change
}

// Commit is what a history shows of one commit's record.
type Commit struct {
	Commit, Date, Branch, Message string
	// Runs is the number of runs recorded.
	Runs int
	// FloorShare is the record's floor as a share of on-CPU time; 0 for
	// a record without a floor (versions 1 and 2).
	FloorShare float64
}

// Result is a history: its commits in order, where things changed, and
// the series of what changed.
type Result struct {
	Commits []Commit
	// Per is what times are per: "run", or the work unit.
	Per          string
	ChangePoints []ChangePoint
	// Headlines are the on-CPU series, then the process CPU series when
	// every record holds the runs' process CPU time; Changed the other
	// series that changed somewhere, in the order of their first change
	// point.
	Headlines []Series
	Changed   []Series
	// Tested is the number of series tested.
	Tested int
	// Method is how change points were found: "permutation" (up to
	// PermutationCommits commits) or "windows" (more).
	Method  string
	Options Options
	// Warnings say what the records could not tell.
	Warnings []string
}

// Order returns the store's records oldest first: by the commits listed
// one per line in the file at orderPath (as `git rev-list --reverse`
// writes them; records of commits it does not list are left out, and a
// listed commit may be given by a prefix of its hash), or by date then
// commit when orderPath is "".
func Order(s *Store, orderPath string) ([]*Record, error) {
	recs := slices.Clone(s.Records)
	if orderPath == "" {
		slices.SortFunc(recs, func(a, b *Record) int {
			if c := cmp.Compare(a.Date, b.Date); c != 0 {
				return c
			}
			return cmp.Compare(a.Commit, b.Commit)
		})
		return recs, nil
	}
	f, err := os.Open(orderPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*Record
	used := map[*Record]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.TrimSpace(sc.Text())
		if c == "" || strings.HasPrefix(c, "#") {
			continue
		}
		for _, r := range recs {
			if !used[r] && (r.Commit == c || strings.HasPrefix(c, r.Commit) || strings.HasPrefix(r.Commit, c)) {
				out = append(out, r)
				used[r] = true
				break
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", orderPath, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: lists none of the store's %d commits", orderPath, len(recs))
	}
	return out, nil
}

func seriesKey(s Series) string {
	return s.Kind + "\x00" + s.Package + "\x00" + s.Name + "\x00" + s.File + "\x00" + s.Metric
}

// kindOrder lists the headline first, then packages, functions and files.
func kindOrder(kind string) int {
	switch kind {
	case KindHeadline:
		return 0
	case KindPackage:
		return 1
	case KindFunction:
		return 2
	}
	return 3
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
