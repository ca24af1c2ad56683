package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// helpWidth is the width the help is written to: every line fits.
const helpWidth = 80

// usageShort is --help: what profdiff does, how it is called, the flags
// most used and examples of each kind of use; the rest is under
// profdiff help TOPIC.
const usageShort = `profdiff ranks where CPU profiles spend their on-CPU time (by package,
function and file) and compares builds, or sets of repeated runs, with a
verdict on noise. It reads V8 .cpuprofile, Chrome traces, pprof and folded
stacks ("frame;frame;... count" lines), gzipped or not.

Usage:
  profdiff [flags] PROFILE            rank one profile
  profdiff [flags] BEFORE AFTER       compare: each a profile or a folder of
                                      runs
  profdiff [flags] BASE V1 V2...      judge each variant against the base
  profdiff record [flags] --cmd CMD --before-dir DIR --after-dir DIR
                                      run, profile and compare, in turns
  profdiff history add|DIR ...        a store of commits' runs; change points
  profdiff help TOPIC                 more: flags, examples, rules, formats,
                                      record, history

Most used flags:
  -f, --format FORMAT   text, markdown, json, html, tui, pprof, speedscope,
                        folded (profdiff help formats)
  -o, --output FILE     write the report to FILE
  -n, --top N           rows per table (0 for all)
      --sourcemaps DIR  map bundled frames back through the maps in DIR
      --fail-on RULE    exit 1 when a real change breaks RULE, e.g.
                        'on-cpu>+5%' (profdiff help rules)

Examples:
  # Rank one profile; compare two folders of runs
  profdiff profile.cpuprofile
  profdiff runs-before/ runs-after/

  # The source lines of one function, each with its time before and after
  profdiff --source '^match$' before.cpuprofile after.cpuprofile

  # A page with the flame graph and tables, to open in a browser
  profdiff --format html -o report.html runs-before/ runs-after/

  # Run two checkouts in turns, profile each run, compare
  profdiff record --cmd 'node main.js' --before-dir old --after-dir new \
      --out recording

  # Keep each commit's runs; find the commits where the time changed
  profdiff history add --store perf-history --commit 358ed35 runs-before/
  profdiff history perf-history

All flags: profdiff help flags (or --help-all). Exit status: 0 success,
1 a --fail-on rule broke (the report is written first), 2 bad usage or
unreadable input.
`

// helpTopic is a topic of profdiff help TOPIC.
type helpTopic struct {
	name, about string
	write       func(w io.Writer, fs *pflag.FlagSet)
}

// helpTopics are what profdiff help TOPIC shows, in the order listed.
func helpTopics() []helpTopic {
	return []helpTopic{
		{"flags", "every flag of the comparison", func(w io.Writer, fs *pflag.FlagSet) {
			fmt.Fprint(w, "Flags of profdiff [flags] PROFILE... (record and history: profdiff help record,\nprofdiff help history):\n\n")
			writeFlags(w, fs)
		}},
		{"examples", "more worked examples", func(w io.Writer, _ *pflag.FlagSet) { fmt.Fprint(w, strings.TrimPrefix(usageExamples, "\n")) }},
		{"rules", "the --fail-on rules", func(w io.Writer, _ *pflag.FlagSet) { fmt.Fprint(w, strings.TrimPrefix(usageRules, "\n")) }},
		{"formats", "the formats read and written; stalls", func(w io.Writer, fs *pflag.FlagSet) {
			fmt.Fprint(w, usageFormats)
			writeFlags(w, only(fs, "format"))
		}},
		{"record", "profdiff record", func(w io.Writer, _ *pflag.FlagSet) { runRecord([]string{"--help"}, nil, w, io.Discard) }},
		{"history", "profdiff history", func(w io.Writer, _ *pflag.FlagSet) { runHistory([]string{"--help"}, nil, w, io.Discard) }},
	}
}

// usageFormats is profdiff help formats.
const usageFormats = `Input: V8 .cpuprofile files (Node --cpu-prof, Chrome DevTools, CDP
Profiler.stop), Chrome Performance-panel traces, pprof files (Go,
@datadog/pprof) and folded stacks ("frame;frame;... count" lines, from perf
via stackcollapse, async-profiler, py-spy, rbspy), gzipped or not; the
format is detected from the content. (idle) and (program) are left out of
on-CPU time; garbage collection is kept and shown as the package (gc).

Stalls (profiles with sample times: V8, Chrome traces; not pprof or
folded): a busy stretch is a run of samples with no (idle) sample, however
late the samples came; (program) counts as busy (V8's own work on the
thread), and a stretch runs from the (idle) sample before it to the one
after it. The report gives the longest stretch, stretches over 16 and 50 ms
and blocking time (each stretch's length beyond 50 ms), each end known to
within one sampling interval, and what ran in the longest. In a Chrome
trace the stretches are the thread's tasks as the browser recorded them
(RunTask), exact.

Output:
`

// runHelp is profdiff help [TOPIC].
func runHelp(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet(&options{})
	if len(args) == 0 {
		fmt.Fprint(stdout, usageShort)
		fmt.Fprint(stdout, "\nTopics (profdiff help TOPIC):\n")
		for _, t := range helpTopics() {
			fmt.Fprintf(stdout, "  %-10s %s\n", t.name, t.about)
		}
		return exitOK
	}
	for _, t := range helpTopics() {
		if t.name == args[0] {
			t.write(stdout, fs)
			return exitOK
		}
	}
	var names []string
	for _, t := range helpTopics() {
		names = append(names, t.name)
	}
	return usageError(stderr, "help %q: no such topic; the topics are %s", args[0], strings.Join(names, ", "))
}

// helpAll is --help-all: the whole reference in one text.
func helpAll(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprint(w, usageHead)
	writeFlags(w, fs)
	fmt.Fprint(w, usageRules+usageExamples)
}

// only is a flag set of fs's flags named.
func only(fs *pflag.FlagSet, names ...string) *pflag.FlagSet {
	o := pflag.NewFlagSet("", pflag.ContinueOnError)
	o.SortFlags = false
	for _, n := range names {
		if f := fs.Lookup(n); f != nil {
			o.AddFlag(f)
		}
	}
	return o
}

// writeFlags lists a flag set's flags, each on a line of its own with its
// value's name and default, and its description below it, wrapped to
// helpWidth columns.
func writeFlags(w io.Writer, fs *pflag.FlagSet) {
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		name, usage := pflag.UnquoteUsage(f)
		head := "      --" + f.Name
		if f.Shorthand != "" {
			head = "  -" + f.Shorthand + ", --" + f.Name
		}
		if name != "" && f.NoOptDefVal == "" {
			head += " " + name
		}
		if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "[]" && f.NoOptDefVal == "" {
			if f.Value.Type() == "string" {
				d = fmt.Sprintf("%q", d)
			}
			usage += " (default " + d + ")"
		}
		fmt.Fprintln(w, head)
		for _, l := range wrap(usage, helpWidth-8) {
			fmt.Fprintln(w, "        "+l)
		}
	})
}

// wrap breaks text into lines of at most width columns at spaces (a word
// longer than width stays whole on its line).
func wrap(text string, width int) []string {
	var lines []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			switch {
			case line == "":
				line = word
			case len([]rune(line))+1+len([]rune(word)) <= width:
				line += " " + word
			default:
				lines = append(lines, line)
				line = word
			}
		}
		lines = append(lines, line)
	}
	return slices.DeleteFunc(lines, func(l string) bool { return l == "" })
}
