package analyze

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/profdiff/profdiff/internal/jsonscan"
)

// readNodesGeneral is readNodes without the fast path.
func readNodesGeneral(s *jsonscan.Scanner, in *frameInterner, rp *rawProfile) {
	for range s.Elements() {
		readNode(s, in, rp)
	}
}

// nodesResult is what reading a nodes array leaves, with frames resolved
// so that two interners can be compared.
type nodesResult struct {
	Err      bool
	Nodes    []rawNode
	Frames   []Frame
	Children []int64
	Parents  []rawParent
	Hits     [][2]int32
	Ticks    []LineTick
}

func listOf[T any](c *chunked[T]) []T {
	var out []T
	for i := range c.len() {
		out = append(out, c.at(i))
	}
	return out
}

// readNodesWith reads the nodes array text with the given reader.
func readNodesWith(text string, bufSize int, read func(*jsonscan.Scanner, *frameInterner, *rawProfile)) nodesResult {
	s := jsonscan.New(strings.NewReader(text), bufSize)
	in := newFrameInterner()
	var rp rawProfile
	read(s, in, &rp)
	r := nodesResult{Err: s.Err() != nil}
	if r.Err {
		return r // what was read before the error is dropped with it
	}
	for _, n := range listOf(&rp.nodes) {
		r.Frames = append(r.Frames, in.frames[n.frame])
		n.frame = 0
		r.Nodes = append(r.Nodes, n)
	}
	r.Children, r.Parents, r.Hits, r.Ticks = listOf(&rp.children), listOf(&rp.parents), listOf(&rp.hits), listOf(&rp.ticks)
	return r
}

// checkFastMatchesGeneral reads a nodes array with and without the fast
// path and fails on any difference. It reports how many nodes the fast path
// took.
func checkFastMatchesGeneral(t *testing.T, text string) int {
	t.Helper()
	want := readNodesWith(text, 4096, readNodesGeneral)
	fast := 0
	got := readNodesWith(text, 4096, func(s *jsonscan.Scanner, in *frameInterner, rp *rawProfile) {
		fast = readNodes(s, in, rp)
	})
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fast path differs on %.300q\nfast:    %+v\ngeneral: %+v", text, got, want)
	}
	return fast
}

func TestFastNodeMatchesGeneral(t *testing.T) {
	const cf = `"callFrame":{"functionName":"f","scriptId":"3","url":"file:///a.js","lineNumber":4,"columnNumber":9}`
	cases := []struct {
		node string
		fast bool // whether the fast path should take it
	}{
		{`{"id":1,` + cf + `,"hitCount":0,"children":[2,3]}`, true},
		{`{"id":1,` + cf + `,"hitCount":2,"positionTicks":[{"line":5,"ticks":2},{"line":0,"ticks":1},{"line":7,"ticks":-1}]}`, true},
		{"{\n  \"id\" : 1 ,\n  \"callFrame\" : { \"functionName\" : \"f\" , \"url\" : \"\" } ,\n  \"children\" : [ 2 , 3 ] ,\n  \"positionTicks\" : [ { \"line\" : 1 , \"ticks\" : 1 } ]\n}", true},
		{`{"callFrame":{"codeType":"JS","functionName":"g","scriptId":7,"url":"b.js","lineNumber":1,"columnNumber":2},"id":5,"parent":4}`, true},
		{`{"id":1,"callFrame":{"functionName":"a}b{[c]","url":"x"},"children":[]}`, true},
		{`{"id":1,"callFrame":{},"deoptReason":"","bailoutReason":"no reason","flag":true,"other":null,"n":-3}`, true},
		{`{"id":1,"callFrame":{"functionName":"f","scriptId":"0"}}`, true},
		{`{"id":-7,"callFrame":{"functionName":"(root)"},"positionTicks":[]}`, true},
		{`{"id":1,` + cf + `,"children":[2],"children":[3,4]}`, true}, // a repeated key replaces
		{`{"id":1,` + cf + `,"id":2}`, true},                                   // the last id wins
		{`{"id":1,"callFrame":{"functionName":"f","functionName":"g"}}`, true}, // and the last name
		{`{"id":1,"callFrame":{"functionName":"caf\u00e9 \"q\" \\"}}`, true},
		{`{"id":1,"callFrame":{"functionName":"RegExp: ^(?:\\/a\\/([^\\/]+))$"}}`, true},
		{`{"id":1,"callFrame":{"functionName":"bad \x escape"}}`, false}, // an error either way
		{`{"id":1.0,` + cf + `}`, false},
		{`{"id":1,` + cf + `,"hitCount":3e0}`, false},
		{`{"id":1,` + cf + `,"children":null}`, false},
		{`{"id":1,` + cf + `,"children":[2.0]}`, false},
		{`{"id":1,` + cf + `,"positionTicks":null}`, false},
		{`{"id":1,` + cf + `,"positionTicks":[{}]}`, false},
		{`{"id":1,` + cf + `,"positionTicks":[{"line":1,"ticks":1,"x":[1]}]}`, false},
		{`{"id":1,"callFrame":{"functionName":"f","extra":{"nested":1}}}`, false},
		{`{"id":1,"callFrame":{"functionName":"f","extra":[1]}}`, true},
		{`{"id":1,` + cf + `,"meta":{"a":1}}`, false},
		{`{"id":1,` + cf + `,"parent":null}`, false},
		{`{"id":1234567890123456789,` + cf + `}`, false},
		{`{"id":1,` + cf + `,"hitCount":-1}`, false},                          // an error either way
		{`{"id":1,` + cf + `,"hitCount":99999999999}`, false},                 // an error either way
		{`{` + cf + `}`, false},                                               // no id: an error
		{`{"id":1}`, false},                                                   // no callFrame: an error
		{`{}`, false},                                                         // an error
		{"{\"id\":1,\"callFrame\":{\"functionName\":\"a\tb\"}}", false},       // control character: an error
		{`{"id":1,"callFrame":{"functionName":"f"},"children":[1 2]}`, false}, // an error
		{`{"id":1,"callFrame":{"functionName":"f"}`, false},                   // cut: an error
		{`{"id":1,"callFrame":{"functionName":"f"} "x":1}`, false},            // an error
		{`{"id":12abc,` + cf + `}`, false},                                    // an error
		{`{"id":1-2,` + cf + `}`, false},                                      // an error
		{`{"id":1,"callFrame":{"functionName":"f","lineNumber":nul}}`, false},
	}
	for _, c := range cases {
		text := "[" + c.node + "," + c.node + "]"
		if fast := checkFastMatchesGeneral(t, text); (fast > 0) != c.fast {
			t.Errorf("fast path took %d nodes of %s, want fast=%v", fast, c.node, c.fast)
		}
	}
}

// TestFastNodeMatchesGeneralOnFixtures compares the two paths node by node
// on every real profile in testdata: Node, Chrome, DevTools and trace nodes.
func TestFastNodeMatchesGeneralOnFixtures(t *testing.T) {
	// The share of nodes the fast path must take: all but the callFrames of
	// an old format that nest lineTicks in them.
	files := map[string]float64{
		"node-router-unbundled-before.cpuprofile": 1, "chrome-cdp-page.cpuprofile": 1,
		"cpupro-demo.cpuprofile": 0.75, "speedscope-chrome65-simple.cpuprofile": 1,
		"chrome156-multi-process.trace.json.gz": 1, "speedscope-chrome69-simple-trace.json.gz": 1,
	}
	for name, share := range files {
		var arrays []json.RawMessage
		collectNodeArrays(t, fixture(name), &arrays)
		if len(arrays) == 0 {
			t.Fatalf("%s: no nodes arrays found", name)
		}
		total, fast := 0, 0
		for _, a := range arrays {
			var nodes []json.RawMessage
			if err := json.Unmarshal(a, &nodes); err != nil {
				t.Fatal(err)
			}
			total += len(nodes)
			fast += checkFastMatchesGeneral(t, string(a))
		}
		if float64(fast) < share*float64(total) {
			t.Errorf("%s: the fast path took only %d of %d nodes", name, fast, total)
		}
		t.Logf("%s: %d of %d nodes by the fast path", name, fast, total)
	}
}

// collectNodeArrays finds every "nodes" array in a JSON file.
func collectNodeArrays(t *testing.T, path string, out *[]json.RawMessage) {
	data := readMaybeGzipped(t, path)
	// Walk raw values, so that each nodes array keeps its bytes as written.
	var walk func(raw json.RawMessage)
	walk = func(raw json.RawMessage) {
		switch strings.TrimLeft(string(raw), " \t\r\n")[0] {
		case '{':
			var m map[string]json.RawMessage
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			for k, x := range m {
				if k == "nodes" && strings.HasPrefix(string(x), "[") {
					*out = append(*out, x)
				}
				walk(x)
			}
		case '[':
			var a []json.RawMessage
			if err := json.Unmarshal(raw, &a); err != nil {
				t.Fatal(err)
			}
			for _, x := range a {
				walk(x)
			}
		}
	}
	walk(data)
}

// FuzzFastNode holds the fast path to the general reader on arbitrary
// node text.
func FuzzFastNode(f *testing.F) {
	f.Add(`{"id":1,"callFrame":{"functionName":"f","scriptId":"3","url":"a.js","lineNumber":4,"columnNumber":9},"hitCount":1,"children":[2],"positionTicks":[{"line":5,"ticks":1}]}`)
	f.Add(`{"callFrame":{"functionName":"g","scriptId":7},"id":5,"parent":4}`)
	f.Add(`{"id":1,"callFrame":{"functionName":"a}b"},"x":[1,{"y":null}]}`)
	f.Fuzz(func(t *testing.T, node string) {
		checkFastMatchesGeneral(t, fmt.Sprintf("[%s,%s]", node, node))
	})
}

func TestChunkedTruncate(t *testing.T) {
	for _, n := range []int{0, 5, 16, 17, 1 << chunkBits, 1<<chunkBits + 3, 3<<chunkBits + 1} {
		for _, keep := range []int{0, 1, n / 2, n - 1, n, n + 1} {
			if keep < 0 {
				continue
			}
			var c chunked[int]
			for i := range n {
				c.add(i)
			}
			c.truncate(keep)
			want := min(keep, n)
			if c.len() != want {
				t.Fatalf("n=%d truncate(%d): len %d", n, keep, c.len())
			}
			for i := range 5 {
				c.add(100 + i)
			}
			for i := range c.len() {
				w := i
				if i >= want {
					w = 100 + i - want
				}
				if c.at(i) != w {
					t.Fatalf("n=%d truncate(%d): at(%d) = %d, want %d", n, keep, i, c.at(i), w)
				}
			}
		}
	}
}

// TestFastPathIsLinear: braces inside a callFrame's strings, or a huge
// children list, cost the fast path time in proportion to their bytes.
func TestFastPathIsLinear(t *testing.T) {
	name := strings.Repeat("}", 240000)
	kids := strings.TrimSuffix(strings.Repeat("2,", 100000), ",")
	text := `[{"id":1,"callFrame":{"functionName":"` + name + `","url":"a.js"},"children":[` + kids + `]},` +
		`{"id":2,"callFrame":{"functionName":"f\"` + name + `"}}]`
	start := time.Now()
	s := jsonscan.New(strings.NewReader(text), jsonscan.BufSize)
	in := newFrameInterner()
	var rp rawProfile
	readNodes(s, in, &rp)
	if s.Err() != nil || rp.nodes.len() != 2 || rp.children.len() != 100000 {
		t.Fatalf("err %v, %d nodes, %d children", s.Err(), rp.nodes.len(), rp.children.len())
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("reading 700 KB took %v", d)
	}
}
