package analyze

import (
	"bytes"
	"compress/gzip"
	"os"
	"strconv"
	"strings"
	"testing"
)

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
		{"json without profile", `{"a":1}`, `neither "nodes"`},
		{"truncated json", doc(root+`,"children":[2]},`+f(2, ""), `,"samples":[2],"timeDeltas":[1]`)[:60], "unexpected end of input"},
		{"wrong type", doc(root+`}`, `,"samples":"x","timeDeltas":[1]`), "expected an array"},
		{"unknown child", doc(root+`,"children":[99]}`, ""), "node 1 lists child 99, which does not exist"},
		{"unknown parent", doc(root+`},`+f(2, `,"parent":42`), ""), "node 2 names parent 42, which does not exist"},
		{"duplicate id", doc(root+`},`+f(1, ""), ""), "node id 1 appears twice"},
		{"cycle", doc(root+`},`+f(2, `,"children":[3]`)+`,`+f(3, `,"children":[2]`), ""), "cycle"},
		{"self child", doc(root+`,"children":[1]}`, ""), "lists itself as its child"},
		{"two parents", doc(root+`,"children":[2]},`+f(2, "")+`,`+f(3, `,"children":[2]`), ""), "child of both"},
		{"unknown sample", doc(root+`}`, `,"samples":[5],"timeDeltas":[1]`), "sample 0 names node 5, which does not exist"},
		{"length mismatch", doc(root+`}`, `,"samples":[1,1],"timeDeltas":[1]`), "2 samples but 1 timeDeltas"},
		{"fraction delta", doc(root+`}`, `,"samples":[1],"timeDeltas":[1.5]`), "fraction"},
		{"huge delta", doc(root+`}`, `,"samples":[1],"timeDeltas":[99999999999999999999]`), "out of range"},
		{"beyond real delta", doc(root+`}`, `,"samples":[1,1],"timeDeltas":[1,9000000000000000]`), "beyond any real profile"},
		{"NaN", doc(root+`}`, `,"samples":[1],"timeDeltas":[NaN]`), "expected a number"},
		{"no nodes", `{"nodes":[]}`, "no nodes"},
		{"node without id", `{"nodes":[{"callFrame":{}}]}`, "has no id"},
		{"trailing garbage", doc(root+`}`, "") + "x", "after the end"},
		{"truncated gzip", string(truncGz), "truncated gzip"},
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
	os.WriteFile(path, []byte(`{"nodes":[{"id":1,"callFrame":{},"children":[99]}]}`), 0o644)
	_, err := ParseFile(path, ParseOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), path+": ") {
		t.Fatalf("err = %v, want it to start with the path", err)
	}
	_, err = ParseFile(dir+"/missing.cpuprofile", ParseOptions{})
	if err == nil || !strings.Contains(err.Error(), "missing.cpuprofile") {
		t.Fatalf("err = %v, want the missing file named", err)
	}
}
