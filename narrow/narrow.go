// Package narrow narrows a profile to the question asked, before it is
// aggregated, so that every output answers the same narrowed question:
// sample filters with pprof's names and meanings (focus, ignore, hide,
// show, show-from, prune-from), a time window, and trimming of idle time
// at the ends. It works on a profile after symbolication and package
// attribution, so that patterns match original names and packages.
package narrow

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/profdiff/profdiff/analyze"
)

// Filters is what narrows a profile. Regular expressions match a frame's
// function name, its package, its file, or "file:line".
type Filters struct {
	// Focus keeps only samples with a matching frame on the stack.
	Focus *regexp.Regexp
	// Ignore drops samples with a matching frame on the stack.
	Ignore *regexp.Regexp
	// Hide removes matching frames from stacks: their time goes to their
	// caller.
	Hide *regexp.Regexp
	// Show keeps only matching frames (hides the others).
	Show *regexp.Regexp
	// ShowFrom cuts each stack above its first (outermost) matching
	// frame, which becomes a root; samples without one are dropped.
	ShowFrom *regexp.Regexp
	// PruneFrom cuts stacks below their lowest matching frame, whose
	// subtree's time becomes its own (pprof's PruneFrom).
	PruneFrom *regexp.Regexp
	// Window keeps the samples taken in [From, To) nanoseconds from the
	// start of the profile; nil for none.
	Window *Window
	// WindowMarks keeps, in a Chrome trace, the samples taken between two
	// User Timing marks or measures, found in each run; nil for none. Not
	// with Window.
	WindowMarks *MarkWindow
	// TrimIdle drops the leading and trailing samples where the thread
	// was off the CPU (idle, or V8's (program)).
	TrimIdle bool
	// Then are filters applied after these, in order, each narrowing what
	// the ones before left (the explorer's f, i and x keys add them).
	Then []*Filters
}

// Window is a time range from the start of a run, in nanoseconds; To < 0
// means to the end.
type Window struct{ From, To int64 }

// Active reports whether any filter is set.
func (f *Filters) Active() bool {
	return f.Focus != nil || f.Ignore != nil || f.Hide != nil || f.Show != nil || f.ShowFrom != nil || f.PruneFrom != nil || f.Window != nil || f.WindowMarks != nil || f.TrimIdle || len(f.Then) > 0
}

// Describe lists the filters as flags, in the order they apply.
func (f *Filters) Describe() []string {
	var out []string
	add := func(flag string, re *regexp.Regexp) {
		if re != nil {
			out = append(out, fmt.Sprintf("--%s %s", flag, re.String()))
		}
	}
	if f.Window != nil {
		out = append(out, "--window "+f.Window.String())
	}
	if f.WindowMarks != nil {
		out = append(out, "--window-marks "+f.WindowMarks.String())
	}
	if f.TrimIdle {
		out = append(out, "--trim-idle")
	}
	add("focus", f.Focus)
	add("ignore", f.Ignore)
	add("hide", f.Hide)
	add("show", f.Show)
	add("show-from", f.ShowFrom)
	add("prune-from", f.PruneFrom)
	for _, t := range f.Then {
		out = append(out, t.Describe()...)
	}
	return out
}

// String writes a window as FROM..TO.
func (w Window) String() string {
	to := ""
	if w.To >= 0 {
		to = fmtDuration(w.To)
	}
	from := ""
	if w.From > 0 {
		from = fmtDuration(w.From)
	}
	return from + ".." + to
}

func fmtDuration(ns int64) string {
	switch {
	case ns%1e9 == 0:
		return strconv.FormatInt(ns/1e9, 10) + "s"
	case ns%1e6 == 0:
		return strconv.FormatInt(ns/1e6, 10) + "ms"
	}
	return strconv.FormatFloat(float64(ns)/1e6, 'f', -1, 64) + "ms"
}

// ParseWindow reads FROM..TO: each a number with a unit (s, ms, us; a bare
// number is seconds), either end open ("..30s", "500ms..").
func ParseWindow(s string) (*Window, error) {
	from, to, ok := strings.Cut(s, "..")
	if !ok {
		return nil, errors.New("expected FROM..TO, such as 2s..12s, ..30s or 500ms..")
	}
	w := &Window{To: -1}
	var err error
	if from != "" {
		if w.From, err = parseTime(from); err != nil {
			return nil, err
		}
	}
	if to != "" {
		if w.To, err = parseTime(to); err != nil {
			return nil, err
		}
		if w.To <= w.From {
			return nil, fmt.Errorf("%s..%s is empty: TO must come after FROM", from, to)
		}
	}
	return w, nil
}

func parseTime(s string) (int64, error) {
	unit := 1e9
	num := s
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"ms", 1e6}, {"us", 1e3}, {"µs", 1e3}, {"ns", 1}, {"s", 1e9}} {
		if strings.HasSuffix(s, u.suffix) {
			unit, num = u.mult, strings.TrimSuffix(s, u.suffix)
			break
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || v < 0 || v*unit > 1e18 {
		return 0, fmt.Errorf("%q is not a time such as 2s, 500ms or 1.5", s)
	}
	return int64(v * unit), nil
}

// matcher decides, per frame, whether a pattern matches it.
type matcher struct {
	p   *analyze.Profile
	re  *regexp.Regexp
	hit []int8 // per frame: 0 unknown, 1 no, 2 yes
}

func newMatcher(p *analyze.Profile, re *regexp.Regexp) *matcher {
	if re == nil {
		return nil
	}
	return &matcher{p: p, re: re, hit: make([]int8, len(p.Frames))}
}

// node reports whether node n's frame matches; pkg is the package its time
// goes to (a regular expression's is its caller's).
func (m *matcher) node(n int32, pkg string) bool {
	fi := m.p.Nodes[n].Frame
	f := &m.p.Frames[fi]
	if f.Kind == analyze.KindRoot {
		return false
	}
	if f.Kind.InheritsPackage() {
		// Its package depends on the caller: not cached.
		return m.re.MatchString(f.Name) || m.re.MatchString(pkg) || m.matchFile(f)
	}
	if m.hit[fi] == 0 {
		m.hit[fi] = 1
		if m.re.MatchString(f.Name) || m.re.MatchString(f.Package) || m.matchFile(f) {
			m.hit[fi] = 2
		}
	}
	return m.hit[fi] == 2
}

func (m *matcher) matchFile(f *analyze.Frame) bool {
	if f.File == "" {
		return false
	}
	return m.re.MatchString(f.File) || m.re.MatchString(f.File+":"+strconv.Itoa(int(f.Line)))
}

// Apply narrows p in place. It returns an error for a window on a profile
// that records no sample times.
func (f *Filters) Apply(p *analyze.Profile) error {
	if !f.Active() {
		return nil
	}
	if f.WindowMarks != nil {
		// The marks fall at other times in each run: resolve them here,
		// on a copy, since the filters are shared between runs.
		w, err := f.WindowMarks.Resolve(p)
		if err != nil {
			return &FilterError{Filter: "WindowMarks", Err: err}
		}
		g := *f
		g.WindowMarks, g.Window = nil, &w
		return g.Apply(p)
	}
	if (f.Window != nil || f.TrimIdle) && !p.HasTimestamps {
		filter := "Window"
		if f.Window == nil {
			filter = "TrimIdle"
		}
		return &FilterError{Filter: filter, Err: fmt.Errorf("%s records no sample times, so it cannot be narrowed by time", p.Format.Describe())}
	}
	keep := make([]bool, len(p.Samples))
	for i := range keep {
		keep[i] = true
	}
	if f.Window != nil {
		f.window(p, keep)
	}
	if f.TrimIdle {
		trimIdle(p, keep)
	}
	if f.Focus != nil || f.Ignore != nil || f.Hide != nil || f.Show != nil || f.ShowFrom != nil || f.PruneFrom != nil {
		f.restack(p, keep)
	}
	n := len(p.Samples)
	out := p.Samples[:0]
	for i, s := range p.Samples {
		if keep[i] && s.Node >= 0 {
			out = append(out, s)
		}
	}
	p.Samples = out
	if n > 0 {
		// The samples taken (pprof counts several a sample) in proportion.
		p.SampleCount = p.SampleCount * int64(len(out)) / int64(n)
	}
	for _, t := range f.Then {
		if err := t.Apply(p); err != nil {
			return err
		}
	}
	return nil
}

// window keeps the samples in the window and sets the wall time to the
// window's span within the run.
func (f *Filters) window(p *analyze.Profile, keep []bool) {
	w := *f.Window
	end := p.WallNs
	if n := len(p.Samples); n > 0 && p.Samples[n-1].Time > end {
		end = p.Samples[n-1].Time
	}
	to := w.To
	if to < 0 || to > end {
		to = end
	}
	for i, s := range p.Samples {
		if s.Time < w.From || (w.To >= 0 && s.Time >= w.To) {
			keep[i] = false
		}
	}
	p.WallNs = max(to-w.From, 0)
}

// trimIdle drops the samples off the CPU ((idle), and V8's (program))
// before the first and after the last busy one, and sets the wall time to
// the busy span.
func trimIdle(p *analyze.Profile, keep []bool) {
	busy := func(i int) bool {
		return keep[i] && p.Frames[p.Nodes[p.Samples[i].Node].Frame].Kind.OnCPU()
	}
	first, last := -1, -1
	for i := range p.Samples {
		if busy(i) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	for i := range p.Samples {
		if i < first || i > last || first < 0 {
			keep[i] = false
		}
	}
	if first >= 0 {
		p.WallNs = p.Samples[last].Time - p.Samples[first].Time + p.Samples[last].Weight
	} else {
		p.WallNs = 0
	}
}

// restack applies the stack filters: it builds a new call tree from the
// old one in one pass over the nodes (parents come before children in the
// walk), maps each sample to its new node or drops it, and keeps line
// ticks where a node's own frame stays its leaf.
func (f *Filters) restack(p *analyze.Profile, keep []bool) {
	r := &restacker{p: p, focus: newMatcher(p, f.Focus), ignore: newMatcher(p, f.Ignore),
		hide: newMatcher(p, f.Hide), show: newMatcher(p, f.Show), from: newMatcher(p, f.ShowFrom),
		st: make([]nodeState, len(p.Nodes)), same: make([]bool, len(p.Nodes)), children: map[[2]int32]int32{}}
	order := p.WalkOrder() // nil when the nodes are in walk order already
	for i := range p.Nodes {
		n := int32(i)
		if order != nil {
			n = order[i]
		}
		if p.Nodes[n].Parent < 0 {
			r.root(n)
		} else {
			r.under(n)
		}
	}
	lowest := r.pruneFrom(f.PruneFrom)
	moved := func(n int32) int32 {
		if lowest != nil && lowest[n] >= 0 {
			return lowest[n]
		}
		return n
	}
	for i, smp := range p.Samples {
		s := r.st[smp.Node]
		switch {
		case r.focus != nil && !s.focused, r.ignore != nil && s.ignored, s.newNode < 0:
			keep[i] = false
		default:
			p.Samples[i].Node = moved(s.newNode)
		}
	}
	var ticks []analyze.LineTick
	for _, lt := range p.LineTicks {
		if s := r.st[lt.Node]; r.same[lt.Node] && s.newNode >= 0 && moved(s.newNode) == s.newNode {
			lt.Node = s.newNode
			ticks = append(ticks, lt)
		}
	}
	p.LineTicks = ticks
	p.Nodes = r.nodes
}

// restacker builds the call tree that the stack filters leave.
type restacker struct {
	p                               *analyze.Profile
	focus, ignore, hide, show, from *matcher
	st                              []nodeState // per old node
	same                            []bool      // the old node's frame is its new node's frame
	nodes                           []analyze.Node
	children                        map[[2]int32]int32 // (new parent, frame) -> new node
}

// nodeState is what the walk knows of an old node.
type nodeState struct {
	newNode int32  // the node's node in the new tree; -1: none (dropped)
	pkg     string // the package its time goes to
	focused bool   // a focus match on the path
	ignored bool   // an ignore match on the path
	started bool   // show-from: a match at or above
}

// child returns the new tree's node for frame under parent, making it.
func (r *restacker) child(parent, frame int32) int32 {
	k := [2]int32{parent, frame}
	if c, ok := r.children[k]; ok {
		return c
	}
	c := int32(len(r.nodes))
	r.children[k] = c
	r.nodes = append(r.nodes, analyze.Node{Frame: frame, Parent: parent})
	return c
}

// root places an old root: it stays a root (V8's "(root)"; Go's outermost
// frames) unless a filter drops it.
func (r *restacker) root(n int32) {
	nd := r.p.Nodes[n]
	fr := &r.p.Frames[nd.Frame]
	s := nodeState{newNode: r.child(-1, nd.Frame), pkg: fr.Package}
	if fr.Kind != analyze.KindRoot {
		s.focused = r.focus != nil && r.focus.node(n, fr.Package)
		s.ignored = r.ignore != nil && r.ignore.node(n, fr.Package)
		s.started = r.from != nil && r.from.node(n, fr.Package)
		if r.from != nil && !s.started {
			s.newNode = -1
		}
		if !marker(fr.Kind) && (r.hide != nil && r.hide.node(n, fr.Package) || r.show != nil && !r.show.node(n, fr.Package)) {
			s.newNode = -1
		}
	}
	r.st[n] = s
	r.same[n] = s.newNode >= 0
}

// under places an old node below its parent, already placed: re-rooted at
// the first show-from match, folded into its caller when hidden, or a
// child of its caller's new node.
func (r *restacker) under(n int32) {
	nd := r.p.Nodes[n]
	fr := &r.p.Frames[nd.Frame]
	ps := r.st[nd.Parent]
	s := ps
	if !fr.Kind.InheritsPackage() && fr.Package != "" {
		s.pkg = fr.Package
	}
	if r.focus != nil && !s.focused && r.focus.node(n, s.pkg) {
		s.focused = true
	}
	if r.ignore != nil && !s.ignored && r.ignore.node(n, s.pkg) {
		s.ignored = true
	}
	visible := marker(fr.Kind) || !(r.hide != nil && r.hide.node(n, s.pkg)) && !(r.show != nil && !r.show.node(n, s.pkg))
	startsHere := r.from != nil && !ps.started && r.from.node(n, s.pkg)
	switch {
	case r.from != nil && !ps.started && !startsHere:
		s.newNode = -1 // above the first show-from match
	case startsHere:
		s.started = true
		s.newNode = r.child(-1, nd.Frame) // re-rooted
		r.same[n] = true
	case !visible:
		s.newNode = ps.newNode // hidden: its time goes to its caller
	case ps.newNode < 0:
		s.newNode = r.child(-1, nd.Frame) // the callers are all hidden
		r.same[n] = true
	default:
		s.newNode = r.child(ps.newNode, nd.Frame)
		r.same[n] = true
	}
	r.st[n] = s
}

// pruneFrom returns, for prune-from, each new node's lowest matching frame
// at or above it, where its samples go (the frames below are cut), -1 for
// none; nil without the filter.
func (r *restacker) pruneFrom(re *regexp.Regexp) []int32 {
	if re == nil {
		return nil
	}
	pm := newMatcher(&analyze.Profile{Frames: r.p.Frames, Nodes: r.nodes}, re)
	lowest := make([]int32, len(r.nodes))
	pkg := make([]string, len(r.nodes)) // the package a node's time goes to
	for i, nd := range r.nodes {        // parents were made before their children
		lowest[i] = -1
		fr := &r.p.Frames[nd.Frame]
		pkg[i] = fr.Package
		if nd.Parent >= 0 {
			lowest[i] = lowest[nd.Parent]
			if fr.Kind.InheritsPackage() || fr.Package == "" {
				pkg[i] = pkg[nd.Parent]
			}
		}
		if !marker(fr.Kind) && pm.node(int32(i), pkg[i]) {
			lowest[i] = int32(i)
		}
	}
	return lowest
}

// marker reports whether frames of a kind are the profiler's marks rather
// than the program's code: (root), (idle), (program) and (garbage
// collector). The filters that edit stacks (hide, show, prune-from) leave
// them in place, whatever they match, since a sample's leaf says whether
// it is on-CPU: --hide '\(.*\)', the natural way to hide (anonymous),
// would otherwise fold (idle) into its caller and count idle time as
// on-CPU. Focus and ignore still match them (--focus '\(garbage' keeps
// the collections).
func marker(k analyze.FrameKind) bool {
	switch k {
	case analyze.KindRoot, analyze.KindIdle, analyze.KindProgram, analyze.KindGC:
		return true
	}
	return false
}

// FilterError is a filter that cannot apply to a profile: which (the name
// of its field of Filters, such as "WindowMarks") and why.
type FilterError struct {
	Filter string
	Err    error
}

// Error returns why the filter does not apply.
func (e *FilterError) Error() string { return e.Err.Error() }

// Unwrap returns why the filter does not apply.
func (e *FilterError) Unwrap() error { return e.Err }
