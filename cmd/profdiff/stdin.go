package main

import (
	"fmt"
	"io"

	"github.com/profdiff/profdiff/analyze"
)

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
