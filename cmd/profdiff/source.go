package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/profdiff/profdiff/symbolicate"
)

// maxSourceFile bounds a source file the explorer reads from disk.
const maxSourceFile = 16 << 20

// sourceFiles reads source files for the explorer's source pane, only
// where the user's own files are: regular files under the folders of the
// profile's scripts, the given --sourcemaps folders or the current
// directory, after following symbolic links. A map's sources can name
// any path ("../../../../etc/passwd", "/proc/self/environ"); those are
// not read, and the pane says why.
type sourceFiles struct {
	roots symbolicate.Roots
	// relative are the sides' roots that a file keyed relative to one
	// (two checkouts matched) is looked for below, in order.
	relative []string
	mu       sync.Mutex
	why      map[string]string // why a file is not read, once found
}

// newSourceFiles returns a reader rooted at dirs and the current
// directory.
func newSourceFiles(dirs []string) *sourceFiles {
	if wd, err := os.Getwd(); err == nil {
		dirs = append(dirs, wd)
	}
	return &sourceFiles{roots: symbolicate.NewRoots(dirs...), why: map[string]string{}}
}

// whyNot says why a file is not read ("" when it is, or is not here),
// asking the disk once a file: the explorer asks on every redraw.
func (s *sourceFiles) whyNot(file string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	why, ok := s.why[file]
	if !ok {
		_, why = s.read(file)
		s.why[file] = why
	}
	return why
}

// read returns a file's text, or why it is not read.
func (s *sourceFiles) read(file string) (text, why string) {
	if file == "" || strings.Contains(file, "://") {
		return "", ""
	}
	if !filepath.IsAbs(file) {
		for _, root := range s.relative {
			if _, err := os.Lstat(filepath.Join(root, file)); err == nil {
				file = filepath.Join(root, file)
				break
			}
		}
	}
	if _, err := os.Lstat(file); err != nil {
		return "", "" // not on this machine: nothing to say
	}
	real, ok := s.roots.Hold(file)
	if !ok {
		return "", fmt.Sprintf("%s is outside the profile's script folders, the --sourcemaps folders and the current directory", real)
	}
	st, err := os.Stat(real)
	switch {
	case err != nil:
		return "", ""
	case !st.Mode().IsRegular():
		return "", real + " is not a regular file"
	case st.Size() > maxSourceFile:
		return "", fmt.Sprintf("%s is over %d MiB", real, maxSourceFile>>20)
	}
	b, err := os.ReadFile(real)
	if err != nil {
		return "", err.Error()
	}
	return string(b), ""
}
