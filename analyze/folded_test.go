package analyze

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestFoldedFromPerf reads folded stacks that Linux perf recorded
// (testdata/folded: perf record -g of a small C program, collapsed by
// collapse.py), in both forms: counts of samples and summed periods in ns.
// The two give the same functions with times within a sample.
func TestFoldedFromPerf(t *testing.T) {
	dir := filepath.Join("..", "testdata", "folded")
	counts, err := ParseFile(filepath.Join(dir, "perf-before-r1.folded"), ParseOptions{FoldedIntervalNs: 1_001_001})
	if err != nil {
		t.Fatal(err)
	}
	times, err := ParseFile(filepath.Join(dir, "perf-before-r1.ns.folded"), ParseOptions{FoldedUnit: FoldedNs})
	if err != nil {
		t.Fatal(err)
	}
	a, b := Aggregate(counts, AggregateOptions{}), Aggregate(times, AggregateOptions{})
	self := map[string]int64{}
	for _, r := range b.Functions {
		self[r.Key.Function] = r.Self
	}
	for _, r := range a.Functions {
		if d := r.Self - self[r.Key.Function]; d < -1_001_001 || d > 1_001_001 {
			t.Errorf("%s: %d from counts, %d from times", r.Key.Function, r.Self, self[r.Key.Function])
		}
	}
	if a.Format != FormatFolded || self["slow_hash"] < self["render"] {
		t.Errorf("format %v, slow_hash %d, render %d", a.Format, self["slow_hash"], self["render"])
	}
	var kernel bool
	for _, r := range a.Packages {
		kernel = kernel || r.Key.Package == "(kernel)"
	}
	if !kernel {
		t.Errorf("perf's _[k] frames not in (kernel): %v", a.Packages)
	}
}

// TestFoldedErrorsNameTheLine: malformed folded input is an error that
// names the line, and the differential form is refused with a reason.
func TestFoldedErrorsNameTheLine(t *testing.T) {
	for in, want := range map[string]string{
		"main;a 10\nmain;b ten\n":   "line 2: the count",
		"main;a 10 3\nmain;b 1 2\n": "line 1: two counts on every line",
		"main;a 10\n\nnothing\n":    "line 3: expected",
		"main;a 0\n":                "no sample",
		"main;a 10\nmain;b -4\n":    "line 2: the count",
		"main;a 5\nmain;b 1e999\n":  "line 2: the count",
	} {
		_, err := Parse(strings.NewReader(in), ParseOptions{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

// TestFoldedPackages: packages from what the frame names say.
func TestFoldedPackages(t *testing.T) {
	for name, want := range map[string]string{
		"github.com/a/b.(*T).M":                 "github.com/a/b",
		"runtime.mallocgc":                      "runtime",
		"std::vector<int>::push_back":           "std::vector<int>",
		"tokio::runtime::park":                  "tokio::runtime",
		"com.example.app.Server.handle":         "com.example.app",
		"handle_request (app/server.py:42)":     "app",
		"main":                                  PackageUnknown,
		"do_syscall_64_[k]":                     "(kernel)",
		"<module> (/usr/lib/python3/json.py:3)": "python3",
	} {
		if got := foldedFrame(name).Package; got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// TestFoldedUnitComment: "# ... unit=us" before the stacks sets the unit,
// unless the user chose one.
func TestFoldedUnitComment(t *testing.T) {
	in := "# profdiff folded stacks: profile, unit=us per_run 0\na;b 1500\n"
	for _, c := range []struct {
		opts ParseOptions
		want int64
	}{{ParseOptions{}, 1.5e6}, {ParseOptions{FoldedUnit: FoldedNs, FoldedUnitSet: true}, 1500}, {ParseOptions{FoldedUnit: FoldedMs}, 1.5e6}} {
		p, err := Parse(strings.NewReader(in), c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := Aggregate(p, AggregateOptions{}).Summary.OnCPUNs; got != c.want {
			t.Errorf("%+v: on-CPU %d, want %d", c.opts, got, c.want)
		}
	}
}

// TestPerfReportFolded reads perf report --stdio --no-children -g
// folded,0,caller,count as perf wrote it (header, entry lines, then
// "count stack" lines; recorded here from a C program).
func TestPerfReportFolded(t *testing.T) {
	in := `# To display the perf.data header info, please use --header/--header-only options.
#
#
# Total Lost Samples: 0
#
# Samples: 949  of event 'cpu-clock'
# Event count (approx.): 949949949
#
# Overhead  Command  Shared Object      Symbol                         
# ........  .......  .................  ...............................
#
    79.66%  w        w                  [.] slow
756 __libc_start_call_main;slow
    19.49%  w        w                  [.] fast
185 __libc_start_call_main;fast
`
	p, err := Parse(strings.NewReader(in), ParseOptions{FoldedIntervalNs: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	tab := Aggregate(p, AggregateOptions{})
	if tab.Summary.OnCPUNs != 941e6 || tab.Functions[0].Key.Function != "slow" || tab.Functions[0].Self != 756e6 {
		t.Fatalf("summary %+v, top %+v", tab.Summary, tab.Functions[0])
	}
}
