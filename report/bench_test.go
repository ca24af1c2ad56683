package report

import (
	"io"
	"testing"

	"github.com/profdiff/profdiff/analyze/analyzetest"
	"github.com/profdiff/profdiff/diff"
)

// corpusReport compares the five runs of each side of the bundled router
// pair of the shared corpus; the benchmark skips when the corpus is absent.
func corpusReport(b *testing.B) *diff.Report {
	before, after := analyzetest.RouterRuns(b)
	r, err := diff.Compare([]diff.Side{{Name: "before", Tables: before}, {Name: "after", Tables: after}}, diff.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkWrite renders the corpus's router comparison in each format;
// bytes are the output's.
func BenchmarkWrite(b *testing.B) {
	r := corpusReport(b)
	formats := map[string]func(io.Writer) error{
		"text":     func(w io.Writer) error { return WriteText(w, r, TextOptions{Top: 20}) },
		"markdown": func(w io.Writer) error { return WriteMarkdown(w, r, MarkdownOptions{Top: 20}) },
		"json":     func(w io.Writer) error { return WriteJSON(w, r) },
	}
	for name, write := range formats {
		b.Run(name, func(b *testing.B) {
			var c countingWriter
			if err := write(&c); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(c))
			b.ReportAllocs()
			for b.Loop() {
				if err := write(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}
