package history

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOpenSourceOrdersByNameAndReadsNothing: a source lists a store's
// records by date and commit from their names, or as an --order file
// lists them (by prefix either way), keeps the last N, and reads a
// record only when asked, refusing one whose content names another
// commit than its name.
func TestOpenSourceOrdersByNameAndReadsNothing(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ commit, date string }{{"aaaa1111", "2026-11-03T00:00:00Z"}, {"bbbb2222", "2026-11-01T00:00:00Z"}, {"cccc3333", "2026-11-02T00:00:00Z"}} {
		if _, err := Add(dir, routerRecord(t, c.commit, c.date, 20)); err != nil {
			t.Fatal(err)
		}
	}
	src, err := OpenSource(dir, "", 0)
	if err != nil || !slices.Equal(src.Commits, []string{"bbbb2222", "cccc3333", "aaaa1111"}) {
		t.Fatalf("by date: %v, %v", src, err)
	}
	order := filepath.Join(t.TempDir(), "order")
	os.WriteFile(order, []byte("aaaa1111ffff\n# a comment\ncccc\nbbbb2222\n"), 0o644)
	src, err = OpenSource(dir, order, 2)
	if err != nil || !slices.Equal(src.Commits, []string{"cccc3333", "bbbb2222"}) {
		t.Fatalf("--order, --last 2: %v, %v", src, err)
	}
	if r, err := src.Read(1); err != nil || r.Commit != "bbbb2222" {
		t.Errorf("read: %v, %v", r, err)
	}
	// A record renamed as another commit is refused when read, naming it.
	data, _ := os.ReadFile(src.Files[1])
	liar := filepath.Join(dir, "20261105T000000Z-dddd4444.json")
	os.WriteFile(liar, data, 0o644)
	src, err = OpenSource(dir, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := src.Read(3); err == nil || !strings.Contains(err.Error(), "dddd4444.json: a record of commit bbbb2222") {
		t.Errorf("a record under another commit's name: %v", err)
	}
}
