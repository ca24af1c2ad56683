package flamegraph

import (
	"slices"
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
// r.Functions), null when it has no per-line times, or {note, rows}: note
// says why there are no lines, or where the text is not at hand; rows are
// [line, text, self per side...] from the function's first line to its
// last with time (line 0: the unattributed rest, no text). Text that is
// not at hand is "".
func writeSources(j *jsonwrite.Writer, r *diff.Report, fns []int32, source func(string) (string, bool)) {
	if fns == nil {
		j.Null()
		return
	}
	texts := map[string][]string{}
	textOf := func(file string) []string {
		if source == nil || file == "" {
			return nil
		}
		ls, ok := texts[file]
		if !ok {
			if text, found := source(file); found {
				ls = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			}
			texts[file] = ls
		}
		return ls
	}
	j.BeginArray()
	for _, fn := range fns {
		lo, _ := slices.BinarySearchFunc(r.Lines, fn, func(l diff.LineTime, fn int32) int { return int(l.Function - fn) })
		hi := lo
		for hi < len(r.Lines) && r.Lines[hi].Function == fn {
			hi++
		}
		lines := r.Lines[lo:hi]
		if len(lines) == 0 {
			if _, ok := r.BundledLines[fn]; ok {
				j.BeginObject()
				j.Key("note")
				j.String(report.MinifiedLinesNote)
				j.Key("rows")
				j.BeginArray()
				j.EndArray()
				j.EndObject()
			} else {
				j.Null()
			}
			continue
		}
		k := r.Functions[fn].Key
		text := textOf(k.File)
		byLine := map[int32]*diff.LineTime{}
		var hot []int32
		for i := range lines {
			byLine[lines[i].Line] = &lines[i]
			if lines[i].Line > 0 {
				hot = append(hot, lines[i].Line)
			}
		}
		var shown []int32
		if len(hot) > 0 {
			first, last := hot[0], hot[len(hot)-1]
			if k.Line > 0 && k.Line <= first {
				first = k.Line
			}
			if text != nil && int(last) <= len(text) && last-first < maxSourceRows {
				for l := first; l <= last; l++ {
					shown = append(shown, l)
				}
			} else {
				shown = hot
			}
		}
		if byLine[0] != nil {
			shown = append(shown, 0)
		}
		j.BeginObject()
		j.Key("note")
		if text == nil {
			j.String(termtext.Clean(k.File) + " is not at hand: lines only")
		} else {
			j.String("")
		}
		j.Key("rows")
		j.BeginArray()
		for _, l := range shown {
			j.BeginArray()
			j.Int(int64(l))
			t := ""
			if l > 0 && int(l) <= len(text) {
				t = termtext.Clean(strings.ReplaceAll(text[l-1], "\t", "    "))
			}
			j.String(t)
			for si := range r.Sides {
				v := 0.0
				if lt := byLine[l]; lt != nil {
					v = round(lt.Self.Mean[si])
				}
				j.Float(v)
			}
			j.EndArray()
		}
		j.EndArray()
		j.EndObject()
	}
	j.EndArray()
}
