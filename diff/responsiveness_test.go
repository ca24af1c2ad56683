package diff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// responsivenessSides are the recorded catalog loader's 3 + 3 runs:
// one synchronous load (a ~435 ms stall) before, the load sliced after.
func responsivenessSides(t *testing.T) []Side {
	t.Helper()
	var sides []Side
	for _, name := range []string{"before", "after"} {
		s := Side{Name: name}
		for r := 1; r <= 3; r++ {
			s.Tables = append(s.Tables, table(t, fmt.Sprintf("responsiveness/%s-r%d.cpuprofile.gz", name, r)))
		}
		sides = append(sides, s)
	}
	return sides
}

// TestResponsivenessIsJudged: the longest stall and the blocking time of
// the loader are judged better with the on-CPU noise model, per run means
// and spreads kept, and the longest stall lists the loader's work.
func TestResponsivenessIsJudged(t *testing.T) {
	r, err := Compare(responsivenessSides(t), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	rs := r.Responsiveness
	if rs == nil || rs.Source != "samples" {
		t.Fatalf("responsiveness = %+v", rs)
	}
	if v := rs.LongestStall.Change.Verdict; v != VerdictBetter {
		t.Errorf("longest stall %v -> %v: %v, want better", rs.LongestStall.Mean[0], rs.LongestStall.Mean[1], v)
	}
	if v := rs.Blocking.Change.Verdict; v != VerdictBetter {
		t.Errorf("blocking %v -> %v: %v, want better", rs.Blocking.Mean[0], rs.Blocking.Mean[1], v)
	}
	if len(rs.LongestStall.Runs[0]) != 3 || rs.Over50ms.Mean[0] != 1 || rs.Over50ms.Mean[1] != 0 {
		t.Errorf("runs %v, over 50 ms %v", rs.LongestStall.Runs, rs.Over50ms.Mean)
	}
	if !rs.HasLong() || len(rs.Longest) == 0 || rs.Longest[0].Side != 0 || rs.Longest[0].Top[0].Key.Function != "parseRecordAt" {
		t.Errorf("longest = %+v", rs.Longest)
	}
}

// TestStallRules: --fail-on learns the stall figures, in % and ms, and
// refuses them on profiles without sample times.
func TestStallRules(t *testing.T) {
	sides := responsivenessSides(t)
	for _, c := range []struct {
		rule   string
		broken bool
	}{
		{"longest-stall<-50%", true}, {"longest-stall>+5%", false}, {"longest-stall<-300ms", true},
		{"longest-stall<-500ms", false}, {"blocking<-100ms", true}, {"stalls-50ms<-10%", false},
	} {
		rule, err := ParseRule(c.rule)
		if err != nil {
			t.Fatal(err)
		}
		opts := DefaultOptions()
		opts.Rules = []Rule{rule}
		r, err := Compare(sides, opts)
		if err != nil {
			t.Fatal(err)
		}
		if r.Rules[0].Broken != c.broken {
			t.Errorf("%s: broken %v, want %v", c.rule, r.Rules[0].Broken, c.broken)
		}
	}
	for _, bad := range []string{"longest-stall>+5pp", "stalls-50ms>+1ms", "stall>+5%"} {
		if _, err := ParseRule(bad); err == nil {
			t.Errorf("%s: parsed", bad)
		}
	}
	rule, _ := ParseRule("longest-stall>+10%")
	pprof := []Side{
		{Name: "before", Tables: []*analyze.Table{table(t, "go-router-before.pprof")}},
		{Name: "after", Tables: []*analyze.Table{table(t, "go-router-before.pprof")}},
	}
	_, err := Compare(pprof, Options{Rules: []Rule{rule}})
	if err == nil || !strings.Contains(err.Error(), "stalls cannot be measured") {
		t.Errorf("a stall rule on pprof: %v", err)
	}
	r, err := Compare(pprof, DefaultOptions())
	if err != nil || r.Responsiveness != nil {
		t.Errorf("pprof responsiveness = %+v, %v", r.Responsiveness, err)
	}
}

// TestResponsivenessOfSeveralSides: with a base and variants every side
// has its figures and one judged change per variant.
func TestResponsivenessOfSeveralSides(t *testing.T) {
	s := responsivenessSides(t)
	r, err := Compare([]Side{s[0], s[1], {Name: "again", Tables: s[0].Tables}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	rs := r.Responsiveness
	if rs == nil || len(rs.LongestStall.Mean) != 3 || len(rs.LongestStall.VsBase) != 2 {
		t.Fatalf("responsiveness = %+v", rs)
	}
	if rs.LongestStall.VsBase[0].Verdict != VerdictBetter || rs.LongestStall.VsBase[1].Verdict != VerdictSame {
		t.Errorf("verdicts %v %v", rs.LongestStall.VsBase[0].Verdict, rs.LongestStall.VsBase[1].Verdict)
	}
	sides := map[int]int{}
	for _, st := range rs.Longest {
		sides[st.Side]++
	}
	if sides[0] == 0 || sides[1] == 0 || sides[2] == 0 {
		t.Errorf("longest per side = %v", sides)
	}
}
