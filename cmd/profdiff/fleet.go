package main

import (
	"context"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/profdiff/profdiff/fleet"
	"github.com/profdiff/profdiff/side"
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

// fleetSide fetches the runs of a server query side; each file entry names
// a run and how it was formed (a label value or a sub-window).
func fleetSide(uri, name string, o options) (side.Side, error) {
	q, err := fleet.ParseURI(uri, time.Now())
	if err != nil {
		return side.Side{}, err
	}
	runs, err := fleet.Fetch(context.Background(), q, fleet.Options{
		Timeout:     o.fleet.timeout,
		Token:       os.Getenv(fleetTokenEnv),
		ReplicateBy: o.fleet.replicateBy,
		Windows:     o.fleet.windows,
	})
	if err != nil {
		return side.Side{}, err
	}
	s := side.Side{Name: name}
	run := runs[0].Profile.WallNs
	for _, r := range runs {
		s.Files = append(s.Files, q.Base+" "+q.Selector+" ["+r.Label+"]")
		s.Fetched = append(s.Fetched, r.Profile)
		run = min(run, r.Profile.WallNs) // with --windows the last absorbs the rounding
	}
	s.Formed = fleet.Formation(fleet.Options{ReplicateBy: o.fleet.replicateBy, Windows: o.fleet.windows}, len(runs), time.Duration(run))
	return s, nil
}
