package analyze

import (
	"errors"
	"fmt"
)

// Error is a profile that could not be read: the file, where in it the
// problem was found, and what is wrong. ParseFile and ListFile return
// their errors as *Error; Parse and List return one without File.
type Error struct {
	// File is the path given to ParseFile or ListFile; "" from Parse.
	File string
	// Line is the 1-based line of a line-based format (folded stacks)
	// where the problem is; 0 when the format has no lines.
	Line int
	// Err says what is wrong, in one line.
	Err error
}

// Error returns "file:line: what is wrong", leaving out what is unknown.
func (e *Error) Error() string {
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	case e.File != "":
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	case e.Line > 0:
		return fmt.Sprintf("line %d: %v", e.Line, e.Err)
	}
	return e.Err.Error()
}

// Unwrap returns what is wrong, for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// ErrTooLarge is what an input that decompresses past
// ParseOptions.MaxInputSize fails with (test with errors.Is).
var ErrTooLarge = errors.New("input exceeds the size limit")

// atLine returns the error of a line of a line-based format.
func atLine(line int, format string, args ...any) error {
	return &Error{Line: line, Err: fmt.Errorf(format, args...)}
}

// inFile names the file in err: an *Error gets its File, anything else is
// wrapped in one.
func inFile(path string, err error) error {
	var e *Error
	if errors.As(err, &e) && e.File == "" {
		e.File = path
		return e
	}
	return &Error{File: path, Err: err}
}
