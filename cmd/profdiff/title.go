package main

import (
	"fmt"
	"github.com/profdiff/profdiff/side"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/profdiff/profdiff/diff"
)

// htmlTitle heads the HTML page: the sides drawn (the pair, base first),
// each named by what tells it from the others — its folder, else its
// files' stem, else its name (a commit, a --side name) — with its number
// of runs, and the folder they share when that is not what differs.
func htmlTitle(pair *diff.Report, sides []side.Side) string {
	var files [][]string
	var names []string
	for _, s := range pair.Sides {
		f := s.Files
		for _, a := range sides {
			if a.Name == s.Name && len(a.Files) > 0 {
				f = a.Files
			}
		}
		files, names = append(files, f), append(names, s.Name)
	}
	return "profdiff: " + titleOf(files, names)
}

// titleOf names sides given each one's files and name (see htmlTitle).
func titleOf(files [][]string, names []string) string {
	n := len(names)
	folders, stems := make([]string, n), make([]string, n)
	for i, fs := range files {
		folders[i], stems[i] = commonFolder(fs), commonStem(fs)
	}
	runs := func(i int) string {
		if len(files[i]) > 1 {
			return fmt.Sprintf(" (%d runs)", len(files[i]))
		}
		return ""
	}
	join := func(label []string) string {
		parts := make([]string, n)
		for i := range label {
			parts[i] = label[i] + runs(i)
		}
		return strings.Join(parts, " → ")
	}
	if n == 1 {
		if len(files[0]) == 1 {
			return filepath.Base(files[0][0])
		}
		return join(folders)
	}
	if distinct(folders) {
		return join(shortestSuffixes(folders))
	}
	shared := ""
	if f := folders[0]; f != "" && f != "." && allEqual(folders) {
		shared = " · " + f
	}
	if distinct(stems) {
		return join(stems) + shared
	}
	return join(names) + shared
}

// commonFolder is the folder all files are in, "" when they are not in
// one.
func commonFolder(files []string) string {
	dir := ""
	for i, f := range files {
		d := filepath.Dir(f)
		if i > 0 && d != dir {
			return ""
		}
		dir = d
	}
	return dir
}

// stemRunSuffix is what numbers a run at the end of a shared stem: the "-r"
// of before-r1, before-r2...
var stemRunSuffix = regexp.MustCompile(`([-_.](r|run))?[-_.]*$`)

// commonStem is the files' names' common start without their
// extensions and run numbers: "before" for before-r1.cpuprofile,
// before-r2.cpuprofile; "" when they share none.
func commonStem(files []string) string {
	stem := ""
	for i, f := range files {
		s := filepath.Base(f)
		if k := strings.IndexByte(s[min(1, len(s)):], '.'); k >= 0 {
			s = s[:k+min(1, len(s))]
		}
		if i == 0 {
			stem = s
			continue
		}
		k := 0
		for k < len(stem) && k < len(s) && stem[k] == s[k] {
			k++
		}
		stem = stem[:k]
	}
	if len(files) > 1 {
		stem = strings.TrimRight(stem, "0123456789")
		stem = stemRunSuffix.ReplaceAllString(stem, "")
	}
	return stem
}

// shortestSuffixes shortens distinct paths to their last elements, as
// few as keep them distinct.
func shortestSuffixes(paths []string) []string {
	out := make([]string, len(paths))
	for k := 1; ; k++ {
		longest := true
		for i, p := range paths {
			parts := strings.Split(filepath.ToSlash(p), "/")
			if len(parts) > k {
				longest = false
				parts = parts[len(parts)-k:]
			}
			out[i] = strings.Join(parts, "/")
		}
		if distinct(out) || longest {
			return out
		}
	}
}

// distinct reports whether the labels are all given and all different.
func distinct(labels []string) bool {
	seen := map[string]bool{}
	for _, l := range labels {
		if l == "" || seen[l] {
			return false
		}
		seen[l] = true
	}
	return true
}

func allEqual(labels []string) bool {
	for _, l := range labels {
		if l != labels[0] {
			return false
		}
	}
	return true
}
