// Package confine reads the files that profdiff reads because a profile,
// a source map, a record folder or a history store names them: only
// regular files, under a size cap, that lie below a folder the user gave,
// judged after their symbolic links are followed, and never anything
// under /proc, /sys or /dev. Such inputs are data: nothing they say adds a
// folder. Files the user names on the command line are opened directly.
package confine

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// DefaultMaxSize caps a file read when the caller gives no cap of its own.
const DefaultMaxSize = 16 << 20

// systemTrees are never read, whatever folders are given: they hold the
// process's environment, memory and devices, not anyone's sources.
var systemTrees = []string{"/proc", "/sys", "/dev"}

// Reader reads files below its roots. The zero value and nil read
// nothing. A Reader is immutable and safe for concurrent use.
type Reader struct {
	roots []string // absolute, symbolic links followed, never "/"
}

// New returns a Reader confined to dirs. Each is made absolute with its
// symbolic links followed; "/", a folder under /proc, /sys or /dev, and
// a folder that does not exist are left out.
func New(dirs ...string) *Reader {
	return (&Reader{}).With(dirs...)
}

// With returns a Reader confined to r's roots and dirs (see New).
func (r *Reader) With(dirs ...string) *Reader {
	out := &Reader{}
	if r != nil {
		out.roots = slices.Clone(r.roots)
	}
	for _, d := range dirs {
		if d == "" || strings.Contains(d, "://") {
			continue
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			continue
		}
		st, err := os.Stat(real)
		if err != nil || !st.IsDir() || real == string(filepath.Separator) || inSystemTree(real) {
			continue
		}
		if !slices.Contains(out.roots, real) {
			out.roots = append(out.roots, real)
		}
	}
	return out
}

// Within returns a Reader of those of r's roots that lie below one of
// ceilings (a root that holds a ceiling is narrowed to it): a ceiling is
// what a caller such as a CI job allows, whatever folders were given.
// No ceilings leaves r as it is.
func (r *Reader) Within(ceilings ...string) *Reader {
	if len(ceilings) == 0 {
		return r
	}
	c := New(ceilings...)
	out := &Reader{}
	for _, root := range r.Roots() {
		if c.holds(root) {
			out.roots = append(out.roots, root)
			continue
		}
		for _, top := range c.roots {
			if (&Reader{roots: []string{root}}).holds(top) && !slices.Contains(out.roots, top) {
				out.roots = append(out.roots, top)
			}
		}
	}
	return out
}

// Holds reports whether dir, its links followed, lies below one of r's
// roots (or is one).
func (r *Reader) Holds(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return r.holds(abs)
}

// holds reports whether a resolved absolute path lies below a root.
func (r *Reader) holds(real string) bool {
	if r == nil {
		return false
	}
	for _, root := range r.roots {
		if below(root, real) {
			return true
		}
	}
	return false
}

// below reports whether real lies at or below root.
func below(root, real string) bool {
	rel, err := filepath.Rel(root, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Roots returns the folders r reads below.
func (r *Reader) Roots() []string {
	if r == nil {
		return nil
	}
	return slices.Clone(r.roots)
}

// Reason says why a file is not read.
type Reason int

const (
	// Outside: the file lies outside every folder the user gave.
	Outside Reason = iota + 1
	// System: the file lies under /proc, /sys or /dev.
	System
	// NotRegular: a FIFO, a device, a socket or a folder.
	NotRegular
	// TooLarge: the file is over the cap.
	TooLarge
)

// Refusal is the error for a file that exists but is not read.
type Refusal struct {
	// Path is the file as named; Real with its links followed.
	Path, Real string
	Reason     Reason
	// Limit is the cap, for TooLarge.
	Limit int64
}

// Error says what was refused, in words that name no flag: "/x/y.js is
// outside the folders profdiff may read".
func (e *Refusal) Error() string {
	name := e.Path
	if e.Real != "" && e.Real != e.Path {
		name = fmt.Sprintf("%s (%s)", e.Path, e.Real)
	}
	switch e.Reason {
	case Outside:
		return name + " is outside the folders profdiff may read"
	case System:
		return name + " is under /proc, /sys or /dev, which profdiff never reads"
	case NotRegular:
		return name + " is not a regular file"
	case TooLarge:
		return fmt.Sprintf("%s is over the %s limit for such files", name, sizeText(e.Limit))
	}
	return name + " is not read"
}

// Folder is the folder that, given as a root, would let a file refused
// as Outside be read ("" for other refusals).
func (e *Refusal) Folder() string {
	if e.Reason != Outside {
		return ""
	}
	return filepath.Dir(e.Real)
}

// sizeText writes a byte cap as MiB (or bytes, below one).
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d-byte", n)
}

// IsRefusal reports whether err is a Refusal, and returns it.
func IsRefusal(err error) (*Refusal, bool) {
	var e *Refusal
	ok := errors.As(err, &e)
	return e, ok
}

// inSystemTree reports whether an absolute path lies under /proc, /sys or
// /dev.
func inSystemTree(p string) bool {
	for _, t := range systemTrees {
		if p == t || strings.HasPrefix(p, t+"/") {
			return true
		}
	}
	return false
}

// locate follows path's links and finds the root that holds it: the
// root, and the path below it. A file that does not exist is an
// fs.ErrNotExist error, so that callers can tell "not here" from
// "refused".
func (r *Reader) locate(path string) (root, rel, real string, err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", "", err
	}
	if inSystemTree(abs) {
		return "", "", abs, &Refusal{Path: path, Real: abs, Reason: System}
	}
	real, err = filepath.EvalSymlinks(abs)
	if err != nil {
		return "", "", "", err
	}
	if inSystemTree(real) {
		return "", "", real, &Refusal{Path: path, Real: real, Reason: System}
	}
	if r != nil {
		for _, root := range r.roots {
			if below(root, real) {
				rel, _ := filepath.Rel(root, real)
				return root, rel, real, nil
			}
		}
	}
	return "", "", real, &Refusal{Path: path, Real: real, Reason: Outside}
}

// Check returns path with its links followed, and nil when r would read
// it: a regular file below a root, of at most limit bytes (0: no cap).
// A file that does not exist gives an error for which errors.Is(err,
// fs.ErrNotExist) holds; a file that is there but not read, a *Refusal.
func (r *Reader) Check(path string, limit int64) (string, error) {
	f, real, err := r.open(path, limit)
	if err != nil {
		return real, err
	}
	f.Close()
	return real, nil
}

// Exists reports whether path is a regular file that r would read.
func (r *Reader) Exists(path string) bool {
	_, err := r.Check(path, 0)
	return err == nil
}

// Open opens path for reading when r would read it (see Check), with no
// cap on its size: for reading part of a large file.
func (r *Reader) Open(path string) (*os.File, error) {
	f, _, err := r.open(path, 0)
	return f, err
}

// ReadFile returns the content of path when r would read it (see Check);
// limit caps its size (0: DefaultMaxSize).
func (r *Reader) ReadFile(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultMaxSize
	}
	f, real, err := r.open(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	// One buffer of the file's size, one byte more to see it grow.
	buf := make([]byte, st.Size()+1)
	n, err := io.ReadFull(f, buf)
	switch {
	case err == io.ErrUnexpectedEOF || err == io.EOF:
	case err != nil:
		return nil, err
	case int64(n) > limit:
		return nil, &Refusal{Path: path, Real: real, Reason: TooLarge, Limit: limit}
	default: // the file grew since its size was read: read on, to the cap
		rest, err := io.ReadAll(io.LimitReader(f, limit+1-int64(n)))
		if err != nil {
			return nil, err
		}
		buf = append(buf[:n], rest...)
		if n = len(buf); int64(n) > limit {
			return nil, &Refusal{Path: path, Real: real, Reason: TooLarge, Limit: limit}
		}
	}
	return buf[:n], nil
}

// open opens a file r would read, through the root that holds it, so
// that a link swapped in after the check cannot lead outside; it is
// opened without blocking (a FIFO put in its place does not hang) and
// refused unless it is a regular file of at most limit bytes.
func (r *Reader) open(path string, limit int64) (*os.File, string, error) {
	root, rel, real, err := r.locate(path)
	if err != nil {
		return nil, real, err
	}
	if st, err := os.Stat(real); err != nil {
		return nil, real, err
	} else if !st.Mode().IsRegular() {
		return nil, real, &Refusal{Path: path, Real: real, Reason: NotRegular}
	}
	dir, err := os.OpenRoot(root)
	if err != nil {
		return nil, real, err
	}
	defer dir.Close()
	f, err := dir.OpenFile(rel, os.O_RDONLY|openNonBlocking, 0)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, real, err
		}
		return nil, real, &Refusal{Path: path, Real: real, Reason: Outside}
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, real, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, real, &Refusal{Path: path, Real: real, Reason: NotRegular}
	}
	if limit > 0 && st.Size() > limit {
		f.Close()
		return nil, real, &Refusal{Path: path, Real: real, Reason: TooLarge, Limit: limit}
	}
	return f, real, nil
}

// NotFound reports whether err says the file is simply not there (also
// a path through a file, "a.js/x").
func NotFound(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
