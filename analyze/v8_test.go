package analyze

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// node is a compact description of a V8 profile node for synthetic profiles.
type node struct {
	id       int
	name     string
	url      string
	line     int // 0-based, as in CDP
	children []int
	script   string
}

// cpuprofile writes a .cpuprofile document from nodes, samples and deltas.
func cpuprofile(nodes []node, samples, deltas []int, start, end int) string {
	var b strings.Builder
	b.WriteString(`{"nodes":[`)
	for i, n := range nodes {
		if i > 0 {
			b.WriteString(",")
		}
		script := n.script
		if script == "" {
			script = "0"
			if n.url != "" {
				script = "7"
			}
		}
		fmt.Fprintf(&b, `{"id":%d,"callFrame":{"functionName":%q,"scriptId":%q,"url":%q,"lineNumber":%d,"columnNumber":%d},"hitCount":0,"children":[%s]}`,
			n.id, n.name, script, n.url, n.line, max(n.line, 0), joinInts(n.children))
	}
	fmt.Fprintf(&b, `],"startTime":%d,"endTime":%d,"samples":[%s],"timeDeltas":[%s]}`, start, end, joinInts(samples), joinInts(deltas))
	return b.String()
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

func parseString(t *testing.T, doc string) *Profile {
	t.Helper()
	p, err := Parse(strings.NewReader(doc), ParseOptions{})
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return p
}

func weights(p *Profile) []int64 {
	var w []int64
	for _, s := range p.Samples {
		w = append(w, s.Weight)
	}
	return w
}

// A small tree: (root) -> main -> work; (root) -> (idle), (program), (gc).
var basicNodes = []node{
	{id: 1, name: "(root)", line: -1, children: []int{2, 4, 5, 6}},
	{id: 2, name: "main", url: "file:///app/src/main.js", line: 0, children: []int{3}},
	{id: 3, name: "work", url: "file:///app/src/main.js", line: 9},
	{id: 4, name: "(idle)", line: -1},
	{id: 5, name: "(program)", line: -1},
	{id: 6, name: "(garbage collector)", line: -1},
}

func TestSampleWeightIsTheGapAfter(t *testing.T) {
	// Sample i is charged timeDeltas[i+1]; the last the median delta.
	p := parseString(t, cpuprofile(basicNodes, []int{3, 3, 2, 3}, []int{10, 20, 30, 50}, 0, 200))
	want := []int64{20e3, 30e3, 50e3, 25e3} // median of 10,20,30,50 is 25
	if got := weights(p); !slices.Equal(got, want) {
		t.Errorf("weights = %v, want %v", got, want)
	}
	p = parseString(t, cpuprofile(basicNodes, []int{3, 3, 3}, []int{10, 40, 20}, 0, 200))
	if got, want := weights(p), []int64{40e3, 20e3, 20e3}; !slices.Equal(got, want) {
		t.Errorf("odd count: weights = %v, want %v", got, want)
	}
	if p.IntervalNs != 70000/3 {
		t.Errorf("interval = %d, want the mean delta %d", p.IntervalNs, 70000/3)
	}
	if p.TickNs != 10e3 {
		t.Errorf("tick = %d, want the lower quartile of the deltas 10, 20, 40: 10000", p.TickNs)
	}
	if p.WallNs != 200e3 {
		t.Errorf("wall = %d, want endTime-startTime 200000", p.WallNs)
	}
}

// TestNegativeDeltasOrderAndWarn: samples whose deltas go back in time
// are put in the order of their timestamps (10, 5, 25, 24 µs become 5, 10,
// 24, 25), so that the weights add up to the timestamps' span (25 µs), not
// the 30 µs that clamping the deltas to 0 gave; the warning says so.
func TestNegativeDeltasOrderAndWarn(t *testing.T) {
	p := parseString(t, cpuprofile(basicNodes, []int{3, 3, 3, 3}, []int{10, -5, 20, -1}, 0, 100))
	if got, want := weights(p), []int64{5e3, 14e3, 1e3, 5e3}; !slices.Equal(got, want) {
		t.Errorf("weights = %v, want %v (the last: the median of 5,5,14,1)", got, want)
	}
	if len(p.Warnings) != 1 || p.Warnings[0].Kind != WarnSamplesReordered || !strings.Contains(p.Warnings[0].Message, "2 samples were out of order") || !strings.Contains(p.Warnings[0].Message, "would have added 5 µs") {
		t.Errorf("warnings = %q", p.Warnings)
	}
	for i := 1; i < len(p.Samples); i++ {
		if p.Samples[i].Time < p.Samples[i-1].Time {
			t.Errorf("sample %d before its predecessor", i)
		}
	}
}

func TestSamplesNotHitCount(t *testing.T) {
	// hitCount says 0 everywhere; samples[] is what counts.
	p := parseString(t, cpuprofile(basicNodes, []int{3, 2}, []int{5, 5}, 0, 10))
	if p.SampleCount != 2 || len(p.Samples) != 2 {
		t.Fatalf("samples = %d, want 2", p.SampleCount)
	}
}

func TestOnCPUIdleProgramGC(t *testing.T) {
	// work, idle, program, gc, work: weights 10,20,30,40 and the median 20.
	p := parseString(t, cpuprofile(basicNodes, []int{3, 4, 5, 6, 3}, []int{1, 10, 20, 30, 40}, 0, 200))
	tab := Aggregate(p, AggregateOptions{})
	s := tab.Summary
	if s.SampledNs != 120e3 || s.IdleNs != 20e3 || s.ProgramNs != 30e3 || s.GCNs != 40e3 || s.OnCPUNs != 70e3 {
		t.Errorf("summary = %+v", s)
	}
	if got := s.Busy(); got != 70.0/120 {
		t.Errorf("busy = %v, want %v", got, 70.0/120)
	}
	if got := s.GCShare(); got != 40.0/70 {
		t.Errorf("GC share = %v", got)
	}
	pk := rowsByName(tab.Packages, func(k Key) string { return k.Package })
	if pk["(gc)"].Self != 40e3 {
		t.Errorf("(gc) self = %d, want 40000", pk["(gc)"].Self)
	}
	for _, name := range []string{"(idle)", "(program)"} {
		if _, ok := pk[name]; ok {
			t.Errorf("%s must not appear among on-CPU packages", name)
		}
	}
	fn := rowsByName(tab.Functions, func(k Key) string { return k.Function })
	if fn["work"].Self != 30e3 || fn["main"].Self != 0 || fn["main"].Total != 30e3 {
		t.Errorf("work = %+v, main = %+v", fn["work"], fn["main"])
	}
}

func rowsByName(rows []Row, name func(Key) string) map[string]Row {
	m := map[string]Row{}
	for _, r := range rows {
		x := m[name(r.Key)]
		x.Key = r.Key
		x.Self += r.Self
		x.Total += r.Total
		m[name(r.Key)] = x
	}
	return m
}

func TestRecursionCountsOncePerSample(t *testing.T) {
	// (root) -> f -> g -> f -> f, samples at the deepest f and at g.
	nodes := []node{
		{id: 1, name: "(root)", line: -1, children: []int{2}},
		{id: 2, name: "f", url: "file:///app/src/a.js", line: 1, children: []int{3}},
		{id: 3, name: "g", url: "file:///app/src/a.js", line: 5, children: []int{4}},
		{id: 4, name: "f", url: "file:///app/src/a.js", line: 1, children: []int{5}},
		{id: 5, name: "f", url: "file:///app/src/a.js", line: 1},
	}
	p := parseString(t, cpuprofile(nodes, []int{5, 3}, []int{10, 10}, 0, 100))
	tab := Aggregate(p, AggregateOptions{})
	fn := rowsByName(tab.Functions, func(k Key) string { return k.Function })
	if fn["f"].Self != 10e3 || fn["f"].Total != 20e3 {
		t.Errorf("f = %+v, want self 10µs, total 20µs (once per sample)", fn["f"])
	}
	if fn["g"].Self != 10e3 || fn["g"].Total != 20e3 {
		t.Errorf("g = %+v", fn["g"])
	}
	for _, r := range tab.Functions {
		if r.Self > r.Total {
			t.Errorf("%v: self %d > total %d", r.Key, r.Self, r.Total)
		}
	}
}

func TestParentPointersAndChildrenAgree(t *testing.T) {
	withChildren := cpuprofile(basicNodes, []int{3, 2}, []int{5, 7}, 0, 20)
	withParents := `{"nodes":[
	 {"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}},
	 {"id":3,"parent":2,"callFrame":{"functionName":"work","scriptId":"7","url":"file:///app/src/main.js","lineNumber":9,"columnNumber":9}},
	 {"id":2,"parent":1,"callFrame":{"functionName":"main","scriptId":"7","url":"file:///app/src/main.js","lineNumber":0,"columnNumber":0}}
	],"startTime":0,"endTime":20,"samples":[3,2],"timeDeltas":[5,7]}`
	a := Aggregate(parseString(t, withChildren), AggregateOptions{})
	b := Aggregate(parseString(t, withParents), AggregateOptions{})
	if !slices.Equal(a.Functions, b.Functions) {
		t.Errorf("children form %v\nparent form %v", a.Functions, b.Functions)
	}
}

func TestPositionsAreOneBased(t *testing.T) {
	p := parseString(t, cpuprofile(basicNodes, []int{3}, []int{5}, 0, 20))
	for _, f := range p.Frames {
		switch f.Name {
		case "work":
			if f.Line != 10 || f.Column != 10 || f.File != "/app/src/main.js" {
				t.Errorf("work frame = %+v, want line 10 column 10, file without file://", f)
			}
		case "(root)":
			if f.Line != 0 || f.Kind != KindRoot {
				t.Errorf("root frame = %+v", f)
			}
		}
	}
}

func TestRegExpAndEvalTakeTheCallersPackage(t *testing.T) {
	nodes := []node{
		{id: 1, name: "(root)", line: -1, children: []int{2}},
		{id: 2, name: "handle", url: "file:///srv/app/src/router.js", line: 3, children: []int{3, 5}},
		{id: 3, name: "match", url: "file:///srv/app/node_modules/path-to-regexp/dist/index.js", line: 211, children: []int{4, 6}},
		{id: 4, name: "RegExp: ^(?:\\/users)$", line: -1},
		{id: 5, name: "validate11", line: 2, script: "99"},  // new Function code: a script without a URL
		{id: 6, name: "exec", line: -1, children: []int{7}}, // a builtin between the caller and the regexp
		{id: 7, name: "RegExp: ^a", line: -1},
	}
	p := parseString(t, cpuprofile(nodes, []int{4, 5, 7, 6}, []int{10, 10, 10, 10}, 0, 100))
	tab := Aggregate(p, AggregateOptions{})
	pk := rowsByName(tab.Packages, func(k Key) string { return k.Package })
	if got := pk["path-to-regexp"].Self; got != 20e3 {
		t.Errorf("path-to-regexp self = %d, want 20µs (its two regexps, one under a builtin)", got)
	}
	if got := pk["app"].Self; got != 10e3 {
		t.Errorf("app self = %d, want 10µs (the eval'd validator called from router.js)", got)
	}
	if got := pk["(native)"].Self; got != 10e3 {
		t.Errorf("(native) self = %d, want 10µs (exec itself)", got)
	}
	files := rowsByName(tab.Files, func(k Key) string { return k.File })
	if got := files["/srv/app/node_modules/path-to-regexp/dist/index.js"].Self; got != 20e3 {
		t.Errorf("path-to-regexp file self = %d, want 20µs", got)
	}
	kinds := map[string]FrameKind{}
	for _, f := range p.Frames {
		kinds[f.Name] = f.Kind
	}
	if kinds["validate11"] != KindEval || kinds["RegExp: ^a"] != KindRegExp || kinds["exec"] != KindNative {
		t.Errorf("kinds = %v", kinds)
	}
}

func TestHitCountFallbackWithoutSamples(t *testing.T) {
	doc := `{"nodes":[
	 {"id":1,"hitCount":0,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"children":[2]},
	 {"id":2,"hitCount":3,"callFrame":{"functionName":"f","scriptId":"1","url":"a.js","lineNumber":0,"columnNumber":0}}
	],"startTime":0,"endTime":30}`
	p := parseString(t, doc)
	if p.SampleCount != 3 || len(p.Warnings) == 0 {
		t.Fatalf("samples %d warnings %q", p.SampleCount, p.Warnings)
	}
	if tab := Aggregate(p, AggregateOptions{}); tab.Summary.OnCPUNs != 30e3 {
		t.Errorf("on-CPU = %d, want the wall time 30µs", tab.Summary.OnCPUNs)
	}
}

func TestLineTimesFromPositionTicks(t *testing.T) {
	doc := `{"nodes":[
	 {"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"children":[2]},
	 {"id":2,"callFrame":{"functionName":"work","scriptId":"7","url":"file:///app/src/a.js","lineNumber":9,"columnNumber":0},
	  "positionTicks":[{"line":11,"ticks":2},{"line":12,"ticks":1}]}
	],"startTime":0,"endTime":100,"samples":[2,2,2],"timeDeltas":[30,30,30]}`
	tab := Aggregate(parseString(t, doc), AggregateOptions{Edges: true, Lines: true})
	if len(tab.Lines) != 2 {
		t.Fatalf("lines %+v", tab.Lines)
	}
	// work's self is 90µs: 2/3 on line 11, 1/3 on line 12.
	if tab.Lines[0].Line != 11 || tab.Lines[0].Self != 60e3 || tab.Lines[1].Line != 12 || tab.Lines[1].Self != 30e3 {
		t.Errorf("lines %+v", tab.Lines)
	}
	if tab.Lines[0].Function.Function != "work" {
		t.Errorf("function %+v", tab.Lines[0].Function)
	}
}

// One late tick among thousands of samples moves no printed figure: it is
// reordered without a warning (issue 26, item 14).
func TestOneLateTickIsNotWarned(t *testing.T) {
	n := 5000
	samples, deltas := make([]int, n), make([]int, n)
	for i := range samples {
		samples[i], deltas[i] = 3, 1000
	}
	deltas[100], deltas[101] = 1003, -2 // one tick 2 µs late
	p := parseString(t, cpuprofile(basicNodes, samples, deltas, 0, n*1000+10))
	if len(p.Warnings) != 0 {
		t.Errorf("warnings = %q", p.Warnings)
	}
	for i := 1; i < len(p.Samples); i++ {
		if p.Samples[i].Time < p.Samples[i-1].Time {
			t.Fatalf("sample %d before its predecessor", i)
		}
	}
}
