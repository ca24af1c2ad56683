package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// checkOutputs refuses, before anything is read, an output file that is
// one of the inputs (or the file of another output): -o x.cpuprofile
// x.cpuprofile would replace the profile with its own report. A path is
// the same file as another when both name it once cleaned and made
// absolute, or when both exist and are one file (a link, a hard link, a
// path through another directory).
func checkOutputs(o options, sides []sideArg) error {
	outs := []struct{ flag, path string }{
		{"-o", o.output}, {"--json-output", o.jsonOutput},
		{"--cpuprofile", o.cpuProfile}, {"--memprofile", o.memProfile},
	}
	for i, out := range outs {
		if out.path == "" || out.path == "-" {
			continue
		}
		for _, s := range sides {
			for _, in := range s.files {
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
