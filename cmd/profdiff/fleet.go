package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/fleet"
)

// fleetTokenEnv names the environment variable holding the bearer token
// sent to a profiling server; it is never read from flags or printed.
const fleetTokenEnv = "PROFDIFF_FLEET_TOKEN"

// fleetFlags are the flags of server query sides.
type fleetFlags struct {
	replicateBy string
	windows     int
	timeout     time.Duration
}

func (f *fleetFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.replicateBy, "replicate-by", "", "for a server query side (parca+http://...): one run per value of this `LABEL` (e.g. instance or pod)")
	fs.IntVar(&f.windows, "windows", 0, "for a server query side: one run per each of `N` equal sub-windows of the query's time window")
	fs.DurationVar(&f.timeout, "query-timeout", 30*time.Second, "timeout of each request to a profiling server")
}

// fleetSideName is the name of side i of n given as arguments.
func fleetSideName(n, i int) string {
	switch {
	case n == 1:
		return "profile"
	case n == 2:
		return [...]string{"before", "after"}[i]
	}
	return fmt.Sprintf("side%d", i+1)
}

// fleetSide fetches the runs of a server query side; each file entry names
// a run and how it was formed (a label value or a sub-window).
func fleetSide(uri, name string, o options) (sideArg, error) {
	q, err := fleet.ParseURI(uri, time.Now())
	if err != nil {
		return sideArg{}, err
	}
	runs, err := fleet.Fetch(context.Background(), q, fleet.Options{
		Timeout:     o.fleet.timeout,
		Token:       os.Getenv(fleetTokenEnv),
		ReplicateBy: o.fleet.replicateBy,
		Windows:     o.fleet.windows,
	})
	if err != nil {
		return sideArg{}, err
	}
	s := sideArg{name: name}
	for _, r := range runs {
		s.files = append(s.files, q.Base+" "+q.Selector+" ["+r.Label+"]")
		s.fetched = append(s.fetched, r.Profile)
	}
	return s, nil
}

// sidesWithQueries is sidesAndNote, but --side NAME=URI values that are
// server queries are fetched as sides of their own (a query side is given
// once: its runs come from --replicate-by or --windows); the other --side
// values are read as namedSides reads them.
func sidesWithQueries(args []string, o options) ([]sideArg, *analyze.Warning, error) {
	if o.baseStore != "" || !slices.ContainsFunc(o.named, func(v string) bool {
		_, uri, _ := strings.Cut(v, "=")
		return fleet.IsURI(uri)
	}) {
		return sidesAndNote(args, o)
	}
	if len(args)+len(o.before)+len(o.after) > 0 {
		return nil, nil, fmt.Errorf("give the sides either as arguments, with --before/--after, or with --side NAME=PATH, not two of these")
	}
	var sides []sideArg
	for _, v := range o.named {
		name, uri, _ := strings.Cut(v, "=")
		i := slices.IndexFunc(sides, func(s sideArg) bool { return s.name == name })
		var s sideArg
		var err error
		if fleet.IsURI(uri) {
			if name == "" {
				return nil, nil, fmt.Errorf("--side %q: give NAME=URI", v)
			}
			s, err = fleetSide(uri, name, o)
		} else {
			var ss []sideArg
			if ss, err = namedSides([]string{v}); err == nil {
				s = ss[0]
			}
		}
		if err != nil {
			return nil, nil, err
		}
		switch {
		case i < 0:
			sides = append(sides, s)
		case sides[i].fetched != nil || s.fetched != nil:
			return nil, nil, fmt.Errorf("--side %s is given twice and one is a server query: a query side is given once (its runs come from --replicate-by or --windows)", name)
		default:
			sides[i].files = append(sides[i].files, s.files...)
		}
	}
	return sides, nil, nil
}

// fleetFormed says how the runs of each query side were formed, for the
// report (diff.Side.Formed); sides of files are left as they are. ds are
// the sides readSides made of sides, in their order.
func fleetFormed(ds []diff.Side, sides []sideArg, f fleetFlags) {
	for i, s := range sides {
		if s.fetched == nil || i >= len(ds) {
			continue
		}
		run := s.fetched[0].WallNs
		for _, p := range s.fetched {
			run = min(run, p.WallNs) // with --windows the last absorbs the rounding
		}
		ds[i].Formed = fleet.Formation(fleet.Options{ReplicateBy: f.replicateBy, Windows: f.windows}, len(s.fetched), time.Duration(run))
	}
}

// sideRun is run i of side s: a fetched query run, else read from its file.
func sideRun(s sideArg, i int, stdin io.Reader, popts analyze.ParseOptions) (*analyze.Profile, error) {
	if s.fetched != nil {
		return s.fetched[i], nil
	}
	return readRun(s.files[i], stdin, popts)
}
