package symbolicate

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func TestIdentifierAt(t *testing.T) {
	src := "export class Router {\n  match(path, method) {\n    return 1;\n  }\n}\nconst handle = (req) => req;\nfunction build(a) {}\nconst ok = x === (y);\n"
	cases := []struct {
		line, col int
		want      string
	}{
		{1, 7, "match"},   // at the "(" of a method
		{1, 2, "match"},   // at the method name itself
		{5, 15, "handle"}, // an arrow assigned to a const: "= (req)"
		{6, 14, "build"},  // function declaration, at "("
		{7, 17, ""},       // "=== (" is a comparison, not a name
		{9, 0, ""},        // beyond the source
	}
	for _, c := range cases {
		if got := identifierAt(newSourceText(src), c.line, c.col); got != c.want {
			t.Errorf("identifierAt(%d:%d) = %q, want %q", c.line, c.col, got, c.want)
		}
	}
	if got := enclosingClass(newSourceText(src), 1, 7); got != "Router" {
		t.Errorf("enclosingClass = %q, want Router", got)
	}
}

func TestOffsetOfCountsUTF16(t *testing.T) {
	src := "a😀b(\n"
	// 😀 is two UTF-16 units: the "(" is at column 4.
	if off := newSourceText(src).offset(0, 4); off < 0 || src[off] != '(' {
		t.Errorf("offset %d", off)
	}
}

func TestExtractMapURL(t *testing.T) {
	cases := []struct {
		tail     string
		complete bool
		want     string
		ok       bool
	}{
		{"code();\n//# sourceMappingURL=app.js.map\n", true, "app.js.map", true},
		{"code();\n//@ sourceMappingURL=old.map", true, "old.map", true},
		{"code();\n//# sourceMappingURL=a.map\n// trailing comment\n\n", true, "a.map", true},
		{"code();\n//# sourceMappingURL=a.map\nmore();\n", true, "", true},
		{"x();", true, "", true},
		{"ap\n", false, "", false},                            // the last line may start before the tail
		{"x\nap\n", false, "", true},                          // a whole line of code ends the script: no comment
		{"apping\" sourceMappingURL=a.map", false, "", false}, // the line may start earlier: read more
		{"//# sourceMappingURL=data:application/json;base64,eyJ9", true, "data:application/json;base64,eyJ9", true},
	}
	for _, c := range cases {
		got, ok := extractMapURL([]byte(c.tail), c.complete)
		if got != c.want || ok != c.ok {
			t.Errorf("extractMapURL(%q) = %q, %v; want %q, %v", c.tail, got, ok, c.want, c.ok)
		}
	}
}

func TestDecodeDataURL(t *testing.T) {
	cases := map[string]string{
		"data:application/json;base64,eyJ2ZXJzaW9uIjozfQ==":             `{"version":3}`,
		"data:application/json;charset=utf-8;base64,eyJ2ZXJzaW9uIjozfQ": `{"version":3}`,
		"data:application/json,%7B%22version%22%3A3%7D":                 `{"version":3}`,
	}
	for in, want := range cases {
		got, err := decodeDataURL(in)
		if err != nil || string(got) != want {
			t.Errorf("decodeDataURL(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := decodeDataURL("data:application/json;base64,!!!"); err == nil {
		t.Error("bad base64 accepted")
	}
}

func TestSourcePath(t *testing.T) {
	cases := []struct{ src, want string }{
		{"webpack://my-app/./src/router.js", "src/router.js"},
		{"webpack-internal:///./src/a.js", "src/a.js"},
		{"webpack:///webpack/bootstrap", "webpack/bootstrap"},
		{"../../../node_modules/path-to-regexp/src/index.ts", "node_modules/path-to-regexp/src/index.ts"},
		{"../src/router.js", "src/router.js"},
		{"file:///home/u/app/src/x.ts", "/home/u/app/src/x.ts"},
		{"https://cdn.example/x.js", "https://cdn.example/x.js"},
	}
	for _, c := range cases {
		if got := sourcePath(c.src); got != c.want {
			t.Errorf("sourcePath(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

func TestArrowParam(t *testing.T) {
	src := "rows.filter((r) => r.ok);\nconst pick = x => x.id;\nlist.map(v => v);\nconst sum = (a, b) => a + b;\nfoo(bar);\nreturn (value: string) => value;\nconst f = (a: Map<string, number[]>): number => 1;\n"
	cases := []struct {
		line, col int
		param     bool
		target    string
	}{
		{0, 13, true, ""},     // (r) => inside a call: anonymous
		{1, 13, true, "pick"}, // x => assigned to pick
		{2, 9, true, ""},      // v => in a call
		{3, 13, true, "sum"},  // (a, b) =>
		{4, 4, false, ""},     // an argument, not a parameter
	}
	for _, c := range cases {
		param, target := arrowParam(newSourceText(src), c.line, c.col)
		if param != c.param || target != c.target {
			t.Errorf("arrowParam(%d:%d) = %v %q, want %v %q", c.line, c.col, param, target, c.param, c.target)
		}
	}
}

// FuzzExtractMapURL: any script tail, complete or not, is read without a
// panic, and a value found has no white space.
func FuzzExtractMapURL(f *testing.F) {
	for _, s := range []string{"x();\n//# sourceMappingURL=a.map\n", "//@ sourceMappingURL=data:application/json;base64,e30=", "\n\n//\n", "a\r\n//# sourceMappingURL= b c\r\n"} {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, tail []byte, complete bool) {
		v, _ := extractMapURL(tail, complete)
		if strings.ContainsAny(v, " \t\r\n") {
			t.Fatalf("value %q holds white space", v)
		}
	})
}

// TestSourceTextOffset holds offset (with its ASCII shortcut) to a plain
// walk over the runes of each line, counting UTF-16 units.
func TestSourceTextOffset(t *testing.T) {
	text := "const a = 1;\r\nlet é = 'ü';\n\nx😀y = () => 1\nplain ascii line\nlast"
	walk := func(line, column int) int {
		lines := strings.SplitAfter(text, "\n")
		if line >= len(lines) {
			return -1
		}
		off := 0
		for _, l := range lines[:line] {
			off += len(l)
		}
		for u := 0; u < column; {
			if off >= len(text) || text[off] == '\n' {
				return -1
			}
			r, size := utf8.DecodeRuneInString(text[off:])
			off += size
			u += len(utf16.Encode([]rune{r}))
		}
		return off
	}
	st := newSourceText(text)
	for pass := range 2 { // the second pass meets the remembered answers
		for line := range 7 {
			for column := range 20 {
				if got, want := st.offset(line, column), walk(line, column); got != want {
					t.Fatalf("pass %d: offset(%d, %d) = %d, want %d", pass, line, column, got, want)
				}
			}
		}
	}
}
