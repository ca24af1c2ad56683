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
