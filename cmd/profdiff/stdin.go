package main

import (
	"fmt"
	"io"

	"github.com/profdiff/profdiff/analyze"
)

// checkStdin allows "-" (standard input) for one profile only, however the
// sides are given (BEFORE AFTER, or --before/--after lists): it can be
// read once, and a second read finds it empty.
func checkStdin(sides []sideArg) error {
	n := 0
	for _, s := range sides {
		for _, f := range s.files {
			if f == "-" {
				n++
			}
		}
	}
	if n > 1 {
		return fmt.Errorf("standard input (-) can be one side only, and one run of it: it can be read once")
	}
	return nil
}

// listProfiles lists the profiles of a file, or of standard input for "-".
func listProfiles(file string, stdin io.Reader, popts analyze.ParseOptions) ([]analyze.ProfileInfo, error) {
	if file != "-" {
		return analyze.ListFile(file, popts)
	}
	l, err := analyze.List(stdin, popts)
	if err != nil {
		return nil, fmt.Errorf("standard input: %w", err)
	}
	return l, nil
}
