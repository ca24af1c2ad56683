package analyze

import (
	"cmp"
	"math"
	"slices"
)

// Tasks from traces: a Chrome trace records the boundaries of each task a
// thread's scheduler ran (RunTask events), so a long task's start and
// length are known exactly there, where the samples only bound them to
// within a sampling interval. FindStalls uses them when a profile has them.

// isTaskName reports whether a trace event's name is a task the thread's
// scheduler ran: "RunTask" (Chrome 100 and later),
// "ThreadControllerImpl::RunTask" and "MessageLoop::RunTask" (older
// Chromes), "ThreadPool_RunTask" and "TaskScheduler RunTask" (pools).
func isTaskName(name []byte) bool {
	switch string(name) {
	case "RunTask", "ThreadControllerImpl::RunTask", "MessageLoop::RunTask",
		"ThreadPool_RunTask", "TaskScheduler RunTask", "SequenceManager RunTask":
		return true
	}
	return false
}

// traceTasks collects the tasks of every thread of a trace as it is read.
type traceTasks struct {
	spans map[[2]int64][][2]float64 // (pid, tid) -> [start, end] in µs
	open  map[[2]int64][]openEvent  // (pid, tid) -> begun duration events
	// frames and openFrame: the threads' AnimationFrame events (async
	// b/e, one open at a time on a thread, their id reused).
	frames    map[[2]int64][][2]float64
	openFrame map[[2]int64]float64
}

// openEvent is a duration event (ph B) waiting for its end.
type openEvent struct {
	ts   float64
	task bool
}

// event keeps the task the event just read marks, if it is one: a complete
// event (ph X), or a B/E pair (an E closes the thread's latest B).
func (tt *traceTasks) event(t *traceReader, ev traceEvent) {
	key := [2]int64{ev.pid, ev.tid}
	if string(t.name) == "AnimationFrame" {
		tt.frame(key, t.ph, ev.ts)
		return
	}
	switch t.ph {
	case 'X':
		if isTaskName(t.name) && t.dur >= 0 {
			tt.add(key, ev.ts, ev.ts+t.dur)
		}
	case 'B':
		if tt.open == nil {
			tt.open = map[[2]int64][]openEvent{}
		}
		tt.open[key] = append(tt.open[key], openEvent{ts: ev.ts, task: isTaskName(t.name)})
	case 'E':
		st := tt.open[key]
		if len(st) == 0 {
			return
		}
		b := st[len(st)-1]
		tt.open[key] = st[:len(st)-1]
		if b.task && ev.ts >= b.ts {
			tt.add(key, b.ts, ev.ts)
		}
	}
}

// frame keeps an AnimationFrame event: a b opens the thread's frame, the
// next e closes it.
func (tt *traceTasks) frame(key [2]int64, ph byte, ts float64) {
	switch ph {
	case 'b':
		if tt.openFrame == nil {
			tt.openFrame = map[[2]int64]float64{}
			tt.frames = map[[2]int64][][2]float64{}
		}
		tt.openFrame[key] = ts
	case 'e':
		if b, ok := tt.openFrame[key]; ok && ts >= b {
			tt.frames[key] = append(tt.frames[key], [2]float64{b, ts})
			delete(tt.openFrame, key)
		}
	}
}

// framesOf returns a profile's thread's animation frames, from the
// profile's start, in time order; nil without any.
func (tt *traceTasks) framesOf(tp *traceProfile) []Span {
	all := slices.Clone(tt.frames[[2]int64{tp.pid, tp.tid}])
	if len(all) == 0 {
		return nil
	}
	slices.SortFunc(all, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	start := float64(tp.rp.startTime)
	out := make([]Span, 0, len(all))
	for _, f := range all {
		out = append(out, Span{Start: usToNs(f[0] - start), Duration: usToNs(f[1]) - usToNs(f[0])})
	}
	return out
}

func (tt *traceTasks) add(key [2]int64, start, end float64) {
	if tt.spans == nil {
		tt.spans = map[[2]int64][][2]float64{}
	}
	tt.spans[key] = append(tt.spans[key], [2]float64{start, end})
}

// of returns a profile's thread's outermost tasks, from the profile's start,
// in time order; nil without any. Every task of the thread in the trace
// counts, also those before the profiler started or after it stopped
// (their Start is then negative or beyond the samples, and no sample says
// what ran in them): the trace's long tasks and blocking time are the
// thread's, as the browser's Performance panel shows them.
func (tt *traceTasks) of(tp *traceProfile) []Span {
	all := slices.Clone(tt.spans[[2]int64{tp.pid, tp.tid}])
	if len(all) == 0 {
		return nil
	}
	slices.SortFunc(all, func(a, b [2]float64) int {
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return cmp.Compare(b[1], a[1]) // the outer one first
	})
	start := float64(tp.rp.startTime)
	var out []Span
	outerEnd := math.Inf(-1)
	for _, s := range all {
		if s[1] <= outerEnd {
			continue // nested in the previous outermost task
		}
		outerEnd = s[1]
		out = append(out, Span{Start: usToNs(s[0] - start), Duration: usToNs(s[1]) - usToNs(s[0])})
	}
	return out
}

// usToNs converts trace microseconds to nanoseconds, rounded.
func usToNs(us float64) int64 {
	if us < 0 {
		return -int64(-us*1000 + 0.5)
	}
	return int64(us*1000 + 0.5)
}

// taskStalls measures a run's stalls from its tasks: each task is a
// stretch, exact to the trace's microsecond, and the samples taken within
// it say what ran.
func taskStalls(p *Profile, keep int) *Stalls {
	st := &Stalls{IntervalNs: p.IntervalNs, FromTasks: true}
	var longest []Stretch
	for _, task := range p.Tasks {
		st.Stretches++
		d := task.Duration
		st.LongestNs = max(st.LongestNs, d)
		if d > FrameBudgetNs {
			st.Over16ms++
			st.Long = append(st.Long, task)
		}
		if d > LongStallNs {
			st.Over50ms++
			st.BlockingNs += d - LongStallNs
		}
		if keep > 0 {
			longest = append(longest, Stretch{Span: task})
		}
	}
	slices.SortStableFunc(longest, func(a, b Stretch) int { return cmp.Compare(b.Duration, a.Duration) })
	longest = longest[:min(len(longest), max(keep, 0))]
	self := make([]int64, len(p.Frames))
	for i := range longest {
		s := &longest[i]
		first, _ := slices.BinarySearchFunc(p.Samples, s.Start, func(x Sample, t int64) int { return cmp.Compare(x.Time, t) })
		last, _ := slices.BinarySearchFunc(p.Samples, s.Start+s.Duration+1, func(x Sample, t int64) int { return cmp.Compare(x.Time, t) })
		if first >= last {
			s.First, s.Last = -1, -1 // no sample fell in it
			continue
		}
		s.First, s.Last = int32(first), int32(last-1)
		describe(p, s, self)
	}
	st.Longest = longest
	return st
}

// SourceName is how the outputs name where a run's stretches came from.
func (s *Stalls) SourceName() string {
	if s.FromTasks {
		return "tasks"
	}
	return "samples"
}
