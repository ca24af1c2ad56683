package sourcemap

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/internal/jsonscan"
)

// FuzzParseMap: Parse never panics, accepts only valid JSON (and its
// scanner agrees with encoding/json on what that is), and on success the
// map is consistent and Lookup agrees with a full table of its mappings.
func FuzzParseMap(f *testing.F) {
	root := filepath.Join(conformanceDir, "resources")
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".map") {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
		return nil
	})
	f.Add([]byte(")]}'\n{\"version\":3,\"sources\":[\"a\"],\"sourcesContent\":[\"x\\u0041\"],\"mappings\":\"AAAA,CAAC;;EAAE,B\"}"))
	f.Add([]byte(`{"version":3,"sections":[{"offset":{"line":0,"column":0},"map":{"version":3,"sources":["a"],"names":["n"],"mappings":"AAAAA,C"}},{"offset":{"line":0,"column":5},"map":{"version":3,"sources":["b"],"mappings":"AAAA;CAAC"}}]}`))

	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data)

		body := data[prefixLen(data):]
		sc := jsonscan.NewWalker(body, 0)
		serr := sc.Skip()
		if ours, theirs := serr == nil && sc.Pos() == len(body), json.Valid(body); ours != theirs {
			t.Fatalf("JSON validity: ours %v (%v), encoding/json %v", ours, serr, theirs)
		}
		if err != nil {
			if strings.Contains(err.Error(), "\n") || err.Error() == "" {
				t.Fatalf("error %q is not one line", err)
			}
			return
		}
		if !json.Valid(body) {
			t.Fatal("Parse accepted invalid JSON")
		}
		if len(m.Ignored) != len(m.Sources) {
			t.Fatalf("%d Ignored for %d Sources", len(m.Ignored), len(m.Sources))
		}
		for i := -1; i <= len(m.Sources); i++ {
			m.SourceContent(i)
		}

		all := decodeAll(m)
		useRef := len(all) <= 2000 // keep the reference cheap
		qs := []Query{{0, 0}, {0, 1}, {0, 5}, {0, -1}, {1, 0}, {1, 3}, {2, 100}, {-1, 0}, {1 << 40, 0}, {0, 1 << 40}}
		for i, s := range all {
			if i%7 == 0 {
				qs = append(qs, Query{s.GenLine, s.GenColumn}, Query{s.GenLine, s.GenColumn + 1}, Query{s.GenLine, s.GenColumn - 1})
			}
		}
		ans := m.Lookup(qs)
		if len(ans) != len(qs) {
			t.Fatalf("%d answers for %d queries", len(ans), len(qs))
		}
		for i, a := range ans {
			for _, p := range []*Position{a.Exact, a.Before, a.First} {
				if p == nil {
					continue
				}
				if p.GenLine != qs[i].Line || p.Source < -1 || p.Source >= len(m.Sources) || p.Name < -1 || p.Name >= len(m.Names) {
					t.Fatalf("query %+v: bad position %+v", qs[i], *p)
				}
			}
			if useRef {
				if g, w := fmtAnswer(a), fmtAnswer(refLookup(all, qs[i])); g != w {
					t.Fatalf("query %+v:\n got %s\nwant %s", qs[i], g, w)
				}
			}
			if p, ok := original(m, qs[i].Line, qs[i].Column); ok && (p.Source < 0 || p.Source >= len(m.Sources)) {
				t.Fatalf("Original(%+v) = %+v", qs[i], p)
			}
		}
	})
}
