package analyze

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// repeatedLines reads as a line repeated n times, without holding them.
type repeatedLines struct {
	line string
	n    int
	off  int
}

func (r *repeatedLines) Read(p []byte) (int, error) {
	w := 0
	for w < len(p) && r.n > 0 {
		c := copy(p[w:], r.line[r.off:])
		w += c
		r.off += c
		if r.off == len(r.line) {
			r.off, r.n = 0, r.n-1
		}
	}
	if w == 0 {
		return 0, io.EOF
	}
	return w, nil
}

// TestFoldedMemoryFollowsDistinctStacks: a million identical lines are one
// stack, so the profile holds one sample and reading keeps no memory per
// line (it kept a sample per line, 24 MB here and 952 MB for 10 M lines).
func TestFoldedMemoryFollowsDistinctStacks(t *testing.T) {
	const n = 1_000_000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p, err := Parse(&repeatedLines{line: "main;app.handle;app.parse 3\n", n: n}, ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if len(p.Samples) != 1 || len(p.Nodes) != 4 {
		t.Errorf("%d samples, %d nodes: want 1 and 4", len(p.Samples), len(p.Nodes))
	}
	if want := int64(3 * n * DefaultFoldedIntervalNs); p.WallNs != want || p.Samples[0].Weight != want || p.SampleCount != 3*n {
		t.Errorf("wall %d, weight %d, %d samples: want %d, %d, %d", p.WallNs, p.Samples[0].Weight, p.SampleCount, want, want, 3*n)
	}
	if kept := int64(after.HeapAlloc) - int64(before.HeapAlloc); kept > 4<<20 {
		t.Errorf("reading %d identical lines keeps %d bytes", n, kept)
	}
	runtime.KeepAlive(p)
}

// TestFoldedSumsRepeatedStacks: a stack given on several lines, apart,
// weighs their sum, as it did when each line was a sample of its own.
func TestFoldedSumsRepeatedStacks(t *testing.T) {
	p, err := Parse(strings.NewReader("main;a 2\nmain;b 1\nmain;a 5\nmain 1\nmain;b 1\n"), ParseOptions{FoldedUnit: FoldedMs})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, s := range p.Samples {
		got[p.Frames[p.Nodes[s.Node].Frame].Name] += s.Weight
	}
	if len(p.Samples) != 3 || got["a"] != 7e6 || got["b"] != 2e6 || got["main"] != 1e6 || p.WallNs != 10e6 {
		t.Errorf("%d samples %v, wall %d", len(p.Samples), got, p.WallNs)
	}
}

// TestFoldedDepthCut: a stack deeper than MaxFoldedDepth keeps its
// innermost MaxFoldedDepth frames, and one warning counts the stacks cut.
func TestFoldedDepthCut(t *testing.T) {
	deep := func(n int) string {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("f%d", i)
		}
		return strings.Join(names, ";")
	}
	in := deep(MaxFoldedDepth+5) + " 2\n" +
		";;" + deep(MaxFoldedDepth+1) + " 1\n" + // empty names are no frames
		deep(MaxFoldedDepth) + " 1\n" + // at the limit: kept whole
		"main;work 4\n"
	p, err := Parse(strings.NewReader(in), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var cut []Warning
	for _, w := range p.Warnings {
		if w.Kind == WarnDeepStacksCut {
			cut = append(cut, w)
		}
	}
	if len(cut) != 1 || !strings.HasPrefix(cut[0].Message, fmt.Sprintf("2 stacks deeper than %d frames were cut", MaxFoldedDepth)) {
		t.Fatalf("warnings %v", p.Warnings)
	}
	outer := func(node int32) (string, int) {
		depth := 0
		for ; p.Nodes[node].Parent > 0; node = p.Nodes[node].Parent {
			depth++
		}
		return p.Frames[p.Nodes[node].Frame].Name, depth + 1
	}
	want := []struct {
		leaf, root string
	}{
		{fmt.Sprintf("f%d", MaxFoldedDepth+4), "f5"},
		{fmt.Sprintf("f%d", MaxFoldedDepth), "f1"},
		{fmt.Sprintf("f%d", MaxFoldedDepth-1), "f0"},
	}
	if len(p.Samples) != 4 {
		t.Fatalf("%d samples", len(p.Samples))
	}
	for i, w := range want {
		s := p.Samples[i]
		root, depth := outer(s.Node)
		if leaf := p.Frames[p.Nodes[s.Node].Frame].Name; leaf != w.leaf || root != w.root || depth != MaxFoldedDepth {
			t.Errorf("stack %d: %s ... %s, %d frames; want %s ... %s, %d", i, root, leaf, depth, w.root, w.leaf, MaxFoldedDepth)
		}
	}
}

// TestFoldedLongFirstLine: a folded file whose first stack is longer than
// the 64 KiB that detection looked at is read (it was "not a profile",
// though the reader takes lines of 16 MiB), gzipped or not, after a
// comment or not; long text that is no stack is still no profile.
func TestFoldedLongFirstLine(t *testing.T) {
	frames := make([]string, 5000)
	for i := range frames {
		frames[i] = fmt.Sprintf("app.someRatherLongFunctionName%d", i)
	}
	stack := strings.Join(frames, ";") + " 7\nmain;other 1\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(stack))
	zw.Close()
	for name, in := range map[string]string{"plain": stack, "after a comment": "# perf\n\n" + stack, "gzipped": gz.String()} {
		p, err := Parse(strings.NewReader(in), ParseOptions{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if p.Format != FormatFolded || len(p.Samples) != 2 || p.SampleCount != 8 {
			t.Errorf("%s: %v, %d samples, count %d", name, p.Format, len(p.Samples), p.SampleCount)
		}
	}
	if _, err := Parse(strings.NewReader(strings.Repeat("word;", 30000)+"\nmore\n"), ParseOptions{}); err == nil || !strings.Contains(err.Error(), "not a profile") {
		t.Errorf("long text: %v", err)
	}
	// Longer than the reader takes: the reader says so, not detection.
	if _, err := Parse(strings.NewReader(strings.Repeat("a;", 9<<20)+"b 1\n"), ParseOptions{}); err == nil || !strings.Contains(err.Error(), "line 1: longer than 16777216 bytes") {
		t.Errorf("too long: %v", err)
	}
}

// TestFoldedInputErrors: what is wrong with a folded file is said in its
// terms, naming the line: a NUL byte (it was "malformed protobuf"), a count
// in another notation (1e-300 on line 1 was "not a profile" while 0x1p20 on
// line 2 was a count), a fraction of a sample; and a frame may end in a
// number without the line being taken for the differential form.
func TestFoldedInputErrors(t *testing.T) {
	for in, want := range map[string]string{
		"main;a 10\nmain;b 3\nbad\x00line 4\n":       "line 3: a NUL byte at column 4: folded stacks are text",
		"bad\x00;main 4\n":                           "line 1: a NUL byte",
		"rain;a 10\nmain;b\x00 3\n":                  "line 2: a NUL byte", // 'r' is also a protobuf tag
		"main;a 1e-300\n":                            `line 1: the count "1e-300" is not a number of samples: counts are decimal integers`,
		"main;a 10\nmain;b 0x1p20\n":                 `line 2: the count "0x1p20" is not a number of samples`,
		"main;a 10\nmain;b 2.5\n":                    `line 2: the count "2.5" is not a number of samples`,
		"# unit=us\nmain;a 10\nmain;b 1e3\n":         `line 3: the count "1e3" is not a time in us: counts are decimal numbers`,
		"main;a 10\nmain;b +3\n":                     `line 2: the count "+3"`,
		"main;a 1" + strings.Repeat("0", 400) + "\n": "line 1: the count",
	} {
		_, err := Parse(strings.NewReader(in), ParseOptions{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", clip(in), err, want)
		}
	}
	p, err := Parse(strings.NewReader("# unit=us\nmain;a 10.5\nmain;trailing 42 30\nmain;b 1\n"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]int64{}
	for _, s := range p.Samples {
		names[p.Frames[p.Nodes[s.Node].Frame].Name] = s.Weight
	}
	if names["trailing 42"] != 30_000 || names["a"] != 10_500 {
		t.Errorf("frames %v", names)
	}
	if _, err := Parse(strings.NewReader("\x01\x02\x03binary"), ParseOptions{}); err == nil || !strings.Contains(err.Error(), "folded stacks") {
		t.Errorf("not a profile: %v", err)
	}
}
