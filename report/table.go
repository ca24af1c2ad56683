package report

import (
	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
)

// This file is the typed table every front end lays out: a table is built
// once, here in report, for one, two or N sides, and text, markdown, the
// explorer and the HTML page only lay it out: a column's width and
// alignment come from its Kind, a cell's colour from its Verdict, and
// sorting from its Value (as pprof's TextItem keeps Flat beside
// FlatFormat, and benchstat's TableCell a value beside its text).

// Kind is what a column holds, which decides how a renderer lays it out.
type Kind uint8

// The kinds of column.
const (
	// KindName is a name (function, package, side): left-aligned, cut
	// in the middle when long.
	KindName Kind = iota
	// KindPackage is the package a row's function or file is in: a
	// name, narrower than the row's own where room is short.
	KindPackage
	// KindLocation is a file or a file:line:column: left-aligned, cut
	// keeping its end, where the file's name is.
	KindLocation
	// KindLabel is a row's label (a headline's measure): left-aligned,
	// never cut.
	KindLabel
	// KindNote is a sentence about the row (a headline change, a
	// detail): left-aligned, cut when long, never coloured (its verdict,
	// if any, is the sentence's, not a verdict column's).
	KindNote
	// KindDuration is a time on one side (Column.Side).
	KindDuration
	// KindPercent is a share of a time.
	KindPercent
	// KindChange is a change between sides: a delta, a change in share,
	// a relative change. Its Value is signed; the size sorts.
	KindChange
	// KindVerdict is a judged change's verdict; its Value is the
	// diff.Verdict.
	KindVerdict
	// KindP is a p-value; its Value is the p (NaN when no test ran).
	KindP
	// KindCount is a count (runs).
	KindCount
	// KindSideValue is a side's figure of any unit (a headline's runs,
	// time or share; a resource's mean ±σ with its change).
	KindSideValue
	// KindMeasure is a measure's figure on the row's side with its
	// change against the base and verdict (a resource's mean ±σ).
	KindMeasure
	// KindSideChange is a side's time with its change against the base
	// in words ("0.36 ms −62.1% better"), as the tables of N sides show
	// a column per side; its Value is the side's mean.
	KindSideChange
	// KindMetric names the metric a row shows (self or total).
	KindMetric
)

// Numeric reports whether the column holds figures, which align right
// and are never cut.
func (k Kind) Numeric() bool {
	switch k {
	case KindDuration, KindPercent, KindChange, KindVerdict, KindP, KindCount, KindSideValue, KindMeasure:
		return true
	}
	return false
}

// Coloured reports whether a renderer colours the column's cells by
// their verdict: not a label, a note (a sentence's verdict) or a side's
// figure of a headline.
func (k Kind) Coloured() bool {
	switch k {
	case KindLabel, KindNote, KindSideValue:
		return false
	}
	return true
}

// Column is a column of a table.
type Column struct {
	// Header is the column's title.
	Header string
	// Kind is what the column holds.
	Kind Kind
	// Side is the side whose figure the column holds, -1 for none.
	Side int
}

// Cell is one cell of a table as the renderers show it: its text, the
// number it shows (what a renderer sorts by), and the verdict it shows, so
// that a renderer marks a verdict by testing it rather than by reading the
// text.
type Cell struct {
	// Text is the cell as shown.
	Text string
	// Value is the number the cell shows: a time in ns, a share, a signed
	// change, a diff.Verdict, a p (NaN: none); 0 in cells of text.
	Value float64
	// Verdict is the judged change the cell shows: a verdict column's
	// verdict, or the headline change's; VerdictNone in every other cell.
	Verdict diff.Verdict
}

// Row is one row of a table.
type Row struct {
	// Key is the key of the report's row the table's row shows (zero for
	// rows that show no key: a headline's measures, a side).
	Key analyze.Key
	// Index is the row's index in the report's rows the table lists
	// (diff.Report.Functions...), -1 for none.
	Index int
	// Cells are the row's cells, one per column.
	Cells []Cell
}

// Table is one table profdiff shows.
type Table struct {
	// Title names what the table lists ("functions").
	Title string
	// Columns are the table's columns.
	Columns []Column
	// Rows are the rows shown, in order.
	Rows []Row
	// Total is how many rows there are in all, of which Rows are the
	// first (what "10 of 96 functions" says).
	Total int
	// Words: every cell reads as words, left to right, figures too (the
	// compact tables of N sides, a column per side).
	Words bool
}

// Headers returns the columns' titles.
func (t *Table) Headers() []string {
	out := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Header
	}
	return out
}

// col is a column of no side.
func col(header string, k Kind) Column { return Column{Header: header, Kind: k, Side: -1} }

// sideCol is a column of side's figure.
func sideCol(header string, k Kind, side int) Column {
	return Column{Header: header, Kind: k, Side: side}
}

// Changes reports whether the table shows changes between sides (a column
// of a change or a verdict).
func (t *Table) Changes() bool {
	for _, c := range t.Columns {
		if c.Kind == KindChange || c.Kind == KindVerdict || c.Kind == KindSideChange {
			return true
		}
	}
	return false
}
