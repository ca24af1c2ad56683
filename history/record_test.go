package history

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/profdiff/profdiff/analyze"
)

// table reads one of the repository's fixtures as the report would.
func table(t *testing.T, name string) *analyze.Table {
	t.Helper()
	p, err := analyze.ParseFile(filepath.Join("..", "testdata", name), analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	analyze.AttributePackages(p, nil)
	return analyze.Aggregate(p, analyze.AggregateOptions{})
}

func routerRecord(t *testing.T, commit, date string, top int) *Record {
	t.Helper()
	d, err := time.Parse(time.RFC3339, date)
	if err != nil {
		t.Fatal(err)
	}
	before, after := table(t, "node-router-unbundled-before.cpuprofile"), table(t, "node-router-unbundled-after.cpuprofile")
	r, err := NewRecord(Meta{Commit: commit, Date: d, Message: "route table\nbucketed", Top: top}, []*analyze.Table{before, after}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRecordIsDeterministicAndLineOriented: the same runs give the same
// bytes, every row is one line, and the record reads back equal.
func TestRecordIsDeterministicAndLineOriented(t *testing.T) {
	a, err := routerRecord(t, "c0ffee01", "2026-11-01T08:00:00Z", 0).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := routerRecord(t, "c0ffee01", "2026-11-01T08:00:00Z", 0).Marshal()
	if !bytes.Equal(a, b) {
		t.Fatal("two records of the same runs differ")
	}
	r, err := Unmarshal(a)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := r.Marshal(); !bytes.Equal(a, again) {
		t.Errorf("a record read back writes other bytes")
	}
	lines := strings.Split(string(a), "\n")
	rows := 0
	for _, l := range lines {
		if strings.HasPrefix(l, `{"kind":`) {
			rows++
		}
	}
	if rows != len(r.Rows) || rows < 300 {
		t.Errorf("%d row lines for %d rows", rows, len(r.Rows))
	}
	if r.Message != "route table" || len(r.Runs) != 2 {
		t.Errorf("message %q, %d runs", r.Message, len(r.Runs))
	}
	// The top 200 functions and the rest as (other): self times add up.
	var fn, other int
	var self int64
	for _, row := range r.Rows {
		if row.Kind == KindFunction {
			fn++
			self += row.SelfUs[0]
			if row.Name == OtherName {
				other++
			}
		}
	}
	if fn != DefaultTop+1 || other != 1 {
		t.Errorf("%d function rows, %d (other): want %d and 1", fn, other, DefaultTop+1)
	}
	if d := self - r.Runs[0].OnCPUUs; d < -int64(fn) || d > int64(fn) { // each row rounded to a microsecond
		t.Errorf("functions' self times sum to %d µs, on-CPU is %d µs", self, r.Runs[0].OnCPUUs)
	}
}

// TestStoreReplacesACommitAndRefusesBadRecords: adding a commit again
// replaces its record (under another date too) and leaves the others; a
// truncated record, a later version's and two records of one commit are
// errors naming the file.
func TestStoreReplacesACommitAndRefusesBadRecords(t *testing.T) {
	dir := t.TempDir()
	if _, err := Add(dir, routerRecord(t, "aaa1", "2026-11-01T08:00:00Z", 20)); err != nil {
		t.Fatal(err)
	}
	other, err := Add(dir, routerRecord(t, "bbb2", "2026-11-02T08:00:00Z", 20))
	if err != nil {
		t.Fatal(err)
	}
	keep, _ := os.ReadFile(other)
	if _, err := Add(dir, routerRecord(t, "aaa1", "2026-11-03T08:00:00Z", 20)); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Records) != 2 {
		t.Fatalf("%d records after adding a commit again", len(s.Records))
	}
	if now, _ := os.ReadFile(other); !bytes.Equal(now, keep) {
		t.Errorf("another commit's record changed")
	}
	recs, _ := Order(s, "")
	if recs[0].Commit != "bbb2" || recs[1].Commit != "aaa1" {
		t.Errorf("order %s, %s", recs[0].Commit, recs[1].Commit)
	}
	data, _ := os.ReadFile(other)
	for _, c := range []struct {
		name, body, want string
	}{
		{"cut.json", string(data[:len(data)/2]), "not a whole profdiff history record"},
		{"future.json", strings.Replace(string(data), `"profdiff_history": 2`, `"profdiff_history": 9`, 1), "newer profdiff (history format 9"},
		{"twice.json", string(data), "a second record of commit bbb2"},
	} {
		bad := t.TempDir()
		os.WriteFile(filepath.Join(bad, "a.json"), keep, 0o644)
		os.WriteFile(filepath.Join(bad, c.name), []byte(c.body), 0o644)
		_, err := Open(bad)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), filepath.Join(bad, c.name)) && !strings.Contains(err.Error(), "a.json") {
			t.Errorf("%s: %v, want %q naming the file", c.name, err, c.want)
		}
	}
}
