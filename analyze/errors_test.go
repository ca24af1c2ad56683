package analyze

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// noSamplesPprof is a raw profile.proto with one sample type (cpu/nanoseconds)
// and no samples, written by hand: field 1 sample_type {type: 1, unit: 2},
// field 6 string_table ["", "cpu", "nanoseconds"].
const noSamplesPprof = "\x0a\x04\x08\x01\x10\x02" + "\x32\x00" + "\x32\x03cpu" + "\x32\x0bnanoseconds"

// TestBadInputErrors pins the one-line error for each kind of broken input.
func TestBadInputErrors(t *testing.T) {
	root := `{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}`
	f := func(id int, extra string) string {
		return `{"id":` + strconv.Itoa(id) + `,"callFrame":{"functionName":"f","scriptId":"1","url":"a.js","lineNumber":0,"columnNumber":0}` + extra + `}`
	}
	doc := func(nodes, rest string) string {
		return `{"nodes":[` + nodes + `],"startTime":0,"endTime":10` + rest + `}`
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(doc(root+`,"children":[2]},`+f(2, ""), `,"samples":[2],"timeDeltas":[1]`)))
	zw.Close()
	truncGz := gz.Bytes()[:gz.Len()/2]

	cases := []struct {
		name, input, want string
	}{
		{"empty", "", "empty file"},
		{"blank", "  \n ", "empty file"},
		{"not a profile", "hello, world\n", "not a profile"},
		{"NUL bytes", "\x00\x00\x00\x00", "not a profile"},
		{"json without profile", `{"a":1}`, `neither "nodes"`},
		{"truncated json", doc(root+`,"children":[2]},`+f(2, ""), `,"samples":[2],"timeDeltas":[1]`)[:60], "unexpected end of input"},
		{"wrong type", doc(root+`}`, `,"samples":"x","timeDeltas":[1]`), "expected an array"},
		{"duplicate id", doc(root+`},`+f(1, ""), ""), "node id 1 appears twice"},
		{"cycle", doc(root+`},`+f(2, `,"children":[3]`)+`,`+f(3, `,"children":[2]`), ""), "cycle"},
		{"self child", doc(root+`,"children":[1]}`, ""), "lists itself as its child"},
		{"two parents", doc(root+`,"children":[2]},`+f(2, "")+`,`+f(3, `,"children":[2]`), ""), "child of both"},
		{"unknown sample", doc(root+`}`, `,"samples":[5],"timeDeltas":[1]`), "sample 0 names node 5, which does not exist"},
		{"every sample unknown", doc(root+`},`+f(2, ""), `,"samples":[5,6],"timeDeltas":[1,1]`), "sample 0 names node 5, which does not exist"},
		{"length mismatch", doc(root+`}`, `,"samples":[1,1],"timeDeltas":[1]`), "2 samples but 1 timeDeltas"},
		{"fraction delta", doc(root+`}`, `,"samples":[1],"timeDeltas":[1.5]`), "fraction"},
		{"huge delta", doc(root+`}`, `,"samples":[1],"timeDeltas":[99999999999999999999]`), "out of range"},
		{"beyond real delta", doc(root+`}`, `,"samples":[1,1],"timeDeltas":[1,9000000000000000]`), "beyond any real profile"},
		{"NaN", doc(root+`}`, `,"samples":[1],"timeDeltas":[NaN]`), "expected a number"},
		{"Infinity", doc(root+`}`, `,"samples":[1],"timeDeltas":[Infinity]`), "expected a number"},
		{"huge exponent", doc(root+`}`, `,"samples":[1],"timeDeltas":[1e400]`), "out of range"},
		{"parent cycle", doc(root+`},`+f(2, `,"parent":3`)+`,`+f(3, `,"parent":2`), ""), "cycle through node"},
		{"string sample", doc(root+`}`, `,"samples":["1"],"timeDeltas":[1]`), "expected a number"},
		{"no nodes", `{"nodes":[]}`, "no nodes"},
		{"node without id", `{"nodes":[{"callFrame":{}}]}`, "has no id"},
		{"trailing garbage", doc(root+`}`, "") + "x", "after the end"},
		{"truncated gzip", string(truncGz), "truncated gzip"},
		{"pprof without samples", noSamplesPprof, "pprof profile has no samples"},
		{"trace without profile", `[{"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"x"}}]`, "trace holds no CPU profile"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(c.input), ParseOptions{})
			if err == nil {
				t.Fatalf("no error, want one containing %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to contain %q", err, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
}

func TestGzipBombIsBounded(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`{"nodes":[`))
	zw.Write(bytes.Repeat([]byte(" "), 4<<20))
	zw.Close()
	_, err := Parse(bytes.NewReader(gz.Bytes()), ParseOptions{MaxInputSize: 1 << 20})
	if err == nil || !strings.Contains(err.Error(), "size limit") {
		t.Fatalf("err = %v, want the size limit", err)
	}
}

func TestParseFileNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/bad.cpuprofile"
	os.WriteFile(path, []byte(`{"nodes":[{"id":1,"callFrame":{}}],"samples":[99],"timeDeltas":[1]}`), 0o644)
	_, err := ParseFile(path, ParseOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), path+": ") {
		t.Fatalf("err = %v, want it to start with the path", err)
	}
	_, err = ParseFile(dir+"/missing.cpuprofile", ParseOptions{})
	if err == nil || !strings.Contains(err.Error(), "missing.cpuprofile") {
		t.Fatalf("err = %v, want the missing file named", err)
	}
}

// TestHostileShapes: inputs that are valid or nearly so but shaped to
// exhaust a naive reader: a stack a million frames deep (no recursion may
// overflow), ten million children of one node, a JSON cut anywhere in the
// large fixture, special files.
func TestHostileShapes(t *testing.T) {
	cf := func(id int) string {
		return `{"id":` + strconv.Itoa(id) + `,"callFrame":{"functionName":"f` + strconv.Itoa(id%7) + `","scriptId":"1","url":"a.js","lineNumber":1,"columnNumber":1}`
	}
	t.Run("deep stack", func(t *testing.T) {
		const depth = 1000000
		var b strings.Builder
		b.WriteString(`{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}}`)
		for i := 2; i <= depth; i++ {
			b.WriteString("," + cf(i) + `,"parent":` + strconv.Itoa(i-1) + `}`)
		}
		b.WriteString(`],"startTime":0,"endTime":10,"samples":[` + strconv.Itoa(depth) + `,2],"timeDeltas":[1,1]}`)
		start := time.Now()
		p, err := Parse(strings.NewReader(b.String()), ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tab := Aggregate(p, AggregateOptions{Edges: true, Lines: true})
		if tab.Summary.Samples != 2 || len(tab.Functions) != 7 {
			t.Errorf("summary %+v, %d functions", tab.Summary, len(tab.Functions))
		}
		for _, r := range tab.Functions {
			if r.Total > tab.Summary.OnCPUNs {
				t.Errorf("recursion counted twice: %+v", r)
			}
		}
		t.Logf("%d frames deep: %v", depth, time.Since(start))
	})
	t.Run("ten million children", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(`{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"children":[`)
		for i := 2; i <= 10000001; i++ {
			if i > 2 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(i))
		}
		b.WriteString(`]}],"startTime":0,"endTime":10,"samples":[1],"timeDeltas":[1]}`)
		// No sample is in them: dropped, with a warning (issue 31).
		p, err := Parse(strings.NewReader(b.String()), ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Warnings) != 1 || p.Warnings[0].Kind != WarnMissingNodes || !strings.Contains(p.Warnings[0].Message, "10000000 child ids") {
			t.Errorf("warnings %v", p.Warnings)
		}
	})
	t.Run("special file", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), "fifo.cpuprofile")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Skip(err)
		}
		_, err := ParseFile(fifo, ParseOptions{})
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("cut large fixture", func(t *testing.T) {
		path := filepath.Join("..", "..", "shared", "corpus", "large", "tsc-effect-unbundled.cpuprofile")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Skip("large fixture absent")
		}
		for _, frac := range []float64{0.0001, 0.1, 0.5, 0.999999} {
			cut := data[:int(float64(len(data))*frac)]
			_, err := Parse(bytes.NewReader(cut), ParseOptions{})
			if err == nil || !strings.Contains(err.Error(), "unexpected end of input") || !strings.Contains(err.Error(), "at byte") {
				t.Errorf("cut at %.4f%%: %v", 100*frac, err)
			}
		}
	})
}
