package main

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/profdiff/profdiff/narrow"
)

// narrowFilters compiles the narrowing flags; errors name the flag.
func narrowFilters(o options) (*narrow.Filters, error) {
	f := &narrow.Filters{TrimIdle: o.trimIdle}
	for _, p := range []struct {
		flag, re string
		dst      **regexp.Regexp
	}{{"focus", o.focus, &f.Focus}, {"ignore", o.ignore, &f.Ignore}, {"hide", o.hide, &f.Hide},
		{"show", o.show, &f.Show}, {"show-from", o.showFrom, &f.ShowFrom}, {"prune-from", o.pruneFrom, &f.PruneFrom}} {
		if p.re == "" {
			continue
		}
		re, err := regexp.Compile(p.re)
		if err != nil {
			return nil, fmt.Errorf("--%s %q: %v", p.flag, p.re, err)
		}
		*p.dst = re
	}
	if o.window != "" {
		w, err := narrow.ParseWindow(o.window)
		if err != nil {
			return nil, fmt.Errorf("--window %q: %v", o.window, err)
		}
		f.Window = w
	}
	if o.windowMarks != "" {
		if o.window != "" {
			return nil, fmt.Errorf("--window-marks and --window: give one window")
		}
		mw, err := narrow.ParseMarkWindow(o.windowMarks)
		if err != nil {
			return nil, fmt.Errorf("--window-marks: %v", err)
		}
		f.WindowMarks = mw
	}
	return f, nil
}

// explorerFilters turns the explorer's narrowing flags ("--focus", "RE",
// ...) into filters applied one after another.
func explorerFilters(flags []string) ([]*narrow.Filters, error) {
	var out []*narrow.Filters
	for i := 0; i+1 < len(flags); i += 2 {
		re, err := regexp.Compile(flags[i+1])
		if err != nil {
			return nil, fmt.Errorf("%s %q: %v", flags[i], flags[i+1], err)
		}
		f := &narrow.Filters{}
		switch flags[i] {
		case "--focus":
			f.Focus = re
		case "--ignore":
			f.Ignore = re
		case "--hide":
			f.Hide = re
		default:
			return nil, fmt.Errorf("%s: the explorer narrows by --focus, --ignore and --hide", flags[i])
		}
		out = append(out, f)
	}
	return out, nil
}

// filterFlag names the flag of the filter that err says does not apply.
func filterFlag(err error) error {
	var fe *narrow.FilterError
	if !errors.As(err, &fe) {
		return err
	}
	flag := map[string]string{"Window": "--window", "WindowMarks": "--window-marks", "TrimIdle": "--trim-idle"}[fe.Filter]
	if flag == "" {
		return err
	}
	return fmt.Errorf("%s: %w", flag, err)
}

// phase is a --phase: a name and the window of every run it judges.
type phase struct {
	name, spec string
	window     *narrow.Window
	marks      *narrow.MarkWindow
}

// parsePhases reads the --phase values: NAME=FROM..TO, a window in time as
// --window takes it, or NAME=A..B (or NAME=M), User Timing marks or a
// measure as --window-marks takes them.
func parsePhases(o options) ([]phase, error) {
	if len(o.phases) > 0 && (o.window != "" || o.windowMarks != "") {
		return nil, errors.New("--phase and --window or --window-marks: phases are windows of the whole run; give one or the other")
	}
	if len(o.phases) > 0 && !needsOf(o.format, false).whole {
		return nil, fmt.Errorf("--phase is shown by --format text, markdown and json, not %s", o.format)
	}
	var out []phase
	for _, v := range o.phases {
		name, spec, ok := strings.Cut(v, "=")
		if !ok || name == "" || spec == "" {
			return nil, fmt.Errorf("--phase %q: give NAME=FROM..TO (times, as --window) or NAME=A..B (User Timing marks)", v)
		}
		for _, p := range out {
			if p.name == name {
				return nil, fmt.Errorf("--phase %s is given twice", name)
			}
		}
		ph := phase{name: name, spec: spec}
		w, err := narrow.ParseWindow(spec)
		switch {
		case err == nil:
			ph.window = w
		case looksLikeTimes(spec):
			return nil, fmt.Errorf("--phase %s=%s: %v", name, spec, err)
		default:
			if ph.marks, err = narrow.ParseMarkWindow(spec); err != nil {
				return nil, fmt.Errorf("--phase %s: %v", name, err)
			}
		}
		out = append(out, ph)
	}
	return out, nil
}

// looksLikeTimes reports whether a window's ends are numbers (2s..1s),
// not marks, so that its error is the window's.
func looksLikeTimes(spec string) bool {
	from, to, _ := strings.Cut(spec, "..")
	isTime := func(s string) bool { return s == "" || (s[0] >= '0' && s[0] <= '9') || s[0] == '.' }
	return isTime(from) && isTime(to)
}

// filters returns the command's filters narrowed to the phase.
func (p phase) filters(all *narrow.Filters) *narrow.Filters {
	f := *all
	f.Window, f.WindowMarks = p.window, nil
	if p.marks != nil {
		f.WindowMarks = &narrow.MarkWindow{From: p.marks.From, To: p.marks.To} // its own record of the windows used
	}
	return &f
}
