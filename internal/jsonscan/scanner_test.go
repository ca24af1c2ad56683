package jsonscan

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadIntArrayAcrossBuffers reads integer arrays in every layout the
// in-place loop of ReadIntArray meets: numbers cut by the end of the
// buffer, white space, fractions and exponents left to the general step.
func TestReadIntArrayAcrossBuffers(t *testing.T) {
	texts := []string{
		`[]`, `[ ]`, `[7]`, `[1,2,3]`, `[ -1 , 22 ,333, 4444 ]`,
		`[1,2.0,3e2,-4,123456789012345678,1234567890123456789]`,
		"[\n1,\n\t2\r\n]",
	}
	var long strings.Builder
	long.WriteString("[")
	for i := range 3000 {
		if i > 0 {
			long.WriteString(",")
		}
		fmt.Fprintf(&long, "%d", (i*7919)%100003-50000)
	}
	long.WriteString("]")
	texts = append(texts, long.String())
	for _, text := range texts {
		var want []float64
		if err := json.Unmarshal([]byte(text), &want); err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{16, 17, 31, 64, 4096} {
			for _, oneByte := range []bool{false, true} {
				var r io.Reader = strings.NewReader(text)
				if oneByte {
					r = iotest.OneByteReader(r)
				}
				s := New(r, size)
				got := s.ReadIntArray(nil)
				if s.Err() != nil {
					t.Fatalf("%.40s (buffer %d): %v", text, size, s.Err())
				}
				if len(got) != len(want) {
					t.Fatalf("%.40s (buffer %d): %d numbers, want %d", text, size, len(got), len(want))
				}
				for i := range got {
					if float64(got[i]) != want[i] {
						t.Fatalf("%.40s (buffer %d): [%d] = %d, want %v", text, size, i, got[i], want[i])
					}
				}
			}
		}
	}
	for _, bad := range []string{`[1,,2]`, `[1 2]`, `[1,]`, `[1,2`, `[1,x]`, `[1.5]`} {
		s := New(strings.NewReader(bad), 16)
		if s.ReadIntArray(nil); s.Err() == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestMembersMatchEncodingJSON walks objects of string members with Members
// and ReadString, through buffers small enough to cut keys and values, and
// compares with encoding/json.
func TestMembersMatchEncodingJSON(t *testing.T) {
	texts := []string{
		`{}`, `{ }`, `{"a":"b"}`, `{"a" : "b" , "c":"d"}`,
		`{"esc\"aped":"\u00e9\ud83d\ude00\n\/","lone":"\ud800x","k":"` + strings.Repeat("x", 100) + `"}`,
	}
	for _, text := range texts {
		var want map[string]string
		if err := json.Unmarshal([]byte(text), &want); err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{8, 17, 4096} {
			s := New(iotest.OneByteReader(strings.NewReader(text)), size)
			got := map[string]string{}
			for k := range s.Members() {
				key := string(k)
				got[key] = string(s.ReadString())
			}
			if s.Err() != nil || !s.AtEnd() {
				t.Fatalf("%s (buffer %d): %v", text, size, s.Err())
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s (buffer %d): %q, want %q", text, size, got, want)
			}
		}
	}
	for _, bad := range []string{`{"a" "b"}`, `{"a":"b",}`, `{"a":"b"`, `{a:"b"}`, `{"a":"\x"}`, `{"a":"\u12"}`} {
		s := New(strings.NewReader(bad), 16)
		for range s.Members() {
			s.ReadString()
		}
		if s.Err() == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
