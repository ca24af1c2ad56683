package analyze

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/profdiff/profdiff/internal/jsonscan"
)

// ParseOptions tune how a file is read.
type ParseOptions struct {
	// Thread picks one profile of a file that holds several (a Chrome
	// trace): a thread id, "pid:tid", or a thread name such as
	// "CrRendererMain". Empty picks the profile with the most on-CPU time.
	Thread string
	// SampleType picks the pprof sample type ("cpu", "wall/nanoseconds").
	// Empty takes cpu time when present, else wall time, else count ×
	// period, else the first sample type in a unit of time (a contention
	// profile's delay, with a warning that it is not CPU time).
	SampleType string
	// MaxInputSize bounds the bytes read after decompression; 0 means
	// DefaultMaxInputSize.
	MaxInputSize int64
	// FoldedUnit says what a folded-stack file's counts are: samples
	// (the default, each FoldedIntervalNs long), or times in ns, us or ms.
	FoldedUnit string
	// FoldedUnitSet says the user chose FoldedUnit: it then wins over a
	// "# ... unit=us" comment at the top of the file (as profdiff's own
	// folded output has).
	FoldedUnitSet bool
	// FoldedIntervalNs is the interval of a folded file's samples; 0
	// means DefaultFoldedIntervalNs.
	FoldedIntervalNs int64
	// Lines records, for pprof, each frame's total time per line
	// (Profile.LineTotals), which per-line output reads.
	Lines bool
}

// errNotProfile is what an input of no format Parse reads is.
var errNotProfile = errors.New(`not a profile: expected a V8 .cpuprofile or Chrome trace (JSON), pprof, or folded stacks ("frame;frame;... count" lines)`)

// FileSuffixes returns the endings of the file names of every format Parse
// reads, for a program that looks for profiles among a directory's files:
// V8 .cpuprofile, Chrome traces (.json), pprof, folded stacks (.folded,
// .folded.txt and async-profiler's .collapsed), each also gzipped. A longer
// ending comes before one it ends in (".folded.gz" before ".gz"), so the
// first that matches is the whole of it.
func FileSuffixes() []string {
	return []string{".cpuprofile", ".cpuprofile.gz", ".json", ".json.gz",
		".pprof", ".pb.gz", ".pb", ".prof", ".cpu",
		".folded", ".folded.gz", ".folded.txt", ".folded.txt.gz", ".collapsed", ".collapsed.gz",
		".gz"}
}

// DefaultMaxInputSize is the default ceiling on a profile's uncompressed size.
const DefaultMaxInputSize = 4 << 30

// ParseFile reads the profile in the named file. Errors are *Error and
// name the file.
func ParseFile(path string, opts ParseOptions) (*Profile, error) {
	p, err := readFile(path, opts, Parse)
	if err != nil {
		return nil, err
	}
	p.File = path
	return p, nil
}

// readFile opens a profile file and reads it with read; errors name the
// file.
func readFile[T any](path string, opts ParseOptions, read func(io.Reader, ParseOptions) (T, error)) (T, error) {
	var none T
	f, err := openProfile(path)
	if err != nil {
		return none, err
	}
	defer f.Close()
	v, err := read(f, opts)
	if err != nil {
		return none, inFile(path, err)
	}
	return v, nil
}

// Parse reads one profile, detecting the format from the content: gzip is
// undone first, then JSON is a V8 .cpuprofile or a Chrome trace, and anything
// else is tried as pprof. When the input holds several profiles (a trace),
// opts.Thread chooses, else the one with the most on-CPU time; a warning
// says which was chosen.
func Parse(r io.Reader, opts ParseOptions) (*Profile, error) {
	profiles, err := decode(r, opts)
	if err != nil {
		return nil, err
	}
	p, err := choose(profiles, opts.Thread)
	if err == nil && opts.SampleType != "" && p.Format != FormatPprof {
		p.Warnings = append(p.Warnings, Warning{Kind: WarnSampleTypeIgnored,
			Message: fmt.Sprintf("a sample type (%q) was asked for, but only pprof files have sample types (this is %s): it was ignored", opts.SampleType, p.Format.Describe())})
	}
	return p, err
}

// ProfileInfo describes one profile a file holds, for --list.
type ProfileInfo struct {
	Format      Format
	Thread      Thread // the thread, for traces
	Samples     int64
	OnCPUNs     int64
	SampleTypes []string // pprof only
	Default     bool     // the profile Parse picks without a thread option
}

// List describes every profile the input holds.
func List(r io.Reader, opts ParseOptions) ([]ProfileInfo, error) {
	opts.Thread = ""
	profiles, err := decode(r, opts)
	if err != nil {
		return nil, err
	}
	best := busiest(profiles)
	out := make([]ProfileInfo, len(profiles))
	for i, p := range profiles {
		out[i] = ProfileInfo{Format: p.Format, Thread: p.Thread, Samples: p.SampleCount, OnCPUNs: p.OnCPUNs(), Default: i == best}
		if p.Format == FormatPprof {
			out[i].SampleTypes = p.SampleTypes
		}
	}
	return out, nil
}

// ListFile is List for a named file.
func ListFile(path string, opts ParseOptions) ([]ProfileInfo, error) {
	return readFile(path, opts, List)
}

// openProfile opens a file to read, refusing directories and special
// files by name (opening a FIFO would block, a device might never end).
func openProfile(path string) (*os.File, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, err // *PathError names the file
	case st.IsDir():
		return nil, &Error{File: path, Err: errors.New("is a directory, not a profile")}
	case !st.Mode().IsRegular():
		return nil, &Error{File: path, Err: errors.New("not a regular file")}
	}
	return os.Open(path)
}

var (
	errTruncatedGzip = errors.New("truncated gzip stream")
	errCorruptGzip   = errors.New("corrupt gzip stream")
)

// gzipErrors names gzip's failures as such: a cut stream would otherwise
// surface as an unexplained "unexpected EOF" in whatever reads it.
type gzipErrors struct{ r io.Reader }

func (g gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		err = errTruncatedGzip
	case err != nil && err != io.EOF:
		err = fmt.Errorf("%w: %v", errCorruptGzip, err)
	}
	return n, err
}

// limitedReader fails, rather than ending quietly, past its limit, so that a
// gzip bomb is reported instead of read as a truncated profile.
type limitedReader struct {
	r    io.Reader
	left int64
	max  int64
	// packed counts the compressed bytes read, for gzip input; with
	// maxRatio set, decompressing past ratioFloor bytes at more than
	// maxRatio times the bytes read fails (a gzip bomb).
	packed   *countingReader
	maxRatio int64
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// maxPprofRatio bounds how much a gzipped pprof may grow when decompressed:
// real ones grow 2.4-3x (the corpus's Go and Node profiles), a bomb of zeros
// 1,000x; ratioFloor is what any input may decompress to regardless.
const (
	maxPprofRatio = 100
	ratioFloor    = 64 << 20
)

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, fmt.Errorf("%w of %d bytes after decompression", ErrTooLarge, l.max)
	}
	if out := l.max - l.left; l.maxRatio > 0 && l.packed != nil && out > ratioFloor && out > l.maxRatio*l.packed.n {
		return 0, fmt.Errorf("gzip data decompresses to over %d times its size (%d bytes from %d), which no profile does", l.maxRatio, out, l.packed.n)
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

func decode(r io.Reader, opts ParseOptions) ([]*Profile, error) {
	limit := opts.MaxInputSize
	if limit <= 0 {
		limit = DefaultMaxInputSize
	}
	packed := &countingReader{r: r}
	br := bufio.NewReaderSize(packed, 64<<10)
	head, _ := br.Peek(2)
	var src io.Reader = br
	gzipped := len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b
	if gzipped {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("bad gzip header: %v", err)
		}
		zr.Multistream(true)
		src = bufio.NewReaderSize(gzipErrors{zr}, 64<<10)
	}
	lim := &limitedReader{r: src, left: limit, max: limit}
	if gzipped {
		lim.packed = packed
	}
	in := bufio.NewReaderSize(lim, 64<<10)
	first, ok, err := firstByte(in)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("empty file")
	}
	switch first {
	case '{', '[':
		return decodeJSON(skipBOM(in), jsonscan.BufSize)
	}
	head, _ = in.Peek(64 << 10)
	if isZip(head) {
		return nil, errZip
	}
	legacy := pprofTextHeader(head)
	folded := !legacy && looksFolded(head)
	if !folded && len(head) == 64<<10 && foldedLineCut(head) {
		// A deep stack's line is long: judge it whole, as readFolded reads it.
		in = bufio.NewReaderSize(in, maxFoldedLine+64<<10)
		head, _ = in.Peek(maxFoldedLine + 64<<10)
		folded = looksFolded(head) ||
			// Too long for the reader, which says so, naming the line.
			len(head) == maxFoldedLine+64<<10 && foldedLineCut(head) && bytes.IndexByte(head, ';') >= 0
	}
	if folded {
		p, err := readFolded(in, opts)
		if err != nil {
			return nil, err
		}
		return []*Profile{p}, nil
	}
	if !mayBePprof(head) {
		// Refuse before reading it all: a gzip bomb of zeros is no profile.
		return nil, notProfile(head)
	}
	lim.maxRatio = maxPprofRatio // JSON streams and refuses bombs as it reads
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, err
	}
	p, err := readPprof(data, opts.SampleType, opts.Lines)
	if err != nil {
		if errors.Is(err, errPprofUnreadable) && looksLikeText(data) && !legacy {
			return nil, notProfile(data) // head was read past
		}
		return nil, err
	}
	return []*Profile{p}, nil
}

// notProfile returns the error of an input of no format Parse reads,
// naming the format when its start (head) tells it: a V8 tick log, the
// text of perf script, text in UTF-16.
func notProfile(head []byte) error {
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}), bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return errors.New("text in UTF-16, which profdiff does not read: convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)")
	case bytes.HasPrefix(head, []byte("v8-version,")):
		return errors.New("a V8 tick log (node --prof), which profdiff does not read: node --cpu-prof writes a .cpuprofile it reads")
	case looksPerfScript(head):
		return errors.New("the text of perf script, which profdiff reads once folded: stackcollapse-perf.pl folds it")
	}
	return errNotProfile
}

// looksPerfScript reports whether head begins as perf script's text does:
// after its '#' header, a sample's line ("comm pid [cpu] time: period
// event:") and then an indented line of its stack ("\tb3cea6c4 sym (dso)").
func looksPerfScript(head []byte) bool {
	var lines [][]byte
	for len(head) > 0 && len(lines) < 2 {
		var line []byte
		line, head, _ = bytes.Cut(head, []byte("\n"))
		if t := bytes.TrimSpace(line); len(t) == 0 || t[0] == '#' {
			continue
		}
		lines = append(lines, line)
	}
	if len(lines) < 2 || lines[0][0] == ' ' || lines[0][0] == '\t' || !bytes.Contains(lines[0], []byte(": ")) && !bytes.HasSuffix(bytes.TrimSpace(lines[0]), []byte(":")) {
		return false
	}
	frame := lines[1]
	if frame[0] != ' ' && frame[0] != '\t' {
		return false
	}
	addr, _, ok := bytes.Cut(bytes.TrimLeft(frame, " \t"), []byte(" "))
	if tab := bytes.IndexByte(addr, '\t'); tab >= 0 {
		addr, ok = addr[:tab], true
	}
	return ok && len(addr) > 0 && len(bytes.Trim(addr, "0123456789abcdefABCDEF")) == 0
}

// errZip is what a zip archive is refused with: its first bytes would
// otherwise be taken for protobuf.
var errZip = errors.New("a zip archive, not a profile: unzip it and give profdiff the profile inside")

// isZip reports whether head begins as a zip archive does: a local file
// header, or the end of an empty archive.
func isZip(head []byte) bool {
	return bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06"))
}

// firstByte returns the first byte that is not white space or a byte-order
// mark, without consuming anything; ok is false for input that is empty or
// all white space. A binary format may begin with bytes that look like white
// space, so nothing is skipped here.
func firstByte(br *bufio.Reader) (first byte, ok bool, err error) {
	for n := 64; ; n *= 2 {
		b, err := br.Peek(n)
		rest := bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})
		rest = bytes.TrimLeft(rest, " \t\r\n")
		if len(rest) > 0 {
			return rest[0], true, nil
		}
		if err != nil {
			if err == io.EOF {
				return 0, false, nil
			}
			if err == bufio.ErrBufferFull {
				return ' ', true, nil // 64 KiB of white space: not a profile
			}
			return 0, false, err
		}
	}
}

// skipBOM drops a UTF-8 byte-order mark.
func skipBOM(br *bufio.Reader) *bufio.Reader {
	if b, _ := br.Peek(3); bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
		br.Discard(3)
	}
	return br
}

// mayBePprof reports whether input could be one of the formats the pprof
// package reads: protobuf (its first byte a field tag of profile.proto), the
// legacy binary CPU format (a header of words 0, 3), or a legacy text format.
func mayBePprof(head []byte) bool {
	if len(head) == 0 {
		return false
	}
	if tag := head[0]; tag>>3 >= 1 && tag>>3 <= 15 && (tag&7 == 0 || tag&7 == 2) {
		return true
	}
	if len(head) >= 16 {
		le64 := func(b []byte) uint64 {
			var v uint64
			for i := 7; i >= 0; i-- {
				v = v<<8 | uint64(b[i])
			}
			return v
		}
		le32 := func(b []byte) uint32 { return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24 }
		be32 := func(b []byte) uint32 { return uint32(b[3]) | uint32(b[2])<<8 | uint32(b[1])<<16 | uint32(b[0])<<24 }
		if (le64(head) == 0 && le64(head[8:]) == 3) || (le32(head) == 0 && le32(head[4:]) == 3) || (be32(head) == 0 && be32(head[4:]) == 3) {
			return true
		}
	}
	return looksLikeText(head)
}

func looksLikeText(data []byte) bool {
	n := min(len(data), 512)
	for _, c := range data[:n] {
		if c < 0x09 || (c > 0x0d && c < 0x20) {
			return false
		}
	}
	return true
}

// decodeJSON reads a .cpuprofile object, a trace object or a trace array,
// scanning with a buffer of bufSize bytes (it grows for longer tokens).
func decodeJSON(r io.Reader, bufSize int) ([]*Profile, error) {
	s := jsonscan.New(r, bufSize)
	if s.Peek() == '[' {
		t := newTraceReader(s)
		t.readEvents()
		if err := scanEnd(s); err != nil {
			return nil, err
		}
		return traceProfiles(t)
	}
	in := newFrameInterner()
	var rp rawProfile
	var t *traceReader
	sawNodes := false
	var keys otherJSONKeys
	for k := range s.Members() {
		switch string(k) {
		case "traceEvents":
			t = newTraceReader(s)
			t.readEvents()
		case "nodes":
			sawNodes = true
			readNodes(s, in, &rp)
		case "samples":
			if c := s.Peek(); arrayOfObjects(s) || c >= '0' && c <= '9' {
				// Hermes's or a .heapprofile's samples, stackprof's count
				keys.set(k)
				s.SkipValue()
				break
			}
			readProfileMember(s, k, in, &rp)
		default:
			keys.set(k)
			if !readProfileMember(s, k, in, &rp) {
				s.SkipValue()
			}
		}
	}
	if err := scanEnd(s); err != nil {
		return nil, err
	}
	if err := keys.otherFormat(); err != nil && !sawNodes && (t == nil || len(t.profiles) == 0) {
		return nil, err
	}
	if t != nil {
		return traceProfiles(t)
	}
	if !sawNodes {
		return nil, fmt.Errorf("JSON object has neither \"nodes\" (V8 .cpuprofile) nor \"traceEvents\" (Chrome trace)")
	}
	if keys&keySamples != 0 {
		return nil, fmt.Errorf(`"samples" is not an array of node ids`)
	}
	p, err := rp.build(in.frames, FormatCPUProfile)
	if err != nil {
		return nil, err
	}
	return []*Profile{p}, nil
}

// otherJSONKeys records the top-level keys of a JSON object that tell
// other profile formats apart.
type otherJSONKeys uint16

const (
	keyHead        otherJSONKeys = 1 << iota // old .cpuprofile, .heapprofile
	keyTimestamps                            // old .cpuprofile
	keyStartTime                             // old .cpuprofile
	keySamples                               // samples that are objects
	keyStackFrames                           // Hermes, JSON Trace Event Format
	keyFrames                                // stackprof
	keyMode                                  // stackprof
	keyRaw                                   // stackprof
	keyMeta                                  // Firefox Profiler
	keyThreads                               // Firefox Profiler
	keySchema                                // speedscope
	keyProfileJSON                           // Firefox Profiler's old form
	keyDHAT                                  // DHAT
)

// set records key if it is one that tells formats apart.
func (o *otherJSONKeys) set(key []byte) {
	switch string(key) {
	case "head":
		*o |= keyHead
	case "timestamps":
		*o |= keyTimestamps
	case "startTime":
		*o |= keyStartTime
	case "samples":
		*o |= keySamples
	case "stackFrames":
		*o |= keyStackFrames
	case "frames":
		*o |= keyFrames
	case "mode":
		*o |= keyMode
	case "raw":
		*o |= keyRaw
	case "meta":
		*o |= keyMeta
	case "threads":
		*o |= keyThreads
	case "$schema":
		*o |= keySchema
	case "profileJSON":
		*o |= keyProfileJSON
	case "dhatFileVersion":
		*o |= keyDHAT
	}
}

// otherFormat names the format of a JSON object that holds no profile
// profdiff reads but whose keys tell what it is; nil when they do not.
func (o otherJSONKeys) otherFormat() error {
	has := func(k otherJSONKeys) bool { return o&k == k }
	const notRead = "not a format profdiff reads (it reads V8 .cpuprofile, Chrome traces, pprof and folded stacks)"
	switch {
	case has(keyHead) && (has(keyTimestamps) || has(keyStartTime)):
		return errors.New(`a V8 .cpuprofile in the old "head" form (as old Chrome and the v8-profiler addon wrote it), which profdiff does not read: a current Node (--cpu-prof) or Chrome writes the "nodes" form it reads`)
	case has(keyHead):
		return errors.New("a V8 sampling heap profile (.heapprofile): it measures memory, not time, and profdiff compares CPU time")
	case has(keyStackFrames | keySamples):
		return errors.New("a trace with samples and stackFrames (as Hermes and React Native write it): " + notRead)
	case has(keyFrames | keyRaw), has(keyFrames | keyMode):
		return errors.New("a stackprof (Ruby) profile: " + notRead + "; stackprof --stackcollapse writes folded stacks")
	case has(keyDHAT):
		return errors.New("a DHAT (Valgrind) heap profile: it measures memory, not time, and profdiff compares CPU time")
	case has(keyMeta | keyThreads), has(keyMeta | keyProfileJSON):
		return errors.New("a Firefox Profiler (Gecko) profile: " + notRead)
	case has(keySchema) && has(keyFrames):
		return errors.New("a speedscope profile: " + notRead)
	}
	return nil
}

// arrayOfObjects reports whether the next value is an array whose first
// element is an object.
func arrayOfObjects(s *jsonscan.Scanner) bool {
	if s.Peek() != '[' {
		return false
	}
	w := bytes.TrimLeft(s.Window(256), " \t\r\n")
	w = bytes.TrimLeft(w[1:], " \t\r\n")
	return len(w) > 0 && w[0] == '{'
}

// scanEnd checks that only white space follows the JSON value and returns
// the scan's error, if any, worded for the user.
func scanEnd(s *jsonscan.Scanner) error {
	if !s.AtEnd() {
		s.Fail("unexpected data after the end of the JSON value")
	}
	err := s.Err()
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrTooLarge) || errors.Is(err, errTruncatedGzip) || errors.Is(err, errCorruptGzip) {
		return err // the input, not its JSON, is at fault
	}
	return fmt.Errorf("malformed JSON %w", err)
}

func traceProfiles(t *traceReader) ([]*Profile, error) {
	ps, err := t.finish("")
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("trace holds no CPU profile (record it with the disabled-by-default-v8.cpu_profiler category, as the Performance panel does)")
	}
	return ps, nil
}

// busiest returns the index of the profile with the most on-CPU time (the
// first of equals).
func busiest(ps []*Profile) int {
	best, bestNs := 0, int64(-1)
	for i, p := range ps {
		if ns := p.OnCPUNs(); ns > bestNs {
			best, bestNs = i, ns
		}
	}
	return best
}

// choose picks the profile named by thread, or the busiest one.
func choose(ps []*Profile, thread string) (*Profile, error) {
	if len(ps) == 1 {
		if thread != "" && ps[0].Format != FormatTrace {
			ps[0].Warnings = append(ps[0].Warnings, Warning{Kind: WarnThreadIgnored,
				Message: fmt.Sprintf("a thread (%q) was asked for, but only traces hold threads: it was ignored", thread)})
		} else if thread != "" && !matchesThread(ps[0], thread) {
			return nil, fmt.Errorf("no profile matches thread %q; the trace holds: %s", thread, ps[0].Thread)
		}
		return ps[0], nil
	}
	cands := ps
	if thread != "" {
		cands = nil
		for _, p := range ps {
			if matchesThread(p, thread) {
				cands = append(cands, p)
			}
		}
		if len(cands) == 0 {
			var have []string
			for _, p := range ps {
				have = append(have, p.Thread.String())
			}
			return nil, fmt.Errorf("no profile matches thread %q; the trace holds: %s", thread, strings.Join(have, "; "))
		}
	}
	p := cands[busiest(cands)]
	how := "the most on-CPU time"
	if thread != "" {
		how = fmt.Sprintf("thread %q", thread)
		if len(cands) > 1 {
			how += fmt.Sprintf(" (%d match; took the one with the most on-CPU time)", len(cands))
		}
	}
	p.Warnings = append(p.Warnings, Warning{Kind: WarnThreadChosen,
		Message: fmt.Sprintf("the trace holds %d CPU profiles; chose %s by %s", len(ps), p.Thread, how)})
	return p, nil
}

// matchesThread reports whether p is the thread named by sel: a tid,
// "pid:tid", or a thread name.
func matchesThread(p *Profile, sel string) bool {
	if pid, tid, ok := strings.Cut(sel, ":"); ok {
		a, err1 := strconv.ParseInt(pid, 10, 64)
		b, err2 := strconv.ParseInt(tid, 10, 64)
		if err1 == nil && err2 == nil {
			return a == p.Thread.ProcessID && b == p.Thread.ThreadID
		}
	}
	if tid, err := strconv.ParseInt(sel, 10, 64); err == nil {
		return tid == p.Thread.ThreadID
	}
	return sel == p.Thread.Name
}
