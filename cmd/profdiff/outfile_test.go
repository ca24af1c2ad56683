package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyFixture copies a fixture into dir and returns its path there.
func copyFixture(t *testing.T, name, dir string) (string, []byte) {
	t.Helper()
	data, err := os.ReadFile(fixture(name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, data
}

// An output file that is one of the inputs is refused before anything is
// read or written: -o x.cpuprofile x.cpuprofile replaced the profile with
// its report and exited 0 (issue 26, item 6).
func TestOutputIsAnInputRefused(t *testing.T) {
	dir := t.TempDir()
	in, data := copyFixture(t, "node-router-unbundled-before.cpuprofile", dir)
	other, _ := copyFixture(t, "node-router-unbundled-after.cpuprofile", dir)
	link := filepath.Join(dir, "link.cpuprofile")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--format", "json", "-o", in, in},
		{"--format", "json", "-o", filepath.Join(sub, "..", filepath.Base(in)), in},
		{"--format", "json", "-o", link, in},
		{"-o", in, other, in},
		{"--json-output", in, other, in},
		{"--json-output", in, "--before", other, "--after", in},
		{"--json-output", in, other, dir}, // in is one of the directory's runs
		{"--cpuprofile", in, in},
		{"--list", "-o", in, in},
		{"--format", "json", "-o", filepath.Join(dir, "r.json"), "--json-output", filepath.Join(dir, "r.json"), other, in},
	} {
		code, stdout, errs := runCLI(args...)
		if code != 2 || stdout != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "profdiff: ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line", args, code, stdout, errs)
		}
		if got, _ := os.ReadFile(in); !bytes.Equal(got, data) {
			t.Fatalf("%q: the input was changed", args)
		}
		if _, err := os.Stat(filepath.Join(dir, "r.json")); err == nil {
			t.Fatalf("%q: wrote r.json", args)
		}
	}
	// Another file in the same directory is fine.
	out := filepath.Join(dir, "r.json")
	if code, _, errs := runCLI("--format", "json", "-o", out, in); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// Values of --work that would make every value per unit NaN, +Inf or
// nothing are refused with the flag named; --work 0 is not taken as "no
// work given" (issue 26, item 8).
func TestWorkMustBeUsable(t *testing.T) {
	b, a := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	for _, tc := range []struct {
		flags []string
		flag  string
	}{
		{[]string{"--work", "NaN"}, "--work"},
		{[]string{"--work", "+Inf"}, "--work"},
		{[]string{"--work", "-inf"}, "--work"},
		{[]string{"--work", "0"}, "--work"},
		{[]string{"--work", "-3"}, "--work"},
		{[]string{"--work", "5e-324"}, "--work"},
		{[]string{"--work", "0x1p-1030"}, "--work"},
		{[]string{"--work", "1e-300"}, "--work"},
		{[]string{"--work", "after=0"}, "--work"},
		{[]string{"--work", "after=nan", "--work", "before=2"}, "--work"},
		{[]string{"--work-before", "0", "--work-after", "5"}, "--work-before"},
		{[]string{"--work-before", "5", "--work-after", "0"}, "--work-after"},
		{[]string{"--work-before", "NaN", "--work-after", "5"}, "--work-before"},
		{[]string{"--work-before", "5", "--work-after", "Inf"}, "--work-after"},
		{[]string{"--work-before", "1e-320", "--work-after", "5"}, "--work-before"},
	} {
		out := filepath.Join(t.TempDir(), "r.json")
		args := append(append([]string{"--format", "json", "-o", out}, tc.flags...), b, a)
		code, stdout, errs := runCLI(args...)
		if code != 2 || stdout != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "profdiff: "+tc.flag+" ") {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and one line naming %s", tc.flags, code, errs, tc.flag)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: wrote %s", tc.flags, out)
		}
	}
	if code, _, errs := runCLI("--format", "json", "--work", "0.5", "--work-before", "2", "--work-after", "3", b, a); code != 0 {
		t.Errorf("usable work refused: exit %d, %s", code, errs)
	}
}

// A report that fails part-way leaves no file, or the earlier file at that
// path untouched, never an empty or half-written one (issue 26, item 8):
// here --json-output cannot be written, and the -o report was created
// empty before.
func TestOutputNeverHalfWritten(t *testing.T) {
	dir := t.TempDir()
	b, a := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	out := filepath.Join(dir, "r.md")
	badJSON := filepath.Join(dir, "missing", "r.json")
	code, _, errs := runCLI("--format", "markdown", "-o", out, "--json-output", badJSON, b, a)
	if code != 2 || !strings.Contains(errs, "r.json") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was left behind though the report failed", out)
	}
	old := []byte("the report of an earlier run\n")
	if err := os.WriteFile(out, old, 0o640); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runCLI("--format", "markdown", "-o", out, "--json-output", badJSON, b, a); code != 2 {
		t.Fatalf("exit %d", code)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, old) {
		t.Errorf("the earlier report was replaced by %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	// On success the file is replaced whole, keeping its mode, through a
	// link too; a device is written in place.
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI("--format", "markdown", "-o", link, b, a); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	st, err := os.Lstat(link)
	if err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", st, err)
	}
	got, _ := os.ReadFile(out)
	st, _ = os.Stat(out)
	if !strings.Contains(string(got), "on-CPU") || st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v (want -rw-r-----), report of %d bytes", st.Mode(), len(got))
	}
	if code, _, errs := runCLI("--format", "json", "-o", os.DevNull, b, a); code != 0 {
		t.Fatalf("-o %s: exit %d: %s", os.DevNull, code, errs)
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode().IsRegular() {
		t.Fatalf("%s is now %v", os.DevNull, st)
	}
}
