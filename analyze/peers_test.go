package analyze

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pprofile "github.com/google/pprof/profile"
)

// This file holds the regression tests of issue 31: what other profilers'
// own fixtures (google/pprof's, speedscope's) showed profdiff reading
// wrongly or refusing with a misleading reason.

// TestLegacyTextPprofIsNotFolded: pprof's legacy text profiles begin with
// a header that may end in a number ("threadcreate profile: total 3"); they
// are pprof, not folded stacks, and those with no sample type in a unit of
// time are refused saying so and naming the types they have.
func TestLegacyTextPprofIsNotFolded(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		// the shape of google/pprof's profile/testdata/go.godoc.thread
		"threadcreate": {"threadcreate profile: total 3\n1 @ 0x44cb3 0x45045 0x45323\n1 @ 0x44cb3 0x45045\n1 @ 0x44cb3\n",
			"no sample type measures time (the profile has threadcreate/count)"},
		"goroutine": {"goroutine profile: total 2\n2 @ 0x44cb3 0x45045\n", "goroutine/count"},
		// the shape of profile/testdata/cppbench.heap and java.heap
		"heap": {"heap profile:    2:  9360 [   2:  9360] @ heapz_v2/524288\n     1:     9216 [     1:     9216] @ 0xc635c8 0x42ecc3\n     1:      144 [     1:      144] @ 0xc635c8 0xa7479b\n",
			"no sample type measures time (the profile has objects/count, space/bytes)"},
		"java heap": {"--- heapz 1 ---\nformat = java\nresolution = bytes\n          7048     1 @ 0x00000003 0x00000004\n",
			"no sample type measures time"},
	} {
		t.Run(name, func(t *testing.T) {
			p, err := Parse(strings.NewReader(c.in), ParseOptions{})
			if err == nil {
				t.Fatalf("read as %s with %d ns on-CPU", p.Format, p.OnCPUNs())
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v, want %q", err, c.want)
			}
		})
	}
}

// TestFoldedDetectionWantsStacks: a text whose first line happens to end
// in a number is not folded stacks when the lines after it are not stacks.
func TestFoldedDetectionWantsStacks(t *testing.T) {
	// the start of google/pprof's internal/report/testdata/source.rpt
	in := "Total: 11111\nROUTINE ======================== bar in testdata/source1\n        10        110 (flat, cum)  0.99% of Total\n" +
		"         .          .      5:source1 line 5;\n         .          .      6:source1 line 6;\n         .          .      7:source1 line 7;\n        10        110     10:source1 line 10;\n         .          .     11:source1 line 11;\n"
	_, err := Parse(strings.NewReader(in), ParseOptions{})
	if !errors.Is(err, errNotProfile) {
		t.Errorf("a pprof report: %v, want %v", err, errNotProfile)
	}
	// A stack is no pprof header, whatever its words.
	p, err := Parse(strings.NewReader("main;f profile: total 3\nmain;g 2\n"), ParseOptions{})
	if err != nil || p.Format != FormatFolded || p.OnCPUNs() != 5*DefaultFoldedIntervalNs {
		t.Errorf("folded stacks: %v", err)
	}
}

// TestFoldedCommentsAndMalformedLines reads speedscope's
// stackcollapse/simple-with-invalids.txt (MIT, jlfwong/speedscope
// 3613918): "#" and "//" comments are skipped, and a malformed line among
// valid ones is skipped with a warning that names its line; when most lines
// are malformed, the file is refused naming the first.
func TestFoldedCommentsAndMalformedLines(t *testing.T) {
	in := "# comment that gives extra info about the samples\n// some other comment\na;b;c 1\na;b;c 1\na;b;d 4\na;b;c 3\na;b 5\ninvalid line\n"
	p, err := Parse(strings.NewReader(in), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.OnCPUNs(), int64(14*DefaultFoldedIntervalNs); got != want {
		t.Errorf("on-CPU %d ns, want %d", got, want)
	}
	var w *Warning
	for i := range p.Warnings {
		if p.Warnings[i].Kind == WarnMalformedLines {
			w = &p.Warnings[i]
		}
	}
	if w == nil || !strings.Contains(w.Message, "line 8") || !strings.Contains(w.Message, "invalid line") {
		t.Errorf("warnings %v, want one naming line 8", p.Warnings)
	}
	for _, name := range []string{"//", "#"} {
		for _, f := range p.Frames {
			if strings.HasPrefix(f.Name, name) {
				t.Errorf("a comment read as frame %q", f.Name)
			}
		}
	}
	_, err = Parse(strings.NewReader("a;b 1\nc 2\nnot a stack\nnor this\n"), ParseOptions{})
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("half malformed: %v, want an error naming line 3", err)
	}
}

// TestNotAProfileNamesEveryFormat: the generic refusal names the four
// formats profdiff reads.
func TestNotAProfileNamesEveryFormat(t *testing.T) {
	_, err := Parse(strings.NewReader("hello, world\n"), ParseOptions{})
	for _, f := range []string{"V8 .cpuprofile", "Chrome trace", "pprof", "folded stacks"} {
		if err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("%v does not name %s", err, f)
		}
	}
}

// TestContentionProfileSaysItIsNotCPUTime: a contention profile has no cpu
// or wall sample type; its delay is read (as go tool pprof shows it) with
// a warning naming the sample type and saying it is not CPU time.
func TestContentionProfileSaysItIsNotCPUTime(t *testing.T) {
	fn := []*pprofile.Function{{ID: 1, Name: "main.lock"}, {ID: 2, Name: "main.main"}}
	loc := []*pprofile.Location{{ID: 1, Line: []pprofile.Line{{Function: fn[0]}}}, {ID: 2, Line: []pprofile.Line{{Function: fn[1]}}}}
	pp := &pprofile.Profile{
		SampleType: []*pprofile.ValueType{{Type: "contentions", Unit: "count"}, {Type: "delay", Unit: "nanoseconds"}},
		PeriodType: &pprofile.ValueType{Type: "contentions", Unit: "count"},
		Period:     100,
		Function:   fn,
		Location:   loc,
		Sample: []*pprofile.Sample{
			{Location: []*pprofile.Location{loc[0], loc[1]}, Value: []int64{3, 7_000_000}},
			{Location: []*pprofile.Location{loc[1]}, Value: []int64{1, 500_000}},
		},
	}
	var buf bytes.Buffer
	if err := pp.Write(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mutex.pprof")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := ParseFile(path, ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var flat int64
	for _, r := range pprofTop(t, path) {
		flat += r[0]
	}
	if got := p.OnCPUNs(); got != 7_500_000 || got != flat {
		t.Errorf("read %d ns, go tool pprof %d, want 7500000", got, flat)
	}
	found := false
	for _, w := range p.Warnings {
		found = found || w.Kind == WarnNotCPUTime && strings.Contains(w.Message, "delay/nanoseconds") && strings.Contains(w.Message, "not CPU time")
	}
	if !found {
		t.Errorf("warnings %v, want one saying delay/nanoseconds is not CPU time", p.Warnings)
	}
	// A CPU profile says nothing of the kind.
	cpu, err := ParseFile(fixture("google-pprof-report-sample.cpu"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range cpu.Warnings {
		if w.Kind == WarnNotCPUTime {
			t.Errorf("a CPU profile: %v", w)
		}
	}
}

// chunkTrace is a trace of one Profile event and one ProfileChunk whose
// args.data is data (nodes 1 (root), 2 main and 3 work under it).
func chunkTrace(data string) string {
	return `{"traceEvents":[
{"name":"Profile","ph":"P","pid":7,"tid":1,"ts":1000,"id":"0x1","args":{"data":{"startTime":1000}}},
{"name":"ProfileChunk","ph":"P","pid":7,"tid":1,"ts":1100,"id":"0x1","args":{"data":` + data + `}}]}`
}

const chunkNodes = `"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":"","scriptId":0,"lineNumber":-1,"columnNumber":-1}},` +
	`{"id":2,"parent":1,"callFrame":{"functionName":"main","url":"a.js","scriptId":1,"lineNumber":0,"columnNumber":0}},` +
	`{"id":3,"parent":2,"callFrame":{"functionName":"work","url":"a.js","scriptId":1,"lineNumber":4,"columnNumber":0}}]`

// TestTraceDuplicatedTimeDeltas: rspack's traces carry a chunk's
// timeDeltas both in args.data and in args.data.cpuProfile; equal copies
// are read once, different ones refused.
func TestTraceDuplicatedTimeDeltas(t *testing.T) {
	same := chunkTrace(`{"cpuProfile":{` + chunkNodes + `,"samples":[2,3,3,3],"timeDeltas":[10,100,100,100]},"timeDeltas":[10,100,100,100]}`)
	p, err := Parse(strings.NewReader(same), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Samples) != 4 || p.OnCPUNs() != 400_000 {
		t.Errorf("%d samples, %d ns on-CPU; want 4, 400000", len(p.Samples), p.OnCPUNs())
	}
	// The usual form, deltas beside the cpuProfile only, is unchanged.
	beside := chunkTrace(`{"cpuProfile":{` + chunkNodes + `,"samples":[2,3,3,3]},"timeDeltas":[10,100,100,100]}`)
	if q, err := Parse(strings.NewReader(beside), ParseOptions{}); err != nil || q.OnCPUNs() != 400_000 {
		t.Errorf("deltas beside the profile: %v", err)
	}
	differ := chunkTrace(`{"timeDeltas":[10,100,100,100],"cpuProfile":{` + chunkNodes + `,"samples":[2,3,3,3],"timeDeltas":[10,100,100,90]}}`)
	if _, err := Parse(strings.NewReader(differ), ParseOptions{}); err == nil || !strings.Contains(err.Error(), "different timeDeltas") {
		t.Errorf("different copies: %v, want a refusal", err)
	}
}

// TestAbsentNodesAreKept: nodes that name a parent the file does not hold
// (a DevTools trace of Chrome 141 whose earlier chunks are missing) are
// kept under a "(missing parent)" placeholder, and samples that name an
// absent node on a placeholder, with one warning saying how much time that
// is; child ids that name no node and no sample are dropped; only samples
// that name no node the file holds are refused. A CpuProfile event, which
// has no id, is named by its process and thread.
func TestAbsentNodesAreKept(t *testing.T) {
	const root = `{"id":1,"callFrame":{"functionName":"(root)","url":"","scriptId":0,"lineNumber":-1,"columnNumber":-1}}`
	node := func(id int, extra string) string {
		return fmt.Sprintf(`{"id":%d%s,"callFrame":{"functionName":"f%d","url":"a.js","scriptId":1,"lineNumber":%d,"columnNumber":0}}`, id, extra, id, id)
	}
	// Chunks: the first holds 1 and 2; the second 757 under the absent 753,
	// 758 under 757; samples on 2, 758, 757 and the absent 753.
	trace := `{"traceEvents":[
{"name":"Profile","ph":"P","pid":7787,"tid":1,"ts":0,"id":"0x7b","args":{"data":{"startTime":0}}},
{"name":"ProfileChunk","ph":"P","pid":7787,"tid":1,"ts":1,"id":"0x7b","args":{"data":{"cpuProfile":{"nodes":[` + root + `,` + node(2, `,"parent":1`) + `],"samples":[2,2]},"timeDeltas":[100,100]}}},
{"name":"ProfileChunk","ph":"P","pid":7787,"tid":1,"ts":2,"id":"0x7b","args":{"data":{"cpuProfile":{"nodes":[` + node(757, `,"parent":753`) + `,` + node(758, `,"parent":757`) + `],"samples":[758,757,753,2]},"timeDeltas":[100,100,100,100]}}}]}`
	p, err := Parse(strings.NewReader(trace), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Samples) != 6 || p.OnCPUNs() != 600_000 {
		t.Errorf("%d samples, %d ns on-CPU; want 6, 600000", len(p.Samples), p.OnCPUNs())
	}
	stack := func(n int32) string {
		var names []string
		for ; n >= 0; n = p.Nodes[n].Parent {
			names = append([]string{p.Frames[p.Nodes[n].Frame].Name}, names...)
		}
		return strings.Join(names, ";")
	}
	var stacks []string
	for _, s := range p.Samples {
		stacks = append(stacks, stack(s.Node))
	}
	want := "(root);f2 (root);f2 (root);(missing parent);f757;f758 (root);(missing parent);f757 (root);(missing parent) (root);f2"
	if got := strings.Join(stacks, " "); got != want {
		t.Errorf("stacks\n %s\nwant\n %s", got, want)
	}
	if len(p.Warnings) != 1 || p.Warnings[0].Kind != WarnMissingNodes || !strings.Contains(p.Warnings[0].Message, "300 µs (50.0% of the samples' time)") {
		t.Errorf("warnings %v, want one saying 300 µs (50.0%%) is under placeholders", p.Warnings)
	}

	// A CpuProfile event whose root lists children that do not exist,
	// though no sample names them.
	cpuProfile := `{"traceEvents":[{"name":"CpuProfile","ph":"I","pid":19485,"tid":3,"ts":0,"args":{"data":{"cpuProfile":{"nodes":[` +
		`{"id":1,"callFrame":{"functionName":"(root)","url":"","scriptId":0,"lineNumber":-1,"columnNumber":-1},"children":[2,5,6]},` + node(2, "") +
		`],"samples":[2,2,2],"timeDeltas":[10,10,10],"startTime":0,"endTime":30}}}}]}`
	q, err := Parse(strings.NewReader(cpuProfile), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if q.OnCPUNs() != 30_000 || len(q.Warnings) != 1 || !strings.Contains(q.Warnings[0].Message, "2 child ids") || !strings.Contains(q.Warnings[0].Message, "dropped") {
		t.Errorf("on-CPU %d, warnings %v", q.OnCPUNs(), q.Warnings)
	}
	// Samples that name nothing the file holds are refused, the profile
	// named by process and thread.
	nothing := strings.Replace(cpuProfile, `"samples":[2,2,2]`, `"samples":[5,6,9]`, 1)
	_, err = Parse(strings.NewReader(nothing), ParseOptions{})
	if err == nil || !strings.Contains(err.Error(), "process 19485 thread 3") || strings.Contains(err.Error(), "profile  in") {
		t.Errorf("samples naming nothing: %v", err)
	}
}

// TestOtherFormatsAreNamed: valid JSON of another profiler's format is not
// "malformed JSON": the format is named where its keys tell it, and a heap
// profile is never advised to be re-recorded; a zip archive is not
// "malformed protobuf"; the text of perf script, a V8 tick log and UTF-16
// text are named too. The inputs have the shapes of speedscope's fixtures
// (node/10.11.0/*.heapprofile and example.cpuprofile,
// trace-event/simple-with-samples.json, node/8.5.0/simple.v8log.json.zip
// and isolate-*.log, linux-perf/forks.linux-perf.txt,
// stackcollapse/simple-utf16-le.txt), of stackprof's and DHAT's JSON and of
// a Firefox Profiler profile.
func TestOtherFormatsAreNamed(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"heapprofile": {`{"head":{"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"selfSize":0,"children":[]},"samples":[{"size":32,"nodeId":1,"ordinal":1}]}`,
			"heap profile (.heapprofile)"},
		"heapprofile without samples": {`{"head":{"callFrame":{"functionName":"(root)"},"selfSize":0,"children":[]}}`, "heap profile"},
		"old cpuprofile": {`{"head":{"functionName":"(root)","url":"","lineNumber":-1,"id":1,"hitCount":0,"children":[]},"startTime":1,"endTime":2,"samples":[1],"timestamps":[1]}`,
			`old "head" form`},
		"hermes": {`{"traceEvents":[{"name":"process_name","ph":"M","pid":1,"ts":"11550183666","tid":"1","args":{"name":"hermes"}}],"samples":[{"cpu":"-1","name":"","ts":"11552125241","pid":1,"tid":"1","weight":"1","sf":1}],"stackFrames":{"1":{"name":"[root]","category":"root"}}}`,
			"samples and stackFrames"},
		"stackprof": {`{"version":1.2,"mode":"cpu","interval":1000,"samples":10,"frames":{"1":{"name":"Object#foo","file":"a.rb","line":1}},"raw":[1,1,1]}`,
			"stackprof"},
		"zip": {"PK\x03\x04\x14\x00\x00\x00\x08\x00" + strings.Repeat("\x01", 40), "zip archive"},
		"perf script": {"# ========\n# captured on: Wed Aug 15 16:01:24 2018\nforks     9 [002] 203265.377019:    1001001 cpu-clock: \n\t             6f1 _Z5gammav (/workdir/forks)\n\t             789 main (/workdir/forks)\n\n",
			"perf script"},
		"v8 log":  {"v8-version,6,0,287,53,0\nshared-library,\"/usr/local/bin/node\",0x100003200,0x1008b3cba,0\n", "V8 tick log"},
		"utf-16":  {"\xff\xfea\x00;\x00b\x00 \x001\x00\n\x00", "UTF-16"},
		"dhat":    {`{"dhatFileVersion":2,"mode":"rust-heap","verb":"Allocated","pps":[],"ftbl":["[root]"]}`, "DHAT"},
		"firefox": {`{"meta":{"version":24},"threads":[],"libs":[]}`, "Firefox Profiler"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(c.in), ParseOptions{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%v, want %q", err, c.want)
			}
			for _, bad := range []string{"malformed", "re-record"} {
				if strings.Contains(err.Error(), bad) {
					t.Errorf("%v says %q", err, bad)
				}
			}
		})
	}
}
