package flamegraph

import (
	"io"
	"testing"

	"github.com/profdiff/profdiff/analyze/analyzetest"
	"github.com/profdiff/profdiff/diff"
)

// BenchmarkWrite writes the page of the shared corpus's bundled router
// pair, five runs a side; bytes are the page's.
func BenchmarkWrite(b *testing.B) { benchWrite(b, Write) }

func benchWrite(b *testing.B, write func(io.Writer, *diff.Report, Options) error) {
	before, after := analyzetest.RouterRuns(b)
	sides := []diff.Side{{Name: "before", Tables: before}, {Name: "after", Tables: after}}
	r, err := diff.Compare(sides, diff.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	var n countingWriter
	if err := write(&n, r, Options{Title: "bench"}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		if err := write(io.Discard, r, Options{Title: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
}

type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}
