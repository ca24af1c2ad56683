package diff

import (
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// goRun is one run of a Go CPU profile (pprof: 10 ms a sample, no counts)
// whose function fn of package pkg in file holds fNs of onNs of on-CPU
// time, main.work the rest; its files table holds the same rows.
func goRun(pkg, fn, file string, fNs, onNs int64) *analyze.Table {
	t := &analyze.Table{Format: analyze.FormatPprof, Summary: analyze.Summary{
		OnCPUNs: onNs, SampledNs: onNs, IntervalNs: 10_000_000, Samples: onNs / 10_000_000}}
	t.Functions = []analyze.Row{
		{Key: analyze.Key{Package: pkg, Function: fn, File: file, Line: 8}, Self: fNs, Total: fNs},
		{Key: analyze.Key{Package: "main", Function: "main.work", File: "/src/app/main.go", Line: 20}, Self: onNs - fNs, Total: onNs - fNs},
	}
	t.Files = []analyze.Row{
		{Key: analyze.Key{Package: pkg, File: file}, Self: fNs, Total: fNs},
		{Key: analyze.Key{Package: "main", File: "/src/app/main.go"}, Self: onNs - fNs, Total: onNs - fNs},
	}
	t.Packages = []analyze.Row{
		{Key: analyze.Key{Package: pkg}, Self: fNs, Total: fNs},
		{Key: analyze.Key{Package: "main"}, Self: onNs - fNs, Total: onNs - fNs},
	}
	return t
}

// TestSchedulerRowIsNotJudgedFromOneRun: two runs of one Go build in the
// calibration bench (gen.sh's, a loaded machine), one a side: the
// preemption handler runtime.asyncPreempt took 0.14 s of 8.36 s in one
// and 1.82 s of 12.29 s in the other (+1200%). Its time follows the
// scheduler, not the code, and one run a side cannot tell that from a
// change: neither its function nor its file (runtime/preempt_amd64.s) is
// judged. The same figures in a function of the program's own code are
// judged worse, so the model still sees a change that large; with
// ScheduledRow answering false the asyncPreempt rows are judged worse too
// (p = 0.004 and 0.001).
func TestSchedulerRowIsNotJudgedFromOneRun(t *testing.T) {
	const preempt = "/usr/local/go/src/runtime/preempt_amd64.s"
	judge := func(pkg, fn, file string) (Change, Change) {
		t.Helper()
		sides := []Side{
			{Name: "before", Tables: []*analyze.Table{goRun(pkg, fn, file, 140_000_000, 8_360_000_000)}},
			{Name: "after", Tables: []*analyze.Table{goRun(pkg, fn, file, 1_820_000_000, 12_290_000_000)}},
		}
		r, err := Compare(sides, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		var fc, pc Change
		for _, row := range r.Functions {
			if row.Key.Function == fn {
				fc = row.Self.Change
			}
		}
		for _, row := range r.Files {
			if row.Key.File == file {
				pc = row.Self.Change
			}
		}
		return fc, pc
	}
	fn, file := judge("runtime", "runtime.asyncPreempt", preempt)
	if fn.Verdict != VerdictSame || file.Verdict != VerdictSame {
		t.Errorf("runtime.asyncPreempt %+.0f%%: function %v (p = %.3g), file %v (p = %.3g); want ~ for both",
			fn.DeltaPct, fn.Verdict, fn.P, file.Verdict, file.P)
	}
	fn, file = judge("main", "main.parse", "/src/app/parse.go")
	if fn.Verdict != VerdictWorse || file.Verdict != VerdictWorse {
		t.Errorf("main.parse %+.0f%%: function %v (p = %.3g), file %v (p = %.3g); want worse for both",
			fn.DeltaPct, fn.Verdict, fn.P, file.Verdict, file.P)
	}
}

// TestScheduledRow pins which keys the scheduler's prior takes.
func TestScheduledRow(t *testing.T) {
	for _, c := range []struct {
		k    analyze.Key
		want bool
	}{
		{analyze.Key{Package: "runtime", Function: "runtime.asyncPreempt", File: "/usr/local/go/src/runtime/preempt_amd64.s"}, true},
		{analyze.Key{Package: "runtime", File: "/usr/local/go/src/runtime/preempt_arm64.s"}, true},
		{analyze.Key{Package: "runtime", Function: "runtime.mallocgc", File: "/usr/local/go/src/runtime/malloc.go"}, false},
		{analyze.Key{Package: "runtime", File: "/usr/local/go/src/runtime/preempt.go"}, false},
		{analyze.Key{Package: "main", Function: "runtime.asyncPreempt"}, false},
		{analyze.Key{Package: "runtime"}, false},
	} {
		if got := ScheduledRow(c.k); got != c.want {
			t.Errorf("ScheduledRow(%+v) = %v, want %v", c.k, got, c.want)
		}
	}
}
