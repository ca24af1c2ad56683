package side

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

func TestIndex(t *testing.T) {
	sides := []Side{{Name: "base"}, {Name: "fast"}, {Name: "slow"}}
	if i, err := Index(sides, "slow", "--base", 0); i != 2 || err != nil {
		t.Errorf("Index: %d %v", i, err)
	}
	if i, err := Index(sides, "", "--base", 1); i != 1 || err != nil {
		t.Errorf("Index of no name: %d %v", i, err)
	}
	if _, err := Index(sides, "nope", "--base", 0); err == nil || !strings.Contains(err.Error(), "base, fast, slow") {
		t.Errorf("Index of no side: %v", err)
	}
}

// TestFromArgsQueries: a server query is a side of its own, as an
// argument or as --side NAME=URI, fetched through Given.Query and named
// as the other sides are; a query side given twice under one name is
// refused, while files under one name add runs.
func TestFromArgsQueries(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-r1.cpuprofile")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := Given{
		IsQuery: func(a string) bool { return strings.HasPrefix(a, "q://") },
		Query: func(uri, name string) (Side, error) {
			return Side{Name: name, Files: []string{uri + " [i1]", uri + " [i2]"}, Fetched: []*analyze.Profile{{}, {}}}, nil
		},
	}
	sides, note, err := FromArgs([]string{"q://before", "q://after"}, g)
	if err != nil || note != nil || len(sides) != 2 || sides[0].Name != "before" || sides[1].Name != "after" || len(sides[1].Fetched) != 2 {
		t.Fatalf("two query arguments: %+v %v %v", sides, note, err)
	}
	g.Named = []string{"canary=q://canary", "base=" + file, "base=" + file}
	sides, _, err = FromArgs(nil, g)
	if err != nil || len(sides) != 2 || sides[0].Name != "canary" || sides[0].Fetched == nil || len(sides[1].Files) != 2 {
		t.Fatalf("--side NAME=URI beside files: %+v %v", sides, err)
	}
	g.Named = []string{"canary=q://canary", "canary=" + file}
	if _, _, err := FromArgs(nil, g); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("a query side given twice: %v", err)
	}
	if _, _, err := FromArgs([]string{"q://x"}, Given{}); err == nil || !strings.Contains(err.Error(), "q://x") {
		t.Errorf("a query without a reader of queries was read as a file")
	}
}
