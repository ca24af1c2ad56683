package main

import (
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// Every format the command accepts has its line in formats, with a writer
// (the explorer runs instead): a format without one would compute
// everything, and a renderer that starts to read a part its line lacks
// fails the golden tests (they run the command).
func TestOutputNeedsCoverEveryFormat(t *testing.T) {
	for _, f := range []string{"text", "markdown", "md", "json", "html", "tui", "pprof", "speedscope", "folded"} {
		o := options{format: f}
		if f == "tui" {
			if err := o.chooseFormat(true, true); err != nil {
				t.Fatal(err)
			}
		} else if err := o.chooseFormat(false, false); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		line, found := formatNamed(f)
		if !found {
			t.Errorf("--format %s has no line in formats", f)
		}
		if line.write == nil && f != "tui" {
			t.Errorf("--format %s has no writer", f)
		}
	}
	o := options{format: "yaml"}
	err := o.chooseFormat(false, false)
	if err == nil || !strings.Contains(err.Error(), "choose text, markdown, json, html, tui, pprof, speedscope or folded") {
		t.Errorf("an unknown format: %v", err)
	}
	for f, want := range map[string]bool{"": true, "text": true, "md": true, "json": true, "html": true, "tui": false, "pprof": false} {
		if _, err := historyWriter(f); (err == nil) != want {
			t.Errorf("history --format %q: %v", f, err)
		}
	}
}

// What each output computes: a single profile's text, markdown and JSON
// need no call tree (md was once missed); JSON needs the calls; only the
// explorer reads per-line times, and the markdown of a pair; --json-output adds what JSON reads; the
// reports of three sides or more list rows alone.
func TestNeedsOf(t *testing.T) {
	for _, c := range []struct {
		format string
		json   bool
		sides  int
		want   analyze.AggregateOptions
	}{
		{"text", false, 1, analyze.AggregateOptions{}},
		{"md", false, 1, analyze.AggregateOptions{}},
		{"markdown", false, 2, analyze.AggregateOptions{Lines: true, Tree: true}}, // the lines of the changed functions
		{"json", false, 1, analyze.AggregateOptions{Edges: true}},
		{"json", false, 2, analyze.AggregateOptions{Edges: true, Tree: true}},
		{"markdown", true, 1, analyze.AggregateOptions{Edges: true}},
		{"html", false, 1, analyze.AggregateOptions{Tree: true}},
		{"tui", false, 1, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true}},
		{"folded", false, 2, analyze.AggregateOptions{NodeFunctions: true}},
		// Several variants: the rows alone, but the explorer and the
		// flame graph draw a pair.
		{"json", false, 3, analyze.AggregateOptions{}},
		{"markdown", true, 4, analyze.AggregateOptions{}},
		{"tui", false, 3, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true}},
		{"html", false, 3, analyze.AggregateOptions{Tree: true}},
	} {
		if got := needsOf(c.format, c.json).aggregateOptions(c.sides); got != c.want {
			t.Errorf("%s (json output %v, %d sides): %+v, want %+v", c.format, c.json, c.sides, got, c.want)
		}
	}
}
