// Package history keeps the profiles of a series of commits as a store of
// small records, one per commit, and finds the commits where the headline
// or a package, function or file changed for real.
//
// A record is one JSON document written line by line: a header, one line
// per run and one line per row (every function, file and package of the
// commit's runs whose total time is above the record's floor, the self
// time of the rest summed as "(other)"), with keys
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
	"io"
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
// Version 3 keeps rows down to a floor and says so (Record.Floor): a row
// absent from it is below the floor there, not zero; records of versions
// 1 and 2 kept a fixed top and have no floor.
const Version = 3

// DefaultTop is the most functions, files or packages a record keeps
// when more are above its floor; the floor then rises to the first row
// left out. The corpus's workload (five runs of node-router-ab) has
// about 300 functions above the default floor, so it never binds there.
const DefaultTop = 1000

// DefaultFloorShare and DefaultFloorSamples are the default floor: a row
// is kept when its total time over the runs is at least 0.1% of their
// on-CPU time and at least 3 samples (the count binds only for profiles
// of under 3,000 samples). Five runs of the corpus's workload keep about
// 330 rows at that floor, 55-58 KB, under the 64 KiB a record must stay
// within; 0.05% would take them to 90 KB.
const (
	DefaultFloorShare   = 0.001
	DefaultFloorSamples = 3
)

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
	// Top is the most rows of each kind the record could keep (in version
	// 1 and 2 records, how many it kept).
	Top int `json:"top"`
	// Floor is what the record left out; nil in records of versions 1
	// and 2, which kept the top rows and said nothing of the rest.
	Floor *Floor `json:"floor,omitempty"`
	Runs  []Run  `json:"runs"`
	Rows  []Row  `json:"rows"`
}

// Floor is the line below which a record keeps no row. A row is kept when
// its total time summed over the runs is at least the sum of the runs'
// floors (Us); a row the record does not have is below the floor there:
// its time in each run is taken to be somewhere from 0 to that run's
// floor (its sum over the runs is below the sum of the floors), never 0.
type Floor struct {
	// Share is the floor's part of each run's on-CPU time (0.001: 0.1%).
	Share float64 `json:"share"`
	// Samples is the fewest samples a kept row has over the runs.
	Samples int `json:"samples"`
	// Us is each run's floor in microseconds, in Record.Runs' order: the
	// larger of Share of its on-CPU time and its share of Samples
	// samples (Samples/runs of its interval).
	Us []int64 `json:"us"`
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
	// ProcessCPUUs is the CPU time (user + sys) of the process that ran,
	// when it was measured (history add --process-cpu); 0 when not.
	ProcessCPUUs int64 `json:"process_cpu_us,omitempty"`
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
	// Top is the most rows of each kind to keep; 0 means DefaultTop.
	Top int
	// FloorShare and FloorSamples set the floor (see Floor); 0 means
	// DefaultFloorShare and DefaultFloorSamples.
	FloorShare   float64
	FloorSamples int
	// ProcessCPUNs is each run's process CPU time (nil, or one per run).
	ProcessCPUNs []int64
}

// commitPattern is what a commit may be: a hash or a ref-like name, safe
// in a file name.
var commitPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// NewRecord makes a commit's record from its runs' tables (one per run,
// narrowed and mapped as the caller chose) and the work of each run (nil
// or one per table). It keeps every row above the floor (at most
// meta.Top of a kind) and sums the self time of the rest into (other).
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
	if meta.FloorShare <= 0 {
		meta.FloorShare = DefaultFloorShare
	}
	if meta.FloorSamples <= 0 {
		meta.FloorSamples = DefaultFloorSamples
	}
	if meta.FloorShare >= 1 {
		return nil, fmt.Errorf("a floor of %g%% of on-CPU keeps no row: give a share under 100%%", 100*meta.FloorShare)
	}
	if meta.ProcessCPUNs != nil && len(meta.ProcessCPUNs) != len(tables) {
		return nil, fmt.Errorf("%d process CPU times for %d runs: give one per run", len(meta.ProcessCPUNs), len(tables))
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
		if meta.ProcessCPUNs != nil {
			run.ProcessCPUUs = us(meta.ProcessCPUNs[i])
		}
		rec.Runs = append(rec.Runs, run)
	}
	rec.Floor = newFloor(tables, meta.FloorShare, meta.FloorSamples)
	kinds := []string{KindPackage, KindFunction, KindFile}
	all := make([][]*rowAcc, len(kinds))
	for k, kind := range kinds {
		all[k] = accRows(kind, tables)
	}
	// At most Top rows of a kind: where more are above the floor, the
	// floor rises to the share of the first one left out, for every kind,
	// so that the record has one floor.
	var onCPU int64
	for _, t := range tables {
		onCPU += t.Summary.OnCPUNs
	}
	for _, rows := range all {
		if len(rows) > meta.Top && onCPU > 0 {
			if share := float64(rows[meta.Top].sum) / float64(onCPU); share >= rec.Floor.Share && rows[meta.Top].sum >= floorSum(rec.Floor) {
				rec.Floor = newFloor(tables, math.Nextafter(share, 1), meta.FloorSamples)
			}
		}
	}
	floor := floorSum(rec.Floor) * 1000
	for k, kind := range kinds {
		rec.Rows = append(rec.Rows, keptRows(kind, all[k], len(tables), floor, meta.Top)...)
	}
	return rec, nil
}

// newFloor is the floor of share of each run's on-CPU time and samples
// samples over the runs.
func newFloor(tables []*analyze.Table, share float64, samples int) *Floor {
	f := &Floor{Share: share, Samples: samples}
	for _, t := range tables {
		s := t.Summary
		ns := math.Max(share*float64(s.OnCPUNs), float64(samples)*float64(s.IntervalNs)/float64(len(tables)))
		f.Us = append(f.Us, int64(math.Ceil(ns/1000)))
	}
	return f
}

// floorSum is the sum of a floor's runs, in microseconds.
func floorSum(f *Floor) int64 {
	var sum int64
	for _, v := range f.Us {
		sum += v
	}
	return sum
}

// Kept says which rows the record kept: "every row above 0.1% of
// on-CPU time and 3 samples" (its floor), or "the top 200 rows" (an
// older record).
func (r *Record) Kept() string {
	if r.Floor == nil {
		return fmt.Sprintf("the top %d rows", r.Top)
	}
	return fmt.Sprintf("every row above %s%% of on-CPU time and %d samples", strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", 100*r.Floor.Share), "0"), "."), r.Floor.Samples)
}

// oneLine keeps a commit message's first line.
func oneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(s)
}

// us converts nanoseconds to whole microseconds, rounding.
func us(ns int64) int64 { return (ns + 500) / 1000 }

// rowAcc is one row of a kind summed over the runs.
type rowAcc struct {
	row         Row
	self, total []int64 // ns per run
	sum         int64   // total ns over the runs
	bestTotal   int64   // the line of the biggest function under this key
}

// accRows are one kind's rows over the runs, by total time over the runs,
// greatest first (ties by key).
func accRows(kind string, tables []*analyze.Table) []*rowAcc {
	byKey := map[string]*rowAcc{}
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
				a = &rowAcc{row: row, self: make([]int64, len(tables)), total: make([]int64, len(tables))}
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
	all := make([]*rowAcc, 0, len(byKey))
	for _, a := range byKey {
		all = append(all, a)
	}
	slices.SortFunc(all, func(a, b *rowAcc) int {
		if c := cmp.Compare(b.sum, a.sum); c != 0 {
			return c
		}
		return cmp.Compare(a.row.Key(), b.row.Key())
	})
	return all
}

// keptRows are the rows of all whose total over the runs is at least
// floor (ns, summed over the runs), at most top of them, then (other)
// with the self time of the rest.
func keptRows(kind string, all []*rowAcc, runs int, floor int64, top int) []Row {
	var out []Row
	other := make([]int64, runs)
	cut := false
	for i, a := range all {
		if i >= top || a.sum < floor {
			cut = true
			for ri := range other {
				other[ri] += a.self[ri]
			}
			continue
		}
		r := a.row
		r.SelfUs, r.TotalUs = usAll(a.self), usAll(a.total)
		out = append(out, r)
	}
	if cut {
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
	if r.Floor != nil {
		head = append(head, struct {
			key string
			v   any
		}{"floor", r.Floor})
	}
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
// this package reads. A record laid out as Marshal writes it is decoded
// by a fast path (see decodeFast) with the same result; only a record it
// cannot decode is looked at again, for its version, to say why.
func Unmarshal(data []byte) (*Record, error) {
	var r Record
	r.Version = -1
	var err error
	if !decodeFast(data, &r) {
		r = Record{Version: -1}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		err = dec.Decode(&r)
		if err == nil {
			if _, terr := dec.Token(); terr != io.EOF {
				err = errors.New("more than one record in the file")
			}
		}
	}
	if err != nil || r.Version == -1 || r.Version > Version || r.Version < 1 {
		var probe struct {
			Version *int `json:"profdiff_history"`
		}
		if perr := json.Unmarshal(data, &probe); perr != nil {
			return nil, fmt.Errorf("not a whole profdiff history record: %v", perr)
		}
		switch {
		case probe.Version == nil:
			return nil, errors.New("not a profdiff history record (no profdiff_history version)")
		case *probe.Version > Version:
			return nil, fmt.Errorf("written by a newer profdiff (history format %d; this one reads %d): upgrade profdiff", *probe.Version, Version)
		case *probe.Version < 1:
			return nil, fmt.Errorf("history format %d is not one profdiff wrote", *probe.Version)
		}
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
	if r.Floor != nil {
		if len(r.Floor.Us) != len(r.Runs) {
			return fmt.Errorf("the floor has %d runs, the record has %d", len(r.Floor.Us), len(r.Runs))
		}
		if !(r.Floor.Share >= 0 && r.Floor.Share < 1) || r.Floor.Samples < 0 || slices.ContainsFunc(r.Floor.Us, func(v int64) bool { return v < 0 }) {
			return errors.New("the floor is not a share under 1 and times of 0 or more")
		}
	} else if r.Version >= 3 {
		return fmt.Errorf("a record of history format %d without its floor", r.Version)
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
