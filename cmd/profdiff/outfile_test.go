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
