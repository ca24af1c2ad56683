package export

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	pprofile "github.com/google/pprof/profile"

	"github.com/profdiff/profdiff/analyze"
)

// run reads and aggregates a fixture as the command does for exports.
func run(t *testing.T, name string) Run {
	t.Helper()
	p, err := analyze.ParseFile(filepath.Join("..", "testdata", name), analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return Run{Profile: p, Table: analyze.Aggregate(p, analyze.AggregateOptions{Edges: true, NodeFunctions: true})}
}

// TestPprofMatchesTheTable: the pprof written for a profile, read back by
// the pprof library, gives every function the self and total time of
// profdiff's own table (flat and cum, each sample counting a function
// once), a mapping marked symbolized, and lines where V8 recorded them.
func TestPprofMatchesTheTable(t *testing.T) {
	for _, file := range []string{"node-router-unbundled-before.cpuprofile", "go-router-before.pprof"} {
		r := run(t, file)
		var b bytes.Buffer
		if err := WritePprof(&b, []Side{{Name: "profile", Runs: []Run{r}}}); err != nil {
			t.Fatal(err)
		}
		p, err := pprofile.Parse(&b)
		if err != nil {
			t.Fatal(err)
		}
		if m := p.Mapping[0]; !m.HasFunctions || !m.HasFilenames || !m.HasLineNumbers {
			t.Errorf("%s: mapping not marked symbolized: %+v", file, m)
		}
		type fk struct {
			name, file string
			line       int64
		}
		flat, cum := map[fk]int64{}, map[fk]int64{}
		lines := map[int64]bool{}
		for _, s := range p.Sample {
			seen := map[fk]bool{}
			for i, l := range s.Location {
				f := l.Line[0].Function
				k := fk{f.Name, f.Filename, f.StartLine}
				if i == 0 {
					flat[k] += s.Value[1]
					lines[l.Line[0].Line-f.StartLine] = true
				}
				if !seen[k] {
					cum[k] += s.Value[1]
					seen[k] = true
				}
			}
		}
		// pprof knows a function by name, file and start line: functions
		// of one name on one line (columns apart) are one there.
		self, total, rows := map[fk]int64{}, map[fk]int64{}, map[fk]int{}
		for _, row := range r.Table.Functions {
			k := fk{name(row.Key), row.Key.File, int64(row.Key.Line)}
			self[k] += row.Self
			total[k] += row.Total
			rows[k]++
		}
		for k := range self {
			if d := flat[k] - self[k]; d < -100 || d > 100 { // ns of rounding where lines share a sample
				t.Errorf("%s: %v flat %d, table self %d", file, k, flat[k], self[k])
			}
			if d := cum[k] - total[k]; rows[k] == 1 && (d < -100 || d > 100) {
				t.Errorf("%s: %v cum %d, table total %d", file, k, cum[k], total[k])
			}
		}
		if strings.HasSuffix(file, ".cpuprofile") && len(lines) < 3 {
			t.Errorf("%s: every sample at its function's start line: V8's lines lost", file)
		}
	}
}

// TestPprofDiff: two sides as a pprof diff: the before side's values
// negated and labelled pprof::base, so that the sum per function is the
// change per run.
func TestPprofDiff(t *testing.T) {
	before, after := run(t, "node-router-unbundled-before.cpuprofile"), run(t, "node-router-unbundled-after.cpuprofile")
	var b bytes.Buffer
	if err := WritePprof(&b, []Side{{Name: "before", Runs: []Run{before}}, {Name: "after", Runs: []Run{after}}}); err != nil {
		t.Fatal(err)
	}
	p, err := pprofile.Parse(&b)
	if err != nil {
		t.Fatal(err)
	}
	var sum, base int64
	for _, s := range p.Sample {
		sum += s.Value[1]
		if s.Label["pprof::base"] != nil {
			if s.Value[1] > 0 {
				t.Fatalf("a base sample of %d", s.Value[1])
			}
			base += s.Value[1]
		}
	}
	if d := sum - (after.Table.Summary.OnCPUNs - before.Table.Summary.OnCPUNs); d < -100 || d > 100 {
		t.Errorf("diff sums to %d, the on-CPU change is %d", sum, after.Table.Summary.OnCPUNs-before.Table.Summary.OnCPUNs)
	}
	if base != -before.Table.Summary.OnCPUNs {
		t.Errorf("base %d, before on-CPU %d", base, before.Table.Summary.OnCPUNs)
	}
}

// TestSpeedscope: one sampled profile per run, in nanoseconds, whose
// frames' self weights are the table's function self times.
func TestSpeedscope(t *testing.T) {
	r := run(t, "node-router-unbundled-before.cpuprofile")
	var b bytes.Buffer
	if err := WriteSpeedscope(&b, []Side{{Name: "profile", Runs: []Run{r}}}, "test"); err != nil {
		t.Fatal(err)
	}
	var f speedscopeFile
	if err := json.Unmarshal(b.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	if f.Schema != speedscopeSchema || len(f.Profiles) != 1 || f.Profiles[0].Type != "sampled" || f.Profiles[0].Unit != "nanoseconds" {
		t.Fatalf("shape: %s %d profiles", f.Schema, len(f.Profiles))
	}
	self := map[speedscopeFrame]int64{}
	pr := f.Profiles[0]
	var total int64
	for i, s := range pr.Samples {
		self[f.Shared.Frames[s[len(s)-1]]] += pr.Weights[i]
		total += pr.Weights[i]
	}
	if total != pr.EndValue || total != r.Table.Summary.OnCPUNs {
		t.Errorf("weights %d, end %d, on-CPU %d", total, pr.EndValue, r.Table.Summary.OnCPUNs)
	}
	for _, row := range r.Table.Functions {
		k := speedscopeFrame{Name: name(row.Key), File: row.Key.File, Line: row.Key.Line, Col: row.Key.Column}
		if self[k] != row.Self {
			t.Errorf("%v: %d, table %d", k, self[k], row.Self)
		}
	}
}

// TestFoldedRoundTrip: folded stacks written and read back as folded
// input give the same functions with the same self and total time, within
// the microsecond rounding of each line.
func TestFoldedRoundTrip(t *testing.T) {
	r := run(t, "node-router-unbundled-before.cpuprofile")
	var b bytes.Buffer
	if err := WriteFolded(&b, []Side{{Name: "profile", Runs: []Run{r}}}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(b.String(), "\n")
	// No unit given: the file's first line says unit=us.
	p, err := analyze.Parse(bytes.NewReader(b.Bytes()), analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	back := analyze.Aggregate(p, analyze.AggregateOptions{})
	got := map[string][2]int64{}
	for _, row := range back.Functions {
		n := row.Key.Function // the reader takes "name (file:line)" apart
		if row.Key.File != "" {
			n += " (" + row.Key.File + ":" + itoa(int(row.Key.Line)) + ")"
		}
		got[n] = [2]int64{row.Self, row.Total}
	}
	want := map[string][2]int64{}
	for _, row := range r.Table.Functions {
		v := want[label(r, row.Key)]
		want[label(r, row.Key)] = [2]int64{v[0] + row.Self, max(v[1], row.Total)}
	}
	tol := float64(lines) * 500 // half a microsecond a line
	for n, w := range want {
		g := got[n]
		if math.Abs(float64(g[0]-w[0])) > tol+1e3 {
			t.Errorf("%s: self %d back, %d", n, g[0], w[0])
		}
	}
	if len(got) < len(want)/2 {
		t.Errorf("%d functions back of %d", len(got), len(want))
	}
	// Each frame carries its package: the package rows come back too.
	pk := map[string]int64{}
	for _, row := range back.Packages {
		pk[row.Key.Package] = row.Self
	}
	for _, row := range r.Table.Packages {
		if math.Abs(float64(pk[row.Key.Package]-row.Self)) > tol+1e3 {
			t.Errorf("package %s: self %d back, %d", row.Key.Package, pk[row.Key.Package], row.Self)
		}
	}
	if len(back.Packages) != len(r.Table.Packages) {
		t.Errorf("%d packages back, %d", len(back.Packages), len(r.Table.Packages))
	}
}

// label is the name a function has in the folded output of r.
func label(r Run, k analyze.Key) string {
	n, shared := name(k), 0
	for _, row := range r.Table.Functions {
		if name(row.Key) == n {
			shared++
		}
	}
	if shared > 1 && k.File != "" {
		n = n + " (" + k.File + ":" + itoa(int(k.Line)) + ")"
	}
	return cleanName(n, ";")
}

func itoa(i int) string {
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			return string(b[n:])
		}
	}
}

// TestHostileNames: names with ';', newlines, NUL and escapes keep folded
// output one stack a line and speedscope JSON valid.
func TestHostileNames(t *testing.T) {
	r := run(t, "node-router-unbundled-before.cpuprofile")
	for i := range r.Table.Functions {
		r.Table.Functions[i].Key.Function += "a;b\nc\x00\x1b[2J"
	}
	var b bytes.Buffer
	if err := WriteFolded(&b, []Side{{Name: "profile", Runs: []Run{r}}}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	out = out[strings.IndexByte(out, '\n')+1:] // the unit comment
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if strings.ContainsAny(l, "\x00\x1b\n") || !strings.Contains(l, "a_b") {
			t.Fatalf("line %q", l)
		}
		if i := strings.LastIndexByte(l, ' '); i < 0 || strings.Count(l[:i], ";")+1 != strings.Count(l[:i], "a_b") {
			t.Fatalf("stack split wrong: %q", l)
		}
	}
	b.Reset()
	if err := WriteSpeedscope(&b, []Side{{Name: "profile", Runs: []Run{r}}}, "test"); err != nil || !json.Valid(b.Bytes()) {
		t.Fatalf("speedscope: %v", err)
	}
}
