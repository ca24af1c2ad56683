package export

import (
	"bytes"
	"strings"
	"testing"

	pprofile "github.com/google/pprof/profile"

	"github.com/profdiff/profdiff/analyze"
)

// roundTripTolerance is how far, in ns, a time read back may be from the
// table's: each sample's value is rounded to a nanosecond.
const roundTripTolerance = 10_000

// near reports whether two times agree within roundTripTolerance.
func near(a, b int64) bool { return a-b <= roundTripTolerance && b-a <= roundTripTolerance }

// readBack reads a pprof export as profdiff reads any file, and
// aggregates it.
func readBack(t *testing.T, data []byte) *analyze.Table {
	t.Helper()
	p, err := analyze.Parse(bytes.NewReader(data), analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return analyze.Aggregate(p, analyze.AggregateOptions{Edges: true, NodeFunctions: true})
}

// TestPprofRoundTripKeepsPackages: a profile exported as pprof and read
// back has the packages of the profile read directly, each with its self
// and total time, and its GC time, wall time and sampling interval: V8's
// "(garbage collector)" frame and Go's GC workers stay GC, node_modules
// stay their npm packages, not the folders (src, dist, lib) the files lie
// in (issue 26, item 4).
func TestPprofRoundTripKeepsPackages(t *testing.T) {
	for _, file := range []string{"node-router-unbundled-before.cpuprofile", "node-router-unbundled-after.cpuprofile", "go-router-before.pprof"} {
		t.Run(file, func(t *testing.T) {
			direct := run(t, file)
			var b bytes.Buffer
			if err := WritePprof(&b, []Side{{Name: "profile", Runs: []Run{direct}}}); err != nil {
				t.Fatal(err)
			}
			back := readBack(t, b.Bytes())
			want, got := direct.Table.Summary, back.Summary
			if want.GCNs == 0 {
				t.Fatalf("the fixture has no GC time to keep")
			}
			if !near(got.GCNs, want.GCNs) || !near(got.OnCPUNs, want.OnCPUNs) {
				t.Errorf("read back: GC %d ns of on-CPU %d ns, read directly %d of %d", got.GCNs, got.OnCPUNs, want.GCNs, want.OnCPUNs)
			}
			if got.WallNs != want.WallNs || got.IntervalNs != want.IntervalNs {
				t.Errorf("read back: wall %d ns, interval %d ns; read directly %d, %d", got.WallNs, got.IntervalNs, want.WallNs, want.IntervalNs)
			}
			backRows := map[string]analyze.Row{}
			for _, r := range back.Packages {
				backRows[r.Key.Package] = r
			}
			for _, r := range direct.Table.Packages {
				g, ok := backRows[r.Key.Package]
				if !ok || !near(g.Self, r.Self) || !near(g.Total, r.Total) {
					t.Errorf("package %q: read back self %d total %d (found %v), read directly %d, %d", r.Key.Package, g.Self, g.Total, ok, r.Self, r.Total)
				}
				delete(backRows, r.Key.Package)
			}
			for pkg := range backRows {
				t.Errorf("read back has a package %q the profile has not", pkg)
			}
		})
	}
}

// TestPprofDiffKeepsPackages: in a two-side export each location's
// mapping names its package on both sides, so that the base-labelled
// (before) samples of a package sum to minus its self time before, and
// the others to its self time after.
func TestPprofDiffKeepsPackages(t *testing.T) {
	before, after := run(t, "node-router-unbundled-before.cpuprofile"), run(t, "node-router-unbundled-after.cpuprofile")
	var b bytes.Buffer
	if err := WritePprof(&b, []Side{{Name: "before", Runs: []Run{before}}, {Name: "after", Runs: []Run{after}}}); err != nil {
		t.Fatal(err)
	}
	p, err := pprofile.Parse(&b)
	if err != nil {
		t.Fatal(err)
	}
	if p.DurationNanos != 0 {
		t.Errorf("a diff has a duration, %d ns", p.DurationNanos)
	}
	self := [2]map[string]int64{{}, {}} // by side: leaf time by package
	for _, s := range p.Sample {
		side := 1
		if s.Label["pprof::base"] != nil {
			side = 0
		}
		for _, l := range s.Location {
			if !strings.HasPrefix(l.Mapping.BuildID, "profdiff:") || !strings.HasSuffix(l.Mapping.BuildID, ":"+l.Mapping.File) {
				t.Fatalf("location %d in mapping %q (build ID %q)", l.ID, l.Mapping.File, l.Mapping.BuildID)
			}
		}
		self[side][s.Location[0].Mapping.File] += s.Value[1]
	}
	for side, r := range []Run{before, after} {
		sign := int64(1 - 2*(1-side)) // the base side is negated
		for _, row := range r.Table.Packages {
			if g := self[side][row.Key.Package]; !near(sign*g, row.Self) {
				t.Errorf("side %d, package %q: %d ns in the diff, self %d", side, row.Key.Package, sign*g, row.Self)
			}
		}
	}
	if self[0]["path-to-regexp"] == 0 || self[1]["path-to-regexp"] == 0 {
		t.Errorf("path-to-regexp is missing from a side of the diff: %v", self)
	}
}
