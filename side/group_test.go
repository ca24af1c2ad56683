package side

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestSideNames(t *testing.T) {
	dir := t.TempDir()
	fast := filepath.Join(dir, "fast")
	if err := os.Mkdir(fast, 0o755); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		fast + "/":                      "fast",
		"runs/base-r1.cpuprofile":       "base",
		"worker-pool_run12.pb.gz":       "worker-pool",
		"full-stack.3.json":             "full-stack",
		"7.cpuprofile":                  "7",
		"-":                             "stdin",
		"trace.json.gz":                 "trace",
		"/tmp/x/after-r2.cpuprofile.gz": "after",
	} {
		if got := NameOf(path); got != want {
			t.Errorf("NameOf(%q) = %q, want %q", path, got, want)
		}
	}
	sides := []Side{{Name: "a"}, {Name: "b"}, {Name: "a"}, {Name: "a"}}
	uniqueNames(sides)
	var names []string
	for _, s := range sides {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"a", "b", "a#2", "a#3"}) {
		t.Errorf("unique names: %v", names)
	}
}

// A side made from names holds runs of one build only: after and
// after-pr-4242 are two builds (a base and two variants, as given), while
// after-r1 and after-r2 are runs of one.
func TestSidesFromNamesKeepBuildsApart(t *testing.T) {
	sides, err := fromNames([]string{"after.cpuprofile", "before.cpuprofile", "after-pr-4242.cpuprofile"})
	if err != nil || sides != nil {
		t.Errorf("before, after, after-pr-4242 grouped into %v (%v), want them left as given", sides, err)
	}
	sides, err = fromNames([]string{"after-r2.cpuprofile", "after-r1.cpuprofile", "before-r1.cpuprofile", "before-r2.cpuprofile"})
	if err != nil || len(sides) != 2 || sides[0].Name != "before" || len(sides[0].Files) != 2 || len(sides[1].Files) != 2 {
		t.Errorf("runs named before-rN, after-rN: %v (%v)", sides, err)
	}
}
