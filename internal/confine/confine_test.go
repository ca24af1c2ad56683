package confine

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReaderReadsOnlyBelowItsRoots: a file below a root is read, through
// an absolute link too; a file outside, a link out, "../" out, /proc,
// /dev, a FIFO and a file over the cap are refused, each saying why; a
// missing file is NotFound, not a refusal.
func TestReaderReadsOnlyBelowItsRoots(t *testing.T) {
	tmp := t.TempDir()
	root, outside := filepath.Join(tmp, "work"), filepath.Join(tmp, "outside")
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.MkdirAll(outside, 0o755)
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "src", "app.js"), "function f() {}\n")
	write(filepath.Join(root, "big.js"), strings.Repeat("x", 100))
	write(filepath.Join(outside, "secret.js"), "secret\n")
	os.Symlink(filepath.Join(root, "src", "app.js"), filepath.Join(root, "abs-link.js")) // absolute, inside
	os.Symlink(outside, filepath.Join(root, "out"))                                      // a folder outside
	if err := syscall.Mkfifo(filepath.Join(root, "fifo.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := New(root, "/", "/proc", filepath.Join(tmp, "missing"))
	if got := r.Roots(); len(got) != 1 {
		t.Fatalf("roots %v: want the work folder alone ('/', /proc and a missing folder are no roots)", got)
	}
	for _, p := range []string{filepath.Join(root, "src", "app.js"), filepath.Join(root, "abs-link.js"), filepath.Join(root, "src", "..", "src", "app.js")} {
		b, err := r.ReadFile(p, 0)
		if err != nil || string(b) != "function f() {}\n" {
			t.Errorf("%s: %q, %v", p, b, err)
		}
	}
	for _, c := range []struct {
		path   string
		limit  int64
		reason Reason
		says   string
	}{
		{filepath.Join(outside, "secret.js"), 0, Outside, "is outside the folders profdiff may read"},
		{filepath.Join(root, "out", "secret.js"), 0, Outside, "outside"},
		{filepath.Join(root, "..", "outside", "secret.js"), 0, Outside, "outside"},
		{"/etc/passwd", 0, Outside, "/etc/passwd is outside"},
		{"/proc/self/environ", 0, System, "under /proc, /sys or /dev"},
		{"/proc/self/root/etc/passwd", 0, System, "never reads"},
		{"/dev/zero", 0, System, "never reads"},
		{filepath.Join(root, "fifo.js"), 0, NotRegular, "not a regular file"},
		{filepath.Join(root, "big.js"), 99, TooLarge, "over the 99-byte limit"},
	} {
		b, err := r.ReadFile(c.path, c.limit)
		ref, ok := IsRefusal(err)
		if b != nil || !ok || ref.Reason != c.reason || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: read %q, error %v; want a refusal saying %q", c.path, b, err, c.says)
		}
		if want := filepath.Dir(ref.Real); c.reason == Outside && ref.Folder() != want {
			t.Errorf("%s: Folder %q, want %q", c.path, ref.Folder(), want)
		}
		if c.limit == 0 && r.Exists(c.path) {
			t.Errorf("%s: Exists says it would be read", c.path)
		}
	}
	if _, err := r.ReadFile(filepath.Join(root, "none.js"), 0); !NotFound(err) {
		t.Errorf("a missing file: %v, want NotFound", err)
	}
	if _, err := r.ReadFile(filepath.Join(root, "src", "app.js", "x"), 0); !NotFound(err) {
		t.Errorf("a path through a file: %v, want NotFound", err)
	}
	var none *Reader
	if _, err := none.ReadFile(filepath.Join(root, "src", "app.js"), 0); err == nil {
		t.Error("a nil Reader read a file")
	}
	if got := r.With(outside); !got.Exists(filepath.Join(outside, "secret.js")) || r.Exists(filepath.Join(outside, "secret.js")) {
		t.Error("With: the new root reads its file, and the old Reader still does not")
	}
}

// TestWithinKeepsRootsBelowTheCeilings: a ceiling (the Action's workspace)
// drops the roots outside it, narrows one that holds it, and keeps those
// below it; no ceiling keeps every root.
func TestWithinKeepsRootsBelowTheCeilings(t *testing.T) {
	tmp := t.TempDir()
	ws, maps, other := filepath.Join(tmp, "ws"), filepath.Join(tmp, "ws", "maps"), filepath.Join(tmp, "other")
	for _, d := range []string{maps, other} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(other, "x.js"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(tmp, "top.js"), []byte("x"), 0o644)
	r := New(tmp, maps, other).Within(ws)
	if got := r.Roots(); len(got) != 2 || !strings.HasSuffix(got[0], "/ws") || !strings.HasSuffix(got[1], "/ws/maps") {
		t.Errorf("roots %v: want ws (narrowed from its parent) and ws/maps", got)
	}
	if r.Exists(filepath.Join(other, "x.js")) || r.Exists(filepath.Join(tmp, "top.js")) {
		t.Error("a file outside the ceiling is read")
	}
	if !r.Holds(maps) || r.Holds(other) {
		t.Error("Holds: ws/maps is held, other is not")
	}
	if got := New(tmp).Within(); len(got.Roots()) != 1 {
		t.Errorf("no ceiling: %v", got.Roots())
	}
}
