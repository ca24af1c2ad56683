package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/profdiff/profdiff/diff"
)

// TestCommentRemembersPreviousPushes: a comment keeps its headline in a
// hidden block; the next push's comment, given it, lists it under
// "Previous results (1)"; twelve pushes later the list holds the newest
// ten and the comment stays bounded.
func TestCommentRemembersPreviousPushes(t *testing.T) {
	r := routerPair(t, diff.DefaultOptions())
	now := time.Date(2026, 12, 4, 18, 0, 0, 0, time.UTC)
	write := func(commit string, prev []CommentResult) string {
		var md bytes.Buffer
		if err := WriteMarkdown(&md, r, MarkdownOptions{Commit: commit, BaseCommit: "base01", Previous: prev, Now: now}); err != nil {
			t.Fatal(err)
		}
		return md.String()
	}
	first := write("c0ffee06", nil)
	if strings.Contains(first, "Previous results") || !strings.Contains(first, "_Commit c0ffee06 against base base01._") {
		t.Errorf("first comment:\n%s", first[:500])
	}
	prev, err := ParseCommentResults(first)
	if err != nil || len(prev) != 1 || prev[0].Commit != "c0ffee06" || prev[0].Verdict != "~" {
		t.Fatalf("kept %+v, %v", prev, err)
	}
	second := write("c0ffee07", prev)
	if !strings.Contains(second, "Previous results (1)") || !strings.Contains(second, "| c0ffee06 | base01 | 2026-12-04 18:00 |") {
		t.Errorf("second comment does not list the first push")
	}
	body := second
	for i := 8; i < 20; i++ {
		prev, err = ParseCommentResults(body)
		if err != nil {
			t.Fatal(err)
		}
		body = write("c0ffee"+string(rune('a'+i)), prev)
	}
	if !strings.Contains(body, "Previous results (10)") || len(body) > len(second)+3000 {
		t.Errorf("after 12 pushes: %d characters (the second was %d), list %q", len(body), len(second), body[strings.Index(body, "Previous results"):][:30])
	}
	// A rerun of the same push replaces its own result.
	again, _ := ParseCommentResults(write("c0ffee07", []CommentResult{prev[0], {Commit: "c0ffee07", Base: "base01", Date: "2026-12-04T17:00:00Z", Verdict: "~"}}))
	if len(again) != 2 {
		t.Errorf("a rerun kept %d results, want 2", len(again))
	}
	// A hostile block is refused, not rendered.
	if _, err := ParseCommentResults(`<!-- profdiff-results {"version":1,"results":[{"commit":"<img src=x>"}]} -->`); err == nil {
		t.Errorf("a block naming markup as a commit was read")
	}
	if _, err := ParseCommentResults(`<!-- profdiff-results {"version":7,"results":[]} -->`); err == nil {
		t.Errorf("a later version's block was read")
	}
}
