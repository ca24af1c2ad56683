package analyze

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadCost: a folded file is estimated at several times its size, as
// its nodes take (a gzipped one more still), a V8 profile, which the
// reader streams, at its size, and a file that cannot be read at nothing.
func TestReadCost(t *testing.T) {
	dir := t.TempDir()
	folded := strings.Repeat("main;app.handle;app.parse 3\n", 1000)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(folded))
	zw.Close()
	v8 := `{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1}}],"startTime":0,"endTime":1,"samples":[],"timeDeltas":[]}`
	files := map[string]string{"a.folded": folded, "a.folded.gz": gz.String(), "a.cpuprofile": v8}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]int64{
		"a.folded":     int64(len(folded)) * foldedCostPerByte,
		"a.folded.gz":  int64(len(folded)) * foldedCostPerByte, // the trailer's size
		"a.cpuprofile": int64(len(v8)) * jsonCostPerByte,
		"missing":      0,
	} {
		if got := ReadCost(filepath.Join(dir, name), AggregateOptions{}); got != want {
			t.Errorf("%s: %d, want %d", name, got, want)
		}
	}
	if got, want := ReadCost(filepath.Join(dir, "a.folded"), AggregateOptions{Edges: true}), int64(len(folded))*(foldedCostPerByte+foldedEdgeCostPerByte); got != want {
		t.Errorf("a.folded with its calls: %d, want %d", got, want)
	}
}

// TestInputSize: a file's size, a gzipped one's the size of its text as
// its trailer says, at least five times the file's (a 2 MB gzip of repeated
// folded stacks can hold 500 MB of text, and the memory limit follows it).
func TestInputSize(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Repeat("main;a 1\n", 100)))
	zw.Close()
	plain, packed := filepath.Join(dir, "a.folded"), filepath.Join(dir, "a.folded.gz")
	os.WriteFile(plain, []byte("main;a 1\n"), 0o644)
	os.WriteFile(packed, gz.Bytes(), 0o644)
	if got := InputSize(plain); got != 9 {
		t.Errorf("plain: %d", got)
	}
	if got, want := InputSize(packed), max(int64(gz.Len())*gzipRatio, 900); got != want {
		t.Errorf("gzipped: %d, want %d", got, want)
	}
	// Repeated stacks shrink 100-fold: the text's size is the trailer's.
	text := strings.Repeat("main;app.handle;app.parse 3\n", 100_000)
	gz.Reset()
	zw = gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	os.WriteFile(packed, gz.Bytes(), 0o644)
	if got := InputSize(packed); got != int64(len(text)) {
		t.Errorf("gzipped repeated stacks (%d bytes): %d, want %d", gz.Len(), got, len(text))
	}
}
