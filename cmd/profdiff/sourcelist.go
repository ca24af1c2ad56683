package main

import (
	"errors"
	"fmt"
	"github.com/profdiff/profdiff/side"
	"io"
	"regexp"

	"github.com/spf13/pflag"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/confine"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/report"
)

// lineFlags are the flags of the line level: --lines adds each function's
// lines to the JSON report; --source annotates matching functions' source.
type lineFlags struct {
	lines    bool
	source   string
	sourceRE *regexp.Regexp
	// readSource reads a source file for the HTML page, as the explorer
	// does (set once the sides are read).
	readSource func(side int, file string) (string, bool)
}

// addLineFlags defines --lines and --source.
func addLineFlags(fs *pflag.FlagSet, o *options) {
	fs.BoolVar(&o.lines, "lines", false, "add per-line times: with --format json, lines[] in each function (its self and total time per source line); with --format html, a clicked frame's source with each line's time")
	fs.StringVar(&o.source, "source", "", "instead of the report, print the source of each function whose name matches `RE`, with each line's self and total time per side and, comparing two sides, each line's change and verdict (as go tool pprof -list)")
}

// checkLineFlags compiles --source and checks it against --format: the
// annotated source is text.
func (o *options) checkLineFlags() error {
	if o.source == "" {
		return nil
	}
	re, err := regexp.Compile(o.source)
	if err != nil {
		return fmt.Errorf("--source %q: %v", o.source, err)
	}
	o.sourceRE = re
	if o.format == "" {
		o.format = "text"
	}
	if f, ok := formatNamed(o.format); !ok || !f.source {
		return fmt.Errorf("--source prints text, not --format %s (for per-line times in JSON, use --format json --lines)", o.format)
	}
	if o.jsonOutput != "" {
		return errors.New("--source prints annotated source; --json-output is for the report")
	}
	return nil
}

// sideSources returns what reads side's text of a source file (side
// indexes every side): its own maps' sourcesContent, then the disk, below
// its checkout first, below the folders the user gave (files) only; the
// text, or why it is not read ("" when it is simply not at hand).
func (inv *invocation) sideSources(files *confine.Reader, sides int) func(side int, file string) (string, string) {
	disk := make([]*sourceFiles, sides)
	for i := range disk {
		disk[i] = newSourceFiles(files, inv.o)
		disk[i].relative = side.RelativeTo(inv.roots, i)
	}
	return func(side int, file string) (string, string) {
		if side < 0 || side >= len(disk) {
			return "", ""
		}
		if side < len(inv.syms) && inv.syms[side] != nil {
			if text, ok := inv.syms[side].Source(file); ok {
				return text, ""
			}
		}
		return disk[side].read(file)
	}
}

// pairSide returns, for the report drawn (inv.pair: the base and
// inv.variant), the index among every side of its side si.
func (inv *invocation) pairSide(rep *diff.Report) func(si int) int {
	drawn := inv.drawn(rep)
	return func(si int) int {
		if si < 0 || si >= len(drawn) {
			return si
		}
		return drawn[si]
	}
}

// sourceOf returns what reads each side's source file for the HTML page
// of the pair drawn from rep (see sideSources).
func (inv *invocation) sourceOf(rep *diff.Report) func(int, string) (string, bool) {
	read, side := inv.sideSources(userFolders(inv.o, inv.sides), len(rep.Sides)), inv.pairSide(rep)
	return func(si int, file string) (string, bool) {
		text, why := read(side(si), file)
		return text, why == "" && text != ""
	}
}

// writeSource writes the annotated source of the functions --source
// matches, reading each side's source from its maps' sourcesContent or
// from disk below the folders the user gave only, and returns the exit
// status.
func (inv *invocation) writeSource(rep *diff.Report, stdout, stderr io.Writer) int {
	o := inv.o
	source := inv.sideSources(userFolders(o, inv.sides), len(rep.Sides))
	// The listing holds no warnings, and a map not used (refused, of
	// another build, broken) changes every line of it: all are said.
	for _, w := range rep.Warnings {
		if !o.quiet {
			fmt.Fprintf(stderr, "profdiff: warning: %s\n", termtext.Clean(w.String()))
		}
	}
	return finish(stderr, o.output, stdout, func(out io.Writer) error {
		return report.WriteSource(out, rep, report.SourceOptions{Match: o.sourceRE, Source: source, Context: 2})
	}, rep.Broken())
}
