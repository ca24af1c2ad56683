package main

import "testing"

// TestTitleOf: the HTML title names the sides by what differs — folder,
// else file stem (with the shared folder), else side name — and counts
// runs with the right plural.
func TestTitleOf(t *testing.T) {
	for _, c := range []struct {
		files [][]string
		names []string
		want  string
	}{
		// the case: runs of both sides in one folder
		{[][]string{{"corpus/ab/before-r1.cpuprofile", "corpus/ab/before-r2.cpuprofile"}, {"corpus/ab/after-r1.cpuprofile", "corpus/ab/after-r2.cpuprofile"}},
			[]string{"before", "after"}, "before (2 runs) → after (2 runs) · corpus/ab"},
		{[][]string{{"/tmp/x/b/before-r1.cpuprofile", "/tmp/x/b/before-r2.cpuprofile"}, {"/tmp/x/a/after-r1.cpuprofile"}},
			[]string{"b", "a"}, "b (2 runs) → a"},
		{[][]string{{"v1/main/p.pprof"}, {"v2/main/p.pprof"}}, []string{"before", "after"}, "v1/main → v2/main"},
		{[][]string{{"old/cpu.pprof"}, {"new/cpu.pprof"}}, []string{"before", "after"}, "old → new"},
		{[][]string{{"before.cpuprofile"}, {"after.cpuprofile"}}, []string{"before", "after"}, "before → after"},
		// same folder, same stems: the sides' names (commits, --side)
		{[][]string{{"rec/p.cpuprofile"}, {"rec/p.cpuprofile"}}, []string{"abc1234", "def5678"}, "abc1234 → def5678 · rec"},
		{[][]string{{"runs/x-1.json", "runs/x-2.json", "runs/x-3.json"}}, []string{"x"}, "runs (3 runs)"},
		{[][]string{{"d/one.cpuprofile"}}, []string{"x"}, "one.cpuprofile"},
		{[][]string{{"a/p.cpuprofile"}, {"b/p.cpuprofile"}, {"c/p.cpuprofile"}}, []string{"base", "v1", "v2"}, "a → b → c"},
	} {
		if got := titleOf(c.files, c.names); got != c.want {
			t.Errorf("titleOf(%v) = %q, want %q", c.files, got, c.want)
		}
	}
}
