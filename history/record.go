// Package history keeps the profiles of a series of commits as a store of
// small records, one per commit, and finds the commits where the headline
// or a package, function or file changed for real.
//
// A record is one JSON document written line by line: a header, one line
// per run and one line per row (the top functions, files and packages of
// the commit's runs by total time, the rest summed as "(other)"), with keys
// in a fixed order and rows in a fixed order, so that the same input gives
// the same bytes and `git diff` of two records reads as the rows that
// changed. Times are integer microseconds: sampling resolves no finer, and
// a record of 5 runs of a 57 MiB profile stays far under 64 KiB.
package history

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/confine"
)

// Version is the record format this package writes and reads. A record of
// a later version is refused, naming both. Version 2 added each run's
// sampled time and, for narrowed runs, its on-CPU time before narrowing,
// so that a record can stand as the base of a comparison (busy fraction,
// shares of the whole run); version 1 records are read without them.
const Version = 2

// DefaultTop is how many functions, files and packages a record keeps.
const DefaultTop = 200

// Kinds of row, in the order a record lists them.
const (
	KindPackage  = "package"
	KindFunction = "function"
	KindFile     = "file"
)

// OtherName names the row that sums a kind's rows below the top.
const OtherName = "(other)"

// Record is one commit's runs, as stored.
type Record struct {
	// Version is the format the record was written in.
	Version int    `json:"profdiff_history"`
	Commit  string `json:"commit"`
	// Date is the commit's date (RFC 3339, UTC).
	Date    string `json:"date"`
	Branch  string `json:"branch,omitempty"`
	Message string `json:"message,omitempty"`
	// Format describes the profiles' format ("V8 .cpuprofile", ...).
	Format string `json:"format"`
	// WorkUnit names what Run.Work counts ("request"); "" without --work.
	WorkUnit string `json:"work_unit,omitempty"`
	// Top is how many rows of each kind were kept.
	Top  int   `json:"top"`
	Runs []Run `json:"runs"`
	Rows []Row `json:"rows"`
}

// Run is one run's headline.
type Run struct {
	File    string `json:"file"`
	WallUs  int64  `json:"wall_us"`
	OnCPUUs int64  `json:"on_cpu_us"`
	GCUs    int64  `json:"gc_us"`
	// SampledUs is the time all samples stand for, on-CPU or not (0 in
	// version 1 records).
	SampledUs int64 `json:"sampled_us,omitempty"`
	// NarrowedFromUs is the on-CPU time before the run was narrowed by
	// filters or a window; 0 when it was not.
	NarrowedFromUs int64   `json:"narrowed_from_us,omitempty"`
	Samples        int64   `json:"samples"`
	IntervalUs     float64 `json:"interval_us"`
	// Work is the work the run did, 0 when not given.
	Work float64 `json:"work,omitempty"`
}

// Row is one package, function or file with its self and total time in
// each run (in Record.Runs' order).
type Row struct {
	Kind    string  `json:"kind"`
	Name    string  `json:"name"`
	Package string  `json:"package,omitempty"`
	File    string  `json:"file,omitempty"`
	Line    int32   `json:"line,omitempty"`
	SelfUs  []int64 `json:"self_us"`
	TotalUs []int64 `json:"total_us,omitempty"` // absent for (other): totals of different rows overlap
}

// Key identifies a row across commits: its kind, package, name and file.
// Functions are matched without their line, which moves with every edit
// above them; functions of one name in one file (anonymous ones) are one
// row.
func (r Row) Key() string {
	return r.Kind + "\x00" + r.Package + "\x00" + r.Name + "\x00" + r.File
}

// Meta is what a record says about its commit beyond the runs.
type Meta struct {
	Commit, Branch, Message string
	Date                    time.Time
	WorkUnit                string
	// Top is how many rows of each kind to keep; 0 means DefaultTop.
	Top int
}

// commitPattern is what a commit may be: a hash or a ref-like name, safe
// in a file name.
var commitPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// NewRecord makes a commit's record from its runs' tables (one per run,
// narrowed and mapped as the caller chose) and the work of each run (nil
// or one per table).
func NewRecord(meta Meta, tables []*analyze.Table, work []float64) (*Record, error) {
	if !commitPattern.MatchString(meta.Commit) {
		return nil, fmt.Errorf("--commit %q: give the commit's hash (letters, digits, '.', '_' and '-')", meta.Commit)
	}
	if len(tables) == 0 {
		return nil, errors.New("no runs to record")
	}
	if meta.Top <= 0 {
		meta.Top = DefaultTop
	}
	rec := &Record{Version: Version, Commit: meta.Commit, Date: meta.Date.UTC().Format(time.RFC3339), Branch: meta.Branch,
		Message: oneLine(meta.Message), Format: tables[0].Format.Describe(), WorkUnit: meta.WorkUnit, Top: meta.Top}
	for i, t := range tables {
		s := t.Summary
		run := Run{File: filepath.Base(t.File), WallUs: us(s.WallNs), OnCPUUs: us(s.OnCPUNs), GCUs: us(s.GCNs), SampledUs: us(s.SampledNs),
			NarrowedFromUs: us(s.NarrowedFromNs), Samples: s.Samples,
			IntervalUs: math.Round(float64(s.IntervalNs)/10) / 100}
		if i < len(work) {
			run.Work = work[i]
		}
		rec.Runs = append(rec.Runs, run)
	}
	for _, kind := range []string{KindPackage, KindFunction, KindFile} {
		rec.Rows = append(rec.Rows, topRows(kind, tables, meta.Top)...)
	}
	return rec, nil
}

// oneLine keeps a commit message's first line.
func oneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(s)
}

// us converts nanoseconds to whole microseconds, rounding.
func us(ns int64) int64 { return (ns + 500) / 1000 }

// topRows are one kind's rows over the runs: those of the top by total
// time summed over the runs, then (other) with the self time of the rest.
func topRows(kind string, tables []*analyze.Table, top int) []Row {
	type acc struct {
		row         Row
		self, total []int64 // ns per run
		sum         int64
		bestTotal   int64 // the line of the biggest function under this key
	}
	byKey := map[string]*acc{}
	for ri, t := range tables {
		var rows []analyze.Row
		switch kind {
		case KindPackage:
			rows = t.Packages
		case KindFunction:
			rows = t.Functions
		default:
			rows = t.Files
		}
		for _, r := range rows {
			row := Row{Kind: kind, Package: r.Key.Package}
			switch kind {
			case KindPackage:
				row.Name, row.Package = r.Key.Package, ""
			case KindFunction:
				row.Name, row.File = diff.FunctionName(r.Key), r.Key.File
			default:
				row.Name = r.Key.File
			}
			k := row.Key()
			a := byKey[k]
			if a == nil {
				a = &acc{row: row, self: make([]int64, len(tables)), total: make([]int64, len(tables))}
				byKey[k] = a
			}
			a.self[ri] += r.Self
			a.total[ri] += r.Total
			a.sum += r.Total
			if kind == KindFunction && (r.Total > a.bestTotal || r.Total == a.bestTotal && (a.row.Line == 0 || r.Key.Line < a.row.Line)) {
				a.bestTotal, a.row.Line = r.Total, r.Key.Line
			}
		}
	}
	all := make([]*acc, 0, len(byKey))
	for _, a := range byKey {
		all = append(all, a)
	}
	slices.SortFunc(all, func(a, b *acc) int {
		if c := cmp.Compare(b.sum, a.sum); c != 0 {
			return c
		}
		return cmp.Compare(a.row.Key(), b.row.Key())
	})
	var out []Row
	other := make([]int64, len(tables))
	for i, a := range all {
		if i >= top {
			for ri := range other {
				other[ri] += a.self[ri]
			}
			continue
		}
		r := a.row
		r.SelfUs, r.TotalUs = usAll(a.self), usAll(a.total)
		out = append(out, r)
	}
	if len(all) > top {
		out = append(out, Row{Kind: kind, Name: OtherName, SelfUs: usAll(other)})
	}
	return out
}

func usAll(ns []int64) []int64 {
	out := make([]int64, len(ns))
	for i, v := range ns {
		out[i] = us(v)
	}
	return out
}

// FileName is the record's file name in a store: its date and commit, so
// that a listing is in date order.
func (r *Record) FileName() string {
	d, err := time.Parse(time.RFC3339, r.Date)
	if err != nil {
		return r.Commit + ".json"
	}
	return d.UTC().Format("20060102T150405Z") + "-" + r.Commit + ".json"
}

// Marshal writes the record: the header's keys one per line, then one line
// per run and one per row, every key in a fixed order.
func (r *Record) Marshal() ([]byte, error) {
	var b bytes.Buffer
	line := func(v any) error {
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
		return nil
	}
	b.WriteString("{\n")
	head := []struct {
		key string
		v   any
	}{{"profdiff_history", r.Version}, {"commit", r.Commit}, {"date", r.Date}, {"branch", r.Branch}, {"message", r.Message},
		{"format", r.Format}, {"work_unit", r.WorkUnit}, {"top", r.Top}}
	for _, h := range head {
		fmt.Fprintf(&b, "%q: ", h.key)
		if err := line(h.v); err != nil {
			return nil, err
		}
		b.WriteString(",\n")
	}
	list := func(key string, n int, item func(int) any, last bool) error {
		fmt.Fprintf(&b, "%q: [", key)
		for i := 0; i < n; i++ {
			b.WriteString("\n")
			if err := line(item(i)); err != nil {
				return err
			}
			if i < n-1 {
				b.WriteString(",")
			}
		}
		b.WriteString("\n]")
		if !last {
			b.WriteString(",")
		}
		b.WriteString("\n")
		return nil
	}
	if err := list("runs", len(r.Runs), func(i int) any { return r.Runs[i] }, false); err != nil {
		return nil, err
	}
	if err := list("rows", len(r.Rows), func(i int) any { return r.Rows[i] }, true); err != nil {
		return nil, err
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// Unmarshal reads a record, checking that it is whole and of a version
// this package reads.
func Unmarshal(data []byte) (*Record, error) {
	var probe struct {
		Version *int `json:"profdiff_history"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("not a whole profdiff history record: %v", err)
	}
	switch {
	case probe.Version == nil:
		return nil, errors.New("not a profdiff history record (no profdiff_history version)")
	case *probe.Version > Version:
		return nil, fmt.Errorf("written by a newer profdiff (history format %d; this one reads %d): upgrade profdiff", *probe.Version, Version)
	case *probe.Version < 1:
		return nil, fmt.Errorf("history format %d is not one profdiff wrote", *probe.Version)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Record
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("malformed record: %v", err)
	}
	if err := r.check(); err != nil {
		return nil, err
	}
	return &r, nil
}

// check rejects a record whose parts disagree.
func (r *Record) check() error {
	if !commitPattern.MatchString(r.Commit) {
		return fmt.Errorf("commit %q is not a commit", r.Commit)
	}
	if _, err := time.Parse(time.RFC3339, r.Date); err != nil {
		return fmt.Errorf("date %q is not RFC 3339", r.Date)
	}
	if len(r.Runs) == 0 {
		return errors.New("a record with no runs")
	}
	for _, row := range r.Rows {
		if len(row.SelfUs) != len(r.Runs) || (row.TotalUs != nil && len(row.TotalUs) != len(r.Runs)) {
			return fmt.Errorf("row %s %q has times for %d runs, the record has %d", row.Kind, row.Name, len(row.SelfUs), len(r.Runs))
		}
		switch row.Kind {
		case KindPackage, KindFunction, KindFile:
		default:
			return fmt.Errorf("row %q of unknown kind %q", row.Name, row.Kind)
		}
	}
	return nil
}

// Add writes rec into the store at dir (made if missing), replacing the
// record of the same commit if there is one, through a temporary file
// renamed into place; other records are not touched. It returns the
// record's path.
func Add(dir string, rec *Record) (string, error) {
	data, err := rec.Marshal()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, rec.FileName())
	tmp, err := os.CreateTemp(dir, ".record-*.tmp")
	if err != nil {
		return "", err
	}
	if err := tmp.Chmod(0o644); err != nil { // a record is for a git branch, read by all
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	// The same commit under another date: the new record replaces it.
	for _, e := range entries {
		if n := e.Name(); n != rec.FileName() && strings.HasSuffix(n, "-"+rec.Commit+".json") {
			if err := os.Remove(filepath.Join(dir, n)); err != nil {
				return "", err
			}
		}
	}
	return path, nil
}

// Store is the records of a store, one per commit.
type Store struct {
	Dir     string
	Records []*Record
	// Files are the records' paths, in Records' order.
	Files []string
}

// Open reads every record (*.json) of the store at dir. A file that is no
// whole record of a version this package reads, or a second record of
// one commit, is an error naming the file.
func Open(dir string) (*Store, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	s := &Store{Dir: dir}
	files := confine.New(dir)
	seen := map[string]string{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := readRecord(files, path)
		if err != nil {
			return nil, err
		}
		r, err := Unmarshal(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if other, ok := seen[r.Commit]; ok {
			return nil, fmt.Errorf("%s: a second record of commit %s (the first is %s): remove one", path, r.Commit, other)
		}
		seen[r.Commit] = path
		s.Records = append(s.Records, r)
		s.Files = append(s.Files, path)
	}
	if len(s.Records) == 0 {
		return nil, fmt.Errorf("%s: no history records (*.json) in it", dir)
	}
	return s, nil
}

// maxRecordBytes bounds a record read from a store: records are written
// far smaller, and a store may come from an untrusted branch.
const maxRecordBytes = 16 << 20

// readRecord reads the record at path through files, the store's folder:
// a store is untrusted, so a record that is a link out of it, a FIFO or
// a device, or over maxRecordBytes, is an error naming it, never read.
func readRecord(files *confine.Reader, path string) ([]byte, error) {
	data, err := files.ReadFile(path, maxRecordBytes)
	if refusal, ok := confine.IsRefusal(err); ok {
		switch refusal.Reason {
		case confine.TooLarge:
			return nil, fmt.Errorf("%s: over %d MiB, no record is that large", path, maxRecordBytes>>20)
		case confine.Outside:
			return nil, fmt.Errorf("%s: leads outside the store's folder (%s); a record must be a file in it", path, refusal.Real)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, err
}
