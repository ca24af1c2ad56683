package flamegraph

import (
	"strings"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/jsonwrite"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/report"
)

// maxSourceRows bounds the rows of a function's source on the page; past
// it only the lines with time are kept.
const maxSourceRows = 300

// writeSources writes, per function of the page's functions (fns, rows of
// r.Functions), null when it has no per-line times, or {note, aligned,
// rows}, read from the report's source listing (diff.SourceListing, as
// --source and the explorer show it): note says why there are no lines,
// or where the text is not at hand; aligned says the first and the last
// side's texts differ and rows are their line diff; rows are [before
// line, after line, mark (" ", "-" before only, "+" after only), text,
// self per side..., verdict] from the function's first line to its last
// with time, then the unattributed rest (lines 0, no text). A side's
// self time is its own line's: the first side's of the before line, the
// last side's of the after line. verdict is the row's judged change ("~"
// for noise; "" where nothing was compared).
func writeSources(j *jsonwrite.Writer, r *diff.Report, fns []int32, source func(int, string) (string, bool)) {
	if fns == nil {
		j.Null()
		return
	}
	texts := &sourceTexts{source: source, last: len(r.Sides) - 1, lines: map[sideFile][]string{}, aligned: map[string]*diff.SourceText{}}
	j.BeginArray()
	for _, fn := range fns {
		writeSource(j, r, fn, texts)
	}
	j.EndArray()
}

// sideFile is a side's source file.
type sideFile struct {
	side int
	file string
}

// sourceTexts reads the sides' source files once each, and aligns the
// first and the last side's texts of a file once.
type sourceTexts struct {
	source  func(int, string) (string, bool)
	last    int
	lines   map[sideFile][]string
	aligned map[string]*diff.SourceText // by file
}

// of is the lines of a side's file, nil when it is not at hand.
func (st *sourceTexts) of(side int, file string) []string {
	if st.source == nil || file == "" {
		return nil
	}
	k := sideFile{side, file}
	ls, ok := st.lines[k]
	if !ok {
		if text, found := st.source(side, file); found {
			ls = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		}
		st.lines[k] = ls
	}
	return ls
}

// text is a file's first and last side's texts, aligned.
func (st *sourceTexts) text(file string) *diff.SourceText {
	t, ok := st.aligned[file]
	if !ok {
		t = diff.NewSourceText(st.of(0, file), st.of(st.last, file))
		st.aligned[file] = t
	}
	return t
}

// writeSource writes function fn's source (see writeSources): null when
// it has no lines, a note and no rows when they were a bundle's.
func writeSource(j *jsonwrite.Writer, r *diff.Report, fn int32, texts *sourceTexts) {
	lines := r.FunctionLines(fn)
	if len(lines) == 0 {
		if _, ok := r.BundledLines[fn]; ok {
			j.BeginObject()
			j.Key("note")
			j.String(report.MinifiedLinesNote)
			j.Key("aligned")
			j.Bool(false)
			j.Key("rows")
			j.BeginArray()
			j.EndArray()
			j.EndObject()
		} else {
			j.Null()
		}
		return
	}
	k := r.Functions[fn].Key
	l := r.SourceListing(fn, texts.text(k.File))
	var shown []int
	if first, end := l.Span(k.Line, 0); first >= 0 {
		if end-first < maxSourceRows {
			for i := first; i <= end; i++ {
				shown = append(shown, i)
			}
		} else {
			shown = l.HotRows()
		}
	}
	j.BeginObject()
	j.Key("note")
	if !l.HasText {
		j.String(termtext.Clean(k.File) + " is not at hand: lines only")
	} else {
		j.String("")
	}
	j.Key("aligned")
	j.Bool(l.Aligned)
	j.Key("rows")
	j.BeginArray()
	for _, i := range shown {
		row := l.Row(i)
		writeSourceRow(j, r, &row, termtext.Clean(strings.ReplaceAll(row.Text, "\t", "    ")))
	}
	for i := range l.Outside {
		row := l.OutsideRow(i)
		writeSourceRow(j, r, &row, diff.OutsideNote)
	}
	if u := l.Unattributed; u != nil {
		writeSourceRow(j, r, &diff.SourceRow{Time: [2]*diff.LineTime{u, u}, Self: u.Self.Change}, "")
	}
	j.EndArray()
	j.EndObject()
}

// writeSourceRow writes one row of a function's source (see writeSources).
func writeSourceRow(j *jsonwrite.Writer, r *diff.Report, row *diff.SourceRow, text string) {
	last := len(r.Sides) - 1
	j.BeginArray()
	j.Int(int64(row.Line[0]))
	j.Int(int64(row.Line[1]))
	j.String(string(row.Op.Mark()))
	j.String(text)
	for si := range r.Sides {
		lt := row.Time[0]
		if si == last {
			lt = row.Time[1]
		} else if si > 0 && row.Time[0] != row.Time[1] {
			lt = nil
		}
		v := 0.0
		if lt != nil {
			v = round(lt.Self.Mean[si])
		}
		j.Float(v)
	}
	j.String(row.Self.Verdict.String())
	j.EndArray()
}
