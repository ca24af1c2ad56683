package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// appendFile appends text to the file at path (a GitHub file command such
// as $GITHUB_STEP_SUMMARY or $GITHUB_OUTPUT); with no path it does nothing.
func appendFile(path, text string) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f, text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeOutputs appends step outputs to $GITHUB_OUTPUT, multi-line values
// with a delimiter that the value does not contain.
func writeOutputs(path string, out map[string]string) error {
	if path == "" {
		return nil
	}
	var b strings.Builder
	keys := make([]string, 0, len(out))
	for k := range out {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := out[k]
		if !strings.ContainsAny(v, "\r\n") {
			fmt.Fprintf(&b, "%s=%s\n", k, v)
			continue
		}
		delim := "PROFDIFF_EOF"
		for i := 0; strings.Contains(v, delim); i++ {
			delim = fmt.Sprintf("PROFDIFF_EOF_%d", i)
		}
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", k, delim, v, delim)
	}
	return appendFile(path, b.String())
}

// writeJSONFile writes v as indented JSON.
func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// oneLine keeps the first line of a message.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
