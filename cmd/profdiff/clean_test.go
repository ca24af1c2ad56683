package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	pprofile "github.com/google/pprof/profile"
)

// hostile holds what a profile's names must never send to a terminal: an
// OSC that sets the title, a CSI that clears the screen, a C1 CSI, a
// bidirectional override and NUL.
const hostile = "\x1b]0;pwned\a\x1b[2J\u009b31m\u202e\x00"

// unsafeOutput returns the first byte sequence of out that a terminal would
// act on: ESC, another C0 control but newline and tab, a C1 control or a
// bidirectional control.
func unsafeOutput(out string) (string, bool) {
	for i, r := range out {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f),
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return out[max(0, i-40):min(len(out), i+10)], true
		}
	}
	return "", false
}

// hostileInputs writes a .cpuprofile whose script URL and function name, a
// trace whose thread and process names, and a pprof whose sample type,
// function and file names carry hostile text, each under a hostile file
// name.
func hostileInputs(t *testing.T) (cpuprofile, trace, pprof string) {
	dir := t.TempDir()
	prof := func(url string) map[string]any {
		return map[string]any{
			"nodes": []any{
				map[string]any{"id": 1, "callFrame": map[string]any{"functionName": "(root)", "scriptId": "0", "url": "", "lineNumber": -1, "columnNumber": -1}, "children": []int{2}},
				map[string]any{"id": 2, "callFrame": map[string]any{"functionName": "f" + hostile, "scriptId": "1", "url": url, "lineNumber": 0, "columnNumber": 30000}},
			},
			"startTime": 0, "endTime": 10000, "samples": []int{2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, "timeDeltas": []int{1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000},
		}
	}
	write := func(name string, v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cpuprofile = write("esc\x1b[2J.cpuprofile", prof("/srv/"+hostile+"bundle.min.js"))
	var ev []any
	for tid, name := range map[int]string{1: "Main" + hostile, 2: "Worker\x1b[1;31m" + hostile} {
		p := prof("file:///x" + hostile + ".js")
		ev = append(ev,
			map[string]any{"ph": "M", "name": "thread_name", "pid": 1, "tid": tid, "args": map[string]any{"name": name}},
			map[string]any{"ph": "M", "name": "process_name", "pid": 1, "tid": tid, "args": map[string]any{"name": "Proc" + hostile}},
			map[string]any{"ph": "P", "name": "Profile", "pid": 1, "tid": tid, "id": tid, "ts": 0, "args": map[string]any{"data": map[string]any{"startTime": 0}}},
			map[string]any{"ph": "P", "name": "ProfileChunk", "pid": 1, "tid": tid, "id": tid, "ts": 1, "args": map[string]any{"data": map[string]any{
				"cpuProfile": map[string]any{"nodes": p["nodes"], "samples": p["samples"]}, "timeDeltas": p["timeDeltas"]}}},
		)
	}
	trace = write("esc\u202e.json", map[string]any{"traceEvents": ev})

	fn := &pprofile.Function{ID: 1, Name: "main.f" + hostile, SystemName: "main.f", Filename: "/src/" + hostile + "main.go"}
	loc := &pprofile.Location{ID: 1, Address: 0x1000, Line: []pprofile.Line{{Function: fn, Line: 3}}}
	pp := &pprofile.Profile{
		SampleType:    []*pprofile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu" + hostile, Unit: "nanoseconds"}},
		PeriodType:    &pprofile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        10000000,
		DurationNanos: 1e9,
		Function:      []*pprofile.Function{fn},
		Location:      []*pprofile.Location{loc},
		Sample:        []*pprofile.Sample{{Location: []*pprofile.Location{loc}, Value: []int64{5, 50000000}}},
	}
	var buf bytes.Buffer
	if err := pp.Write(&buf); err != nil {
		t.Fatal(err)
	}
	pprof = filepath.Join(dir, "esc\u009b.pprof")
	if err := os.WriteFile(pprof, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return cpuprofile, trace, pprof
}

// TestNoEscapeReachesTheTerminal runs every output (text, markdown, json,
// the speedscope and folded exports, --list, -o with warnings on stderr, errors that quote the input) on
// hostile names: what profdiff writes passes through termtext.Clean (or JSON's
// and markdown's escaping), so none of their controls is written raw.
func TestNoEscapeReachesTheTerminal(t *testing.T) {
	cpu, trace, pp := hostileInputs(t)
	out := filepath.Join(t.TempDir(), "report")
	var cases [][]string
	for _, f := range []string{cpu, trace, pp} {
		for _, format := range []string{"text", "markdown", "json", "speedscope", "folded"} {
			cases = append(cases, []string{"--format", format, f})
		}
		cases = append(cases, []string{"--list", f}, []string{"--format", "text", "-o", out, f})
	}
	cases = append(cases,
		[]string{"--format", "text", "--thread", "Worker", trace}, // several match: the error lists them
		[]string{"--format", "text", "--thread", "nope" + hostile, trace},
		[]string{"--format", "text", "--sample-type", "nope", pp},
		[]string{"--format", "text", "--sample-type", "cpu" + hostile, pp},
		[]string{"--format", "text", cpu, pp}, // mixed formats: the error names both files
		[]string{"--format", "text", "--allow-mixed-formats", "-o", out, cpu, pp},
		[]string{"--format", "text", cpu, filepath.Join(filepath.Dir(cpu), "missing"+hostile)},
		[]string{"--format", "text" + hostile, cpu},
		[]string{"--bogus" + hostile},
	)
	for _, args := range cases {
		code, stdout, stderr := runCLI(args...)
		if testing.Verbose() {
			t.Logf("%q: exit %d\n%s%s", args, code, stdout, stderr)
		}
		if code != 0 && code != 2 {
			t.Errorf("%q: exit %d", args, code)
		}
		for name, s := range map[string]string{"stdout": stdout, "stderr": stderr} {
			if bad, ok := unsafeOutput(s); ok {
				t.Errorf("%q: %s writes a control from the input: %q", args, name, bad)
			}
		}
	}
}
