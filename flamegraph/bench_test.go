package flamegraph

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
)

// BenchmarkWrite writes the page of the shared corpus's bundled router
// pair, five runs a side; bytes are the page's.
func BenchmarkWrite(b *testing.B) { benchWrite(b, Write) }

func benchWrite(b *testing.B, write func(io.Writer, *diff.Report, Options) error) {
	var sides []diff.Side
	for _, name := range []string{"before", "after"} {
		s := diff.Side{Name: name}
		for r := 1; r <= 5; r++ {
			p := filepath.Join("..", "..", "shared", "corpus", "node-router-ab", fmt.Sprintf("%s-r%d.cpuprofile", name, r))
			if _, err := os.Stat(p); err != nil {
				b.Skipf("%s not found: the corpus lives beside this repository as ../shared/corpus: %v", p, err)
			}
			prof, err := analyze.ParseFile(p, analyze.ParseOptions{})
			if err != nil {
				b.Fatal(err)
			}
			s.Tables = append(s.Tables, analyze.Aggregate(prof, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true}))
		}
		sides = append(sides, s)
	}
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
