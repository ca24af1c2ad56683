// Package analyze is profdiff's profile model: the Profile every format is
// read into (V8 .cpuprofile, Chrome traces, pprof, folded stacks), its
// operations (on-CPU time, walk order, package attribution), and the Table
// of on-CPU self and total time by package, function and file that
// Aggregate makes of it.
//
// It imports no other profdiff package and never prints: errors are *Error
// (the file, the line where the format has lines, what is wrong), and
// warnings travel as Warning values with a kind in Profile.Warnings and
// Table.Warnings, naming no command-line flag.
package analyze

import (
	"fmt"
	"slices"
)

// Format says which file format a profile was read from.
type Format uint8

// The formats profdiff reads.
const (
	FormatUnknown    Format = iota
	FormatCPUProfile        // V8 .cpuprofile (CDP Profiler.Profile)
	FormatTrace             // Chrome Performance-panel trace (Profile/ProfileChunk or CpuProfile events)
	FormatPprof             // pprof protobuf, gzipped or raw
	FormatFolded            // folded stacks: "frame;frame;... count" lines
)

// String returns the name used in output: "cpuprofile", "trace" or "pprof".
func (f Format) String() string {
	switch f {
	case FormatCPUProfile:
		return "cpuprofile"
	case FormatTrace:
		return "trace"
	case FormatPprof:
		return "pprof"
	case FormatFolded:
		return "folded"
	}
	return "unknown"
}

// Describe returns a longer, human-readable name of the format.
func (f Format) Describe() string {
	switch f {
	case FormatCPUProfile:
		return "V8 .cpuprofile"
	case FormatTrace:
		return "Chrome trace"
	case FormatPprof:
		return "pprof"
	case FormatFolded:
		return "folded stacks"
	}
	return "unknown format"
}

// FrameKind classifies a frame. The kind decides whether its time is on-CPU
// and how the frame is attributed to a package.
type FrameKind uint8

// The frame kinds.
const (
	// KindCode is ordinary code with a script URL or a file: JavaScript
	// functions, Go functions.
	KindCode FrameKind = iota
	// KindNative is code with no script: V8 builtins and runtime functions
	// ("lstat", "slice"), C functions.
	KindNative
	// KindRegExp is V8's frame for executing a regular expression
	// ("RegExp: <pattern>"). It has no URL; its time belongs to the package
	// of its nearest caller that has one.
	KindRegExp
	// KindEval is code compiled at run time from a string (new Function,
	// eval: ajv's validators): a script with no URL. Like KindRegExp it is
	// attributed to its nearest caller's package.
	KindEval
	// KindGC is garbage collection: on-CPU, reported as the package "(gc)".
	KindGC
	// KindIdle is V8's (idle): the CPU was not working. Not on-CPU.
	KindIdle
	// KindProgram is V8's (program): time V8 could not attribute. Not on-CPU.
	KindProgram
	// KindRoot is the root of a call tree; it never carries time itself.
	KindRoot
)

var kindNames = [...]string{"code", "native", "regexp", "eval", "gc", "idle", "program", "root"}

// String returns the kind's lower-case name.
func (k FrameKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// OnCPU reports whether a sample whose leaf frame has this kind counts as
// on-CPU time: everything except (idle) and (program).
func (k FrameKind) OnCPU() bool { return k != KindIdle && k != KindProgram }

// InheritsPackage reports whether frames of this kind take the package of
// their nearest caller that has a script (regular expressions, eval code).
func (k FrameKind) InheritsPackage() bool { return k == KindRegExp || k == KindEval }

// Frame is one interned call site: each distinct function position appears
// once in Profile.Frames, however many call-tree nodes use it.
type Frame struct {
	Kind FrameKind
	// Name is the function name as recorded; "" for an anonymous function.
	Name string
	// File is the script URL or file path as recorded, with a file://
	// scheme removed; "" when there is none.
	File string
	// Line and Column are the 1-based position of the function's start as
	// recorded (V8 reports where the parameter list opens; Go's pprof the
	// line of the func keyword); 0 means unknown.
	Line, Column int32
	// Package is set by package attribution (see Aggregate), after any
	// symbolication; "" before that.
	Package string
	// MarksGC is set on frames whose presence anywhere in a stack makes the
	// sample garbage-collection work (Go's runtime.gcBgMarkWorker and
	// friends), for formats where GC is not a leaf frame of its own.
	MarksGC bool
	// Go is set on frames from Go programs: their package comes from the
	// function name's import path, not from the file.
	Go bool
	// Generated is set when symbolication mapped the frame through a source
	// map: Name, File, Line and Column then hold the original function, and
	// Generated what the profiler recorded (the bundle and V8's name).
	Generated *Position
	// Ignored marks frames whose source the source map lists in its
	// ignoreList (third-party code).
	Ignored bool
	// LinesMapped says symbolication mapped the lines of this frame's
	// nodes' LineTicks to lines of the original file (each of the
	// bundle's lines maps to one original line); a frame with Generated
	// set and not LinesMapped has its LineTicks in the bundle's lines.
	LinesMapped bool
}

// LineTick counts a node's samples on one source line.
type LineTick struct {
	Node  int32
	Line  int32 // 1-based line of the script
	Ticks int32
}

// Position is a function as a profiler recorded it: name, script or file,
// and 1-based start line and column (0 when unknown).
type Position struct {
	Name         string
	File         string
	Line, Column int32
}

// Node is one node of the calling-context tree: a frame reached through a
// particular chain of callers.
type Node struct {
	Frame  int32 // index into Profile.Frames
	Parent int32 // index into Profile.Nodes; -1 for a root
}

// Sample is one observation: the node at the top of the stack, its weight and,
// where the format records it, when it was taken.
type Sample struct {
	Node int32 // index into Profile.Nodes
	// Weight is the time this sample stands for, in nanoseconds.
	Weight int64
	// Time is nanoseconds since the profile's start; meaningful only when
	// Profile.HasTimestamps.
	Time int64
}

// Profile is one profile of one thread, in profdiff's model.
type Profile struct {
	Format Format
	// File is the path the profile was read from.
	File string
	// Thread identifies the thread a trace's profile was taken on; the
	// zero Thread for formats that hold one profile.
	Thread Thread
	// SampleType names the pprof sample type the weights were taken from
	// (for example "cpu/nanoseconds"); "" for other formats.
	SampleType string
	// SampleTypes lists every sample type of a pprof profile ("type/unit").
	SampleTypes []string

	Frames  []Frame
	Nodes   []Node
	Samples []Sample
	// HasTimestamps says whether Sample.Time is meaningful.
	HasTimestamps bool
	// LineTicks are V8's positionTicks: how many of a node's samples were
	// taken on each line (1-based, of the script as recorded).
	LineTicks []LineTick
	// LineTotals are, where the format records the line of every frame of
	// a stack (pprof) and ParseOptions.Lines asked for them, each frame's
	// time per line: the samples in whose stack the frame was on the line,
	// each counted once.
	LineTotals []LineTotal

	// WallNs is end - start of the recording, in nanoseconds.
	WallNs int64
	// IntervalNs is the mean sampling interval the profiler delivered.
	IntervalNs int64
	// TickNs is the lower quartile of the gaps between samples, where the
	// samples carry their time deltas (V8, Chrome traces); 0 otherwise:
	// the profiler's tick. A loaded machine stretches many gaps, and
	// even the median (1.1 ms quiet, up to 1.7 ms loaded at a 1 ms
	// interval), but its lower quartile stayed at 1.06-1.10 ms.
	TickNs int64
	// SampleCount is the number of samples taken (for pprof the sum of the
	// count sample type, which can exceed len(Samples)).
	SampleCount int64

	// Marks are the User Timing marks and measures a Chrome trace recorded
	// in the profiled thread's process (performance.mark and measure, and
	// Chrome's navigation timing marks), in file order; nil for other
	// formats.
	Marks []Mark
	// Tasks are the profiled thread's tasks a Chrome trace recorded
	// (RunTask and its kin, outermost only), in time order, from the
	// profile's start; nil for other formats and for traces without them.
	// FindStalls measures stalls from them when present.
	Tasks []Span
	// AnimationFrames are the frames the profiled thread's renderer
	// recorded in a Chrome trace (AnimationFrame events), in time order,
	// from the profile's start; nil without them.
	AnimationFrames []Span

	// Warnings are problems that were worked around while reading, such as
	// samples recorded out of order.
	Warnings []Warning

	// Symbolication reports how much of the profile source maps covered;
	// nil when symbolication did not run.
	Symbolication *Symbolication
}

// Thread identifies the thread, and the profile on it, that a Chrome trace
// recorded.
type Thread struct {
	// Name is the thread's name ("CrRendererMain"); "" when the trace
	// names none.
	Name                string
	ProcessID, ThreadID int64
	// ProcessName is the process's name ("Renderer"); "" when unnamed.
	ProcessName string
	// ProfileID is the trace's id of the profile ("0x1").
	ProfileID string
}

// IsZero reports whether t identifies no thread (formats without threads).
func (t Thread) IsZero() bool { return t == Thread{} }

// String describes the thread as the reports print it:
// "CrRendererMain (pid 5541, tid 5541, Renderer, profile 0x1)", without
// what the trace did not record; "" for the zero Thread.
func (t Thread) String() string {
	if t.IsZero() {
		return ""
	}
	name := t.Name
	if name == "" {
		name = "thread"
	}
	d := fmt.Sprintf("%s (pid %d, tid %d", name, t.ProcessID, t.ThreadID)
	if t.ProcessName != "" {
		d += ", " + t.ProcessName
	}
	if t.ProfileID != "" {
		d += ", profile " + t.ProfileID
	}
	return d + ")"
}

// Mark is a User Timing mark or measure, timed in nanoseconds from the
// profile's start like Sample.Time (negative before it). A mark has End ==
// Start; a measure spans Start..End.
type Mark struct {
	Name       string
	Start, End int64
}

// Symbolication says how much of a profile's JavaScript was mapped back to
// original sources. JavaScript time is the on-CPU self time of frames that
// carry a script URL, leaving out Node's own node: modules, which ship
// without source maps.
type Symbolication struct {
	Scripts       int      // distinct scripts with JavaScript frames
	MappedScripts int      // of those, scripts whose source map was found and read
	Missing       []string // scripts without a usable map, busiest first
	OnCPUJSNs     int64
	OnCPUMappedNs int64
	// Minified are the scripts without a map that look minified, busiest
	// first; UnmappedMinifiedNs is their on-CPU self time: time under
	// the minifier's names, which two builds choose differently.
	Minified           []string
	UnmappedMinifiedNs int64
}

// Add accumulates another profile's coverage (runs of one side).
func (s *Symbolication) Add(o *Symbolication) {
	if o == nil {
		return
	}
	s.Scripts += o.Scripts
	s.MappedScripts += o.MappedScripts
	for _, m := range o.Missing {
		if !slices.Contains(s.Missing, m) {
			s.Missing = append(s.Missing, m)
		}
	}
	s.OnCPUJSNs += o.OnCPUJSNs
	s.OnCPUMappedNs += o.OnCPUMappedNs
	for _, m := range o.Minified {
		if !slices.Contains(s.Minified, m) {
			s.Minified = append(s.Minified, m)
		}
	}
	s.UnmappedMinifiedNs += o.UnmappedMinifiedNs
}
