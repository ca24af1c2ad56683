package main

import (
	"errors"
	"fmt"
	"github.com/profdiff/profdiff/side"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// checkOutputs refuses, before anything is read, an output file that is
// one of the inputs (or the file of another output): -o x.cpuprofile
// x.cpuprofile would replace the profile with its own report. A path is
// the same file as another when both name it once cleaned and made
// absolute, or when both exist and are one file (a link, a hard link, a
// path through another directory).
func checkOutputs(o options, sides []side.Side) error {
	outs := []struct{ flag, path string }{
		{"-o", o.output}, {"--json-output", o.jsonOutput},
		{"--cpuprofile", o.cpuProfile}, {"--memprofile", o.memProfile},
	}
	for i, out := range outs {
		if out.path == "" || out.path == "-" {
			continue
		}
		for _, s := range sides {
			for _, in := range s.Files {
				if in != "-" && sameFile(out.path, in) {
					return fmt.Errorf("%s %s is the input %s: writing it would destroy the profile; write to another file", out.flag, out.path, in)
				}
			}
		}
		for _, prev := range outs[:i] {
			if prev.path != "" && prev.path != "-" && sameFile(out.path, prev.path) {
				return fmt.Errorf("%s %s is also %s's file: give each output a file of its own", out.flag, out.path, prev.flag)
			}
		}
	}
	return nil
}

// sameFile reports whether paths a and b name one file.
func sameFile(a, b string) bool {
	if absPath(a) == absPath(b) {
		return true
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// absPath returns path cleaned and absolute (only cleaned if the working
// directory is unknown).
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// openOutput returns the report's destination (stdout for "" and "-") and
// the function that finishes it, told whether the report was written
// whole. A file is written to a temporary file beside it and renamed into
// place only when the report is whole, so that an error never leaves the
// file empty or half-written, nor an earlier report at that path
// destroyed; the temporary file is removed otherwise. A path that exists
// and is not a regular file (/dev/null, /dev/stdout, a pipe) is written
// directly.
func openOutput(path string, stdout io.Writer) (io.Writer, func(ok bool) error, error) {
	if path == "" || path == "-" {
		return stdout, func(bool) error { return nil }, nil
	}
	st, err := os.Stat(path)
	if err == nil && !st.Mode().IsRegular() {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			return nil, nil, err
		}
		return f, func(bool) error { return f.Close() }, nil
	}
	if err == nil {
		// A link to the report is kept, and the file it names replaced.
		if real, err := filepath.EvalSymlinks(path); err == nil {
			path = real
		}
	}
	tmp, err := createBeside(path)
	if err != nil {
		return nil, nil, err
	}
	done := func(ok bool) error {
		err := tmp.Close()
		if ok && err == nil && st != nil {
			err = os.Chmod(tmp.Name(), st.Mode().Perm()) // an existing file keeps its mode
		}
		if ok && err == nil {
			err = os.Rename(tmp.Name(), path)
		}
		if !ok || err != nil {
			os.Remove(tmp.Name())
		}
		if err != nil {
			return &os.PathError{Op: "write", Path: path, Err: unwrapPath(err)}
		}
		return nil
	}
	return tmp, done, nil
}

// createBeside creates a new, hidden temporary file in path's directory
// (a rename within one file system is atomic), with the mode os.Create
// gives (0666 less the umask).
func createBeside(path string) (*os.File, error) {
	dir, base := filepath.Split(path)
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf(".%s.%d-%08x.tmp", base, os.Getpid(), rand.Uint32()))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: unwrapPath(err)}
		}
		return f, nil
	}
	return nil, &os.PathError{Op: "open", Path: path, Err: errors.New("no temporary file could be created beside it")}
}

// unwrapPath returns the reason of a *os.PathError or *os.LinkError (the
// temporary file's name in it means nothing to the user), else err.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
