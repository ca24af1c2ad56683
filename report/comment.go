package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/profdiff/profdiff/internal/units"
)

// A pull-request comment carries its own results in a hidden block, so
// that the next push's comment, given this one's body as --previous, can
// list what earlier pushes measured:
//
//	<!-- profdiff-results 1 {"results":[{"commit":…},…]} -->
//
// The JSON escapes <, > and & (as \u003c …), so it cannot end the comment.

// commentMarker opens the hidden block.
const commentMarker = "<!-- profdiff-results "

// CommentResultsVersion is the version of the hidden block's JSON.
const CommentResultsVersion = 1

// MaxPreviousResults bounds the results a comment keeps: the newest ones.
const MaxPreviousResults = 10

// CommentResult is one push's headline, as a comment keeps it.
type CommentResult struct {
	Commit string `json:"commit"`
	Base   string `json:"base,omitempty"`
	// Date is when the comparison ran (RFC 3339).
	Date string `json:"date"`
	// Per is what the change is per: "run", or the work unit.
	Per      string  `json:"per"`
	BeforeNs float64 `json:"before_ns"`
	AfterNs  float64 `json:"after_ns"`
	DeltaPct float64 `json:"delta_pct"`
	Verdict  string  `json:"verdict"`
	// P is the headline's p-value; absent when no test ran.
	P *float64 `json:"p,omitempty"`
}

type commentBlock struct {
	Version int             `json:"version"`
	Results []CommentResult `json:"results"`
}

// ParseCommentResults reads the results a comment's body keeps, newest
// first. A body with no block (a comment by an older profdiff, or by
// hand) has none; a block of a later version is an error.
func ParseCommentResults(body string) ([]CommentResult, error) {
	i := strings.LastIndex(body, commentMarker)
	if i < 0 {
		return nil, nil
	}
	rest := body[i+len(commentMarker):]
	end := strings.Index(rest, "-->")
	if end < 0 {
		return nil, errors.New("its profdiff results block is cut short")
	}
	var b commentBlock
	if err := json.Unmarshal([]byte(strings.TrimSpace(rest[:end])), &b); err != nil {
		return nil, fmt.Errorf("its profdiff results block is malformed: %v", err)
	}
	if b.Version > CommentResultsVersion {
		return nil, fmt.Errorf("its results were written by a newer profdiff (version %d; this one reads %d)", b.Version, CommentResultsVersion)
	}
	for _, r := range b.Results {
		if !commitLike(r.Commit) || !commitLike(r.Base) {
			return nil, fmt.Errorf("its profdiff results name a commit %q that is not one", r.Commit)
		}
	}
	return b.Results, nil
}

// commitLike reports whether s is empty or could be a commit: what a
// comment shows of it is never markup.
func commitLike(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return len(s) <= 100
}

// commentResult is this comparison's headline as a comment keeps it.
func (v *View) commentResult(commit, base string, now time.Time) CommentResult {
	h := v.r.JudgedHeadline()
	c := h.Change
	res := CommentResult{Commit: commit, Base: base, Date: now.UTC().Format(time.RFC3339), Per: strings.TrimPrefix(v.Per(), "per "),
		BeforeNs: orZero(h.Mean[0]), AfterNs: orZero(h.Mean[len(h.Mean)-1]), DeltaPct: orZero(c.DeltaPct), Verdict: c.Verdict.String()}
	if !math.IsNaN(c.P) {
		p := c.P
		res.P = &p
	}
	return res
}

func orZero(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// commentSection is the collapsed "Previous results (N)" list, newest
// first, and the hidden block that keeps this result and the previous
// ones for the next comment.
func commentSection(cur CommentResult, previous []CommentResult) string {
	var prev []CommentResult
	for _, p := range previous {
		if p.Commit != cur.Commit || p.Base != cur.Base { // a rerun of this push replaces its result
			prev = append(prev, p)
		}
	}
	if len(prev) > MaxPreviousResults {
		prev = prev[:MaxPreviousResults]
	}
	var b strings.Builder
	if len(prev) > 0 {
		fmt.Fprintf(&b, "\n<details><summary>Previous results (%d)</summary>\n\n| commit | base | date | on-CPU | change |\n|---|---|---|---:|---|\n", len(prev))
		for _, p := range prev {
			date := p.Date
			if t, err := time.Parse(time.RFC3339, p.Date); err == nil {
				date = t.UTC().Format("2006-01-02 15:04")
			}
			change := units.SignedPct(p.DeltaPct) + "\u00a0" + EscapeMarkdown(p.Verdict)
			if p.Verdict == "better" || p.Verdict == "worse" {
				change = units.SignedPct(p.DeltaPct) + "\u00a0**" + p.Verdict + "**"
			}
			if p.P != nil {
				change += " " + units.PValue(*p.P)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", orDash(p.Commit), orDash(p.Base), EscapeMarkdown(date),
				unbroken(units.Duration(p.BeforeNs))+"\u00a0→ "+unbroken(units.Duration(p.AfterNs))+" per "+EscapeMarkdown(p.Per), change)
		}
		b.WriteString("\n</details>\n")
	}
	keep := append([]CommentResult{cur}, prev...)
	if len(keep) > MaxPreviousResults+1 {
		keep = keep[:MaxPreviousResults+1]
	}
	data, err := json.Marshal(commentBlock{Version: CommentResultsVersion, Results: keep}) // escapes <, > and &
	if err == nil {
		fmt.Fprintf(&b, "\n%s%s -->\n", commentMarker, data)
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
