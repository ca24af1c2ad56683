// Package stages times each stage of profdiff's pipeline (read, aggregate,
// compare, render in each format) on generated input, and guards them
// against getting slower.
//
// Usage. The benchmarks run on two generated 60 MB profiles (a before and
// an after, written once to $TMPDIR/profdiff-bench-stages), and are meant
// for benchstat:
//
//	go test ./bench/stages -run '^$' -bench . -count 6 > old.txt
//	(change something)
//	go test ./bench/stages -run '^$' -bench . -count 6 > new.txt
//	benchstat old.txt new.txt
//
// (benchstat: go install golang.org/x/perf/cmd/benchstat@latest.)
// PROFDIFF_STAGES_NODES=50000 runs them on the guard's 10 MB size instead.
//
// The guard, bash bench/guard.sh (which CI runs after go test ./...),
// builds the test binary of the commit that baseline.txt names (the base),
// times every stage and BenchmarkReference's workload interleaved, in a few
// processes of the base's binary and of this one taken alternately,
// divides each stage's time by the reference's, and fails when a stage's
// ratio is more than 15% above the base's twice in a row: both measured on
// one machine at one time, since ratios written down on one machine were
// 30-64% off on another for the same code. bash bench/guard.sh -update
// makes HEAD the base (do it when a stage got faster or slower for good,
// saying why, or the Go version changed). See TestGuard for how it
// measures.
//
// The profiles come from Generate: synthetic V8 .cpuprofiles shaped like
// one of the TypeScript compiler (deep recursive stacks, a few thousand
// functions in 50 scripts of npm packages and node: built-ins, idle,
// program and garbage-collector samples), deterministic, in any size.
package stages
