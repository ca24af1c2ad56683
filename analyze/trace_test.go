package analyze

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// traceWant are a trace profile's numbers as computed independently by
// testdata/gen-chrome-traces/expected.py (chunks concatenated per process
// and profile id; samples in the order of their timestamps, each weighing
// the time to the next, the last the median step), in nanoseconds.
type traceWant struct {
	pid, tid                              int64
	samples                               int64
	sampled, onCPU, idle, program, gcTime int64
}

var chromeTraces = map[string][]traceWant{
	"chrome156-multi-process.trace.json.gz": {
		{pid: 5546, tid: 5546, samples: 5369, sampled: 1947019000, onCPU: 936930000, idle: 730065000, program: 280024000, gcTime: 132839000},
		{pid: 5541, tid: 5541, samples: 4692, sampled: 1673880000, onCPU: 1228411000, idle: 307486000, program: 137983000, gcTime: 2629000},
	},
	"chrome156-multi-thread.trace.json.gz": {
		{pid: 5380, tid: 5380, samples: 9624, sampled: 2589390000, onCPU: 1231061000, idle: 1236053000, program: 122276000, gcTime: 63551000},
		{pid: 5380, tid: 5431, samples: 9752, sampled: 2425309000, onCPU: 821662000, idle: 1601114000, program: 2533000, gcTime: 2159000},
	},
	"speedscope-chrome69-simple-trace.json.gz": {
		// The chunks come from tid 3115 (the sampler); the profile is of 775.
		{pid: 85129, tid: 775, samples: 2051, sampled: 276580000, onCPU: 36884000, idle: 232834000, program: 6862000, gcTime: 646000},
	},
}

func TestTraceProfilesMatchIndependentComputation(t *testing.T) {
	for name, wants := range chromeTraces {
		for _, w := range wants {
			sel := strconv.FormatInt(w.pid, 10) + ":" + strconv.FormatInt(w.tid, 10)
			p, err := ParseFile(fixture(name), ParseOptions{Thread: sel})
			if err != nil {
				t.Fatalf("%s --thread %s: %v", name, sel, err)
			}
			s := Aggregate(p, AggregateOptions{}).Summary
			got := traceWant{p.Thread.ProcessID, p.Thread.ThreadID, s.Samples, s.SampledNs, s.OnCPUNs, s.IdleNs, s.ProgramNs, s.GCNs}
			if got != w {
				t.Errorf("%s %s:\n got %+v\nwant %+v", name, sel, got, w)
			}
			if p.Format != FormatTrace || !p.HasTimestamps {
				t.Errorf("%s: format %v, timestamps %v", name, p.Format, p.HasTimestamps)
			}
		}
	}
}

func TestTraceChoosesBusiestAndSaysSo(t *testing.T) {
	p, err := ParseFile(fixture("chrome156-multi-process.trace.json.gz"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Both renderers use profile id 0x1; the iframe's (pid 5541) is busier.
	if p.Thread.ProcessID != 5541 || p.Thread.Name != "CrRendererMain" {
		t.Errorf("chose pid %d %q, want the busier renderer, pid 5541", p.Thread.ProcessID, p.Thread.Name)
	}
	if len(p.Warnings) == 0 || !strings.Contains(p.Warnings[len(p.Warnings)-1].Message, "holds 2 CPU profiles; chose CrRendererMain (pid 5541") {
		t.Errorf("warnings = %q, want the choice explained", p.Warnings)
	}
}

func TestTraceThreadSelection(t *testing.T) {
	path := fixture("chrome156-multi-thread.trace.json.gz")
	cases := []struct {
		sel     string
		wantTID int64
		wantErr string
	}{
		{"", 5380, ""},
		{"5431", 5431, ""},
		{"5380:5431", 5431, ""},
		{"DedicatedWorker thread", 5431, ""},
		{"CrRendererMain", 5380, ""},
		{"nope", 0, `no profile matches thread "nope"; the trace holds: CrRendererMain (pid 5380`},
		{"1:5431", 0, "no profile matches"},
	}
	for _, c := range cases {
		p, err := ParseFile(path, ParseOptions{Thread: c.sel})
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("--thread %q: err %v, want %q", c.sel, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("--thread %q: %v", c.sel, err)
			continue
		}
		if p.Thread.ThreadID != c.wantTID {
			t.Errorf("--thread %q chose tid %d, want %d", c.sel, p.Thread.ThreadID, c.wantTID)
		}
	}
}

func TestListTraceProfiles(t *testing.T) {
	infos, err := ListFile(fixture("chrome156-multi-process.trace.json.gz"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 2 {
		t.Fatalf("%d profiles, want 2", len(infos))
	}
	if infos[0].Default || !infos[1].Default || infos[1].OnCPUNs != 1228411000 {
		t.Errorf("infos = %+v", infos)
	}
}

// TestCpuProfileEventForm wraps a real .cpuprofile in DevTools' CpuProfile
// trace event and expects the same table as reading the file itself.
func TestCpuProfileEventForm(t *testing.T) {
	raw, err := os.ReadFile(fixture("chrome-cdp-page.cpuprofile"))
	if err != nil {
		t.Fatal(err)
	}
	trace := `{"traceEvents":[{"name":"thread_name","ph":"M","pid":7,"tid":9,"args":{"name":"CrRendererMain"}},` +
		`{"args":{"data":{"cpuProfile":` + string(raw) + `}},"name":"CpuProfile","ph":"I","pid":7,"tid":9,"ts":100}]}`
	direct := Aggregate(mustParse(t, raw), AggregateOptions{})
	viaTrace := Aggregate(mustParse(t, []byte(trace)), AggregateOptions{})
	if viaTrace.Summary != direct.Summary {
		t.Errorf("summary via CpuProfile event %+v, direct %+v", viaTrace.Summary, direct.Summary)
	}
	if len(viaTrace.Functions) != len(direct.Functions) || viaTrace.Functions[0] != direct.Functions[0] {
		t.Errorf("function rows differ")
	}
	if viaTrace.Thread.String() != "CrRendererMain (pid 7, tid 9)" {
		t.Errorf("thread = %q", viaTrace.Thread)
	}
}

func mustParse(t *testing.T, data []byte) *Profile {
	t.Helper()
	p, err := Parse(bytes.NewReader(data), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTraceArrayAndObjectForms reads the same events as a bare array and
// wrapped in {"traceEvents": ...}.
func TestTraceArrayAndObjectForms(t *testing.T) {
	arr := readMaybeGzipped(t, fixture("chrome156-multi-thread.trace.json.gz"))
	obj := append(append([]byte(`{"metadata":{"x":[1,{"y":"}"}]},"traceEvents":`), arr...), '}')
	a := Aggregate(mustParse(t, arr), AggregateOptions{})
	b := Aggregate(mustParse(t, obj), AggregateOptions{})
	if a.Summary != b.Summary || len(a.Functions) != len(b.Functions) {
		t.Errorf("array form %+v, object form %+v", a.Summary, b.Summary)
	}
}

// TestManyTinyProfilesInATrace: a trace of 8,000 one-sample profiles whose
// chunks came without Profile events. Each profile carried every
// profile's warning (64 million lines: 3 s and 1 GB); now its own.
func TestManyTinyProfilesInATrace(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 8000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name":"ProfileChunk","ph":"P","pid":1,"tid":%d,"ts":1,"id":"0x%x","args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":"","scriptId":"0"}},{"id":2,"parent":1,"callFrame":{"functionName":"f","url":"file:///a.js","scriptId":"1"}}],"samples":[2]},"timeDeltas":[1]}}}`, i, i)
	}
	b.WriteString("]")
	p, err := Parse(strings.NewReader(b.String()), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) > 3 {
		t.Errorf("%d warnings on the chosen profile, e.g. %q", len(p.Warnings), p.Warnings[:3])
	}
}

// A trace keeps its User Timing marks and measures, timed from the
// profile's start: the page marked A, worked 600 ms, marked B and measured
// M from A to B (timestamps read off the trace's events).
func TestTraceKeepsUserTimingMarks(t *testing.T) {
	p, err := ParseFile(fixture("chromium-user-timing.trace.json.gz"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const start = 30299267971 // the Profile event's startTime, µs
	want := map[string]Mark{
		"A": {Name: "A", Start: (30299772812 - start) * 1000, End: (30299772812 - start) * 1000},
		"B": {Name: "B", Start: (30300373217 - start) * 1000, End: (30300373217 - start) * 1000},
		"M": {Name: "M", Start: (30299772812 - start) * 1000, End: (30300373217 - start) * 1000},
	}
	got := map[string]Mark{}
	for _, m := range p.Marks {
		if _, ok := want[m.Name]; ok {
			got[m.Name] = m
		}
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("mark %s = %+v, want %+v (all: %+v)", name, got[name], w, p.Marks)
		}
	}
	v8, err := ParseFile(fixture("node-router-unbundled-before.cpuprofile"), ParseOptions{})
	if err != nil || v8.Marks != nil {
		t.Errorf("a .cpuprofile has marks: %v %v", v8.Marks, err)
	}
}
