package analyze

import (
	"bytes"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/profdiff/profdiff/internal/jsonscan"
)

// fixtures are the real profiles in testdata/.
var fixtures = []string{
	"node-router-unbundled-before.cpuprofile",
	"node-router-unbundled-after.cpuprofile",
	"chrome-cdp-page.cpuprofile",
	"cpupro-demo.cpuprofile",
	"speedscope-chrome65-simple.cpuprofile",
	"speedscope-chrome69-simple-trace.json.gz",
	"chrome156-multi-process.trace.json.gz",
	"chrome156-multi-thread.trace.json.gz",
	"go-router-before.pprof",
	"node-pprof-before.pb.gz",
	"node-pprof-before-lines.pb.gz",
	"speedscope-go-simple.prof",
	"google-pprof-report-sample.cpu",
}

func fixture(name string) string { return filepath.Join("..", "testdata", name) }

// bruteForce aggregates the obvious way, independently of Aggregate's tree
// walk: expand every sample's stack, and add its weight to the leaf's keys
// (self) and once to each distinct key on the stack (total).
func bruteForce(p *Profile, pkgOf func(nodeIdx int32) (string, string)) (self, total map[Key]int64) {
	self, total = map[Key]int64{}, map[Key]int64{}
	for _, s := range p.Samples {
		leaf := p.Frames[p.Nodes[s.Node].Frame]
		if !leaf.Kind.OnCPU() {
			continue
		}
		seen := map[Key]bool{}
		first := true
		for n := s.Node; n >= 0; n = p.Nodes[n].Parent {
			f := p.Frames[p.Nodes[n].Frame]
			if f.Kind == KindRoot {
				continue
			}
			pkg, _ := pkgOf(n)
			k := Key{Package: pkg, Function: f.Name, File: f.File, Line: f.Line, Column: f.Column}
			if first {
				self[k] += s.Weight
				first = false
			}
			if !seen[k] {
				seen[k] = true
				total[k] += s.Weight
			}
		}
	}
	return self, total
}

func TestAggregateMatchesBruteForce(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			p, err := ParseFile(fixture(name), ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			tab := Aggregate(p, AggregateOptions{})
			AttributePackages(p, nil) // the packages Aggregate used
			// The package of a node, found by walking up, for frames that
			// inherit it; independent of the keyer's cache.
			pkgOf := func(n int32) (string, string) {
				f := p.Frames[p.Nodes[n].Frame]
				if !f.Kind.InheritsPackage() {
					return f.Package, f.File
				}
				for a := p.Nodes[n].Parent; a >= 0; a = p.Nodes[a].Parent {
					if c := p.Frames[p.Nodes[a].Frame]; c.Kind == KindCode {
						return c.Package, c.File
					}
				}
				return PackageNative, ""
			}
			self, total := bruteForce(p, pkgOf)
			if len(tab.Functions) != len(total) {
				t.Errorf("%d function rows, brute force has %d keys", len(tab.Functions), len(total))
			}
			var sumSelf int64
			for _, r := range tab.Functions {
				if r.Self != self[r.Key] || r.Total != total[r.Key] {
					t.Errorf("%+v: self/total %d/%d, brute force %d/%d", r.Key, r.Self, r.Total, self[r.Key], total[r.Key])
				}
				if r.Self > r.Total {
					t.Errorf("%+v: self %d > total %d", r.Key, r.Self, r.Total)
				}
				sumSelf += r.Self
			}
			var sumPkg int64
			for _, r := range tab.Packages {
				sumPkg += r.Self
			}
			var sumFile int64
			for _, r := range tab.Files {
				sumFile += r.Self
			}
			s := tab.Summary
			if sumSelf != s.OnCPUNs || sumPkg != s.OnCPUNs || sumFile != s.OnCPUNs {
				t.Errorf("self sums: functions %d, packages %d, files %d; on-CPU %d", sumSelf, sumPkg, sumFile, s.OnCPUNs)
			}
			if s.OnCPUNs+s.IdleNs+s.ProgramNs != s.SampledNs {
				t.Errorf("on-CPU %d + idle %d + program %d != sampled %d", s.OnCPUNs, s.IdleNs, s.ProgramNs, s.SampledNs)
			}
			if s.GCNs > s.OnCPUNs {
				t.Errorf("GC %d > on-CPU %d", s.GCNs, s.OnCPUNs)
			}
		})
	}
}

// TestScannerBufferBoundaries reads every JSON fixture one byte per Read and
// with a 16-byte starting buffer, and expects what a normal read gives.
func TestScannerBufferBoundaries(t *testing.T) {
	for _, name := range fixtures {
		data := readMaybeGzipped(t, fixture(name))
		if data[0] != '{' && data[0] != '[' {
			continue
		}
		t.Run(name, func(t *testing.T) {
			want, err := decodeJSON(bytes.NewReader(data), jsonscan.BufSize)
			if err != nil {
				t.Fatal(err)
			}
			for _, size := range []int{16, 1000} {
				got, err := decodeJSON(iotest.OneByteReader(bytes.NewReader(data)), size)
				if err != nil {
					t.Fatalf("buffer %d: %v", size, err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("buffer %d, one byte per read: the profiles differ", size)
				}
			}
		})
	}
}

// TestEdgesMatchBruteForce checks the caller -> callee table against an
// expansion of every sample's stack.
func TestEdgesMatchBruteForce(t *testing.T) {
	for _, name := range []string{"node-router-unbundled-before.cpuprofile", "go-router-before.pprof", "chrome156-multi-thread.trace.json.gz"} {
		p, err := ParseFile(fixture(name), ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tab := Aggregate(p, AggregateOptions{Edges: true, Lines: true})
		AttributePackages(p, nil) // the packages Aggregate used
		keyOf := func(n int32) (Key, bool) {
			f := p.Frames[p.Nodes[n].Frame]
			if f.Kind == KindRoot {
				return Key{}, false
			}
			pkg := f.Package
			if f.Kind.InheritsPackage() {
				pkg = PackageNative
				for a := p.Nodes[n].Parent; a >= 0; a = p.Nodes[a].Parent {
					if c := p.Frames[p.Nodes[a].Frame]; c.Kind == KindCode {
						pkg = c.Package
						break
					}
				}
			}
			return Key{Package: pkg, Function: f.Name, File: f.File, Line: f.Line, Column: f.Column}, true
		}
		want := map[[2]Key]int64{}
		for _, s := range p.Samples {
			if !p.Frames[p.Nodes[s.Node].Frame].Kind.OnCPU() {
				continue
			}
			seen := map[[2]Key]bool{}
			for n := s.Node; p.Nodes[n].Parent >= 0; n = p.Nodes[n].Parent {
				callee, ok1 := keyOf(n)
				caller, ok2 := keyOf(p.Nodes[n].Parent)
				if !ok1 || !ok2 {
					continue
				}
				e := [2]Key{caller, callee}
				if !seen[e] {
					seen[e] = true
					want[e] += s.Weight
				}
			}
		}
		if len(tab.Edges) != len(want) {
			t.Errorf("%s: %d edges, brute force %d", name, len(tab.Edges), len(want))
		}
		for _, e := range tab.Edges {
			caller, callee := tab.Functions[e.Caller].Key, tab.Functions[e.Callee].Key
			if w := want[[2]Key{caller, callee}]; w != e.Total {
				t.Errorf("%s: %v -> %v: %d, brute force %d", name, caller.Function, callee.Function, e.Total, w)
			}
		}
	}
}

// TestLineTimesFromTracesAndPprof: per-line times come from a trace's
// per-sample lines and from Go's per-location lines, and a function's lines
// add up to its self time.
func TestLineTimesFromTracesAndPprof(t *testing.T) {
	for _, name := range []string{"chrome156-multi-thread.trace.json.gz", "go-router-before.pprof", "node-router-unbundled-before.cpuprofile"} {
		p, err := ParseFile(fixture(name), ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tab := Aggregate(p, AggregateOptions{Edges: true, Lines: true})
		if len(tab.Lines) == 0 {
			t.Errorf("%s: no line times", name)
			continue
		}
		sums := map[Key]int64{}
		for _, l := range tab.Lines {
			sums[l.Function] += l.Self
		}
		for _, r := range tab.Functions {
			got, ok := sums[r.Key]
			if !ok {
				continue
			}
			// positionTicks count hits, which need not cover every sample
			// of a node: there lines may add to less than self.
			exact := p.Format != FormatCPUProfile
			if got > r.Self || (exact && r.Self-got > int64(len(tab.Lines))) {
				t.Errorf("%s: %s lines add to %d, self %d", name, r.Key.Function, got, r.Self)
			}
		}
	}
}

func TestInPreorder(t *testing.T) {
	tree := func(parents ...int32) []Node {
		ns := make([]Node, len(parents))
		for i, p := range parents {
			ns[i] = Node{Parent: p}
		}
		return ns
	}
	for _, c := range []struct {
		nodes []Node
		want  bool
	}{
		{tree(-1, 0, 1, 1, 0, 4), true},       // root, a, a.b, a.c, d, d.e
		{tree(-1, 0, 0, 1), false},            // a.b listed after d: parents first, but not depth-first
		{tree(-1, 0, -1, 2), true},            // two roots
		{tree(1, 0), false},                   // a cycle
		{tree(-1, 2, 0), false},               // a child before its parent
		{tree(-1, 0, 1, 2, 3, 4, 5, 6), true}, // a chain
	} {
		p := &Profile{Nodes: c.nodes}
		if got := p.inPreorder(); got != c.want {
			t.Errorf("inPreorder(%v) = %v, want %v", c.nodes, got, c.want)
		}
		if c.want {
			// preorder must agree that the listing is already its order.
			for i, n := range p.preorder() {
				if int(n) != i {
					t.Errorf("preorder(%v) = %v, not the listing", c.nodes, p.preorder())
					break
				}
			}
		}
	}
}

// TestTreeMatchesBruteForce checks the merged call tree against an
// expansion of every sample's stack into a path of function keys.
func TestTreeMatchesBruteForce(t *testing.T) {
	for _, name := range []string{"node-router-unbundled-before.cpuprofile", "go-router-before.pprof", "chrome156-multi-thread.trace.json.gz"} {
		p, err := ParseFile(fixture(name), ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		before := slices.Clone(p.Frames)
		tab := Aggregate(p, AggregateOptions{Tree: true, Edges: true, Lines: true})
		if !slices.Equal(before, p.Frames) {
			t.Fatalf("%s: Aggregate changed the frames", name)
		}
		AttributePackages(p, nil) // the packages Aggregate used
		// The expected self and total of every path of function keys.
		fnOf := map[int32]Key{}
		keyOf := func(n int32) (Key, bool) {
			if k, ok := fnOf[n]; ok {
				return k, true
			}
			f := p.Frames[p.Nodes[n].Frame]
			if f.Kind == KindRoot {
				return Key{}, false
			}
			pkg := f.Package
			if f.Kind.InheritsPackage() {
				pkg = PackageNative
				for a := p.Nodes[n].Parent; a >= 0; a = p.Nodes[a].Parent {
					if c := p.Frames[p.Nodes[a].Frame]; c.Kind == KindCode {
						pkg = c.Package
						break
					}
				}
			}
			k := Key{Package: pkg, Function: f.Name, File: f.File, Line: f.Line, Column: f.Column}
			fnOf[n] = k
			return k, true
		}
		type sums struct{ self, total int64 }
		want := map[string]*sums{}
		var onCPU int64
		for _, s := range p.Samples {
			if !p.Frames[p.Nodes[s.Node].Frame].Kind.OnCPU() {
				continue
			}
			onCPU += s.Weight
			var path []string
			for n := s.Node; n >= 0; n = p.Nodes[n].Parent {
				if k, ok := keyOf(n); ok {
					path = append(path, fmt.Sprintf("%q", k))
				}
			}
			slices.Reverse(path)
			for i := range path {
				id := strings.Join(path[:i+1], ";")
				if want[id] == nil {
					want[id] = &sums{}
				}
				want[id].total += s.Weight
				if i == len(path)-1 {
					want[id].self += s.Weight
				}
			}
		}
		totals, selfs := tab.Tree.Totals(nil), tab.Tree.Selfs(nil)
		if totals[0] != onCPU || tab.Tree.Parent[0] != -1 {
			t.Errorf("%s: root total %d, on-CPU %d", name, totals[0], onCPU)
		}
		ids := make([]string, tab.Tree.Len())
		for i := range tab.Tree.Len() - 1 {
			n := CallNode{Parent: tab.Tree.Parent[i+1], Function: tab.Tree.Function[i+1], Self: selfs[i+1]}
			nTotal := totals[i+1]
			if n.Parent >= int32(i+1) {
				t.Fatalf("%s: node %d has parent %d after it", name, i+1, n.Parent)
			}
			id := fmt.Sprintf("%q", tab.Functions[n.Function].Key)
			if n.Parent > 0 {
				id = ids[n.Parent] + ";" + id
			}
			ids[i+1] = id
			w := want[id]
			if w == nil || w.self != n.Self || w.total != nTotal {
				t.Errorf("%s: %s: self %d total %d, brute force %+v", name, id, n.Self, nTotal, w)
			}
		}
		if got := tab.Tree.Len() - 1; got != len(want) {
			t.Errorf("%s: %d tree nodes, brute force %d paths", name, got, len(want))
		}
	}
}

// TestGoAssemblyPackages: Go assembly functions have no package in their
// name; their file says it.
func TestGoAssemblyPackages(t *testing.T) {
	for file, want := range map[string]string{
		"/usr/local/go/src/internal/bytealg/equal_amd64.s":              "internal/bytealg",
		"/usr/local/go/src/runtime/asm_amd64.s":                         "runtime",
		"/root/go/pkg/mod/golang.org/x/sys@v0.47.0/cpu/cpu_x86.s":       "golang.org/x/sys/cpu",
		"/home/me/go/pkg/mod/github.com/klauspost/compress@v1.17.0/x.s": "github.com/klauspost/compress",
		"/work/app/internal/fast/sum_amd64.s":                           "fast",
	} {
		f := Frame{Kind: KindCode, Go: true, Name: "memeqbody", File: file}
		if got := newPackageNamer(nil).frame(&f); got != want {
			t.Errorf("%s: %q, want %q", file, got, want)
		}
	}
}

// TestDevServerPackages: scripts a development server on this machine
// serves are named from their path, not "127.0.0.1:46355".
func TestDevServerPackages(t *testing.T) {
	for url, want := range map[string]string{
		"http://127.0.0.1:46355/src/x.js":                 PackageApp,
		"http://localhost:5173/dist/app.min.js":           PackageApp,
		"http://localhost:5173/widgets/src/a.js":          "widgets",
		"http://[::1]:3000/static/js/main.js":             PackageApp,
		"http://localhost:5173/node_modules/lit/index.js": "lit",
		"https://cdn.example.com/dist/app.js":             "cdn.example.com",
	} {
		if got := newPackageNamer(nil).script(url); got != want {
			t.Errorf("%s: %q, want %q", url, got, want)
		}
	}
}

// TestSampleCountsMatchBruteForce: a profile of one sample per tick has
// each row's count of samples as brute force counts them (its samples
// weighing one each), with its samples in time order (the walk reads the
// per-node array) and sorted by node (the walk reads the samples); other
// profiles have none.
func TestSampleCountsMatchBruteForce(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			p, err := ParseFile(fixture(name), ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			AttributePackages(p, nil)
			ones := *p
			ones.Samples = slices.Clone(p.Samples)
			for i := range ones.Samples {
				ones.Samples[i].Weight = 1
			}
			_, want := bruteForce(&ones, func(n int32) (string, string) { return "", "" })
			self, _ := bruteForce(&ones, func(n int32) (string, string) { return "", "" })
			byNode := *p
			byNode.Samples = slices.Clone(p.Samples)
			slices.SortStableFunc(byNode.Samples, func(a, b Sample) int { return int(a.Node - b.Node) })
			for _, q := range []*Profile{p, &byNode} {
				tab := Aggregate(q, AggregateOptions{})
				var on int64
				for _, s := range q.Samples {
					if q.OnCPU(s) {
						on++
					}
				}
				if !p.OneSamplePerTick() {
					on, want, self = 0, nil, nil
				}
				if tab.Summary.OnCPUSamples != on {
					t.Errorf("on-CPU samples %d, want %d", tab.Summary.OnCPUSamples, on)
				}
				// Counted by function name, file and position: brute
				// force's package is left empty.
				got, gotSelf := map[Key]int64{}, map[Key]int64{}
				var sum int64
				for _, r := range tab.Functions {
					k := r.Key
					k.Package = ""
					got[k] += int64(r.TotalSamples)
					gotSelf[k] += int64(r.SelfSamples)
					sum += int64(r.SelfSamples)
				}
				for k, v := range got {
					if v != want[k] || gotSelf[k] != self[k] {
						t.Errorf("%+v: self/total samples %d/%d, brute force %d/%d", k, gotSelf[k], v, self[k], want[k])
					}
				}
				if sum != on {
					t.Errorf("self samples add up to %d, on-CPU samples %d", sum, on)
				}
				var pkgSum int64
				for _, r := range tab.Packages {
					pkgSum += int64(r.SelfSamples)
				}
				if pkgSum != on {
					t.Errorf("packages' self samples add up to %d, on-CPU samples %d", pkgSum, on)
				}
			}
		})
	}
}
