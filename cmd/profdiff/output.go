package main

import (
	"errors"
	"fmt"
	"github.com/profdiff/profdiff/side"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/flamegraph"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
	"github.com/profdiff/profdiff/report"
	"github.com/profdiff/profdiff/symbolicate"
	"github.com/profdiff/profdiff/tui"
)

// finish writes the report to its destination and returns the exit
// status: 2 if writing failed, 1 if a --fail-on rule broke, else 0.
func finish(stderr io.Writer, path string, stdout io.Writer, write func(io.Writer) error, broken bool) int {
	out, done, err := openOutput(path, stdout)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	err = write(out)
	if cerr := done(err == nil); err == nil {
		err = cerr
	}
	if err != nil {
		return failed(stderr, err)
	}
	if broken {
		return exitRule
	}
	return exitOK
}

// writeJSONFile writes the comparison as JSON to path, with opts' parts.
func writeJSONFile(path string, rep *diff.Report, opts report.JSONOptions) error {
	if path == "-" {
		return errors.New("--json-output takes a file, not -")
	}
	out, done, err := openOutput(path, nil)
	if err != nil {
		return err
	}
	err = report.WriteJSONWith(out, rep, opts)
	if cerr := done(err == nil); err == nil {
		err = cerr
	}
	return err
}

// discarded reports whether w is a character device that is no terminal,
// such as /dev/null: what is written there is read by nobody.
func discarded(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || isTerminal(f) {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// isTerminal reports whether f is a terminal (not just any character
// device: /dev/null is one too).
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(file.Fd())
}

// explore runs the interactive explorer on the terminal; in.Source reads
// every side's source files, and side maps a side of in.Report (the HTML
// page the explorer writes draws it) to its index among every side.
func explore(in tui.Input, syms []*symbolicate.Symbolicator, disk *sourceFiles, side func(int) int, stderr io.Writer) int {
	rep := in.Report
	in.Color = os.Getenv("NO_COLOR") == ""
	in.SourceWhy = func(file string) string {
		for i := len(syms) - 1; i >= 0; i-- {
			if syms[i] != nil {
				if _, ok := syms[i].Source(file); ok {
					return ""
				}
			}
		}
		return disk.whyNot(file)
	}
	in.WriteHTML = func() (string, error) {
		f, err := os.CreateTemp("", "profdiff-*.html")
		if err != nil {
			return "", err
		}
		source := func(si int, file string) (string, bool) { return in.Source(side(si), file) }
		err = flamegraph.Write(f, rep, flamegraph.Options{Title: "profdiff", Lines: true, Source: source})
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return f.Name(), err
	}
	if err := tui.Run(in, os.Stdin, os.Stdout, 0, 0); err != nil {
		return failed(stderr, err)
	}
	if rep.Broken() || (in.Several != nil && in.Several.Broken()) {
		return exitRule
	}
	return exitOK
}

// list writes the profiles a file holds, marking the one taken by default.
func list(out io.Writer, file string, stdin io.Reader, popts analyze.ParseOptions) error {
	infos, err := listProfiles(file, stdin, popts)
	if err != nil {
		return err
	}
	for _, in := range infos {
		mark := " "
		if in.Default {
			mark = "*"
		}
		desc := in.Format.Describe()
		if !in.Thread.IsZero() {
			desc = in.Thread.String()
		}
		fmt.Fprintf(out, "%s %s: %s samples, %s on-CPU", mark, termtext.Clean(desc), units.Count(in.Samples), units.Duration(float64(in.OnCPUNs)))
		if len(in.SampleTypes) > 0 {
			fmt.Fprintf(out, ", sample types %s", termtext.Clean(strings.Join(in.SampleTypes, ", ")))
		}
		fmt.Fprintln(out)
	}
	if len(infos) > 1 {
		fmt.Fprintln(out, "(* is the profile taken by default; choose another with --thread)")
	}
	return nil
}

// writeReport writes the comparison in the chosen format (and as JSON to
// --json-output) and returns the exit status; pair is the report drawn
// where one comparison of two sides is shown, drawn the index of each of
// its sides among every side (invocation.drawn).
func writeReport(o options, rep, pair *diff.Report, drawn []int, ds []diff.Side, profiles [][]*analyze.Profile, sides []side.Side, stdout, stderr io.Writer) int {
	color := o.output == "" && isTerminal(stdout) && os.Getenv("NO_COLOR") == ""
	// Warnings are said here when the report goes to a file, to nowhere
	// (> /dev/null, as in CI) or is an export that holds none; a report on
	// standard output that someone reads (a terminal, a pipe, a file) holds
	// them already, so only those about what was asked for (a flag that
	// did nothing) are said here too.
	elsewhere := o.output != "" && o.output != "-" || discarded(stdout)
	format, _ := formatNamed(o.format)
	for _, w := range rep.Warnings {
		if !o.quiet && (elsewhere || !format.showsWarnings || w.Kind.AboutTheRequest()) {
			fmt.Fprintf(stderr, "profdiff: warning: %s\n", termtext.Clean(w.String()))
		}
	}
	return finish(stderr, o.output, stdout, func(out io.Writer) error {
		if o.jsonOutput != "" {
			if err := writeJSONFile(o.jsonOutput, rep, report.JSONOptions{Lines: o.lines}); err != nil {
				return err
			}
		}
		if format.write == nil {
			return fmt.Errorf("--format %s is not written to a file", o.format)
		}
		return format.write(out, writeInput{o: o, rep: rep, pair: pair, drawn: drawn, ds: ds, profiles: profiles, sides: sides, color: color})
	}, rep.Broken())
}
