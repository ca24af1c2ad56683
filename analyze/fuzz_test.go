package analyze

import (
	"bytes"
	"os"
	"testing"
)

// seedFuzz adds the small fixtures (and a cut copy of each) to a corpus.
func seedFuzz(f *testing.F, names ...string) {
	for _, name := range names {
		data, err := os.ReadFile(fixture(name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
}

// checkParsed asserts what must hold of anything Parse accepts.
func checkParsed(t *testing.T, p *Profile) {
	t.Helper()
	tab := Aggregate(p, AggregateOptions{})
	s := tab.Summary
	if s.OnCPUNs+s.IdleNs+s.ProgramNs != s.SampledNs || s.GCNs > s.OnCPUNs || s.OnCPUNs < 0 {
		t.Fatalf("inconsistent summary %+v", s)
	}
	for _, r := range tab.Functions {
		if r.Self > r.Total || r.Self < 0 {
			t.Fatalf("row %+v: self > total", r)
		}
	}
}

// FuzzParseJSON feeds the V8 .cpuprofile reader (and, through the same
// dispatch, any JSON).
func FuzzParseJSON(f *testing.F) {
	seedFuzz(f, "speedscope-chrome65-simple.cpuprofile", "cpupro-demo.cpuprofile")
	f.Add([]byte(`[{"name":"Profile","ph":"P","pid":1,"tid":2,"id":"0x1","args":{"data":{"startTime":5}}},` +
		`{"name":"ProfileChunk","ph":"P","pid":1,"tid":3,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[` +
		`{"id":1,"callFrame":{"functionName":"(root)","scriptId":0}},{"id":2,"parent":1,"callFrame":{"functionName":"f","url":"a.js","scriptId":1,"lineNumber":3}}],` +
		`"samples":[2,2,1]},"timeDeltas":[1,-2,3]}}}]`))
	f.Add([]byte(`{"traceEvents":[{"name":"CpuProfile","pid":1,"tid":1,"args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}],"samples":[1],"timeDeltas":[1]}}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(bytes.NewReader(data), ParseOptions{MaxInputSize: 1 << 20})
		if err != nil {
			return
		}
		checkParsed(t, p)
	})
}

// FuzzParseTrace feeds the Chrome trace reader: Profile and ProfileChunk
// events across processes, and CpuProfile events.
func FuzzParseTrace(f *testing.F) {
	f.Add([]byte(`[{"name":"thread_name","ph":"M","pid":1,"tid":2,"args":{"name":"CrRendererMain"}},` +
		`{"name":"Profile","ph":"P","pid":1,"tid":2,"id":"0x1","args":{"data":{"startTime":5}}},` +
		`{"name":"ProfileChunk","ph":"P","pid":1,"tid":3,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[` +
		`{"id":1,"callFrame":{"functionName":"(root)","scriptId":0}},{"id":2,"parent":1,"callFrame":{"functionName":"f","url":"a.js","scriptId":1,"lineNumber":3}}],` +
		`"samples":[2,2,1]},"timeDeltas":[1,-2,3],"lines":[4,4,0]}}},` +
		`{"name":"Profile","ph":"P","pid":9,"tid":2,"id":"0x1","args":{"data":{"startTime":7}}},` +
		`{"name":"ProfileChunk","ph":"P","pid":9,"tid":3,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[` +
		`{"id":1,"callFrame":{"functionName":"(root)","scriptId":0}},{"id":2,"parent":1,"callFrame":{"functionName":"(idle)","scriptId":0}}],` +
		`"samples":[2,1]},"timeDeltas":[5,5]}}}]`))
	// Absent nodes (issue 31): a parent, a listed child and a sampled node
	// the trace does not hold, and deltas both beside and in the profile.
	f.Add([]byte(`[{"name":"Profile","ph":"P","pid":1,"tid":2,"id":"0x1","args":{"data":{"startTime":5}}},` +
		`{"name":"ProfileChunk","ph":"P","pid":1,"tid":2,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[` +
		`{"id":1,"callFrame":{"functionName":"(root)","scriptId":0},"children":[7]},{"id":5,"parent":4,"callFrame":{"functionName":"f","url":"a.js","scriptId":1}}],` +
		`"samples":[5,4,7,9,1],"timeDeltas":[1,2,3,4,5]},"timeDeltas":[1,2,3,4,5]}}}]`))
	data, err := os.ReadFile(fixture("chrome156-multi-process.trace.json.gz"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data[:4096]) // a cut gzip stream
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, thread := range []string{"", "CrRendererMain", "9:2"} {
			p, err := Parse(bytes.NewReader(data), ParseOptions{MaxInputSize: 1 << 20, Thread: thread})
			if err != nil {
				continue
			}
			checkParsed(t, p)
		}
	})
}

// FuzzParsePprof feeds profdiff's conversion of pprof profiles.
func FuzzParsePprof(f *testing.F) {
	seedFuzz(f, "speedscope-go-simple.prof", "google-pprof-report-sample.cpu")
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 0 && (data[0] == '{' || data[0] == '[') {
			return // the JSON readers have their own target
		}
		p, err := Parse(bytes.NewReader(data), ParseOptions{MaxInputSize: 1 << 20})
		if err != nil {
			return
		}
		checkParsed(t, p)
	})
}

// FuzzFolded: any text read as folded stacks gives a profile whose samples
// point at nodes that exist, or an error; never a panic.
func FuzzFolded(f *testing.F) {
	f.Add([]byte("main;parse;lex 42\nmain;render 7\n"))
	f.Add([]byte("a (x.py:3);b 1.5\n# comment\n\nc_[k] 2\n"))
	f.Add([]byte("a;;b 3\r\n;;; 4\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := readFolded(bytes.NewReader(data), ParseOptions{})
		if err != nil {
			return
		}
		for _, s := range p.Samples {
			if int(s.Node) >= len(p.Nodes) || s.Node <= 0 || s.Weight < 0 {
				t.Fatalf("sample %+v of %d nodes", s, len(p.Nodes))
			}
		}
		for _, n := range p.Nodes[1:] {
			if int(n.Frame) >= len(p.Frames) || n.Parent < 0 || int(n.Parent) >= len(p.Nodes) {
				t.Fatalf("node %+v", n)
			}
		}
	})
}
