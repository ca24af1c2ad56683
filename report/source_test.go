package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/units"
)

// routerText is a stand-in for the router's source (the profiles name
// /srv/node-workload/deploy/src/router.js, not in the repository): 230
// lines, match's body on lines 11-20.
func routerText() []string {
	var lines []string
	for i := 1; i <= 230; i++ {
		switch {
		case i == 11:
			lines = append(lines, "function match(routes, path) {")
		case i > 11 && i <= 20:
			lines = append(lines, fmt.Sprintf("  step%d(routes, path);", i))
		default:
			lines = append(lines, fmt.Sprintf("// line %d", i))
		}
	}
	return lines
}

// TestSourceAlignsEditedFunction: when the function's text differs between
// the builds, the two texts are aligned as a line diff: lines only before
// marked -, lines only after +, each line with its own side's numbers and
// times, a moved line with both; with the same text on both sides, one
// line column and each line's verdict.
func TestSourceAlignsEditedFunction(t *testing.T) {
	r := linesReport(t, "node-router-unbundled-before.cpuprofile", "node-router-unbundled-after.cpuprofile")
	before := routerText()
	after := slices.Clone(before)
	// 17 lines added above the body (the body moves down by 17), and
	// line 18 edited.
	var added []string
	for i := range 17 {
		added = append(added, fmt.Sprintf("// added %d", i+1))
	}
	after = slices.Insert(after, 11, added...)
	after[18+16] = "  step18Faster(routes, path);"
	texts := [2]string{strings.Join(before, "\n") + "\n", strings.Join(after, "\n") + "\n"}
	source := func(side int, file string) (string, string) {
		if strings.HasSuffix(file, "/src/router.js") {
			return texts[side], ""
		}
		return "", "not here"
	}
	var b bytes.Buffer
	if err := WriteSource(&b, r, SourceOptions{Match: regexp.MustCompile(`^match$`), Source: source, Context: 2}); err != nil {
		t.Fatal(err)
	}
	golden(t, "source-edited.txt", b.Bytes())

	texts[1] = texts[0]
	b.Reset()
	if err := WriteSource(&b, r, SourceOptions{Match: regexp.MustCompile(`^match$`), Source: source, Context: 2}); err != nil {
		t.Fatal(err)
	}
	golden(t, "source-same.txt", b.Bytes())
}

// TestSourceInlinedLinesNote: V8 records the lines of code it inlined into
// a function on the function's node, so makeEntity (data.js line 23) has
// time on line 5. The listing says how much, and the figure is the one
// computed here from the raw profile: each makeEntity node's self time
// (a sample weighs the delta that follows it) split over its
// positionTicks, the part on lines before 23.
func TestSourceInlinedLinesNote(t *testing.T) {
	raw, err := os.ReadFile("../testdata/node-router-unbundled-before.cpuprofile")
	if err != nil {
		t.Fatal(err)
	}
	var prof struct {
		Nodes []struct {
			ID        int64
			CallFrame struct {
				FunctionName string
				LineNumber   int32
			}
			PositionTicks []struct{ Line, Ticks int64 }
		}
		Samples    []int64
		TimeDeltas []int64
	}
	if err := json.Unmarshal(raw, &prof); err != nil {
		t.Fatal(err)
	}
	self := map[int64]int64{}
	for i, id := range prof.Samples {
		if i+1 < len(prof.TimeDeltas) {
			self[id] += max(prof.TimeDeltas[i+1], 0)
		}
	}
	var before float64 // µs
	for _, n := range prof.Nodes {
		if n.CallFrame.FunctionName != "makeEntity" || n.CallFrame.LineNumber != 22 {
			continue
		}
		var all, early int64
		for _, pt := range n.PositionTicks {
			all += pt.Ticks
			if pt.Line < 23 {
				early += pt.Ticks
			}
		}
		if all > 0 {
			before += float64(self[n.ID]) * float64(early) / float64(all)
		}
	}
	if before == 0 {
		t.Fatal("the fixture no longer has makeEntity time on lines before 23")
	}
	r := linesReport(t, "node-router-unbundled-before.cpuprofile")
	var b bytes.Buffer
	if err := WriteSource(&b, r, SourceOptions{Match: regexp.MustCompile(`^makeEntity$`), Context: 2}); err != nil {
		t.Fatal(err)
	}
	want := units.Duration(before*1e3) + " of the self time is on lines before the function's first line"
	if !strings.Contains(b.String(), want) {
		t.Errorf("no %q in\n%s", want, b.String())
	}
	// match (router.js:11) has no time before its first line: no note.
	b.Reset()
	if err := WriteSource(&b, r, SourceOptions{Match: regexp.MustCompile(`^match$`), Context: 2}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "before the function's first line") {
		t.Errorf("a note for match:\n%s", b.String())
	}
}

// TestSourceTableOptions: the explorer's pane asks SourceTable for self
// time only, the window's rows only and its own tab; --source's zero
// options keep the lines' totals a Go profile records, the unattributed
// rest and four spaces a tab (fails when an option is ignored).
func TestSourceTableOptions(t *testing.T) {
	r := linesReport(t, "go-router-before.pprof")
	if !r.LineTotals {
		t.Fatal("the Go profile records no lines' totals")
	}
	// A text that ends halfway through the hottest function's lines:
	// its later lines are past the end, rows after the ones shown.
	l := r.SourceListing(0, nil)
	hot := l.HotRows()
	if len(hot) < 2 {
		t.Fatalf("%s has %d lines with time", r.Functions[0].Key.Function, len(hot))
	}
	var text []string
	for i := range l.Row(hot[len(hot)/2]).Line[0] {
		text = append(text, fmt.Sprintf("\tline %d", i+1))
	}
	l = r.SourceListing(0, diff.NewSourceText(text, text))
	if len(l.HotRows()) == 0 || len(l.Outside) == 0 {
		t.Fatalf("%d lines with time in the text, %d past its end", len(l.HotRows()), len(l.Outside))
	}
	shown := l.HotRows()
	full := SourceTable(r, &l, shown, SourceTableOptions{})
	pane := SourceTable(r, &l, shown, SourceTableOptions{SelfOnly: true, ShownOnly: true, Tab: "  "})
	if got := len(ColumnsOf(full.Columns, KindDuration)); got != 2 {
		t.Errorf("--source: %d time columns, want self and total", got)
	}
	if got := len(ColumnsOf(pane.Columns, KindDuration)); got != 1 {
		t.Errorf("pane: %d time columns, want self alone", got)
	}
	if len(pane.Rows) != len(shown) || len(full.Rows) <= len(shown) {
		t.Errorf("%d rows shown: the pane has %d, --source %d (with the rows after them)", len(shown), len(pane.Rows), len(full.Rows))
	}
	note := func(tb Table, i int) string { return tb.Rows[i].Cells[ColumnsOf(tb.Columns, KindNote)[0]].Text }
	if a, b := note(pane, 0), note(full, 0); !strings.HasPrefix(a, "  line") || !strings.HasPrefix(b, "    line") {
		t.Errorf("tabs: pane %q, --source %q", a, b)
	}
}
