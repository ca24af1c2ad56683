package main

import (
	"errors"
	"fmt"
	"regexp"

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
