// Package report turns a judged comparison (a *diff.Report) into text for
// people and programs: the view-model every renderer formats its cells
// through (View: names, locations, durations, shares, p-values, the choice
// and order of rows, the headline and the paths), and the text, markdown
// and JSON renderers (WriteText, WriteMarkdown, WriteJSON). It computes no
// comparison of its own and never changes the report; the explorer (tui)
// and the flame graph (flamegraph) format their cells through the same
// View. As google/pprof keeps its report apart from its profile, diff
// holds the model and never imports this package.
package report
