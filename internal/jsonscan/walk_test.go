package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzDecodeString checks the sourcesContent unescaper against
// encoding/json on every valid JSON string.
func FuzzDecodeString(f *testing.F) {
	for _, s := range []string{`"a\nb"`, `"\u00e9\ud83d\ude00"`, `"\ud800x"`, `"tab\t\"q\" \\ \/"`, "\"\xff\"", `"plain"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want string
		if json.Unmarshal(raw, &want) != nil || len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
			return
		}
		got, err := DecodeString(raw)
		if err != nil || got != want {
			t.Fatalf("DecodeString(%q) = %q, %v; encoding/json says %q", raw, got, err, want)
		}
		own := bytes.Clone(raw)
		if got, ok := DecodeInPlace(own); ok && got != want {
			t.Fatalf("DecodeInPlace(%q) = %q; encoding/json says %q", raw, got, want)
		} else if !ok && utf8.Valid(raw) {
			t.Fatalf("DecodeInPlace(%q) declined valid UTF-8", raw)
		}
	})
}
