package history

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/profdiff/profdiff/internal/confine"
)

// Source is a store's records in the order of a history, not yet read:
// an analysis reads them one at a time (see AnalyzeSource), so that a
// store of thousands of commits is never held whole.
type Source struct {
	Dir string
	// Files are the records' paths, oldest first; Commits their commits,
	// as their names say (Add names a record by its date and commit).
	Files, Commits []string
	files          *confine.Reader
}

// OpenSource lists the records (*.json) of the store at dir, oldest
// first: in the order of the commits listed one per line in the file at
// orderPath (as `git rev-list --reverse` writes them; records of commits
// it does not list are left out, and a listed commit may be given by a
// prefix of its hash), or by date then commit when orderPath is "". last
// > 0 keeps only the last that many. Records are known by their names, as
// Add writes them (date and commit); only a record under another name is
// read to learn its commit and date. Two records of one commit are an
// error naming both.
func OpenSource(dir, orderPath string, last int) (*Source, error) {
	src := &Source{Dir: dir, files: confine.New(dir)}
	all, err := src.entries()
	if err != nil {
		return nil, err
	}
	if orderPath != "" {
		if all, err = inOrder(all, orderPath); err != nil {
			return nil, err
		}
	}
	if last > 0 && len(all) > last {
		all = all[len(all)-last:]
	}
	for _, e := range all {
		src.Files = append(src.Files, e.path)
		src.Commits = append(src.Commits, e.commit)
	}
	return src, nil
}

// storeEntry is a record of a store: its file, commit and date (as a
// record's name writes it).
type storeEntry struct{ path, commit, date string }

// entries lists the store's records by date then commit, their commits and
// dates from their names (Add's), or read from a record under another
// name; two records of one commit are an error naming both.
func (s *Source) entries() ([]storeEntry, error) {
	dir := s.Dir
	names, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var all []storeEntry
	seen := map[string]string{}
	for _, e := range names {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(dir, name)
		en := storeEntry{path: path}
		if m := recordName.FindStringSubmatch(name); m != nil && commitPattern.MatchString(m[1]) {
			en.commit, en.date = m[1], name[:16]
		} else {
			r, err := s.read(path, "")
			if err != nil {
				return nil, err
			}
			d, _ := time.Parse(time.RFC3339, r.Date)
			en.commit, en.date = r.Commit, d.UTC().Format("20060102T150405Z")
		}
		if other, ok := seen[en.commit]; ok {
			return nil, fmt.Errorf("%s: a second record of commit %s (the first is %s): remove one", path, en.commit, other)
		}
		seen[en.commit] = path
		all = append(all, en)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("%s: no history records (*.json) in it", dir)
	}
	slices.SortFunc(all, func(a, b storeEntry) int { return cmp.Or(cmp.Compare(a.date, b.date), cmp.Compare(a.commit, b.commit)) })
	return all, nil
}

// inOrder keeps the records of the commits that the file at orderPath
// lists one per line (a listed commit may be a prefix of a record's, or a
// record's of it), in that order.
func inOrder(all []storeEntry, orderPath string) ([]storeEntry, error) {
	f, err := os.Open(orderPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	byCommit := make(map[string]int, len(all))
	for i, e := range all {
		byCommit[e.commit] = i
	}
	used := make([]bool, len(all))
	var out []storeEntry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.TrimSpace(sc.Text())
		if c == "" || strings.HasPrefix(c, "#") {
			continue
		}
		i, ok := byCommit[c]
		if !ok || used[i] {
			i = -1
			for j, e := range all { // a prefix either way
				if !used[j] && (strings.HasPrefix(c, e.commit) || strings.HasPrefix(e.commit, c)) {
					i = j
					break
				}
			}
		}
		if i >= 0 {
			used[i] = true
			out = append(out, all[i])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", orderPath, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: lists none of the store's %d commits", orderPath, len(all))
	}
	return out, nil
}

// Len is the number of records.
func (s *Source) Len() int { return len(s.Files) }

// Read reads the i-th record, checking that it is the commit its name
// says.
func (s *Source) Read(i int) (*Record, error) {
	return s.read(s.Files[i], s.Commits[i])
}

func (s *Source) read(path, commit string) (*Record, error) {
	data, err := readRecord(s.files, path)
	if err != nil {
		return nil, err
	}
	r, err := Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if commit != "" && r.Commit != commit {
		return nil, fmt.Errorf("%s: a record of commit %s, not of the commit its name says (%s)", path, r.Commit, commit)
	}
	return r, nil
}
