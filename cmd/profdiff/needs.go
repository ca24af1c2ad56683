package main

import "github.com/profdiff/profdiff/analyze"

// needs is what an output reads beyond the rows and the headline, so that
// a run computes only that: a deep profile's call tree has as many nodes
// as the profile (the 57 MiB tsc profile: 271,459), and its calls and
// per-line times add half or more to the rest of its aggregation.
type needs struct {
	calls bool // the caller -> callee calls (Report.Calls)
	lines bool // functions' self time per source line (Report.Lines)
	// linesCompared: the lines of a comparison of two sides only (the
	// markdown's lines of the changed functions).
	linesCompared bool
	// tree: the merged call tree (Report.Tree), always or only when two
	// sides are compared (for the paths where it changed).
	tree treeNeed
	// profiles: the profiles themselves, with each node's function, for
	// the exports that rewrite their stacks.
	profiles bool
	// whole: the output writes the whole report (every side, the phases);
	// the others draw one pair, the base against --variant.
	whole bool
}

// treeNeed says when an output reads the call tree.
type treeNeed uint8

const (
	treeNever    treeNeed = iota
	treeCompared          // for the paths, which exist with two sides only (a report of several variants lists rows alone)
	treeAlways            // the output draws the tree
)

// needsOf returns what the chosen format, and the JSON of --json-output
// when asked for, read. An unknown format needs everything, so that a
// format added without a line here is slow rather than wrong.
func needsOf(format string, jsonOutput bool) needs {
	n := needs{calls: true, lines: true, tree: treeAlways, profiles: true}
	if f, ok := formatNamed(format); ok {
		n = f.needs
	}
	if jsonOutput {
		json := needsOf("json", false)
		n.calls = n.calls || json.calls
		n.tree = max(n.tree, json.tree)
		n.whole = n.whole || json.whole
	}
	return n
}

// aggregateOptions are the parts of each run's table that the output reads.
// The text, markdown and JSON of three sides or more list rows alone: their
// calls and paths stay in the pairs, which nothing writes.
func (n needs) aggregateOptions(sides int) analyze.AggregateOptions {
	rowsOnly := sides > 2 && n.whole
	return analyze.AggregateOptions{
		Edges:         n.calls && !rowsOnly,
		Lines:         n.lines || (n.linesCompared && sides == 2),
		Tree:          n.tree == treeAlways || (n.tree == treeCompared && sides == 2),
		NodeFunctions: n.profiles,
	}
}

// withLineFlags adds what --lines and --source read: the per-line times.
func (n needs) withLineFlags(o options) needs {
	n.lines = n.lines || o.lines || o.source != ""
	return n
}
