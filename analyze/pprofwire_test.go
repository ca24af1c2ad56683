package analyze

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	pprofile "github.com/google/pprof/profile"
	"google.golang.org/protobuf/encoding/protowire"
)

// pb writes protobuf fields for hand-made profiles.
type pb []byte

// msg appends field num holding the message (or string) body.
func (b pb) msg(num protowire.Number, body []byte) pb {
	return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), body)
}

// num appends varint field num.
func (b pb) num(num protowire.Number, v uint64) pb {
	return protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), v)
}

// strs appends a string table.
func (b pb) strs(s ...string) pb {
	for _, x := range s {
		b = b.msg(6, []byte(x))
	}
	return b
}

// tinyPprof is a profile of one sample (5 ns of cpu in main.f, f.go),
// whose parts each case below changes one of.
type tinyPprof struct {
	sampleType, sample, location, function, strings, extra pb
}

func newTinyPprof() tinyPprof {
	return tinyPprof{
		sampleType: pb{}.num(1, 1).num(2, 2),
		sample:     pb{}.num(1, 1).num(2, 5),
		location:   pb{}.num(1, 1).msg(4, pb{}.num(1, 1).num(2, 7)),
		function:   pb{}.num(1, 1).num(2, 3).num(4, 4),
		strings:    pb{}.strs("", "cpu", "nanoseconds", "main.f", "f.go"),
	}
}

func (t tinyPprof) bytes() []byte {
	return pb{}.msg(1, t.sampleType).msg(2, t.sample).msg(4, t.location).msg(5, t.function).
		append(t.strings...).append(t.extra...)
}

func (b pb) append(more ...byte) pb { return append(b, more...) }

// TestPprofWireRefusesWhatTheLibraryRefuses: malformed profile.proto is
// the decoder's error (errWire), never handed to the library, and each
// case is one the library refuses too, so that nothing the library read
// before is refused now.
func TestPprofWireRefusesWhatTheLibraryRefuses(t *testing.T) {
	valid := newTinyPprof()
	if _, err := decodePprofWire(valid.bytes()); err != nil {
		t.Fatalf("the valid profile: %v", err)
	}
	cases := []struct {
		name   string
		change func(p *tinyPprof)
		want   string
	}{
		{"location id of wire type fixed64", func(p *tinyPprof) {
			p.location = protowire.AppendFixed64(protowire.AppendTag(nil, 1, protowire.Fixed64Type), 1)
		}, "not a varint"},
		{"location id 0", func(p *tinyPprof) { p.location = pb{}.msg(4, pb{}.num(1, 1)) }, "reserved id 0"},
		{"function id 0", func(p *tinyPprof) { p.function = pb{}.num(2, 3) }, "reserved id 0"},
		{"two functions with one id", func(p *tinyPprof) { p.extra = pb{}.msg(5, p.function) }, "two functions have the id 1"},
		{"two locations with one id", func(p *tinyPprof) { p.extra = pb{}.msg(4, p.location) }, "two locations have the id 1"},
		{"sample of a missing location", func(p *tinyPprof) { p.sample = pb{}.num(1, 9).num(2, 5) }, "location 9, which does not exist"},
		{"line of a missing function", func(p *tinyPprof) { p.location = pb{}.num(1, 1).msg(4, pb{}.num(1, 9)) }, "function 9, which does not exist"},
		{"two values for one type", func(p *tinyPprof) { p.sample = p.sample.num(2, 6) }, "2 values for 1 sample types"},
		{"string index out of the table", func(p *tinyPprof) { p.function = pb{}.num(1, 1).num(2, 99) }, "string index 99"},
		{"first string not empty", func(p *tinyPprof) { p.strings = pb{}.strs("x", "cpu", "nanoseconds", "main.f", "f.go") }, "empty string"},
		{"cut short", func(p *tinyPprof) { p.extra = pb{}.msg(7, []byte("abc"))[:3] }, "unexpected EOF"},
		{"a group", func(p *tinyPprof) { p.extra = protowire.AppendTag(nil, 7, protowire.StartGroupType) }, "a group"},
		{"mapping id 0", func(p *tinyPprof) { p.extra = pb{}.msg(3, pb{}.num(2, 4096)) }, "reserved id 0"},
		{"two mappings with one id", func(p *tinyPprof) { p.extra = pb{}.msg(3, pb{}.num(1, 2)).msg(3, pb{}.num(1, 2)) }, "two mappings"},
		{"concatenated profiles", func(p *tinyPprof) { p.extra = pb{}.num(9, 1).num(9, 2) }, "concatenated"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newTinyPprof()
			c.change(&p)
			data := p.bytes()
			_, err := decodePprofWire(data)
			if !errors.Is(err, errWire) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("decoder: %v, want errWire with %q", err, c.want)
			}
			if _, lerr := parsePprofData(data); lerr == nil || lerr.Error() != err.Error() {
				t.Errorf("parsePprofData: %v, want the decoder's error, not the library's", lerr)
			}
			if _, lerr := pprofile.ParseData(data); lerr == nil {
				t.Errorf("the library reads what the decoder refuses")
			}
		})
	}
}

// TestPprofWireSkipsWhatTheLibrarySkips: reserved field numbers, labels,
// mappings, comments and unknown fields are passed over, as the library
// passes over them, and the two read the same profile.
func TestPprofWireSkipsWhatTheLibrarySkips(t *testing.T) {
	p := newTinyPprof()
	p.sample = p.sample.msg(3, pb{}.num(1, 1).num(2, 2))            // a label
	p.location = p.location.num(2, 1).num(5, 0).msg(6, []byte("?")) // mapping, is_folded, unknown
	p.extra = pb{}.msg(3, pb{}.num(1, 1).num(5, 4)).num(13, 1).num(0, 3).
		append(protowire.AppendVarint(protowire.AppendVarint(nil, 1<<36), 3)...). // field 2^33
		msg(40, []byte("unknown"))
	data := p.bytes()
	got, err := decodePprofWire(data)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := pprofile.ParseData(data)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := canonicalPprof(got), canonicalPprof(pprofDataOf(lib)); !reflect.DeepEqual(g, w) {
		t.Errorf("decoder %v\nlibrary %v", g, w)
	}
}

// TestPprofLegacyGoesToTheLibrary: the binary CPU profile from before
// profile.proto is no protobuf; the library reads it, its frames are
// addresses.
func TestPprofLegacyGoesToTheLibrary(t *testing.T) {
	var b bytes.Buffer
	words := []uint64{0, 3, 0, 10000, 0} // header: 10 ms period
	words = append(words, 3, 2, 0x401000, 0x402000)
	words = append(words, 1, 1, 0x402000)
	words = append(words, 0, 1, 0) // trailer
	for _, w := range words {
		binary.Write(&b, binary.LittleEndian, w)
	}
	data := b.Bytes()
	if _, err := decodePprofWire(data); err == nil {
		t.Fatal("the decoder took a legacy profile")
	}
	p, err := Parse(bytes.NewReader(data), ParseOptions{})
	if err != nil {
		t.Fatalf("legacy CPU profile: %v", err)
	}
	if p.SampleCount != 4 || len(p.Samples) != 2 {
		t.Errorf("%d samples in %d, want 4 in 2", p.SampleCount, len(p.Samples))
	}
}

// TestPprofBoundsAreFinal: input refused for its size never reaches the
// library, and reading a file, the error names it.
func TestPprofBoundsAreFinal(t *testing.T) {
	prof := newTinyPprof().bytes()
	strs := append(append([]byte{}, prof...), bytes.Repeat([]byte{0x32, 0x00}, 1<<20)...)
	// Four zero bytes (two empty fields numbered 0) begin a legacy CPU
	// profile too; a cut field at the end makes the protobuf malformed.
	flawed := append(append([]byte{0, 0, 0, 0}, strs...), 0x3a, 0x05)
	for name, data := range map[string][]byte{
		"gzip inside gzip":                   gzipped(t, prof),
		"a million empty strings":            strs,
		"a million empty strings and a flaw": flawed,
	} {
		if _, err := parsePprofData(data); !errors.Is(err, errPprofBound) {
			t.Errorf("%s: %v, want errPprofBound", name, err)
		}
	}
	path := filepath.Join(t.TempDir(), "strings.pb.gz")
	if err := os.WriteFile(path, gzipped(t, strs), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ParseFile(path, ParseOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), "string-table entries") {
		t.Errorf("err = %v, want it to name %s and the string table", err, path)
	}
}
