package report

import (
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/analyze/analyzetest"
	"github.com/profdiff/profdiff/diff"
)

// TestResponsivenessSaysSource: a Chrome trace's figures come from the
// browser's tasks and every output says so, with its frames over 16 ms; a
// .cpuprofile's from samples, without frames.
func TestResponsivenessSaysSource(t *testing.T) {
	for _, c := range []struct {
		file, source, says string
	}{
		{"chrome156-multi-process.trace.json.gz", "tasks", "from the browser's tasks"},
		{"responsiveness/before-r1.cpuprofile.gz", "samples", "from samples"},
	} {
		side := diff.Side{Name: "profile", Tables: []*analyze.Table{analyzetest.Table(t, c.file)}}
		r, err := diff.Compare([]diff.Side{side}, diff.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		text, md, js := render(t, r)
		rs, _ := js["responsiveness"].(map[string]any)
		if rs["source"] != c.source {
			t.Errorf("%s: json source %v, want %s", c.file, rs["source"], c.source)
		}
		frames := c.source == "tasks" // the trace recorded AnimationFrame events
		for name, out := range map[string]string{"text": text, "markdown": md} {
			if !strings.Contains(out, c.says) {
				t.Errorf("%s: %s does not say %q:\n%s", c.file, name, c.says, out)
			}
			if strings.Contains(out, "frames over 16 ms") != frames {
				t.Errorf("%s: %s has a frames row: %v, want %v", c.file, name, !frames, frames)
			}
		}
		if _, ok := rs["frames_over_16ms"]; ok != frames {
			t.Errorf("%s: json frames_over_16ms: %v, want %v", c.file, ok, frames)
		}
	}
}
