// Package report turns a judged comparison (a *diff.Report) into text for
// people and programs. The View is the view-model every renderer formats
// its cells through (names, locations, durations, shares, p-values, the
// choice and order of rows, the headline and the paths) and the one place
// that picks a report's layout (Layout: one side, before → after, or a
// table of a base and its variants); the tables of rows, the headline,
// the sides, stalls and resources are built once as Tables (table.go,
// tables.go) that each renderer only lays out. The renderers are text
// (WriteText), markdown for pull requests (WriteMarkdown, with the
// comment's memory of earlier pushes), JSON (WriteJSON, WriteJSONWith),
// the annotated source (WriteSource), and a history store's change points
// as text, markdown, JSON and HTML (WriteHistoryText and the others). It
// computes no comparison of its own and never changes the report; the
// explorer (tui) and the flame graph (flamegraph) format their cells
// through the same View. As google/pprof keeps its report apart from its
// profile, diff holds the model and never imports this package.
package report
