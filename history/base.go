package history

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/confine"
)

// This file makes a record the base of a comparison: the record of the
// merge base stands for its runs, so that commits that landed on the
// default branch since do not leak into a pull request's deltas. A record
// holds each run's headline and its top rows by package, function and
// file, not its profile: the base has no call tree, calls, lines or
// stalls, and the rows below the record's top are one "(other)" row.

// recordName is a record's file name as Add writes it: date and commit.
var recordName = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}Z-(.+)\.json$`)

// minPrefix is the shortest hash prefix Find matches a commit by.
const minPrefix = 4

// Find returns the record of commit in the store at dir, and its path.
// The commit may be a prefix of the recorded one (a short hash) or the
// recorded one a prefix of it (a record made with a short hash); two
// commits that match are an error, as is a store that is missing, a
// matching file that is no record of a version this package reads, or one
// whose content names another commit than its name. Only the records
// whose names match are read, so that a broken record of another commit
// does not stop a comparison.
func Find(dir, commit string) (*Record, string, error) {
	if !commitPattern.MatchString(commit) {
		return nil, "", fmt.Errorf("%q is not a commit (letters, digits, '.', '_' and '-')", commit)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", fmt.Errorf("%s: no such store (a folder of history records)", dir)
		}
		return nil, "", fmt.Errorf("%s: %w", dir, err)
	}
	var names, commits []string
	records := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue
		}
		records++
		c := strings.TrimSuffix(name, ".json")
		if m := recordName.FindStringSubmatch(name); m != nil {
			c = m[1]
		}
		if c == commit || len(commit) >= minPrefix && strings.HasPrefix(c, commit) || len(c) >= 7 && strings.HasPrefix(commit, c) {
			names, commits = append(names, name), append(commits, c)
		}
	}
	switch distinct := slices.Compact(slices.Sorted(slices.Values(commits))); {
	case records == 0:
		return nil, "", fmt.Errorf("%s: no history records (*.json) in it", dir)
	case len(names) == 0:
		return nil, "", fmt.Errorf("%s: no record of commit %s among its %d records", dir, commit, records)
	case len(distinct) > 1:
		return nil, "", fmt.Errorf("%s: %s names %d recorded commits (%s): give more of the hash", dir, commit, len(distinct), strings.Join(distinct, ", "))
	case len(names) > 1:
		return nil, "", fmt.Errorf("%s: a second record of commit %s (the first is %s): remove one", filepath.Join(dir, names[1]), distinct[0], filepath.Join(dir, names[0]))
	}
	path := filepath.Join(dir, names[0])
	data, err := readRecord(confine.New(dir), path)
	if err != nil {
		return nil, "", err
	}
	r, err := Unmarshal(data)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	if r.Commit != commits[0] {
		return nil, "", fmt.Errorf("%s: a record of commit %s, not of the commit its name says (%s)", path, r.Commit, commits[0])
	}
	return r, path, nil
}

// describedFormats are the formats a record names by Format.Describe.
var describedFormats = []analyze.Format{analyze.FormatCPUProfile, analyze.FormatTrace, analyze.FormatPprof, analyze.FormatFolded}

// Tables returns the record's runs as tables, one per run, in the shape
// a comparison reads: each run's headline and its rows by package,
// function and file, in nanoseconds. Function rows carry the recorded
// line and no column; "(anonymous)" is the function without a name. A
// kind whose rows were cut to the record's top has a row named "(other)"
// with their self time (and that as its total: totals of different rows
// overlap). The tables have no call tree, calls, lines or stalls. Each
// table's file is label and the run's recorded file name.
func (r *Record) Tables(label string) ([]*analyze.Table, error) {
	format := analyze.FormatUnknown
	for _, f := range describedFormats {
		if f.Describe() == r.Format {
			format = f
		}
	}
	if format == analyze.FormatUnknown {
		return nil, fmt.Errorf("the record's format %q is not one profdiff reads", r.Format)
	}
	tables := make([]*analyze.Table, len(r.Runs))
	for i, run := range r.Runs {
		tables[i] = &analyze.Table{Format: format, File: label + " (" + run.File + ")", Summary: analyze.Summary{
			WallNs: run.WallUs * 1000, SampledNs: run.SampledUs * 1000, OnCPUNs: run.OnCPUUs * 1000, GCNs: run.GCUs * 1000,
			NarrowedFromNs: run.NarrowedFromUs * 1000, Samples: run.Samples, IntervalNs: int64(run.IntervalUs*1000 + 0.5)}}
	}
	for _, row := range r.Rows {
		k := row.key()
		for i, t := range tables {
			self := row.SelfUs[i] * 1000
			total := self
			if row.TotalUs != nil {
				total = row.TotalUs[i] * 1000
			}
			if self == 0 && total == 0 {
				continue // no time in this run: as a table has no row for it
			}
			ar := analyze.Row{Key: k, Self: self, Total: max(total, self)}
			switch row.Kind {
			case KindPackage:
				t.Packages = append(t.Packages, ar)
			case KindFunction:
				t.Functions = append(t.Functions, ar)
			default:
				t.Files = append(t.Files, ar)
			}
		}
	}
	return tables, nil
}

// key is the row's key in a table.
func (row Row) key() analyze.Key {
	switch row.Kind {
	case KindPackage:
		return analyze.Key{Package: row.Name}
	case KindFile:
		return analyze.Key{Package: row.Package, File: row.Name}
	}
	name := row.Name
	if name == "(anonymous)" {
		name = ""
	}
	if row.Name == OtherName {
		return analyze.Key{Function: OtherName}
	}
	return analyze.Key{Package: row.Package, Function: name, File: row.File, Line: row.Line}
}

// Unknown is what Align left out of the tables compared with a record:
// their rows of a kind the record cut to its top, that are not among the
// rows it kept, whose time on the record's side is unknown.
type Unknown struct {
	Kind string
	// Rows counts the distinct rows.
	Rows int
	// Heaviest is the one with the most self time over the tables, and
	// HeaviestSelf that time (ns, summed over the tables).
	Heaviest     string
	HeaviestSelf int64
}

// Align keys tables (runs compared with the record, read with the same
// flags it was made with) as the record keys its rows, in place: a
// function's rows of one package, name and file are one row (the
// record's, at its line), and where the record cut a kind to its top, the
// rows it did not keep are summed into "(other)" (their self time), since
// their time on the record's side is unknown: they are neither new nor
// gone. The tables' call trees, calls, lines and stalls are dropped, as
// the record has none to compare them with. root is the directory the
// record's files are keyed below, as the tables' are below theirs (see
// analyze.Table.Relocate), "" when both keep their paths. It returns, per
// kind in the record's order, what it summed into "(other)".
func (r *Record) Align(tables []*analyze.Table, root string) []Unknown {
	kept := map[string]analyze.Key{}
	cut := map[string]bool{}
	for _, row := range r.Rows {
		if row.Name == OtherName {
			cut[row.Kind] = true
			continue
		}
		if root != "" {
			switch row.Kind {
			case KindFunction:
				row.File = analyze.Relative(row.File, root)
			case KindFile:
				row.Name = analyze.Relative(row.Name, root)
			}
		}
		kept[row.Key()] = row.key()
	}
	var out []Unknown
	for _, kind := range []string{KindPackage, KindFunction, KindFile} {
		unknown := map[string]int64{}
		for _, t := range tables {
			rows := rowsOf(t, kind)
			*rows = alignRows(*rows, kind, kept, cut[kind], unknown)
		}
		if len(unknown) == 0 {
			continue
		}
		u := Unknown{Kind: kind, Rows: len(unknown)}
		for name, self := range unknown {
			if self > u.HeaviestSelf || self == u.HeaviestSelf && (u.Heaviest == "" || name < u.Heaviest) {
				u.Heaviest, u.HeaviestSelf = name, self
			}
		}
		out = append(out, u)
	}
	for _, t := range tables {
		t.Tree, t.Edges, t.Lines, t.LineTotals, t.BundledLines, t.NodeFunctions, t.Stalls = analyze.CallTree{}, nil, nil, false, nil, nil, nil
	}
	return out
}

func rowsOf(t *analyze.Table, kind string) *[]analyze.Row {
	switch kind {
	case KindPackage:
		return &t.Packages
	case KindFunction:
		return &t.Functions
	}
	return &t.Files
}

// alignRows keys one table's rows of a kind as the record does, summing
// rows of one record key, and the rows the record did not keep into
// "(other)" when it cut the kind; unknown receives those rows' self time
// by name.
func alignRows(rows []analyze.Row, kind string, kept map[string]analyze.Key, cut bool, unknown map[string]int64) []analyze.Row {
	index := map[analyze.Key]int{}
	var out []analyze.Row
	var other int64
	for _, ar := range rows {
		rec := recordRow(kind, ar.Key)
		k, ok := kept[rec.Key()]
		if !ok && cut {
			other += ar.Self
			name := rec.Name
			if kind != KindPackage && rec.Package != "" {
				name += " (" + rec.Package + ")"
			}
			unknown[name] += ar.Self
			continue
		}
		if !ok {
			// The record kept every row of this kind: the key had no
			// time on its side, and is new here.
			k = rec.key()
			if kind == KindFunction {
				k.Line, k.Column = ar.Key.Line, ar.Key.Column
			}
		}
		if i, seen := index[k]; seen {
			out[i].Self += ar.Self
			out[i].Total += ar.Total
			continue
		}
		index[k] = len(out)
		out = append(out, analyze.Row{Key: k, Self: ar.Self, Total: ar.Total})
	}
	if cut && other > 0 {
		out = append(out, analyze.Row{Key: Row{Kind: kind, Name: OtherName}.key(), Self: other, Total: other})
	}
	slices.SortStableFunc(out, func(a, b analyze.Row) int { return cmp.Compare(b.Total, a.Total) })
	return out
}

// recordRow is the record's row of a table's key (without times).
func recordRow(kind string, k analyze.Key) Row {
	switch kind {
	case KindPackage:
		return Row{Kind: kind, Name: k.Package}
	case KindFunction:
		return Row{Kind: kind, Name: diff.FunctionName(k), Package: k.Package, File: k.File}
	}
	return Row{Kind: kind, Name: k.File, Package: k.Package}
}
