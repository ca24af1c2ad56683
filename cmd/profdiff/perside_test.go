package main

import (
	"github.com/profdiff/profdiff/side"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSidesFromArguments(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, n := range []string{"base-r1.cpuprofile", "base-r2.cpuprofile", "x-r1.cpuprofile", "y.cpuprofile"} {
		f := filepath.Join(dir, n)
		if err := os.WriteFile(f, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	sides, err := sidesFromArgs(files[1:], options{})
	if err != nil || len(sides) != 3 || sides[0].Name != "base" || sides[1].Name != "x" || sides[2].Name != "y" {
		t.Fatalf("three arguments: %+v %v", sides, err)
	}
	sides, err = sidesFromArgs(files[:2], options{})
	if err != nil || sides[0].Name != "before" || sides[1].Name != "after" {
		t.Fatalf("two arguments keep before and after: %+v %v", sides, err)
	}
	sides, err = sidesFromArgs(nil, options{named: []string{"old=" + filepath.Join(dir, "base-*"), "new=" + files[2], "new=" + files[3]}})
	if err != nil || len(sides) != 2 || sides[0].Name != "old" || len(sides[0].Files) != 2 || len(sides[1].Files) != 2 {
		t.Fatalf("--side: %+v %v", sides, err)
	}
	for _, bad := range [][]string{{"=x"}, {"old"}, {"old=" + filepath.Join(dir, "nothing-*")}, {"old=" + filepath.Join(dir, "missing")}} {
		if _, err := sidesFromArgs(nil, options{named: bad}); err == nil {
			t.Errorf("--side %q: no error", bad)
		}
	}
	if _, err := sidesFromArgs(files[:1], options{named: []string{"a=" + files[0]}}); err == nil {
		t.Error("--side with arguments: no error")
	}
	if _, err := sidesFromArgs([]string{"-", files[0], "-"}, options{}); err == nil || !strings.Contains(err.Error(), "standard input") {
		t.Errorf("stdin twice: %v", err)
	}
}

// TestRunsGroupIntoSides: profiles that differ only in their run number,
// as a shell expands before-r*.cpuprofile after-r*.cpuprofile, are runs of
// one side, not a side each. Without groupRuns the first case gets ten
// sides.
func TestRunsGroupIntoSides(t *testing.T) {
	dir := t.TempDir()
	path := func(name string) string {
		f := filepath.Join(dir, name)
		if _, err := os.Stat(f); err != nil {
			if err := os.WriteFile(f, []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return f
	}
	runs := filepath.Join(dir, "runs")
	if err := os.Mkdir(runs, 0o755); err != nil {
		t.Fatal(err)
	}
	path("runs/base-r9.cpuprofile")
	path("runs/base-r8.cpuprofile")
	type named struct {
		name  string
		files int
	}
	for _, c := range []struct {
		args []string
		want []named
	}{
		{[]string{"before-r1.cpuprofile", "before-r2.cpuprofile", "before-r3.cpuprofile", "after-r1.cpuprofile", "after-r2.cpuprofile"},
			[]named{{"before", 3}, {"after", 2}}},
		// interleaved as a shell would not, in the order the names first appear
		{[]string{"x-r1.pb.gz", "y-r1.pb.gz", "x-r2.pb.gz", "y_run2.pb.gz", "c.pb.gz"},
			[]named{{"x", 2}, {"y", 2}, {"c", 1}}},
		// names that say which side: in that order, whatever the order given
		{[]string{"b-r1.pb.gz", "a-r1.pb.gz", "b-r2.pb.gz", "a_run2.pb.gz"},
			[]named{{"a", 2}, {"b", 2}}},
		{[]string{"base.cpuprofile", "v1-r1.cpuprofile", "v1-r2.cpuprofile"},
			[]named{{"base", 1}, {"v1", 2}}},
		// runs of one build alone stay a side each
		{[]string{"base-r1.cpuprofile", "base-r2.cpuprofile", "base-r3.cpuprofile"},
			[]named{{"base", 1}, {"base#2", 1}, {"base#3", 1}}},
		// a file without a run number, and a directory, are never grouped
		{[]string{"x.cpuprofile", "x.pb.gz", "y-r1.cpuprofile"},
			[]named{{"x", 1}, {"x#2", 1}, {"y", 1}}},
		{[]string{"runs", "base-r1.cpuprofile", "base-r2.cpuprofile"},
			[]named{{"runs", 2}, {"base", 2}}},
		// runs of one name in two folders are two builds
		{[]string{"base-r1.cpuprofile", "base-r2.cpuprofile", "runs/base-r9.cpuprofile", "runs/base-r8.cpuprofile"},
			[]named{{"base", 2}, {"base#2", 2}}},
	} {
		var args []string
		for _, a := range c.args {
			if a == "runs" {
				args = append(args, runs)
				continue
			}
			args = append(args, path(a))
		}
		sides, err := sidesFromArgs(args, options{})
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		var got []named
		for _, s := range sides {
			got = append(got, named{s.Name, len(s.Files)})
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%v: sides %v, want %v", c.args, got, c.want)
		}
	}
	// two arguments stay before and after, run numbers or not
	sides, err := sidesFromArgs([]string{path("base-r1.cpuprofile"), path("base-r2.cpuprofile")}, options{})
	if err != nil || len(sides) != 2 || sides[0].Name != "before" || sides[1].Name != "after" {
		t.Errorf("two runs of one build: %+v %v", sides, err)
	}
}

func TestSideFlags(t *testing.T) {
	three := func() []side.Side { return []side.Side{{Name: "base"}, {Name: "fast"}, {Name: "slow"}} }
	o := options{
		sourceMapDirs: []string{"shared", "fast=dist-fast", "nosuch=dir"},
		sourceMaps:    []string{"app.js=app.js.map", "slow=app.js=slow.map", "base=b.map"},
		works:         []string{"1000", "slow=500"},
	}
	f := three()
	if err := resolveSideFlags(o, f); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f[1].MapDirs, []string{"shared", "nosuch=dir", "dist-fast"}) || !slices.Equal(f[0].MapDirs, []string{"shared", "nosuch=dir"}) {
		t.Errorf("dirs: %q %q", f[0].MapDirs, f[1].MapDirs)
	}
	// base=b.map is SCRIPT=MAP for a script named base: every side's.
	if !slices.Equal(f[2].Maps, []string{"app.js=app.js.map", "base=b.map", "app.js=slow.map"}) || !slices.Equal(f[0].Maps, []string{"app.js=app.js.map", "base=b.map"}) {
		t.Errorf("maps: %q %q", f[0].Maps, f[2].Maps)
	}
	if f[0].Work != 1000 || f[1].Work != 1000 || f[2].Work != 500 {
		t.Errorf("work: %v %v %v", f[0].Work, f[1].Work, f[2].Work)
	}
	if f[0].SameMaps(f[1]) || !f[0].SameMaps(side.Side{Maps: f[0].Maps, MapDirs: f[0].MapDirs, Work: 3}) {
		t.Errorf("SameMaps: base and fast differ in folders, not in work")
	}
	for _, bad := range []options{
		{works: []string{"fast=10"}},      // not every side
		{works: []string{"fast=-1"}},      // not positive
		{workBefore: 10, workAfter: 20},   // before/after are for two sides
		{sourceDirsBefore: []string{"d"}}, // likewise
		{works: []string{"fast=x"}},       // not a number
	} {
		if err := resolveSideFlags(bad, three()); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	two := []side.Side{{Name: "before"}, {Name: "after"}}
	err := resolveSideFlags(options{workBefore: 10, workAfter: 20, sourceDirsAfter: []string{"new"}}, two)
	if err != nil || two[0].Work != 10 || two[1].Work != 20 || !slices.Equal(two[1].MapDirs, []string{"new"}) || len(two[0].MapDirs) != 0 {
		t.Errorf("before/after forms: %+v %v", two, err)
	}
}
