package export

import (
	"bytes"
	"math"
	"testing"

	pprofile "github.com/google/pprof/profile"

	"github.com/profdiff/profdiff/analyze"
)

// FuzzRoundTrip: any folded stacks that read as a profile write as folded
// stacks that read back with the same functions and self times (within a
// microsecond a line), and as a pprof that the pprof library parses and
// whose samples add up to the on-CPU time. Names can hold anything the
// reader accepts: the writers must keep their formats well formed.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("main;parse;lex 42\nmain;render 7\n"))
	f.Add([]byte("a (x.py:3);b [pkg] 2\nc_[k];d::e 5\n"))
	f.Add([]byte("x\x1b[2J;y\u202e 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := analyze.Parse(bytes.NewReader(data), analyze.ParseOptions{FoldedUnit: analyze.FoldedMs})
		if err != nil || p.Format != analyze.FormatFolded {
			return
		}
		tab := analyze.Aggregate(p, analyze.AggregateOptions{NodeFunctions: true})
		sides := []Side{{Name: "profile", Runs: []Run{{Profile: p, Table: tab}}}}
		var folded bytes.Buffer
		if err := WriteFolded(&folded, sides); err != nil {
			t.Fatal(err)
		}
		back, err := analyze.Parse(bytes.NewReader(folded.Bytes()), analyze.ParseOptions{})
		if err != nil {
			if tab.Summary.OnCPUNs < 1000 { // under a microsecond: nothing to write
				return
			}
			t.Fatalf("folded output does not read back: %v\n%s", err, folded.String())
		}
		if d := math.Abs(float64(analyze.Aggregate(back, analyze.AggregateOptions{}).Summary.OnCPUNs - tab.Summary.OnCPUNs)); d > float64(len(p.Samples))*1000 {
			t.Fatalf("on-CPU %v back, %v", analyze.Aggregate(back, analyze.AggregateOptions{}).Summary.OnCPUNs, tab.Summary.OnCPUNs)
		}
		var pb bytes.Buffer
		if err := WritePprof(&pb, sides); err != nil {
			t.Fatal(err)
		}
		pp, err := pprofile.Parse(&pb)
		if err != nil {
			t.Fatal(err)
		}
		var sum int64
		for _, s := range pp.Sample {
			sum += s.Value[1]
		}
		if d := sum - tab.Summary.OnCPUNs; d < -int64(len(pp.Sample)) || d > int64(len(pp.Sample)) {
			t.Fatalf("pprof samples add up to %d, on-CPU %d", sum, tab.Summary.OnCPUNs)
		}
	})
}
