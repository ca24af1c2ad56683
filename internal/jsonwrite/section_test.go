package jsonwrite

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// writeDoc writes an object whose members "b" and "d" (large arrays) are
// written by fill, at their places.
func writeDoc(w *Writer, b, d func(*Writer)) {
	w.BeginObject()
	w.Key("a")
	w.Int(1)
	b(w)
	w.Key("c")
	w.String("between")
	d(w)
	w.EndObject()
}

func member(key string, n int) func(*Writer) {
	return func(w *Writer) {
		w.Key(key)
		w.BeginArray()
		for i := range n {
			w.BeginObject()
			w.Key("i")
			w.Int(int64(i))
			w.Key("s")
			w.String(strings.Repeat("<x>", i%7))
			w.EndObject()
		}
		w.EndArray()
	}
}

// TestSectionsWriteTheSameBytes: members written in sections (on other
// goroutines) and joined at their places give the bytes of one Writer.
func TestSectionsWriteTheSameBytes(t *testing.T) {
	for _, indent := range []bool{false, true} {
		opts := Options{Indent: indent}
		var want bytes.Buffer
		w := New(&want, opts)
		writeDoc(w, member("b", 20000), member("d", 3))
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		w = New(&got, opts)
		var sb, sd *Writer
		writeDoc(w, func(w *Writer) {
			sb, sd = w.Section(), w.Section()
			done := make(chan bool)
			go func() { member("b", 20000)(sb); member("d", 3)(sd); close(done) }()
			<-done
			w.Join(sb)
		}, func(w *Writer) { w.Join(sd) })
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("indent %v: sections wrote %d bytes, one writer %d, and they differ", indent, got.Len(), want.Len())
		}
	}
}

// TestSectionJoinedElsewhere: a section joined at another depth, or where
// its first value would need a comma it did not write, is an error.
func TestSectionJoinedElsewhere(t *testing.T) {
	var buf bytes.Buffer
	w := New(&buf, Options{})
	w.BeginObject()
	s := w.Section() // before the object's first member: no comma
	s.Key("x")
	s.Int(1)
	w.Key("a")
	w.Int(1)
	w.Join(s) // after a member: "x" would need a comma
	if w.Err() == nil {
		t.Error("a section made before the first member was joined after one")
	}
	w = New(&buf, Options{})
	w.BeginArray()
	w.Int(1)
	s = w.Section()
	w.BeginArray()
	w.Join(s)
	if w.Err() == nil {
		t.Error("a section was joined one level deeper than it was made")
	}
	w = New(&buf, Options{})
	w.BeginArray()
	s = w.Section()
	s.Float(1)
	s.Float(0)
	s.Int(2)
	w.Join(s)
	w.EndArray()
	if err := w.Flush(); err != nil || !strings.HasSuffix(buf.String(), "[1,0,2]") {
		t.Errorf("joined at its place: %q, %v", buf.String(), err)
	}
	w = New(&buf, Options{})
	w.BeginArray()
	s = w.Section()
	s.Float(math.NaN())
	w.Join(s)
	if w.Err() == nil {
		t.Error("a section's NaN was not the joined Writer's error")
	}
}

// TestDeepIndent: a document nested deeper than one run of indenting
// spaces is indented as json.Indent indents it.
func TestDeepIndent(t *testing.T) {
	var got bytes.Buffer
	w := New(&got, Options{Indent: true})
	const depth = 150
	for range depth {
		w.BeginArray()
		w.Int(1)
	}
	for range depth {
		w.EndArray()
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	compact := strings.Repeat("[1,", depth) + strings.Repeat("]", depth)
	compact = strings.ReplaceAll(compact, ",]", "]")
	var want bytes.Buffer
	if err := json.Indent(&want, []byte(compact), "", " "); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("indented %d levels deep: %d bytes, json.Indent %d", depth, got.Len(), want.Len())
	}
}
