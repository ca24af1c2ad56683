package analyze

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestLongTasksMatchTraceRunTasks: on Chrome traces, the long tasks
// FindStalls lists are the profiled thread's RunTask events over 50 ms,
// count and durations, as read here from the JSON independently.
func TestLongTasksMatchTraceRunTasks(t *testing.T) {
	for name, wants := range chromeTraces {
		events := readTraceEvents(t, fixture(name))
		for _, w := range wants {
			var want []int64 // ns, longest first
			for _, e := range events {
				if e.Pid.int() == w.pid && e.Tid.int() == w.tid && e.Ph == "X" && strings.HasSuffix(e.Name, "RunTask") && e.Dur > 50_000 {
					want = append(want, int64(e.Dur*1000))
				}
			}
			slices.SortFunc(want, func(a, b int64) int { return int(b - a) })
			sel := strconv.FormatInt(w.pid, 10) + ":" + strconv.FormatInt(w.tid, 10)
			p, err := ParseFile(fixture(name), ParseOptions{Thread: sel})
			if err != nil {
				t.Fatal(err)
			}
			st := FindStalls(p, 1000)
			var got []int64
			for _, s := range st.Longest {
				if s.Duration > LongStallNs {
					got = append(got, s.Duration)
				}
			}
			var blocking int64
			for _, d := range want {
				blocking += d - LongStallNs
			}
			if !st.FromTasks || !slices.Equal(got, want) || st.Over50ms != len(want) || st.BlockingNs != blocking {
				t.Errorf("%s %s: from tasks %v, long tasks %v (%d, blocking %d), want RunTask events %v (blocking %d)",
					name, sel, st.FromTasks, got, st.Over50ms, st.BlockingNs, want, blocking)
			}
		}
	}
}

// TestAnimationFramesMatchTrace: the frames over 16 ms counted are the
// profiled thread's AnimationFrame events (b then e) longer than 16 ms, as
// read here from the JSON independently.
func TestAnimationFramesMatchTrace(t *testing.T) {
	for _, name := range []string{"chrome156-multi-process.trace.json.gz", "chrome156-multi-thread.trace.json.gz"} {
		events := readTraceEvents(t, fixture(name))
		for _, w := range chromeTraces[name] {
			var frames, late int
			open := -1.0
			for _, e := range events {
				if e.Pid.int() != w.pid || e.Tid.int() != w.tid || e.Name != "AnimationFrame" {
					continue
				}
				switch {
				case e.Ph == "b":
					open = e.Ts
				case e.Ph == "e" && open >= 0:
					frames++
					if e.Ts-open > 16_000 {
						late++
					}
					open = -1
				}
			}
			sel := strconv.FormatInt(w.pid, 10) + ":" + strconv.FormatInt(w.tid, 10)
			p, err := ParseFile(fixture(name), ParseOptions{Thread: sel})
			if err != nil {
				t.Fatal(err)
			}
			st := FindStalls(p, 5)
			if st.Frames != frames || st.FramesOver16ms != late {
				t.Errorf("%s %s: %d frames, %d over 16 ms; the trace has %d, %d", name, sel, st.Frames, st.FramesOver16ms, frames, late)
			}
		}
	}
}

// TestLongTaskSaysWhatRan: the longest task of the multi-process trace's
// iframe renderer ran the page's busy loop, and the samples inside it say so.
func TestLongTaskSaysWhatRan(t *testing.T) {
	p, err := ParseFile(fixture("chrome156-multi-process.trace.json.gz"), ParseOptions{Thread: "5541:5541"})
	if err != nil {
		t.Fatal(err)
	}
	st := FindStalls(p, 5)
	if len(st.Longest) == 0 || len(st.Longest[0].Top) == 0 || st.Longest[0].Top[0].Key.Function != "primeWork" {
		t.Fatalf("longest task: %+v", st.Longest)
	}
}

// TestTasksFromBeginEnd: RunTask as B/E pairs count, only the outermost of
// nested tasks counts, other events do not, and tasks are timed from the
// profile's start.
func TestTasksFromBeginEnd(t *testing.T) {
	trace := `[{"name":"Profile","ph":"P","pid":1,"tid":2,"ts":1000,"id":"0x1","args":{"data":{"startTime":1000}}},` +
		`{"name":"ProfileChunk","ph":"P","pid":1,"tid":2,"ts":1000,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[` +
		`{"id":1,"callFrame":{"functionName":"(root)","scriptId":0}},{"id":2,"parent":1,"callFrame":{"functionName":"f","url":"a.js","scriptId":1}}],` +
		`"samples":[2,2,2,2]},"timeDeltas":[100,30000,30000,30000]}}},` +
		`{"name":"RunTask","ph":"B","pid":1,"tid":2,"ts":1050},` +
		`{"name":"Other","ph":"B","pid":1,"tid":2,"ts":1060},` +
		`{"name":"ThreadControllerImpl::RunTask","ph":"X","pid":1,"tid":2,"ts":1070,"dur":60000},` +
		`{"ph":"E","pid":1,"tid":2,"ts":70000},` +
		`{"ph":"E","pid":1,"tid":2,"ts":81050},` +
		`{"name":"RunTask","ph":"X","pid":1,"tid":3,"ts":1070,"dur":90000},` +
		`{"name":"RunTask","ph":"X","pid":1,"tid":2,"ts":90000,"dur":20000}]`
	p, err := Parse(strings.NewReader(trace), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Span{{Start: 50_000, Duration: 80_000_000}, {Start: 89_000_000, Duration: 20_000_000}}
	if !slices.Equal(p.Tasks, want) {
		t.Fatalf("tasks %v, want %v", p.Tasks, want)
	}
	st := FindStalls(p, 5)
	if st.Over50ms != 1 || st.Over16ms != 2 || st.LongestNs != 80_000_000 || st.BlockingNs != 30_000_000 {
		t.Errorf("stalls %+v", st)
	}
	if s := st.Longest[0]; s.First != 0 || s.Last != 2 || len(s.Top) != 1 || s.Top[0].Key.Function != "f" {
		t.Errorf("longest task %+v: want samples 0..2, f", s)
	}
}

// traceEventJSON is what the tests read of a trace event.
type traceEventJSON struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Pid  jsonInt `json:"pid"`
	Tid  jsonInt `json:"tid"`
	Dur  float64 `json:"dur"`
	Ts   float64 `json:"ts"`
}

// jsonInt reads a pid or tid written as a number or a string.
type jsonInt string

func (j *jsonInt) UnmarshalJSON(b []byte) error {
	*j = jsonInt(strings.Trim(string(b), `"`))
	return nil
}

func (j jsonInt) int() int64 {
	v, _ := strconv.ParseInt(string(j), 10, 64)
	return v
}

func readTraceEvents(t *testing.T, path string) []traceEventJSON {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var raw json.RawMessage
	if err := json.NewDecoder(zr).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	var events []traceEventJSON
	if err := json.Unmarshal(raw, &events); err == nil {
		return events
	}
	var doc struct {
		TraceEvents []traceEventJSON `json:"traceEvents"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.TraceEvents
}
