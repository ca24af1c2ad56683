package diff

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// corpusTables ranks the five runs of each side of the bundled router pair
// of the shared corpus, skipping the benchmark when the corpus is absent.
func corpusTables(b *testing.B) []Side {
	b.Helper()
	var sides []Side
	for _, name := range []string{"before", "after"} {
		s := Side{Name: name}
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
	return sides
}

// BenchmarkCompare joins and tests two sides of five runs each.
func BenchmarkCompare(b *testing.B) {
	sides := corpusTables(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compare(sides, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompareLarge compares the corpus's 63 MiB profile (271,450
// call-tree nodes) with itself, as the command does: with calls and trees.
func BenchmarkCompareLarge(b *testing.B) {
	p := filepath.Join("..", "..", "shared", "corpus", "large", "tsc-effect-unbundled.cpuprofile")
	if _, err := os.Stat(p); err != nil {
		b.Skipf("%s not found: the corpus lives beside this repository as ../shared/corpus: %v", p, err)
	}
	prof, err := analyze.ParseFile(p, analyze.ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	t := analyze.Aggregate(prof, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true})
	sides := []Side{{Name: "before", Tables: []*analyze.Table{t}}, {Name: "after", Tables: []*analyze.Table{t}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compare(sides, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWrite renders that comparison in each format; bytes are the
// output's.
func BenchmarkWrite(b *testing.B) {
	r, err := Compare(corpusTables(b), DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
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
