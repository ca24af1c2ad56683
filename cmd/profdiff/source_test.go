package main

import (
	"github.com/profdiff/profdiff/internal/confine"

	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSourceFilesStayInTheirFolders: a source is read from disk only
// below the folders the user gave; a map's "../../../../etc/passwd",
// /proc/self/environ, /dev/zero, a symbolic link out of the folder and a
// FIFO are not read, and each says why (a file outside, how to allow it).
func TestSourceFilesStayInTheirFolders(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "app.js"), []byte("function f() {}\n"), 0o644)
	os.Symlink("/etc/passwd", filepath.Join(root, "passwd.js"))
	fifo := filepath.Join(root, "pipe.js")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSourceFiles(confine.New(root), options{})
	if text, why := s.read(filepath.Join(root, "app.js")); why != "" || !strings.Contains(text, "function f") {
		t.Errorf("app.js: %q %q", text, why)
	}
	for file, want := range map[string]string{
		filepath.Join(root, "../../../../etc/passwd"): "/etc/passwd is outside the folders profdiff may read; add --source-root /etc",
		"file:///etc/passwd":                          "outside the folders profdiff may read",
		"/proc/self/environ":                          "under /proc, /sys or /dev",
		"/dev/zero":                                   "under /proc, /sys or /dev",
		filepath.Join(root, "passwd.js"):              "outside",
		fifo:                                          "not a regular file",
	} {
		text, why := s.read(file)
		if text != "" || !strings.Contains(why, want) {
			t.Errorf("%s: read %d bytes, why %q, want %q", file, len(text), why, want)
		}
		if w := s.whyNot(file); w != why {
			t.Errorf("%s: whyNot %q, read said %q", file, w, why)
		}
	}
}
