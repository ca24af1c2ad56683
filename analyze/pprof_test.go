package analyze

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	pprofile "github.com/google/pprof/profile"
)

// topLine splits a row of go tool pprof -top: flat, flat%, sum%, cum, cum%,
// and the name, which may hold spaces (Go generic instantiations, V8
// regular expressions) and ends in " (inline)" for inlined functions.
var topLine = regexp.MustCompile(`^\s*(\S+)\s+\S+\s+\S+\s+(\S+)\s+\S+\s+(.*)$`)

// pprofTop runs `go tool pprof -top` on a file and returns flat and cum per
// function name, in nanoseconds.
func pprofTop(t *testing.T, path string, extra ...string) map[string][2]int64 {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to run go tool pprof")
	}
	args := append([]string{"tool", "pprof", "-top", "-nodecount=100000", "-nodefraction=0", "-edgefraction=0", "-unit=ns"}, extra...)
	out, err := exec.Command("go", append(args, path)...).Output()
	if err != nil {
		t.Skipf("go tool pprof failed: %v", err)
	}
	rows := map[string][2]int64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := topLine.FindStringSubmatch(sc.Text())
		if m == nil || !strings.HasSuffix(m[2], "ns") {
			continue
		}
		flat, err1 := strconv.ParseInt(strings.TrimSuffix(m[1], "ns"), 10, 64)
		cum, err2 := strconv.ParseInt(strings.TrimSuffix(m[2], "ns"), 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		name := strings.TrimSuffix(strings.TrimSuffix(m[3], " (inline)"), " (partial-inline)")
		r := rows[name]
		rows[name] = [2]int64{r[0] + flat, r[1] + cum}
	}
	return rows
}

// byName aggregates a parsed profile by function name alone, as go tool
// pprof -top does, walking each sample's stack (independently of Aggregate,
// whose rows TestAggregateMatchesBruteForce checks against the same walk).
func byName(p *Profile) map[string][2]int64 {
	rows := map[string][2]int64{}
	for _, s := range p.Samples {
		seen := map[string]bool{}
		for n, leaf := s.Node, true; n >= 0; n, leaf = p.Nodes[n].Parent, false {
			f := p.Frames[p.Nodes[n].Frame]
			if f.Kind == KindRoot {
				continue
			}
			r := rows[f.Name]
			if leaf {
				r[0] += s.Weight
			}
			if !seen[f.Name] {
				seen[f.Name] = true
				r[1] += s.Weight
			}
			rows[f.Name] = r
		}
	}
	return rows
}

// TestPprofMatchesGoToolPprof checks every function's self and total against
// go tool pprof's flat and cum, and every package's self against the sum of
// its functions.
func TestPprofMatchesGoToolPprof(t *testing.T) {
	cases := []struct {
		file       string
		sampleType string
		pprofArgs  []string
	}{
		{"go-router-before.pprof", "", nil},
		{"google-pprof-report-sample.cpu", "", nil},
		{"speedscope-go-simple.prof", "", nil},
		{"node-pprof-before.pb.gz", "", []string{"-sample_index=cpu"}},
		{"node-pprof-before.pb.gz", "wall", []string{"-sample_index=wall"}},
		{"node-pprof-before-lines.pb.gz", "", []string{"-sample_index=wall"}},
	}
	for _, c := range cases {
		t.Run(c.file+"/"+c.sampleType, func(t *testing.T) {
			want := pprofTop(t, fixture(c.file), c.pprofArgs...)
			p, err := ParseFile(fixture(c.file), ParseOptions{SampleType: c.sampleType})
			if err != nil {
				t.Fatal(err)
			}
			got := byName(p)
			// pprof drops parenthesised groups from names it shows
			// (MarshalJSON() ([]uint8, error) shows as MarshalJSON, and
			// the pattern ^((?:a)+) as ^+): find ours by the shown name.
			shown := map[string][]string{}
			for name := range got {
				shown[pprofShown(name)] = append(shown[pprofShown(name)], name)
			}
			var wantFlat, gotFlat int64
			for name, w := range want {
				wantFlat += w[0]
				g, ok := got[name]
				if !ok {
					if names := shown[name]; len(names) == 1 {
						g, ok = got[names[0]], true
					} else if len(names) > 1 || strings.HasPrefix(name, "RegExp: ") {
						// Several of ours show alike, or a pattern's
						// brackets defeat the shortening; the flat sum
						// below still holds.
						continue
					}
				}
				if g != w {
					t.Errorf("%s: self/total %d/%d, pprof flat/cum %d/%d", name, g[0], g[1], w[0], w[1])
				}
			}
			for _, g := range got {
				gotFlat += g[0]
			}
			if gotFlat != wantFlat {
				t.Errorf("flat sums to %d, pprof's to %d", gotFlat, wantFlat)
			}
			if len(want) < 5 {
				t.Errorf("only %d rows read from go tool pprof", len(want))
			}
			tab := Aggregate(p, AggregateOptions{})
			pkgSelf := map[string]int64{}
			for _, r := range tab.Functions {
				pkgSelf[r.Key.Package] += r.Self
			}
			for _, r := range tab.Packages {
				if r.Self != pkgSelf[r.Key.Package] {
					t.Errorf("package %s: self %d, its functions sum to %d", r.Key.Package, r.Self, pkgSelf[r.Key.Package])
				}
			}
		})
	}
}

// pprofShown removes the parenthesised groups that go tool pprof leaves out
// of the names it prints, keeping receivers such as (*T).
func pprofShown(name string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '(' && (depth > 0 || !strings.HasPrefix(name[i:], "(*")):
			depth++
		case c == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func TestPprofSampleTypeChoice(t *testing.T) {
	cases := []struct {
		file, sel, want, wantErr string
	}{
		{"go-router-before.pprof", "", "cpu/nanoseconds", ""},
		{"go-router-before.pprof", "samples", "samples/count x period", ""},
		{"node-pprof-before.pb.gz", "", "cpu/nanoseconds", ""},
		{"node-pprof-before.pb.gz", "wall/nanoseconds", "wall/nanoseconds", ""},
		{"node-pprof-before-lines.pb.gz", "", "wall/nanoseconds", ""},
		{"node-pprof-before.pb.gz", "alloc", "", `no sample type "alloc" (the profile has sample/count, wall/nanoseconds, cpu/nanoseconds)`},
	}
	for _, c := range cases {
		p, err := ParseFile(fixture(c.file), ParseOptions{SampleType: c.sel})
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s %q: err %v, want %q", c.file, c.sel, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %q: %v", c.file, c.sel, err)
			continue
		}
		if p.SampleType != c.want {
			t.Errorf("%s %q: sample type %q, want %q", c.file, c.sel, p.SampleType, c.want)
		}
	}
}

func TestNodePprofKindsAndPositions(t *testing.T) {
	p, err := ParseFile(fixture("node-pprof-before.pb.gz"), ParseOptions{SampleType: "wall"})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]FrameKind{}
	for _, f := range p.Frames {
		kinds[f.Name] = f.Kind
		if f.File == "/srv/node-workload/deploy/dist/app.min.js" && f.Name == "f3" && (f.Line != 144 || f.Column == 0) {
			t.Errorf("f3 at %d:%d, want its start in the bundle (line 144, a column)", f.Line, f.Column)
		}
	}
	// @datadog/pprof drops (program) and keeps (idle) samples at wall 0.
	for name, want := range map[string]FrameKind{"(idle)": KindIdle, "Garbage Collection": KindGC, "Node.js": KindNative} {
		if kinds[name] != want {
			t.Errorf("%s: kind %v, want %v", name, kinds[name], want)
		}
	}
	tab := Aggregate(p, AggregateOptions{})
	if tab.Summary.GCNs == 0 {
		t.Errorf("summary %+v: want GC time", tab.Summary)
	}
	if tab.Packages[0].Key.Package != "deploy" {
		t.Errorf("top package %q, want the bundle's", tab.Packages[0].Key.Package)
	}
}

func TestGoPprofGC(t *testing.T) {
	p, err := ParseFile(fixture("go-router-before.pprof"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tab := Aggregate(p, AggregateOptions{})
	var gc int64
	for _, r := range tab.Functions {
		if goGCFunctions[r.Key.Function] {
			gc += r.Total
		}
	}
	// The GC roots do not nest in one another, so their totals add up to
	// the samples under any of them.
	if tab.Summary.GCNs != gc || gc == 0 {
		t.Errorf("GC = %d, the totals of the GC roots add to %d", tab.Summary.GCNs, gc)
	}
	for _, r := range tab.Packages {
		if r.Key.Package == "(gc)" {
			t.Errorf("Go time must stay with its packages, not (gc)")
		}
	}
}

// canonicalPprof lists a pprofData's samples with their locations written
// out, so that two decodings can be compared whatever order they numbered
// locations in.
func canonicalPprof(d *pprofData) []string {
	var pt pprofValueType // absent and empty mean the same: no period
	if d.periodType != nil {
		pt = *d.periodType
	}
	out := []string{fmt.Sprintf("types %v period %v %d duration %d functions %q", d.sampleTypes, pt, d.period, d.durationNanos, d.functionNames)}
	for i := range d.samples() {
		s := fmt.Sprintf("values %v:", d.sampleValues(i))
		for _, li := range d.sampleLocs(i) {
			l := d.locs[li]
			var m pprofMapping
			if l.mapping >= 0 {
				m = d.mappings[l.mapping]
			}
			s += fmt.Sprintf(" [%#x %+v %+v]", l.address, m, d.lines[l.lineStart:l.lineEnd])
		}
		out = append(out, s)
	}
	return out
}

// TestPprofWireMatchesLibrary holds profdiff's protobuf decoder to
// github.com/google/pprof/profile on every pprof fixture: Go CPU profiles,
// @datadog/pprof time profiles (with and without line numbers) and the
// corpus's runs.
func TestPprofWireMatchesLibrary(t *testing.T) {
	files := []string{fixture("go-router-before.pprof"), fixture("node-pprof-before.pb.gz"), fixture("node-pprof-before-lines.pb.gz"), fixture("speedscope-go-simple.prof")}
	for _, dir := range []string{"go-pprof", "node-pprof"} {
		more, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", dir, "*.p[br]*"))
		files = append(files, more...)
	}
	for _, f := range files {
		data := readMaybeGzipped(t, f)
		wire, err := decodePprofWire(data)
		if err != nil {
			t.Errorf("%s: %v (the decoder's errors are final: no library reads it instead)", f, err)
			continue
		}
		pp, err := pprofile.ParseData(data)
		if err != nil {
			t.Fatalf("%s: the library refuses what the decoder took: %v", f, err)
		}
		if got, want := canonicalPprof(wire), canonicalPprof(pprofDataOf(pp)); !reflect.DeepEqual(got, want) {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("%s: line %d differs:\ndecoder: %s\nlibrary: %s", f, i, got[i], want[i])
				}
			}
			t.Fatalf("%s: %d lines, library %d", f, len(got), len(want))
		}
	}
}

// readMaybeGzipped reads a file, undoing gzip as Parse does.
func readMaybeGzipped(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return data
}

// FuzzPprofWire: the decoder never panics, and what it and the library both
// read, they read alike.
func FuzzPprofWire(f *testing.F) {
	for _, name := range []string{"go-router-before.pprof", "node-pprof-before.pb.gz"} {
		data := readMaybeGzipped(f, fixture(name))
		f.Add(data)
		f.Add(data[:len(data)/3])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		wire, err := decodePprofWire(data)
		if err != nil {
			return
		}
		pp, err := pprofile.ParseData(data)
		if err != nil {
			return // the library checks more (mappings, labels) than profdiff needs
		}
		if got, want := canonicalPprof(wire), canonicalPprof(pprofDataOf(pp)); !reflect.DeepEqual(got, want) {
			t.Fatalf("decoder and library differ:\n%v\n%v", got, want)
		}
	})
}

// gzipped compresses parts as one gzip stream.
func gzipped(t *testing.T, parts ...[]byte) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	for _, p := range parts {
		zw.Write(p)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestPprofBombs: a gzip whose protobuf is followed by 80 MiB of zeros is
// refused once it has grown past 100 times its compressed size (it was read
// whole: 4 GiB took 30 s); a valid profile followed by 8 million empty
// strings is refused from their count, before any list of them is made
// (a Go string per entry took gigabytes).
func TestPprofBombs(t *testing.T) {
	zeros := make([]byte, 80<<20)
	_, err := Parse(bytes.NewReader(gzipped(t, []byte{0x0a, 0x04, 0x08, 0x01, 0x10, 0x02}, zeros)), ParseOptions{})
	if err == nil || !strings.Contains(err.Error(), "decompresses to over 100 times") {
		t.Errorf("zeros: %v", err)
	}

	field := func(k int, payload []byte) []byte {
		return append([]byte{byte(k<<3 | 2), byte(len(payload))}, payload...)
	}
	head := field(1, []byte{1 << 3, 1, 2 << 3, 2})
	for _, s := range []string{"", "cpu", "nanoseconds"} {
		head = append(head, field(6, []byte(s))...)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Parse(bytes.NewReader(gzipped(t, head, bytes.Repeat([]byte{0x32, 0x00}, 8<<20))), ParseOptions{})
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Errorf("8M empty strings and no sample: no error")
	} else if !strings.Contains(err.Error(), "string-table entries") {
		t.Errorf("8M empty strings: %v, want the string table refused", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 200<<20 {
		t.Errorf("8M empty strings allocated %d MB", got>>20)
	}
}

// TestPprofFramesOfProfdiffsExport: a location in a mapping whose build ID
// PprofFrameBuildID wrote gives its frame that package, kind and flags; a
// location in any other mapping is read as before (a Go function).
func TestPprofFramesOfProfdiffsExport(t *testing.T) {
	gc := &Frame{Kind: KindGC}
	worker := &Frame{Kind: KindCode, Go: true, MarksGC: true}
	code := &Frame{Kind: KindCode}
	re := &Frame{Kind: KindRegExp}
	p := &pprofile.Profile{
		SampleType: []*pprofile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		Mapping: []*pprofile.Mapping{{ID: 1, File: "profdiff"},
			{ID: 2, File: "(gc)", BuildID: PprofFrameBuildID(PackageGC, gc)},
			{ID: 3, File: "runtime", BuildID: PprofFrameBuildID("runtime", worker)},
			{ID: 4, File: "path-to-regexp", BuildID: PprofFrameBuildID("path-to-regexp", code)},
			{ID: 5, File: "path-to-regexp", BuildID: PprofFrameBuildID("path-to-regexp", re)},
			{ID: 6, File: "app", BuildID: "0123abcd"}},
	}
	names := []string{"", "(garbage collector)", "runtime.gcBgMarkWorker", "match", "RegExp: ^a", "main.f"}
	files := []string{"", "", "proc.go", "/srv/node_modules/path-to-regexp/dist/index.js", "", "/src/f.go"}
	for i := 1; i < len(names); i++ {
		f := &pprofile.Function{ID: uint64(i), Name: names[i], Filename: files[i], StartLine: int64(10 * i)}
		p.Function = append(p.Function, f)
		p.Location = append(p.Location, &pprofile.Location{ID: uint64(i), Mapping: p.Mapping[i], Line: []pprofile.Line{{Function: f, Line: int64(10 * i)}}})
	}
	p.Sample = []*pprofile.Sample{{Location: []*pprofile.Location{p.Location[0]}, Value: []int64{5}},
		{Location: []*pprofile.Location{p.Location[3], p.Location[2], p.Location[4]}, Value: []int64{7}},
		{Location: []*pprofile.Location{p.Location[1]}, Value: []int64{9}}}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	got, err := Parse(&b, ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Frame{
		"(garbage collector)":    {Kind: KindGC, Package: PackageGC},
		"runtime.gcBgMarkWorker": {Kind: KindCode, Package: "runtime", Go: true, MarksGC: true},
		"match":                  {Kind: KindCode, Package: "path-to-regexp"},
		"RegExp: ^a":             {Kind: KindRegExp},
		"main.f":                 {Kind: KindCode, Go: true},
	}
	for _, f := range got.Frames {
		w, ok := want[f.Name]
		if !ok {
			continue
		}
		if f.Kind != w.Kind || f.Package != w.Package || f.Go != w.Go || f.MarksGC != w.MarksGC {
			t.Errorf("%s: kind %v package %q go %v marks GC %v, want %v %q %v %v", f.Name, f.Kind, f.Package, f.Go, f.MarksGC, w.Kind, w.Package, w.Go, w.MarksGC)
		}
		delete(want, f.Name)
	}
	for name := range want {
		t.Errorf("no frame %s", name)
	}
	tbl := Aggregate(got, AggregateOptions{})
	if tbl.Summary.GCNs != 5+9 {
		t.Errorf("GC %d ns, want the (garbage collector) sample's and the GC worker's, 14", tbl.Summary.GCNs)
	}
}
