package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSourceFilesStayInTheirFolders: the explorer reads a source from disk
// only inside the profile's folders; a map's "../../../../etc/passwd",
// /proc/self/environ, a symbolic link out of the folder and a FIFO are not
// read, and each says why.
func TestSourceFilesStayInTheirFolders(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "app.js"), []byte("function f() {}\n"), 0o644)
	os.Symlink("/etc/passwd", filepath.Join(root, "passwd.js"))
	fifo := filepath.Join(root, "pipe.js")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSourceFiles([]string{root})
	s.roots = s.roots[:1] // the folder alone, not the test's working directory
	if text, why := s.read(filepath.Join(root, "app.js")); why != "" || !strings.Contains(text, "function f") {
		t.Errorf("app.js: %q %q", text, why)
	}
	for file, want := range map[string]string{
		filepath.Join(root, "../../../../etc/passwd"): "outside",
		"/proc/self/environ":                          "outside",
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
