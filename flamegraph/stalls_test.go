package flamegraph

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
)

// loader is the recorded catalog loader pair, one run a side, as the
// command reads them (with their file names).
func loader(t *testing.T) *diff.Report {
	t.Helper()
	var sides []diff.Side
	for _, name := range []string{"before", "after"} {
		file := "responsiveness/" + name + "-r1.cpuprofile.gz"
		tab := aggregate(t, file, nil)
		tab.File = file
		sides = append(sides, diff.Side{Name: name, Tables: []*analyze.Table{tab}})
	}
	r, err := diff.Compare(sides, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// pageData is the page's data object.
func pageData(t *testing.T, html []byte) map[string]any {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script type="application/json" id="data">(.*?)</script>`).FindSubmatch(html)
	if m == nil {
		t.Fatal("no data in the page")
	}
	var d map[string]any
	if err := json.Unmarshal(m[1], &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestStallsStripData: the page holds each run's stretches over 16 ms and
// the longest stall with what ran in it and the --window command that
// narrows to it; a profile without sample times holds none.
func TestStallsStripData(t *testing.T) {
	r := loader(t)
	d := pageData(t, page(t, r))
	st, _ := d["stalls"].(map[string]any)
	runs, _ := st["runs"].([]any)
	longest, _ := st["longest"].([]any)
	if len(runs) != 2 || len(longest) != 1 {
		t.Fatalf("stalls = %v", st)
	}
	if long := runs[0].(map[string]any)["long"].([]any); len(long) != 1 || long[0].([]any)[1].(float64) < 400e6 {
		t.Errorf("before run's long stretches %v", long)
	}
	l := longest[0].(map[string]any)
	s := r.Responsiveness.Runs[0][0].Longest[0]
	from, to := int64(s.Start/1e6), int64((s.Start+s.Duration+999_999)/1e6)
	want := "profdiff --window " + itoa(from) + "ms.." + itoa(to) + "ms responsiveness/before-r1.cpuprofile.gz"
	if l["command"] != want || !strings.Contains(l["text"].(string), "parseRecordAt") || !regexp.MustCompile(l["match"].(string)).MatchString("parseRecordAt") {
		t.Errorf("longest stall %v, want command %q", l, want)
	}
	if st["source"] != "from samples" {
		t.Errorf("source %v", st["source"])
	}

	pp := compare(t, aggregate(t, "go-router-before.pprof", nil))
	if d := pageData(t, page(t, pp)); d["stalls"] != nil {
		t.Errorf("a pprof profile's page has stalls %v", d["stalls"])
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestStallsStripInChromium: in a browser, the strip shows each run, and a
// stall selected (#stall=0, as a click does) shows what ran in it and the
// --window command, and lights its functions up in the flame graph.
func TestStallsStripInChromium(t *testing.T) {
	browser := chromium(t)
	r := loader(t)
	_, dom, log, _ := load(t, browser, page(t, r), "#stall=0")
	if strings.Contains(log, "Uncaught") || strings.Contains(log, "Refused to") {
		t.Errorf("browser log: %s", log)
	}
	if n := strings.Count(dom, `class="stall-strip"`); n != 2 {
		t.Errorf("%d strips, want 2", n)
	}
	for _, want := range []string{`class="stall long sel"`, "Narrow the report to it: <code>profdiff --window ", "parseRecordAt", "% of on-CPU time</span>"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
