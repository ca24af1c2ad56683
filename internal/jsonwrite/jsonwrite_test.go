package jsonwrite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// tricky are strings whose escapes differ between encoders: HTML
// characters, every kind of control character, invalid UTF-8, the line
// separators JavaScript does not allow raw, C1 controls, bidirectional
// overrides, the replacement character itself and runes above U+FFFF.
var tricky = []string{
	"", "plain", `quote " and backslash \`, "<script>&amp;</script>", "\x00\x01\x1f\x7f", "\b\f\n\r\t",
	"bad \xff utf-8 \xc3", "\xe2\x80", "line\u2028para\u2029", "csi \u009b2J nel \u0085", "\u202egnp.exe\u202c",
	"\u2066isolate\u2069 \u200e\u200f \u061c", "zw\u200bsp \ufeff bom \ufffe\uffff", "\ufffd literal", "名前 ✓ 😀",
	"\U0010ffff", "a\x00b", strings.Repeat("x", 70<<10) + "<",
}

var trickyFloats = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.1, 1.5, 1e-6, 9.999999999999999e-7, 1e-7, -1e-7, 1e20, 1e21, -1e21, 123456789012345678901234.0,
	math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 1e-100, 1.7976931348623157e308, 5e-324,
	6392022000, 1 << 53, 1<<53 + 2, 1<<53 - 1, 1<<53 - 0.5, 1e15 + 0.5, 9007199254740993, 1.0000000000000002, 0.30000000000000004, 1e15, 1e16, 12345.678, 2.5e-8, 1e-10,
}

// marshal is what encoding/json writes for v, compact or indented.
func marshal(t testing.TB, v any, indent bool) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !indent {
		return b
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", " "); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// write writes v, a tree of what json.Unmarshal makes (maps, slices,
// strings, numbers, booleans and nil), through a Writer: object members in
// the sorted order json.Marshal writes a map's.
func write(w *Writer, v any) {
	switch v := v.(type) {
	case nil:
		w.Null()
	case bool:
		w.Bool(v)
	case float64:
		w.Float(v)
	case int:
		w.Int(int64(v))
	case string:
		w.String(v)
	case []any:
		w.BeginArray()
		for _, x := range v {
			write(w, x)
		}
		w.EndArray()
	case map[string]any:
		w.BeginObject()
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			w.Key(k)
			write(w, v[k])
		}
		w.EndObject()
	default:
		panic(fmt.Sprintf("write: %T", v))
	}
}

func written(t testing.TB, opts Options, f func(w *Writer)) []byte {
	t.Helper()
	var b bytes.Buffer
	w := New(&b, opts)
	f(w)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestStrings(t *testing.T) {
	for _, s := range tricky {
		for _, indent := range []bool{false, true} {
			got := written(t, Options{Indent: indent}, func(w *Writer) { w.String(s) })
			if want := marshal(t, s, indent); !bytes.Equal(got, want) {
				t.Errorf("String(%.40q) = %.80s, want %.80s", s, got, want)
			}
		}
	}
}

func TestFloats(t *testing.T) {
	for _, f := range trickyFloats {
		for _, f := range []float64{f, -f} {
			got := written(t, Options{}, func(w *Writer) { w.Float(f) })
			if want := marshal(t, f, false); !bytes.Equal(got, want) {
				t.Errorf("Float(%v) = %s, want %s", f, got, want)
			}
		}
	}
}

// TestDocuments writes documents of every shape, compact and indented,
// against json.Marshal and json.Indent: empty and nested containers,
// members after a container, scalars at the top.
func TestDocuments(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `null`, `true`, `7`, `"x"`, `[[]]`, `[{}]`, `{"a":{}}`, `{"a":[]}`, `[[],[]]`, `[{},{},[]]`,
		`{"a":1,"b":[1,2,{"c":null,"d":[]}],"e":{},"f":"<&>"}`,
		`{"x":[[1.5,2],[],[3]],"y":[true,false,null],"z":{"z":{"z":{}}}}`,
		`[1,[2,[3,[4,[]]]],{"k":[{"k":{}}]}]`,
	}
	for _, d := range docs {
		var v any
		if err := json.Unmarshal([]byte(d), &v); err != nil {
			t.Fatal(err)
		}
		for _, indent := range []bool{false, true} {
			got := written(t, Options{Indent: indent}, func(w *Writer) { write(w, v) })
			if want := marshal(t, v, indent); !bytes.Equal(got, want) {
				t.Errorf("%s (indent %v):\ngot  %s\nwant %s", d, indent, got, want)
			}
		}
	}
}

// TestSlices: the slice helpers write nil as null and empty as [], as
// json.Marshal does.
func TestSlices(t *testing.T) {
	type doc struct {
		F  []float64 `json:"f"`
		F0 []float64 `json:"f0"`
		S  []string  `json:"s"`
		S0 []string  `json:"s0"`
		I  []int32   `json:"i"`
		I8 []int8    `json:"i8"`
		I0 []int     `json:"i0"`
	}
	d := doc{F: []float64{1, 2.5, 1e-9}, F0: []float64{}, S: []string{"a", "<"}, I: []int32{-1, 0, 7}, I8: []int8{0, 4, -128}}
	for _, indent := range []bool{false, true} {
		got := written(t, Options{Indent: indent}, func(w *Writer) {
			w.BeginObject()
			w.Key("f")
			w.Floats(d.F)
			w.Key("f0")
			w.Floats(d.F0)
			w.Key("s")
			w.Strings(d.S)
			w.Key("s0")
			w.Strings(d.S0)
			w.Key("i")
			Ints(w, d.I)
			w.Key("i8")
			Ints(w, d.I8)
			w.Key("i0")
			Ints(w, d.I0)
			w.EndObject()
		})
		if want := marshal(t, d, indent); !bytes.Equal(got, want) {
			t.Errorf("indent %v:\ngot  %s\nwant %s", indent, got, want)
		}
	}
}

// escapeAfter is the escape as a pass over what json.Marshal wrote, as
// report.EscapeJSON does it, for runes up to U+FFFF.
func escapeAfter(b []byte, escape func(rune) bool) []byte {
	var out []byte
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r >= 0x80 && escape(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return out
}

// c1AndBidi is an escape set like diff's: C1 controls and bidirectional
// controls, with U+2028 (escaped anyway) and U+FFFD (never: it stands for
// invalid UTF-8).
func c1AndBidi(r rune) bool {
	return r <= 0x9f || (r >= 0x202a && r <= 0x202e) || r == 0x2028 || r == 0xfeff || r == 0xffff
}

func TestEscape(t *testing.T) {
	for _, s := range tricky {
		for _, indent := range []bool{false, true} {
			got := written(t, Options{Indent: indent, Escape: c1AndBidi}, func(w *Writer) { w.String(s) })
			if want := escapeAfter(marshal(t, s, indent), c1AndBidi); !bytes.Equal(got, want) {
				t.Errorf("String(%.40q) = %.80s, want %.80s", s, got, want)
			}
		}
	}
	// Above U+FFFF, a surrogate pair, which reads back as the rune.
	got := written(t, Options{Escape: func(r rune) bool { return r > 0xffff }}, func(w *Writer) { w.String("a😀\U0010ffff") })
	if string(got) != `"a\ud83d\ude00\udbff\udfff"` {
		t.Errorf("surrogates: %s", got)
	}
	var back string
	if err := json.Unmarshal(got, &back); err != nil || back != "a😀\U0010ffff" {
		t.Errorf("read back %q, %v", back, err)
	}
	// Keys are strings too.
	got = written(t, Options{Escape: c1AndBidi}, func(w *Writer) { w.BeginObject(); w.Key("\u202e<"); w.Null(); w.EndObject() })
	if string(got) != `{"\u202e\u003c":null}` {
		t.Errorf("key: %s", got)
	}
}

func TestNotANumber(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		var b bytes.Buffer
		w := New(&b, Options{})
		w.BeginArray()
		w.Float(f)
		w.EndArray()
		if err := w.Flush(); err == nil || !strings.Contains(err.Error(), "unsupported value") {
			t.Errorf("Float(%v): error %v", f, err)
		}
		if b.Len() != 0 {
			t.Errorf("Float(%v) wrote %q after the error", f, b.String())
		}
	}
}

// countWrites counts the writes it takes, and fails from the failAt'th on.
type countWrites struct {
	bytes.Buffer
	writes, failAt int
}

var errFull = errors.New("disk full")

func (c *countWrites) Write(p []byte) (int, error) {
	c.writes++
	if c.failAt > 0 && c.writes >= c.failAt {
		return 0, errFull
	}
	return c.Buffer.Write(p)
}

// TestBuffering: the output reaches the writer in pieces of about 64 KiB,
// whole; the first error is kept and returned, and nothing is written
// after it.
func TestBuffering(t *testing.T) {
	xs := make([]float64, 100_000)
	for i := range xs {
		xs[i] = float64(i) * 1.25
	}
	var c countWrites
	w := New(&c, Options{Indent: true})
	w.Raw("head\n")
	w.Floats(xs)
	w.Raw("\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := append(append([]byte("head\n"), marshal(t, xs, true)...), '\n')
	if !bytes.Equal(c.Bytes(), want) {
		t.Error("buffered output differs")
	}
	if n := len(want)/flushAt + 1; c.writes < n-1 || c.writes > n+1 {
		t.Errorf("%d writes for %d bytes", c.writes, len(want))
	}

	f := countWrites{failAt: 2}
	w = New(&f, Options{})
	w.Floats(xs)
	w.Raw(strings.Repeat("r", 2*flushAt))
	if err := w.Flush(); !errors.Is(err, errFull) || f.writes != 2 || f.Len() == 0 {
		t.Errorf("error %v after %d writes", err, f.writes)
	}
	if err := w.Flush(); !errors.Is(err, errFull) {
		t.Errorf("second Flush: %v", err)
	}
}

// TestRawLarge: text longer than the buffer goes straight through, after
// what was buffered.
func TestRawLarge(t *testing.T) {
	big := strings.Repeat("<p>", flushAt)
	got := written(t, Options{}, func(w *Writer) {
		w.Raw("a")
		w.String("b")
		w.Raw(big)
		w.Int(1)
	})
	if string(got) != `a"b"`+big+`1` {
		t.Errorf("raw: %.40s...", got)
	}
}

// FuzzString writes an arbitrary string and number in a small document,
// as a key, a member and array elements, compact and indented, and holds
// it to encoding/json; with an escape set, to encoding/json followed by
// the escape as a pass over its bytes.
func FuzzString(f *testing.F) {
	for i, s := range tricky {
		f.Add(s, trickyFloats[i%len(trickyFloats)])
	}
	f.Add("\x7f\u0080\u009f\u00a0", -0.0)
	f.Add("e-07", 1e-7)
	f.Fuzz(func(t *testing.T, s string, x float64) {
		type doc struct {
			S   string    `json:"s"`
			A   []any     `json:"a"`
			E   []string  `json:"e"`
			M   any       `json:"m"`
			Num []float64 `json:"n"`
		}
		var m any = map[string]any{s: []any{s, map[string]any{}}}
		d := doc{S: s, A: []any{s, nil, x, []any{}, true}, E: []string{}, M: m, Num: []float64{x, -x, x * 1e-12, x * 1e22}}
		if math.IsNaN(x) || math.IsInf(x, 0) || math.IsInf(x*1e22, 0) {
			d.A[2] = nil
			d.Num = nil
		}
		for _, indent := range []bool{false, true} {
			for _, escape := range []func(rune) bool{nil, c1AndBidi} {
				got := written(t, Options{Indent: indent, Escape: escape}, func(w *Writer) {
					w.BeginObject()
					w.Key("s")
					w.String(d.S)
					w.Key("a")
					write(w, d.A)
					w.Key("e")
					w.Strings(d.E)
					w.Key("m")
					write(w, d.M)
					w.Key("n")
					w.Floats(d.Num)
					w.EndObject()
				})
				want := marshal(t, d, indent)
				if escape != nil {
					want = escapeAfter(want, escape)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%q, %v (indent %v, escape %v):\ngot  %s\nwant %s", s, x, indent, escape != nil, got, want)
				}
			}
		}
	})
}

// TestFloatsRandom holds Float to json.Marshal on random numbers of every
// magnitude, whole ones (the fast path) around 2^53 among them.
func TestFloatsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var w Writer
	var got []byte
	for i := range 200_000 {
		var f float64
		switch i % 4 {
		case 0:
			f = math.Float64frombits(rng.Uint64())
		case 1:
			f = math.Trunc(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20))))
		case 2:
			f = float64(int64(1<<53) + rng.Int64N(1<<20) - 1<<19)
		case 3:
			f = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(60)-30))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		got = w.appendFloat(got[:0], f)
		if want := marshal(t, f, false); !bytes.Equal(got, want) {
			t.Fatalf("Float(%v) = %s, want %s", f, got, want)
		}
	}
}
