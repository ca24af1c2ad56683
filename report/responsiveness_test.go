package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/analyze/analyzetest"
	"github.com/profdiff/profdiff/diff"
)

// loaderSide is one version of the recorded catalog loader: its runs
// (testdata/responsiveness).
func loaderSide(t *testing.T, name string, runs ...int) diff.Side {
	s := diff.Side{Name: name}
	for _, r := range runs {
		s.Tables = append(s.Tables, analyzetest.Table(t, fmt.Sprintf("responsiveness/%s-r%d.cpuprofile.gz", name, r)))
	}
	return s
}

func render(t *testing.T, r *diff.Report) (text, md string, js map[string]any) {
	t.Helper()
	var tb, mb, jb bytes.Buffer
	if err := WriteText(&tb, r, TextOptions{Top: 5}); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&mb, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&jb, r); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(jb.Bytes(), &js); err != nil {
		t.Fatal(err)
	}
	return tb.String(), mb.String(), js
}

// TestResponsivenessBlock: the loader pair has a Responsiveness block
// right after the headline in text and markdown, with the longest stall
// judged better and the loader's work named, and the JSON object the
// issue asks for.
func TestResponsivenessBlock(t *testing.T) {
	r, err := diff.Compare([]diff.Side{loaderSide(t, "before", 1, 2, 3), loaderSide(t, "after", 1, 2, 3)}, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	text, md, js := render(t, r)
	for name, out := range map[string]string{"text": text, "markdown": md} {
		end := "Where it changed"
		if name == "markdown" { // the first screen's one line on the paths comes before the folded blocks
			end = "<summary>Where it changed"
		}
		i, j := strings.Index(out, "Responsiveness"), strings.Index(out, end)
		if i < 0 || j < i {
			t.Errorf("%s: no Responsiveness block before Where it changed:\n%s", name, out)
			continue
		}
		block := out[i:j]
		for _, want := range []string{"longest stall", "better", "blocking time", "parseRecordAt", "sampling interval", "before run 1"} {
			if !strings.Contains(block, want) {
				t.Errorf("%s: the block has no %q:\n%s", name, want, block)
			}
		}
	}
	rs, _ := js["responsiveness"].(map[string]any)
	if rs["source"] != "samples" {
		t.Fatalf("json responsiveness = %v", rs)
	}
	for _, k := range []string{"longest_stall", "stalls_over_16ms", "stalls_over_50ms", "blocking"} {
		m, _ := rs[k].(map[string]any)
		if ns, _ := m["ns"].([]any); len(ns) != 2 || m["verdict"] == nil {
			t.Errorf("json %s = %v", k, m)
		}
	}
	if v := rs["longest_stall"].(map[string]any)["vs_base"].([]any)[0].(map[string]any)["verdict"]; v != "better" {
		t.Errorf("longest stall verdict %v", v)
	}
	longest, _ := rs["longest"].([]any)
	if len(longest) == 0 {
		t.Fatal("no longest[]")
	}
	first := longest[0].(map[string]any)
	for _, k := range []string{"side", "run", "start_ns", "duration_ns", "top_functions", "stack"} {
		if _, ok := first[k]; !ok {
			t.Errorf("longest[0] has no %s: %v", k, first)
		}
	}
}

// TestNoLongStallIsOneLine is the negative control: the sliced loader has
// no stretch over 50 ms, said in one line and no table.
func TestNoLongStallIsOneLine(t *testing.T) {
	r, err := diff.Compare([]diff.Side{loaderSide(t, "after", 1)}, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	text, md, _ := render(t, r)
	for name, out := range map[string]string{"text": text, "markdown": md} {
		if n := strings.Count(out, "Responsiveness"); n != 1 || !strings.Contains(out, "no busy stretch over 50 ms (longest 33.3 ms)") || strings.Contains(out, "stalls over 16 ms") {
			t.Errorf("%s: want one line saying no stretch over 50 ms:\n%s", name, out)
		}
	}
}

// TestNoStallsWithoutSampleTimes: a pprof profile prints nothing about
// stalls, and its JSON has no responsiveness.
func TestNoStallsWithoutSampleTimes(t *testing.T) {
	r, err := diff.Compare([]diff.Side{{Name: "p", Tables: []*analyze.Table{analyzetest.Table(t, "go-router-before.pprof")}}}, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	text, md, js := render(t, r)
	for _, out := range []string{text, md} {
		if strings.Contains(strings.ToLower(out), "stall") || strings.Contains(out, "Responsiveness") {
			t.Errorf("a pprof report mentions stalls:\n%s", out)
		}
	}
	if _, ok := js["responsiveness"]; ok {
		t.Error("a pprof report's JSON has responsiveness")
	}
}

// TestLongStallsTable: the table every front end lists the longest stalls
// from holds the stalls over 50 ms of both sides merged, the longest
// first, each row pointing at its stall in Responsiveness.Longest, with
// its run, start and length as values and StallText as its note (fails
// when a longer stall is left out, the order is not by length, or the
// index points elsewhere).
func TestLongStallsTable(t *testing.T) {
	// The router's pair has long stalls on both sides, the longest after;
	// the loader's only before, in three runs.
	before := diff.Side{Name: "before", Tables: []*analyze.Table{analyzetest.Table(t, "node-router-unbundled-before.cpuprofile")}}
	after := diff.Side{Name: "after", Tables: []*analyze.Table{analyzetest.Table(t, "node-router-unbundled-after.cpuprofile")}}
	loader := loaderSide(t, "before", 1, 2, 3)
	for _, sides := range [][]diff.Side{{before, after}, {after, before}, {loader, after}} {
		r, err := diff.Compare(sides, diff.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		checkLongStallsTable(t, r)
	}
}

// checkLongStallsTable checks a report's LongStallsTable against its
// Responsiveness.Longest.
func checkLongStallsTable(t *testing.T, r *diff.Report) {
	t.Helper()
	v := NewView(r)
	tb := v.LongStallsTable()
	if len(tb.Rows) == 0 || len(tb.Rows) > maxListedStalls || tb.Total != len(tb.Rows) {
		t.Fatalf("%d rows (total %d), want 1 to %d", len(tb.Rows), tb.Total, maxListedStalls)
	}
	note := ColumnsOf(tb.Columns, KindNote)
	if len(note) != 1 || len(ColumnsOf(tb.Columns, KindDuration)) != 2 {
		t.Fatalf("columns %v: want a start, a length and one note", tb.Headers())
	}
	listed := map[int]bool{}
	for i, row := range tb.Rows {
		s := r.Responsiveness.Longest[row.Index]
		listed[row.Index] = true
		if s.Duration <= analyze.LongStallNs {
			t.Errorf("row %d: a stall of %d ns, not over 50 ms", i, s.Duration)
		}
		if i > 0 && s.Duration > int64(tb.Rows[i-1].Cells[2].Value) {
			t.Errorf("row %d: %d ns after %v ns: not the longest first", i, s.Duration, tb.Rows[i-1].Cells[2].Value)
		}
		if row.Cells[1].Value != float64(s.Start) || row.Cells[2].Value != float64(s.Duration) {
			t.Errorf("row %d: start %v, length %v; the stall's are %d, %d", i, row.Cells[1].Value, row.Cells[2].Value, s.Start, s.Duration)
		}
		if got, want := row.Cells[note[0]].Text, v.StallText(s); got != want {
			t.Errorf("row %d: note %q, want %q", i, got, want)
		}
		want := r.Sides[s.Side].Name
		if r.Sides[s.Side].Runs > 1 {
			want += fmt.Sprintf(" run %d", s.Run+1)
		}
		if row.Cells[0].Text != want {
			t.Errorf("row %d: run %q, want %q", i, row.Cells[0].Text, want)
		}
	}
	last := tb.Rows[len(tb.Rows)-1].Cells[2].Value
	for i, s := range r.Responsiveness.Longest {
		if !listed[i] && s.Duration > analyze.LongStallNs && (len(tb.Rows) < maxListedStalls || float64(s.Duration) > last) {
			t.Errorf("stall %d of side %d (%d ns) is left out", i, s.Side, s.Duration)
		}
	}
}
