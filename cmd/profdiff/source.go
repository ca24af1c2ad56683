package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/profdiff/profdiff/internal/confine"
	"github.com/profdiff/profdiff/symbolicate"
)

// maxSourceFile bounds a source file read from disk.
const maxSourceFile = confine.DefaultMaxSize

// sourceFiles reads the source files that profiles and maps name, for
// --source, the HTML page and the explorer's source pane, only where the
// user's own files are (userFolders): regular files below the folders the
// user gave, after following symbolic links. A profile's frame or a map's
// sources can name any path ("../../../../etc/passwd",
// "/proc/self/environ", a link out of the checkout); those are not read,
// and the output says why.
type sourceFiles struct {
	files *confine.Reader
	// relative are the sides' roots that a file keyed relative to one
	// (two checkouts matched) is looked for below, in order.
	relative []string
	// pathMap rewrites recorded paths as the comparison does when it looks
	// for scripts (--path-map), so that a source the comparison finds is
	// found here too.
	pathMap []symbolicate.PathRewrite
	mu      sync.Mutex
	why     map[string]string // why a file is not read, once found
}

// newSourceFiles returns a reader of the sources below files' folders,
// looked for where --path-map puts them.
func newSourceFiles(files *confine.Reader, o options) *sourceFiles {
	return &sourceFiles{files: files, pathMap: pathRewrites(o), why: map[string]string{}}
}

// pathRewrites are the --path-map rules (checked when the invocation was
// made; a malformed one is left out).
func pathRewrites(o options) []symbolicate.PathRewrite {
	var out []symbolicate.PathRewrite
	for _, pm := range o.pathMaps {
		if from, to, ok := strings.Cut(pm, "="); ok && from != "" {
			out = append(out, symbolicate.PathRewrite{From: from, To: to})
		}
	}
	return out
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

// read returns a file's text, or why it is not read ("" for both when it
// is not on this machine).
func (s *sourceFiles) read(file string) (text, why string) {
	file = symbolicate.Rewrite(s.pathMap, file)
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
	b, err := s.files.ReadFile(file, maxSourceFile)
	switch {
	case err == nil:
		return string(b), ""
	case confine.NotFound(err):
		return "", "" // not on this machine: nothing to say
	}
	return "", refusalText(err)
}

// refusalText says why a file is not read and, for a file outside the
// folders given, how to allow it.
func refusalText(err error) string {
	if r, ok := confine.IsRefusal(err); ok && r.Folder() != "" {
		return err.Error() + "; add --source-root " + r.Folder()
	}
	return err.Error()
}
