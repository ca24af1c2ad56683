package main

import (
	"github.com/profdiff/profdiff/side"
	"os"
	"path/filepath"
	"testing"
)

func TestHugePagesWanted(t *testing.T) {
	for _, c := range []struct {
		input   int64
		godebug string
		want    bool
	}{
		{hugePagesFrom - 1, "", false},
		{hugePagesFrom, "", true},
		{60 << 20, "madvdontneed=0", true},
		{60 << 20, "gctrace=1, disablethp=1", false},
		{60 << 20, "disablethp=0", true},
	} {
		if got := hugePagesWanted(c.input, c.godebug); got != c.want {
			t.Errorf("hugePagesWanted(%d, %q) = %v, want %v", c.input, c.godebug, got, c.want)
		}
	}
}

func TestInputBytes(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for p, n := range map[string]int{a: 10, b: 32} {
		if err := os.WriteFile(p, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sides := []side.Side{{Files: []string{a, "-"}}, {Files: []string{b, filepath.Join(dir, "missing"), dir}}}
	if got := inputBytes(sides); got != 42 {
		t.Errorf("inputBytes = %d, want 42 (the regular files' sizes)", got)
	}
}
