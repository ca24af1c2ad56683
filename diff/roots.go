package diff

import (
	"cmp"
	"path"
	"slices"
	"strings"
)

// This file matches sides whose scripts lie under different roots: the
// same program run from two checkouts (old/app.js and new/app.js, two git
// worktrees) records different absolute paths for the same files, so
// every function would be gone on one side and new on the other. Each
// side's files under its root are then keyed by their path below it.

// GuessRoots returns, for each side, the directory its files are matched
// under (ending in "/"), or nil when the sides need no matching: their
// files already share paths, or they share too few relative paths to be
// checkouts of one program.
//
// The guess looks at each side's own files (absolute paths, outside
// node_modules) that have time: for each file of a variant and each file
// of the base of the same name, the paths are compared from their end;
// where they part, the two prefixes are a candidate pair of roots. A pair
// is taken when more than half of the smaller side's files that do not
// already share their whole path agree with it, and more than share their
// path below the folder holding both roots (so that a folder renamed
// inside one checkout is not taken for another checkout). A variant whose
// files mostly share the base's paths takes the base's root.
func GuessRoots(sides []Side, base int) []string {
	if len(sides) < 2 || base < 0 || base >= len(sides) {
		return nil
	}
	files := make([][]string, len(sides))
	for i, s := range sides {
		files[i] = ownFiles(s)
	}
	byName := map[string][]string{}
	for _, f := range files[base] {
		byName[path.Base(f)] = append(byName[path.Base(f)], f)
	}
	inBase := map[string]bool{}
	for _, f := range files[base] {
		inBase[f] = true
	}
	type pair struct{ a, b string }
	votes := make([]map[pair]int, len(sides))
	same := make([][]string, len(sides)) // the files a variant shares with the base
	baseVotes := map[string]int{}
	for v := range sides {
		if v == base {
			continue
		}
		votes[v] = map[pair]int{}
		for _, f := range files[v] {
			if inBase[f] {
				same[v] = append(same[v], f)
				continue
			}
			for _, g := range byName[path.Base(f)] {
				if a, b, ok := parting(g, f); ok {
					votes[v][pair{a, b}]++
				}
			}
		}
		for p, n := range votes[v] {
			baseVotes[p.a] += n
		}
	}
	// The base's root: the prefix the most votes agree on (the shorter,
	// then the first in order, on a tie).
	var root string
	best := 0
	for a, n := range baseVotes {
		if n > best || n == best && (len(a) < len(root) || len(a) == len(root) && a < root) {
			root, best = a, n
		}
	}
	if best == 0 {
		return nil
	}
	roots := make([]string, len(sides))
	roots[base] = root
	matched := false
	for v := range sides {
		if v == base {
			continue
		}
		shared := len(same[v])
		enough := min(len(files[base]), len(files[v])) - shared
		var b string
		n := 0
		for p, c := range votes[v] {
			if p.a == root && (c > n || c == n && p.b < b) {
				b, n = p.b, c
			}
		}
		switch {
		case n > 0 && 2*n > enough && n > sharedBelow(same[v], root, b):
			roots[v], matched = b, true
		case 2*shared > enough+shared:
			roots[v] = root // the base's own checkout
		}
	}
	if !matched {
		return nil
	}
	return roots
}

// sharedBelow counts the shared files below the directory that holds
// both roots: files of one checkout that kept their path while others
// moved from a to b (a folder renamed inside one checkout), which outvote
// a match of a and b. Files elsewhere (a global library) do not.
func sharedBelow(shared []string, a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	parent := a[:strings.LastIndexByte(a[:n], '/')+1]
	if parent == "/" {
		return 0
	}
	count := 0
	for _, f := range shared {
		if strings.HasPrefix(f, parent) {
			count++
		}
	}
	return count
}

// ownFiles returns a side's own files with time, sorted: absolute paths,
// not URLs, not node: built-ins, not below node_modules (which may live
// anywhere, as a global install).
func ownFiles(s Side) []string {
	seen := map[string]bool{}
	for _, t := range s.Tables {
		for _, r := range t.Files {
			f := r.Key.File
			if strings.HasPrefix(f, "/") && !strings.Contains(f, "/node_modules/") {
				seen[f] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for f := range seen {
		out = append(out, f)
	}
	slices.SortFunc(out, cmp.Compare)
	return out
}

// parting returns where two absolute paths part, read from their end: the
// directories above their longest common tail of path segments, each with
// its trailing "/". ok is false for equal paths and when either prefix is
// the file system's root.
func parting(a, b string) (pa, pb string, ok bool) {
	i, j := len(a), len(b)
	// Walk back over whole segments while they agree.
	for {
		si := strings.LastIndexByte(a[:i], '/')
		sj := strings.LastIndexByte(b[:j], '/')
		if si < 0 || sj < 0 || a[si:i] != b[sj:j] {
			break
		}
		i, j = si, sj
	}
	if i == len(a) || i <= 0 || j <= 0 {
		return "", "", false // nothing in common, or one is all of the other
	}
	return a[:i+1], b[:j+1], true
}

// Relocate keys every run of side i by paths relative to roots[i]: files
// under the root lose it, others keep their paths; the side records its
// root. A nil roots, or an empty root, leaves a side as it is. The
// tables are changed in place.
func Relocate(sides []Side, roots []string) {
	if roots == nil {
		return
	}
	for i := range sides {
		if roots[i] == "" {
			continue
		}
		sides[i].Root = roots[i]
		for _, t := range sides[i].Tables {
			t.Relocate(roots[i])
		}
	}
}
