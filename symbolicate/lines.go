package symbolicate

import (
	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/sourcemap"
)

// lineEnd is a column past the end of any generated line: a query there
// finds a line's last mapping.
const lineEnd = 1 << 30

// maxSpan is how many lines of its file a bundle line may cover and still
// be a statement the bundler reprinted on one line (esbuild joins a
// statement written over two or three lines), rather than minified code.
const maxSpan = 4

// mapLineTicks rewrites the line ticks (V8's positionTicks, lines of the
// bundle) of the nodes of a script's frames that applyMap mapped into
// lines of their original files, where that is unambiguous: a bundle line
// with ticks of the frame that starts and ends with mappings to one line
// of the frame's own original file, as a bundle built without minifying
// writes them, is that line. Two other lines of such a bundle keep the
// frame's lines but are counted as unattributed (line 0), since no one
// line is known: one whose mappings start and end on one line of another
// file (code V8 inlined from another module), and one that covers up to
// maxSpan lines of the frame's file (a statement reprinted on one line).
// A frame with any other line (minified code: a line covering many lines
// or files) keeps its ticks as recorded (analyze then leaves its lines out
// and says why); no line is guessed.
func mapLineTicks(p *analyze.Profile, m *sourcemap.Map, frames []int32) {
	if len(p.LineTicks) == 0 {
		return
	}
	ours := map[int32]bool{}
	for _, fi := range frames {
		if p.Frames[fi].Generated != nil {
			ours[fi] = true
		}
	}
	var ticks []int // indexes into p.LineTicks of our frames' ticks
	lineQ := map[int32]int{}
	var qs []sourcemap.Query
	for i, lt := range p.LineTicks {
		if !ours[p.Nodes[lt.Node].Frame] {
			continue
		}
		ticks = append(ticks, i)
		if _, ok := lineQ[lt.Line]; !ok {
			lineQ[lt.Line] = len(qs)
			qs = append(qs, sourcemap.Query{Line: int(lt.Line) - 1, Column: -1}, sourcemap.Query{Line: int(lt.Line) - 1, Column: lineEnd})
		}
	}
	if len(qs) == 0 {
		return
	}
	answers := m.Lookup(qs)
	// original returns where a bundle line's ticks go for a frame of
	// file: its one original line there, or 0 (unattributed) for inlined
	// code and reprinted statements; false for any other line.
	original := func(line int32, file string) (int32, bool) {
		q := lineQ[line]
		first, last := answers[q].First, answers[q+1].Before
		if last == nil {
			last = answers[q+1].Exact
		}
		if first == nil || last == nil || first.Source < 0 || first.Source != last.Source {
			return 0, false
		}
		own := sourcePath(m.Sources[first.Source]) == file
		switch {
		case first.Line == last.Line && own:
			return int32(first.Line + 1), true
		case first.Line == last.Line: // inlined from another file
			return 0, true
		case own && last.Line > first.Line && last.Line-first.Line < maxSpan: // reprinted
			return 0, true
		}
		return 0, false
	}
	bad := map[int32]bool{} // frames with a line that does not map
	for _, i := range ticks {
		lt := p.LineTicks[i]
		fi := p.Nodes[lt.Node].Frame
		if _, ok := original(lt.Line, p.Frames[fi].File); !ok {
			bad[fi] = true
		}
	}
	for _, i := range ticks {
		lt := &p.LineTicks[i]
		fi := p.Nodes[lt.Node].Frame
		if bad[fi] {
			continue
		}
		lt.Line, _ = original(lt.Line, p.Frames[fi].File)
		p.Frames[fi].LinesMapped = true
	}
}
