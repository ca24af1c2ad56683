package main

import (
	"errors"
	"github.com/profdiff/profdiff/side"
	"io"
	"strings"
	"time"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/flamegraph"
	"github.com/profdiff/profdiff/history"
	"github.com/profdiff/profdiff/report"
)

// outputFormat is one --format: its names, what it reads, and its writers.
// formats holds every one, so that a format is added in one place.
type outputFormat struct {
	names []string // the first is the one --help and errors name
	needs
	// showsWarnings: the output holds the report's warnings itself, so
	// that on standard output they are not said twice.
	showsWarnings bool
	// fromRecord: a report against a history record (--base-store) can
	// be written in it, since it needs neither call trees nor profiles.
	fromRecord bool
	// binary: the output is not text, and is not written to a terminal.
	binary bool
	// source: --source's annotated source is written in this format (it
	// is text).
	source bool
	// write writes a comparison; nil for the explorer, which runs rather
	// than writes (see main).
	write func(out io.Writer, in writeInput) error
	// history writes a store's change points; nil when the format does
	// not write them.
	history func(out io.Writer, res *history.Result) error
}

// writeInput is what a format's writer draws from.
type writeInput struct {
	o        options
	rep      *diff.Report // the whole report (every side)
	pair     *diff.Report // the pair drawn: the base against --variant
	drawn    []int        // the index among every side of each side of pair
	ds       []diff.Side
	profiles [][]*analyze.Profile
	sides    []side.Side
	color    bool // standard output is a terminal that takes colour
}

// formats is every --format profdiff writes, in the order --help names them.
var formats = [...]outputFormat{
	{names: []string{"text"}, needs: needs{tree: treeCompared, whole: true}, showsWarnings: true, fromRecord: true, source: true,
		write: func(out io.Writer, in writeInput) error {
			return report.WriteText(out, in.rep, report.TextOptions{Top: in.o.top, Color: in.color, Files: in.o.by == "file", Sort: in.o.sortMetric()})
		},
		history: report.WriteHistoryText},
	{names: []string{"markdown", "md"}, needs: needs{linesCompared: true, tree: treeCompared, whole: true}, showsWarnings: true, fromRecord: true,
		write: func(out io.Writer, in writeInput) error {
			o := in.o
			return report.WriteMarkdown(out, in.rep, report.MarkdownOptions{Top: o.rows(report.DefaultMarkdownTop), Files: o.by == "file", Sort: o.sortMetric(),
				Commit: o.commit, BaseCommit: o.baseCommit, Previous: o.previousResults, Now: time.Now(), Environments: sideEnvironments(in.sides)})
		},
		history: report.WriteHistoryMarkdown},
	{names: []string{"json"}, needs: needs{calls: true, tree: treeCompared, whole: true}, showsWarnings: true, fromRecord: true,
		write: func(out io.Writer, in writeInput) error {
			return report.WriteJSONWith(out, in.rep, report.JSONOptions{Lines: in.o.lines})
		},
		history: report.WriteHistoryJSON},
	{names: []string{"html"}, needs: needs{tree: treeAlways}, showsWarnings: true,
		write: func(out io.Writer, in writeInput) error {
			return flamegraph.Write(out, in.pair, flamegraph.Options{Top: in.o.rows(50), Title: htmlTitle(in.pair, in.sides), Lines: in.o.lines, Source: in.o.readSource})
		},
		history: report.WriteHistoryHTML},
	{names: []string{"tui"}, needs: needs{calls: true, lines: true, tree: treeAlways}},
	{names: []string{"pprof"}, needs: needs{profiles: true}, binary: true, write: exportWriter(writePprof)},
	{names: []string{"speedscope"}, needs: needs{profiles: true}, write: exportWriter(writeSpeedscope)},
	{names: []string{"folded"}, needs: needs{profiles: true}, write: exportWriter(writeFolded)},
}

// exportWriter writes the sides of the pair drawn (the base and
// --variant, or the one side) for another tool.
func exportWriter(write exporter) func(io.Writer, writeInput) error {
	return func(out io.Writer, in writeInput) error {
		ds, profiles := pairSides(in.drawn, in.ds, in.profiles)
		return writeExport(out, write, ds, profiles)
	}
}

// formatNamed returns the format called name.
func formatNamed(name string) (outputFormat, bool) {
	for _, f := range formats {
		for _, n := range f.names {
			if n == name {
				return f, true
			}
		}
	}
	return outputFormat{}, false
}

// formatList names the formats that pass keep, as "a, b or c".
func formatList(keep func(outputFormat) bool) string {
	var names []string
	for _, f := range formats {
		if keep(f) {
			names = append(names, f.names[0])
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// historyWriter returns how format writes a store's change points, or an
// error naming the formats that do.
func historyWriter(format string) (func(io.Writer, *history.Result) error, error) {
	if format == "" {
		format = "text"
	}
	if f, ok := formatNamed(format); ok && f.history != nil {
		return f.history, nil
	}
	return nil, errors.New("--format " + format + ": history writes " + formatList(func(f outputFormat) bool { return f.history != nil }))
}
