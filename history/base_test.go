package history

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// TestFindByCommit: a record is found by its commit, a prefix of it, or
// a full hash when it was recorded under a short one; a missing store, an
// unknown or ambiguous commit, a record of a later version and a record
// whose content names another commit are errors naming the folder or file.
func TestFindByCommit(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []string{"abc1234def", "abc1299aaa", "fed9876"} {
		if _, err := Add(dir, routerRecord(t, c, "2026-11-0"+string(rune('1'+i))+"T08:00:00Z", 20)); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "20261109T000000Z-broken9.json"), []byte(`{"profdiff_history": 2`), 0o644) // another commit's broken record is not read
	for _, c := range []struct{ commit, want string }{
		{"abc1234def", "abc1234def"},
		{"abc1234", "abc1234def"},
		{"fed98765432100aa", "fed9876"}, // recorded under a short hash
	} {
		r, path, err := Find(dir, c.commit)
		if err != nil || r.Commit != c.want || !strings.HasSuffix(path, "-"+c.want+".json") {
			t.Errorf("Find(%s): %v, %v, %v", c.commit, r, path, err)
		}
	}
	future := t.TempDir()
	data, _ := os.ReadFile(filepath.Join(dir, "20261101T080000Z-abc1234def.json"))
	os.WriteFile(filepath.Join(future, "20261101T080000Z-abc1234def.json"), []byte(strings.Replace(string(data), `"profdiff_history": 3`, `"profdiff_history": 7`, 1)), 0o644)
	os.WriteFile(filepath.Join(future, "20261101T080000Z-0000aaa.json"), data, 0o644)
	for _, c := range []struct{ dir, commit, want string }{
		{filepath.Join(dir, "missing"), "abc1234", "missing: no such store"},
		{dir, "0123456", "no record of commit 0123456 among its 4 records"},
		{dir, "abc12", "abc12 names 2 recorded commits (abc1234def, abc1299aaa)"},
		{dir, "broken9", "20261109T000000Z-broken9.json: not a whole profdiff history record"},
		{future, "abc1234", "20261101T080000Z-abc1234def.json: written by a newer profdiff (history format 7"},
		{future, "0000aaa", "a record of commit abc1234def, not of the commit its name says (0000aaa)"},
		{t.TempDir(), "abc1234", "no history records"},
		{dir, "a;b", "not a commit"},
	} {
		_, _, err := Find(c.dir, c.commit)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Find(%s, %s): %v, want %q", c.dir, c.commit, err, c.want)
		}
	}
}

// TestRecordReadsVersion1: a record written before sampled time was kept
// still reads, with no sampled time.
func TestRecordReadsVersion1(t *testing.T) {
	data, err := routerRecord(t, "c0ffee01", "2026-11-01T08:00:00Z", 20).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"sampled_us":`) {
		t.Fatalf("a record keeps no sampled time:\n%.700s", data)
	}
	old := strings.Replace(string(data), `"profdiff_history": 3`, `"profdiff_history": 1`, 1)
	for _, f := range []string{`"sampled_us":`} {
		for strings.Contains(old, f) {
			i := strings.Index(old, f)
			j := i + strings.IndexByte(old[i:], ',')
			old = old[:i] + old[j+1:]
		}
	}
	r, err := Unmarshal([]byte(old))
	if err != nil || r.Runs[0].SampledUs != 0 || r.Runs[0].OnCPUUs == 0 {
		t.Fatalf("a version 1 record: %v, %+v", err, r)
	}
}

// TestTablesAndAlign: a record's tables hold its runs' headlines and rows
// in nanoseconds; tables aligned with it have the record's keys, one row
// per function name and file, and what the record cut summed as (other),
// named as unknown, with no call tree left.
func TestTablesAndAlign(t *testing.T) {
	rec := routerRecord(t, "c0ffee01", "2026-11-01T08:00:00Z", 20)
	tables, err := rec.Tables("record of c0ffee0")
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 2 || tables[0].Format != analyze.FormatCPUProfile || tables[0].Summary.OnCPUNs != rec.Runs[0].OnCPUUs*1000 ||
		tables[0].Summary.SampledNs == 0 || tables[0].File != "record of c0ffee0 (node-router-unbundled-before.cpuprofile)" {
		t.Fatalf("tables: %d, %+v", len(tables), tables[0].Summary)
	}
	var self int64
	for _, r := range tables[0].Functions {
		self += r.Self
		if r.Self > r.Total {
			t.Errorf("%v: self %d over total %d", r.Key, r.Self, r.Total)
		}
	}
	if d := self - tables[0].Summary.OnCPUNs; d < -21000 || d > 21000 {
		t.Errorf("the functions' self times sum to %d ns, on-CPU is %d", self, tables[0].Summary.OnCPUNs)
	}
	if len(tables[0].Functions) != 21 || tables[0].Functions[20].Key.Function != OtherName && !hasOther(tables[0].Functions) {
		t.Errorf("%d function rows, want the top 20 and (other)", len(tables[0].Functions))
	}

	after := table(t, "node-router-unbundled-after.cpuprofile")
	onCPU := after.Summary.OnCPUNs
	unknown := rec.Align([]*analyze.Table{after}, "")
	if after.Tree.Len() != 0 || after.Edges != nil || after.Stalls != nil {
		t.Errorf("an aligned table keeps its call tree, calls or stalls")
	}
	kept := map[analyze.Key]bool{}
	for _, r := range tables[0].Functions {
		kept[r.Key] = true
	}
	for _, r := range tables[1].Functions {
		kept[r.Key] = true
	}
	self = 0
	for _, r := range after.Functions {
		self += r.Self
		if !kept[r.Key] {
			t.Errorf("aligned function %+v is no key of the record", r.Key)
		}
	}
	if d := self - onCPU; d < -1000 || d > 1000 {
		t.Errorf("aligned functions' self times sum to %d, on-CPU is %d", self, onCPU)
	}
	var fn *Unknown
	for i := range unknown {
		if unknown[i].Kind == KindFunction {
			fn = &unknown[i]
		}
	}
	if fn == nil || fn.Rows < 100 || fn.Heaviest == "" || fn.HeaviestSelf <= 0 {
		t.Errorf("unknown functions: %+v", unknown)
	}
}

func hasOther(rows []analyze.Row) bool {
	for _, r := range rows {
		if r.Key.Function == OtherName {
			return true
		}
	}
	return false
}

// TestAlignKeepsNewRowsOfAWholeKind: where the record kept every row of
// a kind, a row it does not have had no time on its side, and stays a
// row of its own (new), not (other).
func TestAlignKeepsNewRowsOfAWholeKind(t *testing.T) {
	rec := &Record{Version: Version, Commit: "c1", Date: "2026-11-01T00:00:00Z", Format: "V8 .cpuprofile", Top: 200,
		Runs: []Run{{File: "a", OnCPUUs: 10}},
		Rows: []Row{{Kind: KindFunction, Name: "(anonymous)", Package: "p", File: "f.js", Line: 3, SelfUs: []int64{10}, TotalUs: []int64{10}}}}
	tab := &analyze.Table{Functions: []analyze.Row{
		{Key: analyze.Key{Package: "p", File: "f.js", Line: 3, Column: 1}, Self: 4000, Total: 4000},
		{Key: analyze.Key{Package: "p", File: "f.js", Line: 9, Column: 5}, Self: 3000, Total: 5000},
		{Key: analyze.Key{Package: "p", Function: "fresh", File: "f.js", Line: 20, Column: 1}, Self: 2000, Total: 2000},
	}}
	if u := rec.Align([]*analyze.Table{tab}, ""); len(u) != 0 {
		t.Errorf("unknown rows %+v where the record kept them all", u)
	}
	want := []analyze.Row{
		{Key: analyze.Key{Package: "p", File: "f.js", Line: 3}, Self: 7000, Total: 9000},
		{Key: analyze.Key{Package: "p", Function: "fresh", File: "f.js", Line: 20, Column: 1}, Self: 2000, Total: 2000},
	}
	if len(tab.Functions) != 2 || tab.Functions[0] != want[0] || tab.Functions[1] != want[1] {
		t.Errorf("aligned %+v, want %+v", tab.Functions, want)
	}
}
