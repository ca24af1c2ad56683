package main

import (
	"fmt"
	"io"
	"os"
	"regexp"

	"github.com/profdiff/profdiff/report"
)

// maxCommentBytes bounds a --previous file: GitHub's comments are at most
// 65,536 characters.
const maxCommentBytes = 1 << 20

// previousComment checks --commit and --base-commit and reads the results
// that the comment named by --previous keeps (none when it keeps none).
func previousComment(o options) ([]report.CommentResult, error) {
	for _, c := range []struct{ flag, v string }{{"--commit", o.commit}, {"--base-commit", o.baseCommit}} {
		if c.v != "" && !commitPattern.MatchString(c.v) {
			return nil, fmt.Errorf("%s %q: give the commit's hash (letters, digits, '.', '_' and '-')", c.flag, c.v)
		}
	}
	if o.previous == "" {
		return nil, nil
	}
	f, err := os.Open(o.previous)
	if err != nil {
		return nil, fmt.Errorf("--previous: %w", err)
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, maxCommentBytes+1))
	if err != nil {
		return nil, fmt.Errorf("--previous %s: %w", o.previous, err)
	}
	if len(body) > maxCommentBytes {
		return nil, fmt.Errorf("--previous %s: over 1 MiB, not a pull-request comment", o.previous)
	}
	res, err := report.ParseCommentResults(string(body))
	if err != nil {
		return nil, fmt.Errorf("--previous %s: %w", o.previous, err)
	}
	if res == nil {
		res = []report.CommentResult{} // remembered from here on
	}
	return res, nil
}

// commitPattern is what --commit and --base-commit may be.
var commitPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)
