package stages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/flamegraph"
	"github.com/profdiff/profdiff/internal/confine"
	"github.com/profdiff/profdiff/report"
)

// level is how far a fixture is prepared: each stage needs the one before
// it done.
type level uint8

const (
	levelFiles    level = iota // the generated files
	levelProfiles              // read, packages attributed
	levelTables                // aggregated with calls and trees
	levelReport                // compared: before and after
)

// fixture is the input of every stage: two generated profiles and what
// the stages before make of them.
type fixture struct {
	files    [2]string
	size     [2]int64
	profiles [2]*analyze.Profile
	tables   [2]*analyze.Table
	report   *diff.Report
}

// newFixture generates (or finds) the profiles of about nodes nodes in dir
// and prepares them up to the given level, as the command does: packages
// attributed once, then aggregated with calls and trees.
func newFixture(tb testing.TB, dir string, nodes int, upTo level) *fixture {
	tb.Helper()
	fx := &fixture{}
	for i, v := range []Variant{Before, After} {
		path, err := File(dir, nodes, v)
		if err != nil {
			tb.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			tb.Fatal(err)
		}
		fx.files[i], fx.size[i] = path, st.Size()
		if upTo < levelProfiles {
			continue
		}
		p, err := analyze.ParseFile(path, analyze.ParseOptions{})
		if err != nil {
			tb.Fatal(err)
		}
		analyze.AttributePackages(p, confine.New("."))
		fx.profiles[i] = p
		if upTo >= levelTables {
			fx.tables[i] = analyze.Aggregate(p, analyze.AggregateOptions{Edges: true, Tree: true})
		}
	}
	if upTo >= levelReport {
		r, err := diff.Compare(fx.sides(2), diff.DefaultOptions())
		if err != nil {
			tb.Fatal(err)
		}
		fx.report = r
	}
	return fx
}

// sides returns the first n tables as the sides of a comparison.
func (fx *fixture) sides(n int) []diff.Side {
	s := []diff.Side{{Name: "before", Tables: fx.tables[:1]}, {Name: "after", Tables: fx.tables[1:]}}
	return s[:n]
}

// stage is one timed step of the pipeline.
type stage struct {
	name  string // the benchmark's name, without "Benchmark"
	needs level
	// both says the stage reads both files (its bytes are their sum).
	both bool
	run  func(fx *fixture) error
}

// bytes returns the input bytes a run of s reads.
func (s stage) bytes(fx *fixture) int64 {
	if s.both {
		return fx.size[0] + fx.size[1]
	}
	return fx.size[0]
}

// stages returns the timed stages, in the pipeline's order, slowed down as
// PROFDIFF_STAGES_SLOW asks (see slowDown).
func stages(tb testing.TB) []stage {
	tb.Helper()
	aggregate := func(opts analyze.AggregateOptions) func(*fixture) error {
		return func(fx *fixture) error {
			analyze.Aggregate(fx.profiles[0], opts)
			return nil
		}
	}
	compare := func(n int) func(*fixture) error {
		return func(fx *fixture) error {
			_, err := diff.Compare(fx.sides(n), diff.DefaultOptions())
			return err
		}
	}
	list := []stage{
		{name: "Read", needs: levelFiles, run: func(fx *fixture) error {
			_, err := analyze.ParseFile(fx.files[0], analyze.ParseOptions{})
			return err
		}},
		{name: "Aggregate/plain", needs: levelProfiles, run: aggregate(analyze.AggregateOptions{})},
		{name: "Aggregate/json", needs: levelProfiles, run: aggregate(analyze.AggregateOptions{Edges: true})},
		{name: "Aggregate/tree", needs: levelProfiles, run: aggregate(analyze.AggregateOptions{Edges: true, Tree: true})},
		{name: "Aggregate/tui", needs: levelProfiles, run: aggregate(analyze.AggregateOptions{Edges: true, Lines: true, Tree: true})},
		{name: "Compare/one", needs: levelTables, run: compare(1)},
		{name: "Compare/two", needs: levelTables, both: true, run: compare(2)},
		{name: "Render/text", needs: levelReport, both: true, run: func(fx *fixture) error {
			return report.WriteText(io.Discard, fx.report, report.TextOptions{Top: 20})
		}},
		{name: "Render/markdown", needs: levelReport, both: true, run: func(fx *fixture) error {
			return report.WriteMarkdown(io.Discard, fx.report, report.MarkdownOptions{})
		}},
		{name: "Render/json", needs: levelReport, both: true, run: func(fx *fixture) error {
			return report.WriteJSON(io.Discard, fx.report)
		}},
		{name: "Render/html", needs: levelReport, both: true, run: func(fx *fixture) error {
			return flamegraph.Write(io.Discard, fx.report, flamegraph.Options{Title: "x"})
		}},
	}
	slow, err := parseSlow(os.Getenv("PROFDIFF_STAGES_SLOW"))
	if err != nil {
		tb.Fatal(err)
	}
	for i, s := range list {
		if k, ok := slow[s.name]; ok {
			list[i].run = slowDown(s.run, k)
			delete(slow, s.name)
		}
	}
	for name := range slow {
		tb.Fatalf("PROFDIFF_STAGES_SLOW: no stage is named %q", name)
	}
	return list
}

// parseSlow reads PROFDIFF_STAGES_SLOW, a test knob to check that the
// guard catches a slower stage: comma-separated stage=factor, such as
// "Aggregate/plain=1.3".
func parseSlow(s string) (map[string]float64, error) {
	m := map[string]float64{}
	for _, item := range strings.Split(s, ",") {
		if item == "" {
			continue
		}
		name, f, ok := strings.Cut(item, "=")
		k, err := strconv.ParseFloat(f, 64)
		if !ok || err != nil || k < 1 {
			return nil, fmt.Errorf("PROFDIFF_STAGES_SLOW: %q is not stage=factor with a factor of at least 1", item)
		}
		m[name] = k
	}
	return m, nil
}

// slowDown makes run take factor times as much CPU time, spinning as
// slower code would.
func slowDown(run func(*fixture) error, factor float64) func(*fixture) error {
	return func(fx *fixture) error {
		start := cpuTime()
		err := run(fx)
		end := start + time.Duration(float64(cpuTime()-start)*factor)
		for cpuTime() < end {
		}
		return err
	}
}

// reference is a fixed workload that no profdiff code touches, the unit
// the guard measures stages in. It mixes the kinds of work the stages do,
// so that what slows them on a busy machine slows it too: decoding a
// 0.65 MB JSON document into interface values (allocation, branches),
// sorting 50,000 strings (comparisons), checking a 2.6 MB JSON document (a
// byte-by-byte scan, like reading a profile), following 65,536 links
// through a 32 MB random cycle (cache misses, like walking a call tree)
// and copying it four times (memory bandwidth), each about a fifth of its
// time.
type reference struct {
	doc, big      []byte
	keys, scratch []string
	cycle, copied []uint32
	end           uint32 // where the last walk of the cycle ended
}

// newReference makes the reference's input, the same every time.
func newReference() *reference {
	rng := rand.New(rand.NewPCG(1, 2))
	type item struct {
		Name   string             `json:"name"`
		ID     int                `json:"id"`
		Tags   []string           `json:"tags"`
		Pos    map[string]float64 `json:"pos"`
		Active bool               `json:"active"`
	}
	items := make([]item, 4000)
	for i := range items {
		items[i] = item{
			Name:   fmt.Sprintf("item-%x", rng.Uint64()),
			ID:     rng.IntN(1 << 30),
			Tags:   []string{"a", "bb", strconv.Itoa(i)},
			Pos:    map[string]float64{"x": rng.Float64(), "y": rng.NormFloat64()},
			Active: i%3 == 0,
		}
	}
	doc, err := json.Marshal(items)
	if err != nil {
		panic(err) // cannot happen: the values are plain
	}
	big := append([]byte{'['}, bytes.Repeat(append(doc, ','), 4)...)
	big[len(big)-1] = ']'
	keys := make([]string, 50_000)
	for i := range keys {
		keys[i] = strconv.FormatUint(rng.Uint64(), 36)
	}
	cycle := make([]uint32, 8<<20)
	for i := range cycle {
		cycle[i] = uint32(i)
	}
	for i := len(cycle) - 1; i > 0; i-- { // Sattolo's shuffle: one cycle through all
		j := rng.IntN(i)
		cycle[i], cycle[j] = cycle[j], cycle[i]
	}
	return &reference{doc: doc, big: big, keys: keys, scratch: make([]string, len(keys)), cycle: cycle, copied: make([]uint32, len(cycle))}
}

// bytes is the size of the JSON the reference reads.
func (r *reference) bytes() int64 { return int64(len(r.doc) + len(r.big)) }

// run does the reference workload once.
func (r *reference) run() error {
	var v any
	if err := json.Unmarshal(r.doc, &v); err != nil {
		return err
	}
	copy(r.scratch, r.keys)
	slices.Sort(r.scratch)
	if !json.Valid(r.big) {
		return errors.New("reference: invalid JSON")
	}
	x := r.end
	for range 1 << 16 {
		x = r.cycle[x]
	}
	r.end = x
	for range 4 {
		copy(r.copied, r.cycle)
	}
	return nil
}

// benchNodes is the size the benchmarks use: BenchNodes, or
// PROFDIFF_STAGES_NODES.
func benchNodes(b *testing.B) int {
	s := os.Getenv("PROFDIFF_STAGES_NODES")
	if s == "" {
		return BenchNodes
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 100 {
		b.Fatalf("PROFDIFF_STAGES_NODES=%q: want a number of nodes, at least 100", s)
	}
	return n
}

// cacheDir is where the benchmarks keep the generated profiles between
// runs (File writes each once).
func cacheDir() string {
	return filepath.Join(os.TempDir(), "profdiff-bench-stages")
}

// benchStages runs the stages named group, or group/sub as sub-benchmarks;
// bytes are the input files'.
func benchStages(b *testing.B, group string) {
	var list []stage
	need := levelFiles
	for _, s := range stages(b) {
		if s.name == group || strings.HasPrefix(s.name, group+"/") {
			list = append(list, s)
			need = max(need, s.needs)
		}
	}
	fx := newFixture(b, cacheDir(), benchNodes(b), need)
	for _, s := range list {
		bench := func(b *testing.B) {
			b.SetBytes(s.bytes(fx))
			b.ReportAllocs()
			for b.Loop() {
				if err := s.run(fx); err != nil {
					b.Fatal(err)
				}
			}
		}
		if s.name == group {
			bench(b)
		} else {
			b.Run(strings.TrimPrefix(s.name, group+"/"), bench)
		}
	}
}

// BenchmarkRead reads the before profile (analyze.ParseFile).
func BenchmarkRead(b *testing.B) { benchStages(b, "Read") }

// BenchmarkAggregate ranks the before profile with what each output
// needs: plain (text, markdown), json (calls), tree (calls and the call
// tree) and tui (calls, per-line times and the call tree).
func BenchmarkAggregate(b *testing.B) { benchStages(b, "Aggregate") }

// BenchmarkCompare compares the before table alone (one) and before with
// after (two), both with calls and call trees.
func BenchmarkCompare(b *testing.B) { benchStages(b, "Compare") }

// BenchmarkRender writes the comparison of before and after as text,
// markdown, JSON and the HTML flame graph.
func BenchmarkRender(b *testing.B) { benchStages(b, "Render") }

// BenchmarkReference times the reference workload the guard divides by.
func BenchmarkReference(b *testing.B) {
	r := newReference()
	b.SetBytes(r.bytes())
	b.ReportAllocs()
	for b.Loop() {
		if err := r.run(); err != nil {
			b.Fatal(err)
		}
	}
}
