package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/profdiff/profdiff/record"
)

// environment is the process's view of the world: its variables and its
// standard output and error.
type environment struct {
	getenv         func(string) string
	stdout, stderr io.Writer
}

// input returns the action input NAME, passed by action.yml as INPUT_NAME
// (upper case, dashes as underscores), trimmed.
func (e environment) input(name string) string {
	return strings.TrimSpace(e.getenv("INPUT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))))
}

// lines splits a multi-line input into its non-empty, trimmed lines.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// namePattern is what a comment's NAME may hold, so that the marker
// <!-- profdiff: NAME --> can neither close early nor match another's.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// config are the inputs of a comparison, checked.
type config struct {
	bin, dir, name, comment string
	summary, html           bool
	// runs is the runs a side the workflow makes (the runs input), 0
	// when not given: the comment then says how to ask for more.
	runs int
	args []string // profdiff's arguments after the output flags; nil without base profiles
	// storeArgs are profdiff's arguments for a base taken from the
	// history (--base-store): the head's flags and profiles only.
	storeArgs []string
}

// config reads and checks the inputs.
func (e environment) config() (config, error) {
	c, err := e.settings()
	if err != nil {
		return c, err
	}
	// With a history branch, a pull request's base may come from its
	// record, and the base profiles may be left out.
	before, err := side("before", e.input("before"))
	if err != nil && (e.input("before") != "" || e.input("history-branch") == "") {
		return c, err
	}
	after, err := side("after", e.input("after"))
	if err != nil {
		return c, err
	}
	if err := e.flagArgs(&c); err != nil {
		return c, err
	}
	c.storeArgs = append(c.storeArgs, "--")
	c.storeArgs = append(c.storeArgs, after...) // every argument is a run of the head
	if len(before) == 0 {
		c.args = nil
		return c, nil
	}
	if len(before) == 1 && len(after) == 1 {
		c.args = append(c.args, "--", before[0], after[0])
	} else {
		for _, f := range before {
			c.args = append(c.args, "--before", f)
		}
		for _, f := range after {
			c.args = append(c.args, "--after", f)
		}
	}
	return c, nil
}

// settings reads the inputs about the step itself: the binary, the name,
// when to comment, the summary and page, and the folder it works in.
func (e environment) settings() (config, error) {
	c := config{bin: e.getenv("PROFDIFF"), name: e.input("name"), comment: e.input("comment")}
	if c.bin == "" {
		c.bin = "profdiff"
	}
	if c.name == "" {
		c.name = "default"
	}
	if !namePattern.MatchString(c.name) {
		return c, fmt.Errorf("name %q: use letters, digits, '.', '_' and '-' (at most 64)", c.name)
	}
	switch c.comment {
	case "":
		c.comment = "always"
	case "always", "on-change", "never":
	default:
		return c, fmt.Errorf("comment %q: choose always, on-change or never", c.comment)
	}
	var err error
	if c.summary, err = boolInput("summary", e.input("summary"), true); err != nil {
		return c, err
	}
	if c.html, err = boolInput("html", e.input("html"), false); err != nil {
		return c, err
	}
	if v := e.input("runs"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			return c, fmt.Errorf("runs %q: give the number of runs a side the workflow makes, 1 to 1000", v)
		}
		c.runs = n
	}
	tmp := e.getenv("RUNNER_TEMP")
	if tmp == "" {
		tmp = os.TempDir()
	}
	c.dir = filepath.Join(tmp, "profdiff-"+c.name)
	return c, nil
}

// flagArgs turns the inputs that are profdiff flags (work, maps, rules,
// args) into the comparison's arguments and a history record's.
func (e environment) flagArgs(c *config) error {
	for _, f := range []struct{ input, flag string }{{"work", "--work"}, {"work-before", "--work-before"}, {"work-after", "--work-after"}, {"work-unit", "--work-unit"}} {
		if v := e.input(f.input); v != "" {
			c.args = append(c.args, f.flag, v)
		}
	}
	// A record keeps the base's work: the head's is --work.
	if w := cmp.Or(e.input("work-after"), e.input("work")); w != "" {
		c.storeArgs = append(c.storeArgs, "--work", w)
	}
	if u := e.input("work-unit"); u != "" {
		c.storeArgs = append(c.storeArgs, "--work-unit", u)
	}
	for _, f := range []struct{ input, flag string }{{"sourcemaps-before", "--sourcemaps-before"}, {"sourcemaps-after", "--sourcemaps-after"}, {"fail-on", "--fail-on"}} {
		for _, v := range lines(e.input(f.input)) {
			c.args = append(c.args, f.flag, v)
			if f.input != "sourcemaps-before" { // a record's names were mapped when it was made
				c.storeArgs = append(c.storeArgs, f.flag, v)
			}
		}
	}
	extra, err := splitArgs(e.input("args"))
	if err != nil {
		return fmt.Errorf("args: %v", err)
	}
	c.args = append(c.args, extra...)
	c.storeArgs = append(c.storeArgs, extra...)
	return nil
}

// boolInput reads a true/false input.
func boolInput(name, v string, def bool) (bool, error) {
	switch strings.ToLower(v) {
	case "":
		return def, nil
	case "true", "yes", "1":
		return true, nil
	case "false", "no", "0":
		return false, nil
	}
	return false, fmt.Errorf("%s %q: give true or false", name, v)
}

// queryPrefixes begin a side that is a profiling server's query, as
// profdiff's fleet.IsURI knows them.
var queryPrefixes = []string{"parca+http://", "parca+https://", "pyroscope+http://", "pyroscope+https://"}

// isQuery reports whether a side's line is a server query.
func isQuery(l string) bool {
	return slices.ContainsFunc(queryPrefixes, func(p string) bool { return strings.HasPrefix(l, p) })
}

// side expands one side's input: lines of files, directories or globs. A
// single directory or file is passed as is (profdiff lists a directory's
// runs); several entries must be files, and a directory among them is
// expanded to its files. A profiling server's query (parca+http://...,
// pyroscope+http://...) is passed as is, and alone: its "?" is no glob.
func side(name, in string) ([]string, error) {
	var out []string
	for _, l := range lines(in) {
		if isQuery(l) {
			if len(lines(in)) != 1 {
				return nil, fmt.Errorf("%s: a server query is the side's one line (its runs come from --replicate-by or --windows in args)", name)
			}
			return []string{l}, nil
		}
		if !strings.ContainsAny(l, "*?[") {
			out = append(out, l)
			continue
		}
		m, err := filepath.Glob(l)
		if err != nil {
			return nil, fmt.Errorf("%s: %q: %v", name, l, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("%s: %q matches no file", name, l)
		}
		out = append(out, m...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: give the profiles of this side (files, a directory of runs, or globs)", name)
	}
	if len(out) == 1 {
		return out, nil
	}
	var files []string
	for _, p := range out {
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() {
			files = append(files, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		for _, en := range entries {
			if !en.IsDir() && !strings.HasPrefix(en.Name(), ".") {
				files = append(files, filepath.Join(p, en.Name()))
			}
		}
	}
	return files, nil
}

// splitArgs splits the args input into words as record.Split does (the
// rule profdiff record follows for its commands): plain words and quotes,
// and nothing else, so "$(touch x)" is one argument, not a command. An
// empty input is no arguments.
func splitArgs(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	return record.Split(s)
}
