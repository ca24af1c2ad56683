package narrow

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/profdiff/profdiff/analyze"
)

// MarkWindow names the User Timing marks or measures of a Chrome trace a
// window runs between: from From's start to To's end. With To "", the
// window is the measure From itself.
type MarkWindow struct {
	From, To string

	mu   sync.Mutex
	used []usedWindow // the window found in each run, for the report
}

type usedWindow struct {
	file string
	w    Window
}

// ParseMarkWindow reads A..B (two marks or measures) or M (one measure).
func ParseMarkWindow(s string) (*MarkWindow, error) {
	from, to, ok := strings.Cut(s, "..")
	if from == "" || (ok && to == "") {
		return nil, fmt.Errorf("%q: give two User Timing marks as A..B, or one measure", s)
	}
	return &MarkWindow{From: from, To: to}, nil
}

// String writes the window as it is given.
func (mw *MarkWindow) String() string {
	if mw.To == "" {
		return mw.From
	}
	return mw.From + ".." + mw.To
}

// Resolve finds the window in p's marks: from the first mark or measure
// named From to the end of the first named To that ends after it starts.
// The error says what is missing.
func (mw *MarkWindow) Resolve(p *analyze.Profile) (Window, error) {
	if p.Format != analyze.FormatTrace {
		return Window{}, fmt.Errorf("%s records no User Timing marks; they are read from Chrome traces", p.Format.Describe())
	}
	find := func(name string, after int64) (analyze.Mark, bool) {
		for _, m := range p.Marks {
			if m.Name == name && m.End >= after {
				return m, true
			}
		}
		return analyze.Mark{}, false
	}
	missing := func(name string) error {
		var names []string
		for _, m := range p.Marks {
			if !slices.Contains(names, m.Name) && len(names) < 16 {
				names = append(names, m.Name)
			}
		}
		has := "it has none"
		if len(names) > 0 {
			has = "it has " + strings.Join(names, ", ")
		}
		return fmt.Errorf("no User Timing mark or measure %q in the profiled thread's process (%s)", name, has)
	}
	a, ok := find(mw.From, math.MinInt64)
	if !ok {
		return Window{}, missing(mw.From)
	}
	w := Window{From: a.Start, To: a.End}
	if mw.To != "" {
		b, ok := find(mw.To, a.Start)
		if _, any := find(mw.To, math.MinInt64); !ok && any {
			return Window{}, fmt.Errorf("the window %s is empty: %s comes before %s", mw.String(), mw.To, mw.From)
		}
		if !ok {
			return Window{}, missing(mw.To)
		}
		w.To = b.End
	}
	if w.To <= w.From {
		return Window{}, fmt.Errorf("the window %s is empty (%s..%s from the profile's start)", mw.String(), fmtDuration(w.From), fmtDuration(w.To))
	}
	if w.To <= 0 {
		return Window{}, fmt.Errorf("%s ends before the profile starts", mw.String())
	}
	w.From = max(w.From, 0)
	mw.mu.Lock()
	mw.used = append(mw.used, usedWindow{p.File, w})
	mw.mu.Unlock()
	return w, nil
}

// Used lists the window found in each run resolved so far, by file name:
// "(FILE: FROM..TO)", from the run's start.
func (mw *MarkWindow) Used() []string {
	mw.mu.Lock()
	defer mw.mu.Unlock()
	var out []string
	for _, u := range mw.used {
		out = append(out, fmt.Sprintf("(%s: %s)", filepath.Base(u.file), u.w))
	}
	slices.Sort(out)
	return out
}
