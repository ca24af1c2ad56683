package jsonwrite

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

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
