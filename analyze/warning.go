package analyze

// Warning is a problem that was worked around while reading, symbolicating
// or comparing profiles, kept as data: what kind of problem it is, the file
// it concerns and what happened, in words that name no command-line flag.
// A program that knows its own flags says how to act on a kind in Advice.
type Warning struct {
	Kind WarningKind
	// File names the profile or profiles the warning is about ("a.cpuprofile",
	// "all 3 runs"); "" for the comparison as a whole.
	File string
	// Message says what happened, in one line.
	Message string
	// Advice is what the program using the libraries appends to Message,
	// including its leading punctuation (" (see --list)"); the libraries
	// leave it empty.
	Advice string
}

// String returns the warning as the reports print it: "file: message advice".
func (w Warning) String() string {
	s := w.Message + w.Advice
	if w.File != "" {
		s = w.File + ": " + s
	}
	return s
}

// WarningKind says what a Warning is about, so that a program can add advice
// or filter by it without matching words.
type WarningKind uint8

// The kinds of warning.
const (
	// WarnOther is any warning without a kind of its own.
	WarnOther WarningKind = iota
	// WarnThreadChosen: a trace holds several CPU profiles and one was
	// chosen.
	WarnThreadChosen
	// WarnThreadIgnored: a thread was asked for, but the file is not a
	// trace.
	WarnThreadIgnored
	// WarnSampleTypeIgnored: a pprof sample type was asked for, but the
	// file is not a pprof.
	WarnSampleTypeIgnored
	// WarnNoTimeDeltas: a .cpuprofile without timeDeltas; samples weigh
	// the wall time evenly.
	WarnNoTimeDeltas
	// WarnNoSamples: a .cpuprofile without samples; time comes from
	// hitCount.
	WarnNoSamples
	// WarnSamplesReordered: samples recorded out of order were sorted by
	// their timestamps.
	WarnSamplesReordered
	// WarnChunkWithoutProfile: a trace's ProfileChunk has no Profile event.
	WarnChunkWithoutProfile
	// WarnRootSamples: samples land on the root node of the call tree.
	WarnRootSamples
	// WarnMapOtherBuild: the script at the recorded path is another build
	// than the one profiled, so its source map was not used.
	WarnMapOtherBuild
	// WarnMapRemote: a script's source map is a URL, which is never
	// fetched.
	WarnMapRemote
	// WarnMapOutside: a script's sourceMappingURL leads outside the
	// folders profdiff may read.
	WarnMapOutside
	// WarnScriptOutside: a script lies outside the folders profdiff may
	// read, so its source map was not looked for beside it.
	WarnScriptOutside
	// WarnMapUnusable: a script's source map was found but could not be
	// used (unreadable, malformed, too large).
	WarnMapUnusable
	// WarnMinifiedUnmapped: scripts without a source map look minified, so
	// their names are the minifier's.
	WarnMinifiedUnmapped
	// WarnMapsIncomplete: the maps found do not cover much of their
	// scripts' time.
	WarnMapsIncomplete
	// WarnNoSourceMap: much JavaScript time is in scripts without a source
	// map.
	WarnNoSourceMap
	// WarnFormatsDiffer: the two sides were read from different formats.
	WarnFormatsDiffer
	// WarnIntervalsDiffer: the two sides were sampled at different
	// intervals.
	WarnIntervalsDiffer
	// WarnThreadsDiffer: the two sides come from different threads.
	WarnThreadsDiffer
	// WarnDurationsDiffer: the runs differ in duration by more than 2x and
	// no amount of work was given.
	WarnDurationsDiffer
	// WarnDeepStacksCut: stacks of a folded file deeper than MaxFoldedDepth
	// frames were cut to their innermost frames.
	WarnDeepStacksCut
	// WarnNarrowedAway: the filters or window a run was narrowed by left
	// it no on-CPU time.
	WarnNarrowedAway
	// WarnRootUnused: a side's files were to be matched below a root
	// that none of them lies under.
	WarnRootUnused
	// WarnNotCPUTime: a pprof profile has no cpu or wall sample type, and
	// its time is of another kind (a contention profile's delay).
	WarnNotCPUTime
	// WarnMalformedLines: lines of a folded file that are not a stack and a
	// count were skipped.
	WarnMalformedLines
	// WarnMissingNodes: nodes of a V8 profile name parents or children
	// that the file does not hold; what could be kept was.
	WarnMissingNodes
	// WarnMapGivenOtherBuild: a script found in a folder of maps the user
	// gave is another build than the one profiled (its recorded function
	// names are not at their recorded positions in it), so neither it nor
	// its map was used: that side needs its own maps.
	WarnMapGivenOtherBuild
	// WarnSidesFromNames: the sides were formed from the words in the
	// files' names (before/after, base/head, old/new, a/b), not from the
	// order they were given in.
	WarnSidesFromNames
	// WarnOtherThreads: the runs' worker threads were profiled too (a
	// recording keeps each thread's profile), and only the main threads
	// were compared.
	WarnOtherThreads
	// WarnMapSharedByBuilds: one source map served profiles that ran
	// different builds of its script (their recorded function names
	// differ at the same positions), so it maps one build's functions to
	// the other's names.
	WarnMapSharedByBuilds
	// WarnLoaded: a side's sampled on-CPU time exceeds the CPU time the
	// operating system charged its processes by more than 10%, or its
	// samples are stretched well beyond the other side's (their time
	// over their count times the median gap between them): the machine
	// was loaded while it ran.
	WarnLoaded
	// WarnOutsideProfile: most of the CPU time the operating system
	// charged a side's processes is not in their profiles (a build, or
	// child processes the profiler did not follow), so the process CPU
	// time measures other work than the profile.
	WarnOutsideProfile
)

// AboutTheRequest reports whether a warning says that something asked for
// did not apply (a thread or sample type the file cannot have, a
// narrowing that leaves nothing) or was read otherwise than given (the
// sides made from the files' names), rather than describing the data: a
// program says those where its user looks at once, not only in the report.
func (k WarningKind) AboutTheRequest() bool {
	return k == WarnThreadIgnored || k == WarnSampleTypeIgnored || k == WarnNarrowedAway || k == WarnRootUnused || k == WarnSidesFromNames
}
