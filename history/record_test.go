package history

import (
	"bytes"
	"math"
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
	// The functions above the floor and the rest as (other): self times
	// add up.
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
	if other != 1 || fn < 100 {
		t.Errorf("%d function rows, %d (other): want about 250 and 1", fn, other)
	}
	if d := self - r.Runs[0].OnCPUUs; d < -int64(fn) || d > int64(fn) { // each row rounded to a microsecond
		t.Errorf("functions' self times sum to %d µs, on-CPU is %d µs", self, r.Runs[0].OnCPUUs)
	}
}

// TestRecordKeepsEveryRowAboveItsFloor: a record keeps exactly the rows
// whose total over the runs reaches the floor (0.1% of on-CPU, and
// DefaultFloorSamples samples), says so, and the floor rises when a kind has more than Top.
func TestRecordKeepsEveryRowAboveItsFloor(t *testing.T) {
	all := routerRecord(t, "c0ffee01", "2026-11-01T08:00:00Z", 1<<20)
	all.Floor = nil
	tables := []*analyze.Table{table(t, "node-router-unbundled-before.cpuprofile"), table(t, "node-router-unbundled-after.cpuprofile")}
	every, err := NewRecord(Meta{Commit: "c0ffee01", Date: time.Now(), FloorShare: 1e-12, FloorSamples: 1}, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRecord(Meta{Commit: "c0ffee01", Date: time.Now()}, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := r.Floor
	if f == nil || f.Share != DefaultFloorShare || f.Samples != DefaultFloorSamples || len(f.Us) != 2 {
		t.Fatalf("floor %+v", f)
	}
	var floor int64
	for i, run := range r.Runs {
		floor += f.Us[i]
		if want := int64(math.Ceil(max(0.001*float64(run.OnCPUUs), DefaultFloorSamples*run.IntervalUs/2))); f.Us[i] != want {
			t.Errorf("run %d: floor %d µs, want %d", i, f.Us[i], want)
		}
	}
	kept := map[string]bool{}
	for _, row := range r.Rows {
		kept[row.Key()] = true
	}
	below := 0
	for _, row := range every.Rows {
		if row.Name == OtherName {
			continue
		}
		sum := row.TotalUs[0] + row.TotalUs[1]
		switch {
		case kept[row.Key()] && sum < floor-1:
			t.Errorf("%s %s kept with %d µs, under the floor (%d µs)", row.Kind, row.Name, sum, floor)
		case !kept[row.Key()] && sum > floor+1:
			t.Errorf("%s %s left out with %d µs, over the floor (%d µs)", row.Kind, row.Name, sum, floor)
		case !kept[row.Key()]:
			below++
		}
	}
	if below < 100 {
		t.Errorf("only %d rows below the floor: the fixture shows nothing", below)
	}
	// Ten functions at most: the floor rises to the eleventh's share.
	ten, err := NewRecord(Meta{Commit: "c0ffee01", Date: time.Now(), Top: 10}, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	fns := 0
	for _, row := range ten.Rows {
		if row.Kind == KindFunction && row.Name != OtherName {
			fns++
		}
	}
	if fns > 10 || ten.Floor.Share <= DefaultFloorShare {
		t.Errorf("top 10: %d functions, floor %g", fns, ten.Floor.Share)
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
		{"future.json", strings.Replace(string(data), `"profdiff_history": 3`, `"profdiff_history": 9`, 1), "newer profdiff (history format 9"},
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
