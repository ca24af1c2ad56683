package main

import (
	"strings"
	"testing"
)

// TestSourceFormats: --source writes in the formats the formats table
// marks (text, and text when none is given) and names the format it
// refuses, unknown ones too.
func TestSourceFormats(t *testing.T) {
	for format, ok := range map[string]bool{"": true, "text": true, "markdown": false, "md": false, "json": false, "html": false, "tui": false, "nope": false} {
		o := &options{lineFlags: lineFlags{source: "render"}}
		o.format = format
		err := o.checkLineFlags()
		if (err == nil) != ok {
			t.Errorf("--source with --format %q: %v, want ok=%v", format, err, ok)
		}
		if err != nil && !strings.Contains(err.Error(), "not --format "+format) {
			t.Errorf("--format %q: %v does not name the format", format, err)
		}
		if ok && o.format != "text" {
			t.Errorf("--format %q became %q, want text", format, o.format)
		}
	}
}
