package analyze

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"

	"github.com/profdiff/profdiff/internal/jsonscan"
)

// This file reads Chrome Performance-panel traces: a JSON array of trace
// events, or an object with "traceEvents". V8's samples arrive as a "Profile"
// event followed by "ProfileChunk" events with the same id in the same
// process (nodes with parent pointers, timeDeltas beside cpuProfile), or as
// one "CpuProfile" event holding a whole CDP profile. A trace may hold several
// profiles: one per profiled thread, and the same id may recur in different
// processes, so profiles are keyed by process and id.

// traceProfile is one profile being assembled from a trace.
type traceProfile struct {
	pid, tid int64
	id       string
	rp       rawProfile
	events   int
	// noProfileEvent: its chunks came without a Profile event.
	noProfileEvent bool
	// deltasDiffer is the 1-based number of the first event whose
	// timeDeltas differ between args.data and args.data.cpuProfile; 0
	// when none do.
	deltasDiffer int
}

// traceReader holds the state of one trace as it is read.
type traceReader struct {
	s        *jsonscan.Scanner
	in       *frameInterner
	profiles []*traceProfile
	open     map[traceProfileKey]*traceProfile
	threads  map[[2]int64]string // (pid, tid) -> thread name
	procs    map[int64]string    // pid -> process name
	events   int
	marks    []traceMark             // User Timing marks and measures, in file order
	measures map[traceMeasureKey]int // open measures (async begin) -> index in marks
	tasks    traceTasks              // the threads' tasks (see tasks.go)

	// per-event scratch, reused
	chunkLines bool // the chunk carried lines
	// outerDeltas are args.data.timeDeltas, read apart from the
	// cpuProfile's own; deltasDiffer says the two differed.
	outerDeltas    []int64
	hasOuterDeltas bool
	deltasDiffer   bool
	cat            []byte
	ph             byte
	dur            float64
	name           []byte
	id             []byte
	argStr         []byte
	chunk          rawProfile
}

// traceMark is a User Timing mark (ph R, I, i, n) or measure (async b/e or
// a complete X event) of the category blink.user_timing, in trace time (µs).
type traceMark struct {
	pid        int64
	name       string
	start, end float64
}

type traceMeasureKey struct {
	pid      int64
	name, id string
}

type traceProfileKey struct {
	pid int64
	id  string
}

func newTraceReader(s *jsonscan.Scanner) *traceReader {
	return &traceReader{
		s:        s,
		in:       newFrameInterner(),
		open:     map[traceProfileKey]*traceProfile{},
		threads:  map[[2]int64]string{},
		procs:    map[int64]string{},
		measures: map[traceMeasureKey]int{},
	}
}

// readEvents reads an array of trace events.
func (t *traceReader) readEvents() {
	s := t.s
	for range s.Elements() {
		t.readEvent()
		if s.Err() != nil {
			s.WrapErr("trace event %d", t.events)
			return
		}
		t.events++
	}
}

// readEvent reads one trace event and keeps what it holds: thread and
// process names, User Timing marks, and the profiles and their chunks.
func (t *traceReader) readEvent() {
	ev := t.readEventMembers()
	if t.s.Err() != nil {
		return
	}
	if isUserTiming(t.cat) {
		t.userTiming(ev.pid, ev.ts)
	}
	t.keepEvent(ev)
}

// traceEvent is what an event says besides its name, category, phase, id
// and args, which readEventMembers keeps in the reader's scratch.
type traceEvent struct {
	pid, tid int64
	ts       float64
	hasData  bool // args.data held a cpuProfile
}

// readEventMembers reads the members of one event object.
func (t *traceReader) readEventMembers() (ev traceEvent) {
	s := t.s
	t.name = t.name[:0]
	t.id = t.id[:0]
	t.argStr = t.argStr[:0]
	t.cat, t.ph, t.dur = t.cat[:0], 0, 0
	t.chunk.reset()
	t.chunkLines = false
	t.deltasDiffer = false
	for k := range s.Members() {
		switch string(k) {
		case "name":
			if !s.IsNull() {
				t.name = append(t.name, s.ReadString()...)
			}
		case "pid":
			ev.pid = t.readIntOrString()
		case "tid":
			ev.tid = t.readIntOrString()
		case "id":
			if s.Peek() == '"' {
				t.id = append(t.id, s.ReadString()...)
			} else {
				t.id = append(t.id, s.NumberToken()...)
			}
		case "ts":
			switch {
			case s.IsNull():
			case s.Peek() == '"':
				// Hermes writes times as strings ("11550183666").
				ts, err := strconv.ParseFloat(string(s.ReadString()), 64)
				if err != nil {
					s.Fail("ts is not a number")
				}
				ev.ts = ts
			default:
				ev.ts = s.ReadFloat()
			}
		case "cat":
			if s.Peek() == '"' {
				t.cat = append(t.cat, s.ReadString()...)
			} else {
				s.SkipValue()
			}
		case "ph":
			if s.Peek() == '"' {
				if ph := s.ReadString(); len(ph) > 0 {
					t.ph = ph[0]
				}
			} else {
				s.SkipValue()
			}
		case "dur":
			if s.Peek() == '-' || (s.Peek() >= '0' && s.Peek() <= '9') {
				t.dur = s.ReadFloat()
			} else {
				s.SkipValue()
			}
		case "args":
			ev.hasData = t.readArgs()
		default:
			s.SkipValue()
		}
	}
	return ev
}

// keepEvent keeps what the event just read holds, by its name.
func (t *traceReader) keepEvent(ev traceEvent) {
	pid, tid, ts := ev.pid, ev.tid, ev.ts
	t.tasks.event(t, ev)
	switch string(t.name) {
	case "thread_name":
		t.threads[[2]int64{pid, tid}] = string(t.argStr)
	case "process_name":
		t.procs[pid] = string(t.argStr)
	case "Profile":
		tp := &traceProfile{pid: pid, tid: tid, id: string(t.id)}
		tp.rp.startTime, tp.rp.hasStart = int64(ts), true
		if t.chunk.hasStart {
			tp.rp.startTime = t.chunk.startTime
		}
		t.appendChunk(tp)
		t.profiles = append(t.profiles, tp)
		t.open[traceProfileKey{pid, tp.id}] = tp
	case "ProfileChunk":
		key := traceProfileKey{pid, string(t.id)}
		tp := t.open[key]
		if tp == nil {
			// A chunk without its Profile event (the trace was cut at the
			// start): keep the samples, timed from the chunk.
			tp = &traceProfile{pid: pid, tid: tid, id: key.id, noProfileEvent: true}
			tp.rp.startTime, tp.rp.hasStart = int64(ts), true
			t.profiles = append(t.profiles, tp)
			t.open[key] = tp
		}
		t.appendChunk(tp)
	case "CpuProfile":
		if !ev.hasData {
			break
		}
		tp := &traceProfile{pid: pid, tid: tid, id: string(t.id)}
		if !t.chunk.hasStart {
			t.chunk.startTime, t.chunk.hasStart = int64(ts), true
		}
		t.appendChunk(tp)
		t.profiles = append(t.profiles, tp)
	}
}

// isUserTiming reports whether a category list names blink.user_timing.
func isUserTiming(cat []byte) bool {
	for len(cat) > 0 {
		c := cat
		if i := bytes.IndexByte(cat, ','); i >= 0 {
			c, cat = cat[:i], cat[i+1:]
		} else {
			cat = nil
		}
		if string(c) == "blink.user_timing" {
			return true
		}
	}
	return false
}

// userTiming keeps a User Timing mark or measure (performance.mark,
// performance.measure, and the navigation timing marks Chrome records).
func (t *traceReader) userTiming(pid int64, ts float64) {
	name := string(t.name)
	switch t.ph {
	case 'R', 'I', 'i', 'n':
		t.marks = append(t.marks, traceMark{pid: pid, name: name, start: ts, end: ts})
	case 'X':
		t.marks = append(t.marks, traceMark{pid: pid, name: name, start: ts, end: ts + max(t.dur, 0)})
	case 'b', 'B':
		t.measures[traceMeasureKey{pid, name, string(t.id)}] = len(t.marks)
		t.marks = append(t.marks, traceMark{pid: pid, name: name, start: ts, end: ts})
	case 'e', 'E':
		k := traceMeasureKey{pid, name, string(t.id)}
		if i, ok := t.measures[k]; ok && ts >= t.marks[i].start {
			t.marks[i].end = ts
			delete(t.measures, k)
		}
	}
}

// readIntOrString reads a pid or tid, which some writers emit as strings.
func (t *traceReader) readIntOrString() int64 {
	s := t.s
	if s.Peek() == '"' {
		v, err := strconv.ParseInt(string(s.ReadString()), 10, 64)
		if err != nil {
			s.Fail("pid or tid is not a number")
		}
		return v
	}
	return s.ReadInt()
}

// readArgs reads an event's args: args.name (metadata events) and
// args.data's profile fields. It reports whether args.data held a cpuProfile.
func (t *traceReader) readArgs() bool {
	s := t.s
	if s.IsNull() {
		return false
	}
	if s.Peek() != '{' {
		s.SkipValue()
		return false
	}
	found := false
	for k := range s.Members() {
		switch string(k) {
		case "name":
			if s.Peek() == '"' {
				t.argStr = append(t.argStr[:0], s.ReadString()...)
			} else {
				s.SkipValue()
			}
		case "data":
			if s.Peek() != '{' {
				s.SkipValue()
				break
			}
			found = t.readData() || found
		default:
			s.SkipValue()
		}
	}
	return found && s.Err() == nil
}

// readData reads an event's args.data: a whole cpuProfile, or a
// ProfileChunk's timeDeltas, times and lines, into the chunk. It reports
// whether it held a cpuProfile.
//
// A chunk's timeDeltas are beside its cpuProfile; some writers (rspack) put
// the same list in the cpuProfile too. One copy is read when both are
// there and equal; when they differ, the chunk is marked for finish to
// refuse.
func (t *traceReader) readData() bool {
	s := t.s
	found := false
	t.outerDeltas, t.hasOuterDeltas = t.outerDeltas[:0], false
	for k := range s.Members() {
		switch string(k) {
		case "cpuProfile":
			if s.Peek() != '{' {
				s.SkipValue()
				break
			}
			readCPUProfileObject(s, t.in, &t.chunk)
			found = true
		case "timeDeltas":
			if s.Peek() == '[' {
				t.outerDeltas = s.ReadIntArray(t.outerDeltas)
				t.hasOuterDeltas = true
			} else {
				s.SkipValue()
			}
		case "startTime", "endTime":
			if s.Peek() == '[' || s.Peek() == '-' || (s.Peek() >= '0' && s.Peek() <= '9') {
				readProfileMember(s, k, t.in, &t.chunk)
			} else {
				s.SkipValue()
			}
		case "lines":
			if s.Peek() == '[' {
				t.chunk.lines = s.ReadIntArray(t.chunk.lines)
				t.chunkLines = true
			} else {
				s.SkipValue()
			}
		default: // columns, frame data of other events, ...
			s.SkipValue()
		}
	}
	if t.hasOuterDeltas {
		c := &t.chunk
		switch {
		case !c.hasDeltas || len(c.deltas) == 0:
			c.deltas = append(c.deltas[:0], t.outerDeltas...)
			c.hasDeltas = true
		case len(t.outerDeltas) == 0 || slices.Equal(c.deltas, t.outerDeltas):
			// the same list twice, or one copy empty: read one
		default:
			t.deltasDiffer = true
		}
	}
	return found && s.Err() == nil
}

func (rp *rawProfile) reset() {
	nodes, children, parents, hits, ticks := rp.nodes, rp.children, rp.parents, rp.hits, rp.ticks
	nodes.reset()
	children.reset()
	parents.reset()
	hits.reset()
	ticks.reset()
	*rp = rawProfile{nodes: nodes, children: children, parents: parents, hits: hits, ticks: ticks, samples: rp.samples[:0], deltas: rp.deltas[:0], lines: rp.lines[:0]}
}

// appendShifted appends src's elements to dst, each adjusted by shift (node
// indexes and list offsets move by what dst holds already).
func appendShifted[T any](dst, src *chunked[T], shift func(*T)) {
	for i := range src.len() {
		v := src.at(i)
		shift(&v)
		dst.add(v)
	}
}

// appendChunk adds the scratch chunk's nodes, samples and deltas to tp.
func (t *traceReader) appendChunk(tp *traceProfile) {
	c := &t.chunk
	dst := &tp.rp
	off, noff := int32(dst.children.len()), int32(dst.nodes.len())
	appendShifted(&dst.children, &c.children, func(*int64) {})
	appendShifted(&dst.parents, &c.parents, func(p *rawParent) { p.node += noff })
	appendShifted(&dst.hits, &c.hits, func(h *[2]int32) { h[0] += noff })
	appendShifted(&dst.ticks, &c.ticks, func(t *LineTick) { t.Node += noff })
	appendShifted(&dst.nodes, &c.nodes, func(n *rawNode) { n.childEnd += off })
	// Lines run beside samples; a chunk without them has none.
	if t.chunkLines && len(c.lines) == len(c.samples) {
		dst.lines = append(dst.lines, c.lines...)
	} else {
		dst.lines = append(dst.lines, make([]int64, len(c.samples))...)
	}
	dst.samples = append(dst.samples, c.samples...)
	dst.deltas = append(dst.deltas, c.deltas...)
	dst.hasSample = dst.hasSample || c.hasSample
	dst.hasDeltas = dst.hasDeltas || c.hasDeltas
	if c.hasStart && !dst.hasStart {
		dst.startTime, dst.hasStart = c.startTime, true
	}
	if c.hasEnd {
		dst.endTime, dst.hasEnd = c.endTime, true
	}
	if t.deltasDiffer && tp.deltasDiffer == 0 {
		tp.deltasDiffer = tp.events + 1
	}
	tp.events++
}

// describe names the profile in an error: its id and process, or, for a
// CpuProfile event (which has no id), its process and thread.
func (tp *traceProfile) describe() string {
	if tp.id == "" {
		return fmt.Sprintf("CPU profile of process %d thread %d", tp.pid, tp.tid)
	}
	return fmt.Sprintf("profile %s in process %d", tp.id, tp.pid)
}

// finish builds every profile in the trace.
func (t *traceReader) finish(file string) ([]*Profile, error) {
	var out []*Profile
	for _, tp := range t.profiles {
		if tp.rp.nodes.len() == 0 {
			continue // a Profile event whose chunks never came
		}
		if tp.rp.hasEnd && tp.rp.endTime < tp.rp.startTime {
			tp.rp.hasEnd = false // an end before the start is of another clock
		}
		if tp.deltasDiffer > 0 {
			return nil, fmt.Errorf("%s: event %d of the profile gives different timeDeltas in args.data and in args.data.cpuProfile", tp.describe(), tp.deltasDiffer)
		}
		p, err := tp.rp.build(t.in.frames, FormatTrace)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tp.describe(), err)
		}
		p.Thread = Thread{Name: t.threads[[2]int64{tp.pid, tp.tid}], ProcessID: tp.pid, ThreadID: tp.tid, ProcessName: t.procs[tp.pid], ProfileID: tp.id}
		p.File = file
		// Each profile's own warnings, not every profile's (16,000
		// profiles would each carry 16,000 lines).
		if tp.noProfileEvent {
			p.Warnings = append(p.Warnings, Warning{Kind: WarnChunkWithoutProfile,
				Message: fmt.Sprintf("ProfileChunk with id %s in process %d has no Profile event; its thread is taken from the chunk", tp.id, tp.pid)})
		}
		for _, m := range t.marks {
			if m.pid == tp.pid {
				p.Marks = append(p.Marks, Mark{Name: m.name,
					Start: int64((m.start - float64(tp.rp.startTime)) * 1000), End: int64((m.end - float64(tp.rp.startTime)) * 1000)})
			}
		}
		p.Tasks = t.tasks.of(tp)
		p.AnimationFrames = t.tasks.framesOf(tp)
		out = append(out, p)
	}
	return out, nil
}
