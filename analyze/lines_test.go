package analyze

import (
	"bytes"
	"math"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// TestPprofLinesAgreeWithGoToolPprof: each line's self and total time of a
// Go profile (inlined functions' lines among them) equal go tool pprof
// -lines -top's flat and cum columns, line for line.
func TestPprofLinesAgreeWithGoToolPprof(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go tool pprof")
	}
	const file = "../testdata/go-router-before.pprof"
	cmd := exec.Command("go", "tool", "pprof", "-lines", "-top", "-nodecount=100000", "-nodefraction=0", "-edgefraction=0", "-unit=ns", file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go tool pprof: %v %s", err, stderr.String())
	}
	type fl struct {
		file string
		line int32
	}
	theirs := map[fl][2]float64{}
	re := regexp.MustCompile(`(?m)^\s*(\d+)(?:ns)?\s+\S+\s+\S+\s+(\d+)(?:ns)?\s+\S+\s+(.+?) (\S+):(\d+)(?: \((?:partial-)?inline\))?\s*$`)
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		flat, _ := strconv.ParseFloat(m[1], 64)
		cum, _ := strconv.ParseFloat(m[2], 64)
		line, _ := strconv.Atoi(m[5])
		k := fl{file: m[4], line: int32(line)} // pprof shortens some names
		v := theirs[k]
		theirs[k] = [2]float64{v[0] + flat, v[1] + cum}
	}
	if len(theirs) < 50 {
		t.Fatalf("read %d lines of pprof's output:\n%s", len(theirs), out)
	}
	p, err := ParseFile(file, ParseOptions{Lines: true})
	if err != nil {
		t.Fatal(err)
	}
	tab := Aggregate(p, AggregateOptions{Lines: true})
	if !tab.LineTotals {
		t.Fatal("a Go profile's lines carry no totals")
	}
	ours := map[fl][2]float64{}
	for _, l := range tab.Lines {
		if l.Line == 0 {
			continue
		}
		k := fl{file: l.Function.File, line: l.Line}
		v := ours[k]
		ours[k] = [2]float64{v[0] + float64(l.Self), v[1] + float64(l.Total)}
	}
	off := 0
	for k, want := range theirs {
		got := ours[k]
		for i, what := range []string{"self", "total"} {
			if math.Abs(got[i]-want[i]) > 1 {
				if off++; off <= 5 {
					t.Errorf("%s:%d: %s %.0f, pprof %.0f", k.file, k.line, what, got[i], want[i])
				}
			}
		}
	}
	for k, got := range ours {
		if _, ok := theirs[k]; !ok && (got[0] != 0 || got[1] != 0) {
			t.Errorf("%s:%d: %v, not in pprof's output", k.file, k.line, got)
		}
	}
}

// TestLinesAddUpToSelf: a function's lines' self times add up to its self
// time, exactly: the ticks spread a node's time without rounding it away,
// and a node that recorded no line gives line 0 (unattributed).
func TestLinesAddUpToSelf(t *testing.T) {
	p, err := ParseFile("../testdata/node-router-unbundled-before.cpuprofile", ParseOptions{Lines: true})
	if err != nil {
		t.Fatal(err)
	}
	tab := Aggregate(p, AggregateOptions{Lines: true})
	sums := map[Key]int64{}
	for _, l := range tab.Lines {
		sums[l.Function] += l.Self
	}
	checked := 0
	for _, r := range tab.Functions {
		if s, ok := sums[r.Key]; ok {
			checked++
			if s != r.Self {
				t.Errorf("%s: lines add up to %d, self %d", r.Key.Function, s, r.Self)
			}
		}
	}
	if checked < 20 {
		t.Errorf("%d functions have lines", checked)
	}
	doc := `{"nodes":[
	 {"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"children":[2,3]},
	 {"id":2,"callFrame":{"functionName":"work","scriptId":"7","url":"file:///app/a.js","lineNumber":9,"columnNumber":0},
	  "positionTicks":[{"line":11,"ticks":1},{"line":12,"ticks":1},{"line":13,"ticks":1}]},
	 {"id":3,"callFrame":{"functionName":"work","scriptId":"7","url":"file:///app/a.js","lineNumber":9,"columnNumber":0}}
	],"startTime":0,"endTime":100,"samples":[2,2,3,3],"timeDeltas":[25,25,25,25]}`
	tab = Aggregate(parseString(t, doc), AggregateOptions{Lines: true})
	var got []int64
	for _, l := range tab.Lines {
		got = append(got, int64(l.Line), l.Self)
	}
	// 50µs over three lines (16,666 + 16,667 + 16,667), and 50µs on no line.
	want := []int64{0, 50e3, 11, 16666, 12, 16667, 13, 16667}
	if !slicesEqual(got, want) || tab.LineTotals {
		t.Errorf("lines (line, self) %v, want %v; totals %v", got, want, tab.LineTotals)
	}
}

func slicesEqual(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestBundledLinesAreLeftOut: ticks on the lines of a bundle that a source
// map mapped the function out of are not the function's lines: they are
// left out, and the function is listed as bundled, unless symbolication
// mapped its lines too.
func TestBundledLinesAreLeftOut(t *testing.T) {
	doc := `{"nodes":[
	 {"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"children":[2]},
	 {"id":2,"callFrame":{"functionName":"a","scriptId":"7","url":"file:///app/dist/app.min.js","lineNumber":0,"columnNumber":900},
	  "positionTicks":[{"line":1,"ticks":2}]}
	],"startTime":0,"endTime":100,"samples":[2,2],"timeDeltas":[50,50]}`
	p := parseString(t, doc)
	f := &p.Frames[p.Nodes[1].Frame]
	f.Generated = &Position{Name: f.Name, File: f.File, Line: f.Line, Column: f.Column}
	f.Name, f.File, f.Line, f.Column = "render", "src/view.js", 40, 1
	tab := Aggregate(p, AggregateOptions{Lines: true})
	if len(tab.Lines) != 0 || len(tab.BundledLines) != 1 || tab.BundledLines[0].Function.Function != "render" || !tab.BundledLines[0].Minified {
		t.Errorf("lines %+v, bundled %+v", tab.Lines, tab.BundledLines)
	}
	f.LinesMapped = true
	p.LineTicks[0].Line = 42
	tab = Aggregate(p, AggregateOptions{Lines: true})
	if len(tab.Lines) != 1 || tab.Lines[0].Line != 42 || tab.Lines[0].Self != 100e3 || len(tab.BundledLines) != 0 {
		t.Errorf("mapped: lines %+v, bundled %+v", tab.Lines, tab.BundledLines)
	}
}

// TestDatadogLineNumbers: an @datadog/pprof profile taken in its
// line-number mode (lineNumbers: true; testdata/lines/datadog/lines.pb.gz)
// holds the line each function was on, as Go's do: each function is one
// row (not one per line, as the reader made before), its self time is
// spread over its lines and adds up, each line carries its total, and a
// line's self time equals go tool pprof -lines' flat. The same script in
// the default mode (func.pb.gz), and the corpus's default-mode profile,
// keep one row per function start and no lines.
func TestDatadogLineNumbers(t *testing.T) {
	p, err := ParseFile("../testdata/lines/datadog/lines.pb.gz", ParseOptions{Lines: true})
	if err != nil {
		t.Fatal(err)
	}
	tab := Aggregate(p, AggregateOptions{Lines: true})
	rows := map[string]int{}
	self := map[string]int64{}
	for _, r := range tab.Functions {
		if r.Key.File == "/tmp/h-lines2-dd/w/app.js" {
			rows[r.Key.Function]++
			self[r.Key.Function] = r.Self
		}
	}
	for _, fn := range []string{"main", "renderDocument", "parse"} {
		if rows[fn] != 1 {
			t.Errorf("%s: %d rows, want 1", fn, rows[fn])
		}
	}
	if !tab.LineTotals {
		t.Error("no line totals")
	}
	lineSelf := map[string]map[int32]int64{}
	sums := map[string]int64{}
	for _, l := range tab.Lines {
		if l.Function.File != "/tmp/h-lines2-dd/w/app.js" {
			continue
		}
		if lineSelf[l.Function.Function] == nil {
			lineSelf[l.Function.Function] = map[int32]int64{}
		}
		lineSelf[l.Function.Function][l.Line] += l.Self
		sums[l.Function.Function] += l.Self
		if l.Total < l.Self {
			t.Errorf("%s:%d total %d < self %d", l.Function.Function, l.Line, l.Total, l.Self)
		}
	}
	for fn, s := range sums {
		if s != self[fn] {
			t.Errorf("%s: lines add up to %d, self %d", fn, s, self[fn])
		}
	}
	// main's loop (line 11) and the code V8 inlined into it: parse's
	// (line 4) and other's (line 3).
	if m := lineSelf["main"]; len(m) < 3 || m[4] == 0 || m[3] == 0 || m[11] == 0 {
		t.Errorf("main's lines %v", m)
	}
	if pprofPath, err := exec.LookPath("go"); err == nil {
		out, err := exec.Command(pprofPath, "tool", "pprof", "-lines", "-top", "-nodecount=100000", "-unit=ns", "../testdata/lines/datadog/lines.pb.gz").Output()
		if err != nil {
			t.Fatalf("go tool pprof: %v", err)
		}
		re := regexp.MustCompile(`(?m)^\s*(\d+)ns\s.*\s(\S+) \S*app\.js:(\d+)\s*$`)
		n := 0
		for _, m := range re.FindAllStringSubmatch(string(out), -1) {
			flat, _ := strconv.ParseInt(m[1], 10, 64)
			line, _ := strconv.Atoi(m[3])
			if got := lineSelf[m[2]][int32(line)]; got != flat {
				t.Errorf("%s:%s: self %d, go tool pprof -lines %d", m[2], m[3], got, flat)
			}
			n++
		}
		if n < 4 {
			t.Errorf("%d lines of app.js in go tool pprof -lines:\n%s", n, out)
		}
	}

	for _, f := range []string{"../testdata/lines/datadog/func.pb.gz", "../testdata/node-pprof-before.pb.gz"} {
		p, err := ParseFile(f, ParseOptions{Lines: true})
		if err != nil {
			t.Fatal(err)
		}
		tab := Aggregate(p, AggregateOptions{Lines: true})
		if len(tab.Lines) != 0 {
			t.Errorf("%s: %d lines in the default mode", f, len(tab.Lines))
		}
		for _, r := range tab.Functions {
			if r.Key.Function == "renderDocument" && r.Key.Line != 6 {
				t.Errorf("%s: renderDocument at line %d, want its start, 6", f, r.Key.Line)
			}
		}
	}
}
