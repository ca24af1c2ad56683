package diff

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestAlignLines: a line diff keeps the common lines paired, in order.
func TestAlignLines(t *testing.T) {
	rows := AlignLines(strings.Split("a b c d e", " "), strings.Split("a x c d y e", " "))
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%c%d/%d %s", r.Op.Mark(), r.Line[0], r.Line[1], r.Text))
	}
	want := []string{" 1/1 a", "-2/0 b", "+0/2 x", " 3/3 c", " 4/4 d", "+0/5 y", " 5/6 e"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// cacheReport compares the cache fixture's two runs a side: a cache
// makes renderDocument much faster, and the code below it moves down by
// five lines (app-before.js, app-after.js, recorded at one path). It
// returns the report, main's row and the two texts.
func cacheReport(t *testing.T) (*Report, int32, [2][]string) {
	t.Helper()
	var sides []Side
	for _, name := range []string{"before", "after"} {
		s := Side{Name: name}
		for _, run := range []string{"r1", "r2"} {
			s.Tables = append(s.Tables, linesTable(t, "cache/"+name+"-"+run+".cpuprofile"))
		}
		sides = append(sides, s)
	}
	r, err := Compare(sides, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fn := slices.IndexFunc(r.Functions, func(row Row) bool { return row.Key.Function == "main" && strings.HasSuffix(row.Key.File, "app.js") })
	if fn < 0 {
		t.Fatal("no main")
	}
	var texts [2][]string
	for i, f := range []string{"app-before.js", "app-after.js"} {
		b := readFixture(t, "cache/"+f)
		texts[i] = strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	}
	return r, int32(fn), texts
}

// TestSourceListingJudgesMovedLines: with the two builds' texts, the
// listing aligns them; a line of both at different numbers (main's line
// 11, the loop calling handle, is line 16 after) is judged on the pair of
// lines, each side's runs of its own line, rather than left without a
// verdict; a line only one build has carries its own side's time and no
// verdict.
func TestSourceListingJudgesMovedLines(t *testing.T) {
	r, fn, texts := cacheReport(t)
	l := r.SourceListing(fn, NewSourceText(texts[0], texts[1]))
	if !l.Aligned || !l.HasText {
		t.Fatalf("aligned %v, text %v", l.Aligned, l.HasText)
	}
	var moved, removed int
	for i := range l.Len() {
		row := l.Row(i)
		switch {
		case row.Moved() && (row.Time[0] != nil || row.Time[1] != nil):
			moved++
			before := row.Time[0].Self.Mean[0]
			after := 0.0
			if row.Time[1] != nil {
				after = row.Time[1].Self.Mean[1]
			}
			if row.Self.Verdict == VerdictNone || math.IsNaN(row.Self.P) || row.Self.Delta != after-before {
				t.Errorf("moved line %d -> %d %q: %v -> %v, change %+v", row.Line[0], row.Line[1], row.Text, before, after, row.Self)
			}
		case row.Op == SourceRemoved:
			removed++
			if row.Time[1] != nil || row.Self.Verdict != VerdictNone {
				t.Errorf("removed line %d: %+v", row.Line[0], row)
			}
		}
	}
	if moved == 0 || removed == 0 {
		t.Fatalf("%d moved rows with time, %d removed rows", moved, removed)
	}

	// The same text on both sides: one text, rows are lines.
	same := r.SourceListing(fn, NewSourceText(texts[1], texts[1]))
	if same.Aligned || same.Len() != len(texts[1]) || same.Row(4).Line != [2]int32{5, 5} {
		t.Errorf("same text: aligned %v, %d rows", same.Aligned, same.Len())
	}
	// No text: the lines with time alone.
	none := r.SourceListing(fn, nil)
	if none.HasText || none.Len() == 0 {
		t.Errorf("no text: %d rows", none.Len())
	}
	for i := range none.Len() {
		if !none.Hot(i) {
			t.Errorf("no text: row %d has no time", i)
		}
	}
}

func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSourceListingOutside: a function's lines with time that its text
// does not have (past its end, as V8 records code it inlined from another
// script) are listed apart, not lost: main's lines against a text of
// five lines.
func TestSourceListingOutside(t *testing.T) {
	r, fn, texts := cacheReport(t)
	short := texts[1][:5]
	l := r.SourceListing(fn, NewSourceText(short, short))
	var outside []int32
	for i := range l.Outside {
		row := l.OutsideRow(i)
		if row.Line[0] <= 5 || row.Time[0] == nil {
			t.Errorf("outside row %+v", row)
		}
		outside = append(outside, row.Line[0])
	}
	var want []int32
	for _, lt := range r.FunctionLines(fn) {
		if lt.Line > 5 && (lt.Self.Mean[0] > 0 || lt.Self.Mean[1] > 0) {
			want = append(want, lt.Line)
		}
	}
	if len(want) == 0 || !slices.Equal(outside, want) {
		t.Errorf("outside lines %v, want %v", outside, want)
	}
	for _, i := range l.HotRows() {
		if i >= 5 {
			t.Errorf("hot row %d past the text", i)
		}
	}
}
