package report

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
)

// linesReport compares fixtures (one per side) with their per-line times.
func linesReport(t *testing.T, names ...string) *diff.Report {
	t.Helper()
	var sides []diff.Side
	for _, n := range names {
		p, err := analyze.ParseFile("../testdata/"+n, analyze.ParseOptions{Lines: true})
		if err != nil {
			t.Fatal(err)
		}
		name := n
		if len(names) == 2 {
			name = [2]string{"before", "after"}[len(sides)]
		}
		sides = append(sides, diff.Side{Name: name, Tables: []*analyze.Table{analyze.Aggregate(p, analyze.AggregateOptions{Lines: true})}})
	}
	r, err := diff.Compare(sides, diff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

type jsonLine struct {
	File         string
	Line         *int
	Unattributed bool
	Self         *struct{ NS []float64 }
	Total        *struct{ NS []float64 }
}

type jsonLinesDoc struct {
	Functions []struct {
		Function string
		Self     struct{ NS []float64 }
		Lines    *[]jsonLine
	}
}

// TestJSONLines: with JSONOptions.Lines each function has lines[], each
// {file, line, self, total} with self and total shaped as every measure,
// the lines' self times adding up to the function's; a V8 profile's totals
// are null (it records the sampled function's line only); without the
// option there is no lines member at all.
func TestJSONLines(t *testing.T) {
	for _, c := range []struct {
		name   string
		totals bool
	}{{"go-router-before.pprof", true}, {"node-router-unbundled-before.cpuprofile", false}} {
		r := linesReport(t, c.name)
		var b bytes.Buffer
		if err := WriteJSONWith(&b, r, JSONOptions{Lines: true}); err != nil {
			t.Fatal(err)
		}
		var doc jsonLinesDoc
		if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		withLines := 0
		for _, f := range doc.Functions {
			if f.Lines == nil {
				t.Fatalf("%s: %s has no lines member", c.name, f.Function)
			}
			if len(*f.Lines) == 0 {
				continue
			}
			withLines++
			var sum float64
			for _, l := range *f.Lines {
				if l.Self == nil || len(l.Self.NS) != 1 || (l.Line == nil) != l.Unattributed {
					t.Fatalf("%s: %s: line %+v", c.name, f.Function, l)
				}
				if (l.Total != nil) != c.totals {
					t.Fatalf("%s: %s: total %+v", c.name, f.Function, l.Total)
				}
				sum += l.Self.NS[0]
			}
			if math.Abs(sum-f.Self.NS[0]) > 1 {
				t.Errorf("%s: %s: lines add up to %.0f, self %.0f", c.name, f.Function, sum, f.Self.NS[0])
			}
		}
		if withLines < 10 {
			t.Errorf("%s: %d functions with lines", c.name, withLines)
		}
		b.Reset()
		if err := WriteJSON(&b, r); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), `"lines"`) {
			t.Errorf("%s: lines without the option", c.name)
		}
	}
}
