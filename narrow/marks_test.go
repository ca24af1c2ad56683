package narrow

import (
	"errors"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// --window-marks A..B on the trace recorded here (a page that marks A,
// works 600 ms and marks B) keeps exactly the samples taken between the
// marks, and M (the measure from A to B) the same.
func TestWindowMarks(t *testing.T) {
	const file = "chromium-user-timing.trace.json.gz"
	orig := load(t, file)
	var a, b int64 = -1, -1
	for _, m := range orig.Marks {
		switch m.Name {
		case "A":
			a = m.Start
		case "B":
			b = m.Start
		}
	}
	if a < 0 || b <= a {
		t.Fatalf("marks A %d, B %d", a, b)
	}
	var want int64
	for _, s := range orig.Samples {
		if s.Time >= a && s.Time < b && orig.Frames[orig.Nodes[s.Node].Frame].Kind.OnCPU() {
			want += s.Weight
		}
	}
	for _, spec := range []string{"A..B", "M"} {
		mw, err := ParseMarkWindow(spec)
		if err != nil {
			t.Fatal(err)
		}
		p := load(t, file)
		f := &Filters{WindowMarks: mw}
		if err := f.Apply(p); err != nil {
			t.Fatal(err)
		}
		if f.Window != nil {
			t.Errorf("Apply changed the shared filters: %+v", f.Window)
		}
		if used := mw.Used(); len(used) != 1 || used[0] != "(chromium-user-timing.trace.json.gz: 504.841ms..1105.246ms)" {
			t.Errorf("%s: windows used %q", spec, used)
		}
		got := analyze.Aggregate(p, analyze.AggregateOptions{}).Summary
		if got.OnCPUNs != want || want < 550e6 || want > 650e6 || got.WallNs != b-a {
			t.Errorf("%s: on-CPU %d (by hand %d), wall %d (marks %d..%d)", spec, got.OnCPUNs, want, got.WallNs, a, b)
		}
	}
	for spec, msg := range map[string]string{
		"A..C": `no User Timing mark or measure "C"`,
		"B..A": "is empty: A comes before B",
		"A..A": "is empty",
	} {
		mw, _ := ParseMarkWindow(spec)
		if err := (&Filters{WindowMarks: mw}).Apply(load(t, file)); err == nil || !errors.As(err, new(*FilterError)) || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v", spec, err)
		}
	}
	for _, other := range []string{"node-router-unbundled-before.cpuprofile", "go-router-before.pprof"} {
		err := (&Filters{WindowMarks: &MarkWindow{From: "A", To: "B"}}).Apply(load(t, other))
		if err == nil || !strings.Contains(err.Error(), "Chrome traces") {
			t.Errorf("marks on %s: %v", other, err)
		}
	}
	for _, bad := range []string{"", "..B", "A.."} {
		if _, err := ParseMarkWindow(bad); err == nil {
			t.Errorf("ParseMarkWindow(%q) parses", bad)
		}
	}
}
