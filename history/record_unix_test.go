//go:build unix

package history

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStoreReadsOnlyFilesInItsFolder: a store may come from an untrusted
// branch, so a record that is a link to a file outside the store, or a
// FIFO that would block a plain open, is an error naming it, not read.
// Negative control: with readRecord back to os.Open, the link is read
// (and its "secret" content reaches the error) and the FIFO hangs.
func TestStoreReadsOnlyFilesInItsFolder(t *testing.T) {
	src := t.TempDir()
	good, err := Add(src, routerRecord(t, "aaa1", "2026-11-01T08:00:00Z", 20))
	if err != nil {
		t.Fatal(err)
	}
	keep, _ := os.ReadFile(good)
	outside := filepath.Join(t.TempDir(), "secret.json")
	os.WriteFile(outside, []byte("secret-token-4242"), 0o644)
	for _, c := range []struct {
		name string
		make func(path string) error
		want string
	}{
		{"link.json", func(p string) error { return os.Symlink(outside, p) }, "leads outside the store's folder"},
		{"fifo.json", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "not a regular file"},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, filepath.Base(good)), keep, 0o644)
		path := filepath.Join(dir, c.name)
		if err := c.make(path); err != nil {
			t.Skipf("%s: %v", c.name, err)
		}
		done := make(chan error, 1)
		go func() { _, err := Open(dir); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "secret-token") {
				t.Errorf("%s: %v, want %q naming %s", c.name, err, c.want, path)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: opening the store hung", c.name)
		}
		if _, _, err := Find(dir, "aaa1"); err != nil {
			t.Errorf("%s: the good record is not found: %v", c.name, err)
		}
	}
}
