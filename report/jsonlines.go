package report

import (
	"slices"

	"github.com/profdiff/profdiff/diff"
)

// JSONOptions are the optional parts of the JSON report.
type JSONOptions struct {
	// Lines adds lines[] to each function: its self and total time per
	// line of its source (--lines).
	Lines bool
}

// functionLines writes a function's lines (JSONOptions.Lines), in line
// order, each {file, line, self, total}: line is 1-based in the function's
// file (its original source where a source map mapped it), or null for
// the function's self time on no recorded line ("unattributed", true),
// so that the lines' self times add up to the function's; self and total
// are measures as every row's; total is null where the profile records
// only the sampled function's line (V8: its callers' lines are not
// recorded). lines_in_bundle is absent unless the function's lines were
// recorded in a bundle that its source map maps it out of: "minified"
// (the bundle puts many functions on a line, so its lines say little) or
// "bundle"; lines[] is then empty.
func (j *jsonReport) functionLines(fn int32) {
	r := j.r
	if minified, ok := r.BundledLines[fn]; ok {
		j.Key("lines_in_bundle")
		if minified {
			j.String("minified")
		} else {
			j.String("bundle")
		}
	}
	j.Key("lines")
	j.BeginArray()
	lo, hi := functionLineRange(r.Lines, fn)
	file := r.Functions[fn].Key.File
	for i := lo; i < hi; i++ {
		l := &r.Lines[i]
		j.BeginObject()
		j.Key("file")
		j.String(file)
		j.Key("line")
		if l.Line > 0 {
			j.Int(int64(l.Line))
		} else {
			j.Null()
			j.Key("unattributed")
			j.Bool(true)
		}
		j.Key("self")
		j.measure(&l.Self)
		j.Key("total")
		if r.LineTotals {
			j.measure(&l.Total)
		} else {
			j.Null()
		}
		j.EndObject()
	}
	j.EndArray()
}

// functionLineRange returns the range of lines (ordered by function, then
// line) of function fn.
func functionLineRange(lines []diff.LineTime, fn int32) (lo, hi int) {
	lo, _ = slices.BinarySearchFunc(lines, fn, func(l diff.LineTime, fn int32) int { return int(l.Function - fn) })
	hi = lo
	for hi < len(lines) && lines[hi].Function == fn {
		hi++
	}
	return lo, hi
}
