package analyze

import (
	"cmp"
	"slices"
)

// Stalls: the busy stretches of a sampled thread, where it did not wait for
// work (a UI thread that drew no frame, an event loop that served no other
// callback).
//
// The rule, measured against programs that time their own stalls (the
// responsiveness corpus: a Node catalog loader, before and after slicing
// its load; measurements.json there):
//
//   - A stretch is a maximal run of samples without an (idle) sample. A
//     gap between samples does not end it: V8 delivers samples late
//     exactly when the thread is busy (garbage collection, a long native
//     call), with gaps of 5-20 ms inside one stall.
//   - (program) counts as busy: it is V8's own work on the thread, which
//     is not waiting. Counting it as idle instead cut one run's 432 ms
//     stall into 220 ms and 167 ms, and another's 33.8 ms stretch to
//     28.8 ms, against the program's own 432.5 ms and 33.8 ms.
//   - A stretch runs from the (idle) sample before its first busy sample
//     (or its first sample, at the start of the profile) to the (idle)
//     sample after its last busy one (or the end of the profile): the
//     thread turned busy somewhere after the idle sample, and V8's late
//     samples mean a long gap before the first busy sample was busy too.
//     The 34 MB readFileSync that began the before version's stall left a
//     20 ms gap there; starting at the first busy sample gave 417.6 ms
//     against the program's 436.9 ms, starting at the idle sample 437.1 ms.
//
// Each end of a stretch is thus known to within one sampling interval, so
// a stretch's duration overstates by at most about two intervals.

// Stall thresholds, in nanoseconds: a frame's budget at 60 Hz, and a long
// task as the browsers count it (Total Blocking Time counts a stretch's
// length beyond LongStallNs).
const (
	FrameBudgetNs = 16_000_000
	LongStallNs   = 50_000_000
)

// DefaultLongestStalls is how many of a run's longest stretches FindStalls
// describes (what ran in them, the stack they started in).
const DefaultLongestStalls = 5

// Span is a stretch of time within a profile, in nanoseconds from its start.
type Span struct {
	Start, Duration int64
}

// FunctionTime is a function's on-CPU self time within a stretch.
type FunctionTime struct {
	Key    Key
	SelfNs int64
}

// Stretch is one busy stretch of a run, with what ran in it.
type Stretch struct {
	Span
	// First and Last are the indexes in Profile.Samples of the stretch's
	// first and last busy samples.
	First, Last int32
	// Top are the functions with the most on-CPU self time in the
	// stretch, at most five, the most first (summed by function over the
	// stretch's 32 busiest frames).
	Top []FunctionTime
	// Stack is the stack of the stretch's first on-CPU sample (its first
	// sample when all are (program)), outermost first: what it started in;
	// its innermost 64 frames when deeper.
	Stack []Key
}

// Stalls are a run's busy stretches, summed up.
type Stalls struct {
	// IntervalNs is the run's mean sampling interval: the uncertainty of
	// each end of a stretch (when not FromTasks).
	IntervalNs int64
	// EndNs is when the run's last sample ended, from the profile's
	// start: with Long, what a timeline of the run spans.
	EndNs int64
	// Frames counts the animation frames a Chrome trace recorded
	// (Profile.AnimationFrames), 0 without them; FramesOver16ms those
	// longer than FrameBudgetNs.
	Frames, FramesOver16ms int
	// FromTasks says the stretches are the thread's tasks a Chrome trace
	// recorded (Profile.Tasks), exact, not runs of samples.
	FromTasks bool
	// Stretches is the number of busy stretches.
	Stretches int
	// LongestNs is the longest stretch's duration, 0 without any.
	LongestNs int64
	// Over16ms and Over50ms count the stretches longer than FrameBudgetNs
	// and LongStallNs.
	Over16ms, Over50ms int
	// BlockingNs sums the stretches' durations beyond LongStallNs (as
	// Total Blocking Time counts long tasks).
	BlockingNs int64
	// Long are the stretches longer than FrameBudgetNs, in time order,
	// for a timeline.
	Long []Span
	// Longest are the longest stretches (DefaultLongestStalls, or as
	// asked), the longest first, each with what ran in it.
	Longest []Stretch
}

// FindStalls finds p's busy stretches (its tasks, when a trace recorded
// them: see Profile.Tasks) and describes its longest (at most
// keep); nil when p records no sample times (pprof, folded stacks), from
// which stalls cannot be measured. It is one pass over the samples, plus
// one over each of the longest stretches' samples.
func FindStalls(p *Profile, keep int) *Stalls {
	if !p.HasTimestamps {
		return nil
	}
	var end int64
	if n := len(p.Samples); n > 0 {
		end = p.Samples[n-1].Time + p.Samples[n-1].Weight
	}
	if p.Tasks != nil {
		st := taskStalls(p, keep)
		st.EndNs = end
		st.countFrames(p)
		return st
	}
	st := &Stalls{IntervalNs: p.IntervalNs, EndNs: end}
	st.countFrames(p)
	var longest []Stretch // at most keep, longest first
	add := func(s Stretch) {
		st.Stretches++
		d := s.Duration
		st.LongestNs = max(st.LongestNs, d)
		if d > FrameBudgetNs {
			st.Over16ms++
			st.Long = append(st.Long, s.Span)
		}
		if d > LongStallNs {
			st.Over50ms++
			st.BlockingNs += d - LongStallNs
		}
		if keep <= 0 || (len(longest) == keep && d <= longest[keep-1].Duration) {
			return
		}
		i, _ := slices.BinarySearchFunc(longest, d, func(x Stretch, d int64) int { return cmp.Compare(d, x.Duration) })
		if len(longest) == keep {
			longest = longest[:keep-1]
		}
		longest = slices.Insert(longest, i, s)
	}
	var (
		busy     bool
		cur      Stretch
		lastIdle int64
		seenIdle bool
	)
	for i, s := range p.Samples {
		idle := p.Frames[p.Nodes[s.Node].Frame].Kind == KindIdle
		switch {
		case idle && busy:
			cur.Duration = s.Time - cur.Start
			add(cur)
			busy = false
		case !idle && !busy:
			busy = true
			cur = Stretch{Span: Span{Start: s.Time}, First: int32(i)}
			if seenIdle {
				cur.Start = lastIdle
			}
		}
		if idle {
			lastIdle, seenIdle = s.Time, true
		} else {
			cur.Last = int32(i)
		}
	}
	if busy {
		end := p.Samples[len(p.Samples)-1]
		cur.Duration = end.Time + end.Weight - cur.Start
		add(cur)
	}
	if len(longest) > 0 {
		self := make([]int64, len(p.Frames))
		for i := range longest {
			describe(p, &longest[i], self)
		}
	}
	st.Longest = longest
	return st
}

// countFrames counts p's animation frames and those over FrameBudgetNs.
func (st *Stalls) countFrames(p *Profile) {
	st.Frames = len(p.AnimationFrames)
	for _, f := range p.AnimationFrames {
		if f.Duration > FrameBudgetNs {
			st.FramesOver16ms++
		}
	}
}

// maxStallStack bounds the frames kept of the stack a stretch started in:
// the innermost ones (a compiler's recursion runs thousands deep).
const maxStallStack = 64

// describe fills in what ran in a stretch: its top functions by self time
// and the stack it started in. self is scratch space, one entry a frame,
// all zero, and left so.
func describe(p *Profile, s *Stretch, self []int64) {
	var used []int32
	for _, sm := range p.Samples[s.First : s.Last+1] {
		if !p.OnCPU(sm) {
			continue
		}
		f := p.Nodes[sm.Node].Frame
		if self[f] == 0 {
			used = append(used, f)
		}
		self[f] += sm.Weight
	}
	// The busiest frames, then grouped by function: a function that a
	// source map made of several frames adds up, among these.
	const busiest = 32
	var top []int32 // at most busiest, the most self time first
	for _, f := range used {
		if len(top) == busiest && self[f] <= self[top[busiest-1]] {
			continue
		}
		i := len(top)
		if i < busiest {
			top = append(top, f)
		} else {
			i--
		}
		for ; i > 0 && self[top[i-1]] < self[f]; i-- {
			top[i] = top[i-1]
		}
		top[i] = f
	}
	byKey := map[Key]int64{}
	for _, f := range top {
		byKey[stallKey(&p.Frames[f])] += self[f]
	}
	for _, f := range used {
		self[f] = 0
	}
	for k, ns := range byKey {
		s.Top = append(s.Top, FunctionTime{Key: k, SelfNs: ns})
	}
	slices.SortFunc(s.Top, func(a, b FunctionTime) int {
		if c := cmp.Compare(b.SelfNs, a.SelfNs); c != 0 {
			return c
		}
		return CompareKeys(a.Key, b.Key)
	})
	s.Top = s.Top[:min(len(s.Top), 5)]
	start := p.Samples[s.First].Node
	for _, sm := range p.Samples[s.First : s.Last+1] {
		if p.OnCPU(sm) {
			start = sm.Node
			break
		}
	}
	for n, depth := start, 0; n >= 0 && depth < len(p.Nodes); n, depth = p.Nodes[n].Parent, depth+1 {
		f := &p.Frames[p.Nodes[n].Frame]
		if f.Kind == KindRoot {
			break
		}
		if len(s.Stack) < maxStallStack {
			s.Stack = append(s.Stack, stallKey(f))
		}
	}
	slices.Reverse(s.Stack)
}

// stallKey is a frame's function key, as the tables name it.
func stallKey(f *Frame) Key {
	return Key{Package: f.Package, Function: f.Name, File: f.File, Line: f.Line, Column: f.Column}
}
