package diff

import (
	"slices"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// filesSide is a side of one run whose files (and a function in each)
// have time.
func filesSide(name string, files ...string) Side {
	t := &analyze.Table{}
	for i, f := range files {
		t.Files = append(t.Files, analyze.Row{Key: analyze.Key{Package: "app", File: f}, Self: int64(i + 1), Total: int64(i + 1)})
		t.Functions = append(t.Functions, analyze.Row{Key: analyze.Key{Package: "app", Function: "f", File: f, Line: 1, Column: 1}, Self: int64(i + 1), Total: int64(i + 1)})
	}
	return Side{Name: name, Tables: []*analyze.Table{t}}
}

func TestGuessRoots(t *testing.T) {
	old := []string{"/home/ci/old/src/app.js", "/home/ci/old/src/router.js", "/home/ci/old/lib/util.js", "/home/ci/old/node_modules/lodash/lodash.js", "node:fs", "http://localhost/x.js"}
	moved := []string{"/home/ci/new/src/app.js", "/home/ci/new/src/router.js", "/home/ci/new/lib/util.js", "/home/ci/new/node_modules/lodash/lodash.js", "node:fs"}
	for _, tc := range []struct {
		name  string
		sides []Side
		base  int
		want  []string
	}{
		{"same paths", []Side{filesSide("a", old...), filesSide("b", old...)}, 0, nil},
		{"two checkouts", []Side{filesSide("a", old...), filesSide("b", moved...)}, 0, []string{"/home/ci/old/", "/home/ci/new/"}},
		// A file that only one side has time in changes nothing.
		{"a file more", []Side{filesSide("a", old[:2]...), filesSide("b", append(moved, "/home/ci/new/src/extra.js")...)}, 0, []string{"/home/ci/old/", "/home/ci/new/"}},
		// The roots are where the paths part, not each side's common folder.
		{"one folder on one side", []Side{filesSide("a", "/w/a/src/app.js"), filesSide("b", "/w/b/src/app.js", "/w/b/lib/x.js")}, 0, []string{"/w/a/", "/w/b/"}},
		{"unrelated programs", []Side{filesSide("a", old...), filesSide("b", "/tmp/cache2/w/app2.js", "/tmp/cache2/w/cache.js")}, 0, nil},
		// One file name in common out of three is no match.
		{"one name in common", []Side{filesSide("a", old[:3]...), filesSide("b", "/srv/x/index.js", "/srv/x/server.js", "/srv/x/util.js")}, 0, nil},
		// Global node_modules and URLs are not the program's own files.
		{"only packages", []Side{filesSide("a", "/usr/lib/node_modules/npm/index.js"), filesSide("b", "/opt/node_modules/npm/index.js")}, 0, nil},
		{"files at the root", []Side{filesSide("a", "/app.js"), filesSide("b", "/x/app.js")}, 0, nil},
		{"one side", []Side{filesSide("a", old...)}, 0, nil},
		// A base, a variant from its own checkout and one from another.
		{"several", []Side{filesSide("base", old...), filesSide("same", old...), filesSide("pr", moved...)}, 0, []string{"/home/ci/old/", "/home/ci/old/", "/home/ci/new/"}},
		{"another base", []Side{filesSide("pr", moved...), filesSide("base", old...)}, 1, []string{"/home/ci/new/", "/home/ci/old/"}},
	} {
		if got := GuessRoots(tc.sides, tc.base); !slices.Equal(got, tc.want) {
			t.Errorf("%s: roots %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestRelocateJoinsTwoCheckouts(t *testing.T) {
	old := []string{"/home/ci/old/src/app.js", "/home/ci/old/node_modules/lodash/lodash.js", "node:fs", "/usr/lib/x.js"}
	moved := []string{"/home/ci/new/src/app.js", "/home/ci/new/node_modules/lodash/lodash.js", "node:fs", "/usr/lib/x.js"}
	sides := []Side{filesSide("before", old...), filesSide("after", moved...)}
	r, err := Compare(sides, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) != 6 {
		t.Fatalf("before matching: %d file rows, want 6 (two joined)", len(r.Files))
	}
	Relocate(sides, GuessRoots(sides, 0))
	if r, err = Compare(sides, DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, row := range r.Files {
		files = append(files, row.Key.File)
	}
	slices.Sort(files)
	if want := []string{"/usr/lib/x.js", "node:fs", "node_modules/lodash/lodash.js", "src/app.js"}; !slices.Equal(files, want) {
		t.Errorf("after matching: files %q, want %q", files, want)
	}
	if r.Sides[0].Root != "/home/ci/old/" || r.Sides[1].Root != "/home/ci/new/" {
		t.Errorf("roots in the report: %q, %q", r.Sides[0].Root, r.Sides[1].Root)
	}
	for _, row := range r.Files {
		if row.Key.Package != "app" {
			t.Errorf("%s: package %q, want it kept", row.Key.File, row.Key.Package)
		}
	}
}

func TestGuessRootsLeavesARenamedFolder(t *testing.T) {
	base := filesSide("before", "/app/main.js", "/app/a.js", "/app/b.js", "/app/c.js", "/app/lib/x.js")
	renamed := filesSide("after", "/app/main.js", "/app/a.js", "/app/b.js", "/app/c.js", "/app/src/x.js")
	if got := GuessRoots([]Side{base, renamed}, 0); got != nil {
		t.Errorf("lib/ renamed src/ in one checkout: roots %q, want none", got)
	}
}
