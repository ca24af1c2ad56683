package report

import (
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/difftest"
)

// TestResponsivenessSaysSource: a Chrome trace's figures come from the
// browser's tasks and every output says so; a .cpuprofile's from samples.
func TestResponsivenessSaysSource(t *testing.T) {
	for _, c := range []struct {
		file, source, says string
	}{
		{"chrome156-multi-process.trace.json.gz", "tasks", "from the browser's tasks"},
		{"responsiveness/before-r1.cpuprofile.gz", "samples", "from samples"},
	} {
		side := diff.Side{Name: "profile", Tables: []*analyze.Table{difftest.Table(t, c.file)}}
		r, err := diff.Compare([]diff.Side{side}, diff.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		text, md, js := render(t, r)
		rs, _ := js["responsiveness"].(map[string]any)
		if rs["source"] != c.source {
			t.Errorf("%s: json source %v, want %s", c.file, rs["source"], c.source)
		}
		for name, out := range map[string]string{"text": text, "markdown": md} {
			if !strings.Contains(out, c.says) {
				t.Errorf("%s: %s does not say %q:\n%s", c.file, name, c.says, out)
			}
		}
	}
}
