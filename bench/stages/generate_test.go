package stages

import (
	"bytes"
	"os"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// TestGenerate checks that a generated profile is deterministic, reads
// without error and has the shape it promises: V8's special frames, deep
// stacks, about one sample per 6-7 nodes, dozens of scripts and packages,
// thousands of functions, position ticks and a few negative time deltas;
// and that After differs from Before in time only, with real changes.
func TestGenerate(t *testing.T) {
	const nodes = 20_000
	var a, b bytes.Buffer
	if err := Generate(&a, nodes, Before); err != nil {
		t.Fatal(err)
	}
	if err := Generate(&b, nodes, Before); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two profiles generated alike differ")
	}
	dir := t.TempDir()
	path, err := File(dir, nodes, Before)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := File(dir, nodes, Before); err != nil || again != path {
		t.Fatalf("File again: %q, %v; want %q", again, err, path)
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, a.Bytes()) {
		t.Fatalf("File wrote other bytes than Generate (%v)", err)
	}
	before := read(t, path)
	afterPath, err := File(dir, nodes, After)
	if err != nil {
		t.Fatal(err)
	}
	after := read(t, afterPath)

	if n := len(before.Nodes); n < nodes || n > nodes+400 {
		t.Errorf("%d nodes, want %d to %d", n, nodes, nodes+400)
	}
	if s, n := len(before.Samples), len(before.Nodes); s < n/9 || s > n/4 {
		t.Errorf("%d samples for %d nodes, want one per 4 to 9 nodes", s, n)
	}
	names := map[string]bool{}
	files := map[string]bool{}
	for _, f := range before.Frames {
		names[f.Name+" "+f.File] = true
		files[f.File] = true
	}
	for _, special := range []string{"(root)", "(program)", "(idle)", "(garbage collector)"} {
		if !names[special+" "] {
			t.Errorf("no %s frame", special)
		}
	}
	if len(names) < 1000 || len(files) < 40 {
		t.Errorf("%d functions in %d files, want at least 1000 in 40", len(names), len(files))
	}
	depth := 0
	for i := range before.Nodes {
		d := 0
		for p := int32(i); p >= 0; p = before.Nodes[p].Parent {
			d++
		}
		depth = max(depth, d)
	}
	if depth < 120 || depth > 310 {
		t.Errorf("deepest stack %d frames, want 120 to 310", depth)
	}
	if len(before.LineTicks) == 0 {
		t.Error("no position ticks")
	}
	// A few negative time deltas, as V8 writes them (too few to warn of).
	if td := a.Bytes()[bytes.Index(a.Bytes(), []byte(`"timeDeltas"`)):]; !bytes.Contains(td[:bytes.IndexByte(td, ']')], []byte(",-")) {
		t.Error("no negative time delta")
	}

	if len(after.Nodes) != len(before.Nodes) || len(after.Samples) != len(before.Samples) {
		t.Errorf("after has %d nodes and %d samples, before %d and %d: want the same tree",
			len(after.Nodes), len(after.Samples), len(before.Nodes), len(before.Samples))
	}
	tb, ta := aggregate(before), aggregate(after)
	if ta.Summary.GCNs >= tb.Summary.GCNs || ta.Summary.OnCPUNs >= tb.Summary.OnCPUNs {
		t.Errorf("after: GC %d ns, on-CPU %d ns; before %d and %d: want less of both",
			ta.Summary.GCNs, ta.Summary.OnCPUNs, tb.Summary.GCNs, tb.Summary.OnCPUNs)
	}
	if b, a := packageSelf(tb, "semver"), packageSelf(ta, "semver"); b == 0 || float64(a) > 0.5*float64(b) {
		t.Errorf("semver's self time %d ns before, %d after: want it more than halved", b, a)
	}
}

func read(t *testing.T, path string) *analyze.Profile {
	t.Helper()
	p, err := analyze.ParseFile(path, analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func aggregate(p *analyze.Profile) *analyze.Table {
	analyze.AttributePackages(p, nil)
	return analyze.Aggregate(p, analyze.AggregateOptions{})
}

func packageSelf(t *analyze.Table, name string) int64 {
	for _, r := range t.Packages {
		if r.Key.Package == name {
			return r.Self
		}
	}
	return 0
}
