package history

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// slowDecode is encoding/json's strict decoding of a record.
func slowDecode(data []byte) (Record, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Record
	err := dec.Decode(&r)
	return r, err
}

// checkFastAgrees fails when the fast path decodes data otherwise than
// encoding/json would, and returns whether it took it.
func checkFastAgrees(t *testing.T, data []byte) bool {
	t.Helper()
	var fast Record
	if !decodeFast(data, &fast) {
		return false
	}
	if !json.Valid(data) {
		t.Fatalf("the fast path read a record that is not JSON:\n%.400s", data)
	}
	slow, err := slowDecode(data)
	if err != nil {
		t.Fatalf("the fast path read a record encoding/json refuses (%v):\n%.400s", err, data)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("the fast path read %+v, encoding/json %+v", fast, slow)
	}
	return true
}

// TestDecodeFastAgreesWithEncodingJSON: records as Marshal writes them
// take the fast path and read as encoding/json reads them; records laid
// out otherwise, or with escaped names, numbers that are no integers or
// unknown keys, leave it (by line or whole) and so read, or fail, as
// encoding/json has them.
func TestDecodeFastAgreesWithEncodingJSON(t *testing.T) {
	rec := routerRecord(t, "c0ffee01", "2026-11-01T08:00:00Z", 0)
	rec.Rows[3].Name = `RegExp: ^\/users\/(\d+)$ "quoted"`
	rec.Rows[4].Name = "caf\u00e9 \u2603"
	data, err := rec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !checkFastAgrees(t, data) {
		t.Fatal("a record as Marshal writes it does not take the fast path")
	}
	got, err := Unmarshal(data)
	if err != nil || !reflect.DeepEqual(got, rec) {
		t.Fatalf("read back: %v", err)
	}
	s := string(data)
	for name, c := range map[string]struct {
		body string
		err  string // "" reads
	}{
		"indented":           {strings.ReplaceAll(s, "\n{", "\n  {"), ""},
		"a float for an int": {strings.Replace(s, `"self_us":[`, `"self_us":[1.5,`, 1), "malformed record"},
		"an unknown key":     {strings.Replace(s, `{"kind":"package",`, `{"kind":"package","x":1,`, 1), "malformed record"},
		"a repeated key":     {strings.Replace(s, `{"kind":"package",`, `{"kind":"file","kind":"package",`, 1), ""},
		"a key in caps":      {strings.Replace(s, `{"kind":"package",`, `{"KIND":"package",`, 1), ""},
		"a second record":    {s + s, "not a whole profdiff history record"},
		"a null floor":       {strings.Replace(s, `"floor": {`, `"floor": null, "x": {`, 1), "malformed record"},
		"leading zero":       {strings.Replace(s, `"self_us":[`, `"self_us":[01,`, 1), "not a whole"},
	} {
		checkFastAgrees(t, []byte(c.body))
		_, err := Unmarshal([]byte(c.body))
		switch {
		case c.err == "" && err != nil && !strings.Contains(err.Error(), "times for"):
			t.Errorf("%s: %v", name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want %q", name, err, c.err)
		}
	}
}

// FuzzDecodeFast: whatever the bytes, the fast path either leaves them
// to encoding/json or reads them as it does.
func FuzzDecodeFast(f *testing.F) {
	rec := &Record{Version: Version, Commit: "c0ffee01", Date: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).Format(time.RFC3339), Format: "V8 .cpuprofile", Top: 10,
		Floor: &Floor{Share: 0.001, Samples: 3, Us: []int64{5, 6}},
		Runs:  []Run{{File: "a", OnCPUUs: 5000, IntervalUs: 500.25, SampledUs: 9}, {File: "b", OnCPUUs: 6000, IntervalUs: 1e-3, Work: 4e4, ProcessCPUUs: 7, NarrowedFromUs: 3}},
		Rows: []Row{{Kind: KindPackage, Name: "p", SelfUs: []int64{1, 2}, TotalUs: []int64{3, 4}},
			{Kind: KindFunction, Name: `f\n`, Package: "p", File: "x.js", Line: 7, SelfUs: []int64{-1, 0}, TotalUs: []int64{5, 6}},
			{Kind: KindFile, Name: OtherName, SelfUs: []int64{1, 1}}}}
	data, _ := rec.Marshal()
	f.Add(data)
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastAgrees(t, data)
		Unmarshal(data) // never panics
	})
}
