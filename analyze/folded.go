package analyze

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
)

// This file reads folded stacks: one line per stack, its frames root first
// separated by ';', then a space and a count ("main;parse;lex 42"), as
// Brendan Gregg's stackcollapse scripts write for Linux perf, and as
// async-profiler's collapsed output, py-spy's raw output and rbspy do.

// Units of a folded file's counts (ParseOptions.FoldedUnit).
const (
	FoldedSamples = "samples" // each count is samples taken every FoldedIntervalNs
	FoldedNs      = "ns"
	FoldedUs      = "us"
	FoldedMs      = "ms"
)

// DefaultFoldedIntervalNs is the sampling interval a folded file's sample
// counts stand for when none is given: 10 ms, async-profiler's and
// py-spy's default rate of 100 Hz.
const DefaultFoldedIntervalNs = 10_000_000

// maxFoldedLine bounds one line of a folded file.
const maxFoldedLine = 16 << 20

// MaxFoldedDepth is the most frames a stack of a folded file keeps: a
// deeper stack is cut to its innermost MaxFoldedDepth frames (its leaf and
// callers up to that depth, as perf's --max-stack and Go's runtime cut), and
// a warning says how many stacks were cut. Real stacks are far shallower; a
// deeper one is a runaway recursion or a hostile file, which would otherwise
// make every report as large as its depth.
const MaxFoldedDepth = 10_000

// looksFolded reports whether the start of an input is a folded-stack
// line: printable text whose first line ends in a space and a number.
func looksFolded(head []byte) bool {
	if bytes.HasPrefix(head, []byte("# profdiff folded stacks")) {
		return true // profdiff's own, whatever the length of its first stack
	}
	if !textButNUL(head) {
		return false // a NUL in text is the folded reader's to report, by line
	}
	line, _ := firstFoldedLine(head)
	if perfReportEntry(string(line)) {
		return true // perf report --stdio -g folded
	}
	if len(line) < 3 {
		return false
	}
	i := bytes.LastIndexByte(line, ' ')
	if i <= 0 || i == len(line)-1 {
		return false
	}
	// Anything a count might have been meant to be: the reader says on
	// which line it is not one.
	return numberLike(string(line[i+1:])) && mostlyFolded(head)
}

// foldedSampleLines is how many lines at the start of an input
// mostlyFolded judges.
const foldedSampleLines = 64

// mostlyFolded reports whether at least half of the first whole lines of
// head (up to foldedSampleLines of them, besides blank and comment lines)
// read as folded stacks: a stack and a count, or one of perf report's lines.
// A header of another text format may end in a number ("threadcreate
// profile: total 7"); what follows it is no stack. A line cut by the end
// of head is not judged, so a file of one long stack is judged by its
// first line alone.
func mostlyFolded(head []byte) bool {
	good, bad := 0, 0
	for good+bad < foldedSampleLines {
		line, rest, ok := bytes.Cut(head, []byte("\n"))
		if !ok {
			break
		}
		head = rest
		l := string(bytes.TrimRight(line, "\r"))
		switch {
		case strings.TrimSpace(l) == "" || foldedComment(l):
		case foldedLineShape(l):
			good++
		default:
			bad++
		}
	}
	return good >= bad
}

// foldedLineShape reports whether a line is shaped as a line of folded
// stacks: perf report's entry or "count stack" lines, or text ending in a
// space and a number.
func foldedLineShape(l string) bool {
	if perfReportEntry(l) {
		return true
	}
	if _, _, ok := countFirst(l); ok {
		return true
	}
	i := strings.LastIndexByte(l, ' ')
	return i > 0 && i < len(l)-1 && numberLike(l[i+1:])
}

// numberLike reports whether s reads as a number of any notation
// ("1e-300", "0x1p20"), beginning with a digit, sign or point.
func numberLike(s string) bool {
	if s == "" || strings.IndexByte("0123456789.+-", s[0]) < 0 {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// textButNUL reports whether head's start is text, allowing NUL bytes
// (but not only those): the start of a folded file with a NUL in it, not
// a binary format, whose other control bytes show within 512 bytes.
func textButNUL(head []byte) bool {
	n := min(len(head), 512)
	text := false
	for _, c := range head[:n] {
		switch {
		case c == 0:
		case c < 0x09 || (c > 0x0d && c < 0x20):
			return false
		case c > ' ':
			text = true
		}
	}
	return text
}

// firstFoldedLine returns the first line of head that is neither blank nor
// a comment (perf report's header comes first), and whether head holds its
// end: a line break, else head ends the input or was cut inside the line.
func firstFoldedLine(head []byte) (line []byte, ends bool) {
	line, rest, ends := bytes.Cut(head, []byte("\n"))
	line = bytes.TrimRight(line, "\r")
	for (len(bytes.TrimSpace(line)) == 0 || foldedComment(string(line))) && len(rest) > 0 {
		line, rest, ends = bytes.Cut(rest, []byte("\n"))
		line = bytes.TrimRight(line, "\r")
	}
	return line, ends
}

// foldedLineCut reports whether head, a full window of an input that goes
// on, was cut inside the line that looksFolded judges: a deep stack's line
// is longer than a detection window, so that line is read to its end, up to
// maxFoldedLine bytes (the longest line readFolded reads), before judging.
func foldedLineCut(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return false
	}
	_, ends := firstFoldedLine(head)
	return !ends
}

// readFolded reads folded stacks into a profile; perf report --stdio -g
// folded's "count stack" lines under its percentage lines read too.
//
// A comment line before the first stack that says "unit=ns", "unit=us",
// "unit=ms" or "unit=samples" (profdiff --format folded writes one) sets
// the unit, unless opts.FoldedUnitSet.
func readFolded(r io.Reader, opts ParseOptions) (*Profile, error) {
	f := &foldedReader{opts: opts, p: &Profile{Format: FormatFolded}, frames: map[string]int32{}, sampleOf: []int32{-1}}
	if err := f.setUnit(opts.FoldedUnit); err != nil {
		return nil, err
	}
	f.p.Frames = []Frame{{Kind: KindRoot, Name: "(root)"}}
	f.p.Nodes = []Node{{Frame: 0, Parent: -1}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxFoldedLine)
	for sc.Scan() {
		f.lineNo++
		if err := f.line(strings.TrimRight(sc.Text(), "\r")); err != nil {
			var m malformedLine
			if !errors.As(err, &m) {
				return nil, &Error{Line: f.lineNo, Err: err}
			}
			if f.bad == 0 {
				f.firstBad = &Error{Line: f.lineNo, Err: m.err}
				f.firstBadText = clip(strings.TrimRight(sc.Text(), "\r"))
			}
			if f.bad++; len(f.badLines) < maxBadLinesNamed {
				f.badLines = append(f.badLines, f.lineNo)
			}
			if f.bad > maxBadLinesEarly && f.bad > f.stacks {
				return nil, f.firstBad // not folded stacks: stop reading
			}
		}
	}
	lineNo := f.lineNo
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, atLine(lineNo+1, "longer than %d bytes, the longest line of folded stacks read", maxFoldedLine)
		}
		return nil, err
	}
	if f.bad > 0 {
		if f.bad >= f.stacks {
			return nil, f.firstBad // most lines are not stacks
		}
		f.p.Warnings = append(f.p.Warnings, f.badLinesWarning())
	}
	if f.twoCounts > 0 && f.twoCounts == f.stacks {
		return nil, &Error{Line: f.firstTwo, Err: errors.New("two counts on every line (the differential form of two profiles): give each side's stacks on their own")}
	}
	if len(f.p.Samples) == 0 {
		return nil, fmt.Errorf("folded stacks with no sample")
	}
	if f.cut > 0 {
		msg := fmt.Sprintf("%d stacks deeper than %d frames were cut to their innermost %d frames", f.cut, MaxFoldedDepth, MaxFoldedDepth)
		if f.cut == 1 {
			msg = fmt.Sprintf("1 stack deeper than %d frames was cut to its innermost %d frames", MaxFoldedDepth, MaxFoldedDepth)
		}
		f.p.Warnings = append(f.p.Warnings, Warning{Kind: WarnDeepStacksCut, Message: msg})
	}
	f.children, f.sampleOf, f.frames = nodeTable{}, nil, nil // free before the reordering
	inPreorder(f.p)
	return f.p, nil
}

// inPreorder renumbers a folded profile's nodes into depth-first preorder,
// each node's children in the order they were read (as Profile.WalkOrder
// would list them), and sorts its samples by node, so that aggregating it
// needs no walk order (16 bytes a node while it is built) and can read
// each node's self time from the samples as it walks, where it would
// otherwise keep an array of 8 bytes a node. A file of 2 M distinct stacks
// has 10 M nodes. It needs 8 bytes a node, and every node's parent must
// come before it, as the reader makes them.
func inPreorder(p *Profile) {
	nodes := p.Nodes
	n := len(nodes)
	// size is each node's subtree size, then the next free place for its
	// next child's subtree.
	size := make([]int32, n)
	for i := n - 1; i >= 0; i-- {
		size[i]++
		if i > 0 {
			size[nodes[i].Parent] += size[i]
		}
	}
	pos := make([]int32, n) // each node's place in preorder
	size[0] = 1
	for i := 1; i < n; i++ {
		par, sz := nodes[i].Parent, size[i]
		pos[i] = size[par]
		size[par] += sz
		size[i] = pos[i] + 1
	}
	for i := 1; i < n; i++ {
		nodes[i].Parent = pos[nodes[i].Parent]
	}
	for i := range p.Samples {
		p.Samples[i].Node = pos[p.Samples[i].Node]
	}
	// Move each node to its place, following the permutation's cycles.
	for i := range n {
		for j := pos[i]; j != int32(i); j = pos[i] {
			nodes[i], nodes[j] = nodes[j], nodes[i]
			pos[i], pos[j] = pos[j], pos[i]
		}
	}
	slices.SortFunc(p.Samples, func(a, b Sample) int { return cmp.Compare(a.Node, b.Node) })
}

// foldedReader is the state of readFolded: the profile so far, the unit
// of its counts, and its frames and nodes by name and by parent.
//
// A file repeats a stack on as many lines as it likes, so the profile has
// one sample per distinct stack, weighing all of its lines, and memory
// follows the distinct stacks, not the lines.
type foldedReader struct {
	opts     ParseOptions
	p        *Profile
	unit     string
	unitNs   float64
	frames   map[string]int32
	children nodeTable // (parent node, frame) -> node
	sampleOf []int32   // node -> index of its sample in p.Samples, -1 for none
	cut      int       // stacks cut to MaxFoldedDepth frames
	lineNo   int       // the line being read, from 1
	// bad counts the malformed lines skipped, badLines the first of them,
	// and firstBad is the first one's error.
	bad          int
	badLines     []int
	firstBad     *Error
	firstBadText string
	// stacks counts the lines of stacks, twoCounts those whose stack ends
	// in a number too, as the differential form's do ("main;f 3 5"),
	// firstTwo the first of those: a frame may end in a number, but if
	// every line does, the file is the differential form.
	stacks, twoCounts, firstTwo int
}

// malformedLine is the error of a line that is neither a stack and its
// count nor any other line folded files hold: skipped, with a warning,
// when most lines are stacks.
type malformedLine struct{ err error }

func (m malformedLine) Error() string { return m.err.Error() }

const (
	// maxBadLinesNamed is how many malformed lines' numbers the warning names.
	maxBadLinesNamed = 5
	// maxBadLinesEarly is how many malformed lines, when they outnumber
	// the stacks, end reading before the end of the input.
	maxBadLinesEarly = 1000
)

// badLinesWarning says which malformed lines were skipped and why the
// first was.
func (f *foldedReader) badLinesWarning() Warning {
	nums := make([]string, len(f.badLines))
	for i, n := range f.badLines {
		nums[i] = strconv.Itoa(n)
	}
	which := strings.Join(nums, ", ")
	if f.bad > len(f.badLines) {
		which += ", ..."
	}
	msg := fmt.Sprintf("skipped %d lines that are not a stack and a count (lines %s; line %d is %q)", f.bad, which, f.firstBad.Line, f.firstBadText)
	if f.bad == 1 {
		msg = fmt.Sprintf("skipped 1 line that is not a stack and a count (line %s: %q)", which, f.firstBadText)
	}
	return Warning{Kind: WarnMalformedLines, Message: msg}
}

// setUnit sets what the counts are: samples or times in ns, us or ms.
func (f *foldedReader) setUnit(u string) error {
	switch u {
	case "", FoldedSamples:
		f.unitNs = float64(f.opts.FoldedIntervalNs)
		if f.unitNs <= 0 {
			f.unitNs = DefaultFoldedIntervalNs
		}
	case FoldedNs:
		f.unitNs = 1
	case FoldedUs:
		f.unitNs = 1e3
	case FoldedMs:
		f.unitNs = 1e6
	default:
		return fmt.Errorf("folded unit %q: choose samples, ns, us or ms", u)
	}
	f.unit = u
	f.p.IntervalNs = int64(f.unitNs)
	if !f.samples() {
		f.p.IntervalNs = 0 // counts are times: the interval is not known
	}
	return nil
}

// samples reports whether the counts are numbers of samples.
func (f *foldedReader) samples() bool { return f.unit == "" || f.unit == FoldedSamples }

// line reads one line: a stack and its count, a comment (which may set
// the unit) or one of perf report's other lines.
func (f *foldedReader) line(line string) error {
	if strings.TrimSpace(line) == "" {
		return nil
	}
	if c := strings.IndexByte(line, 0); c >= 0 {
		return fmt.Errorf("a NUL byte at column %d: folded stacks are text (is this a binary file?)", c+1)
	}
	if foldedComment(line) {
		if _, u, ok := strings.Cut(line, "unit="); ok && len(f.p.Samples) == 0 && !f.opts.FoldedUnitSet {
			_ = f.setUnit(strings.Fields(u + " ")[0]) // an unknown unit leaves the default
		}
		return nil
	}
	if perfReportEntry(line) {
		return nil
	}
	if st, n, ok := countFirst(line); ok {
		line = st + " " + n // perf report -g folded: "count stack"
	}
	i := strings.LastIndexByte(line, ' ')
	if i <= 0 {
		return malformedLine{fmt.Errorf("expected \"frame;frame;... count\", found %q", clip(line))}
	}
	count, err := f.count(line[i+1:])
	if err != nil {
		return malformedLine{err}
	}
	stack := strings.TrimRight(line[:i], " ")
	f.stacks++
	if j := strings.LastIndexByte(stack, ' '); j > 0 && foldedCount(stack[j+1:], true) {
		if f.twoCounts++; f.twoCounts == 1 {
			f.firstTwo = f.lineNo
		}
	}
	node := f.node(stack)
	if node == 0 || count == 0 {
		return nil
	}
	wf := count*f.unitNs + 0.5
	if wf >= 1<<60 || float64(f.p.WallNs)+wf >= 1<<60 {
		return fmt.Errorf("the count %s adds up to more time than a profile holds", clip(line[i+1:]))
	}
	w := int64(wf)
	if s := f.sampleOf[node]; s >= 0 {
		f.p.Samples[s].Weight += w
	} else {
		f.sampleOf[node] = int32(len(f.p.Samples))
		f.p.Samples = append(f.p.Samples, Sample{Node: node, Weight: w})
	}
	f.p.WallNs += w
	if f.samples() {
		f.p.SampleCount += int64(count)
	} else {
		f.p.SampleCount++
	}
	return nil
}

// node returns the node of a stack "outer;...;leaf", making its frames and
// nodes; 0, the root, for a stack without frames. A stack of more than
// MaxFoldedDepth frames keeps its innermost MaxFoldedDepth and is counted
// in f.cut.
func (f *foldedReader) node(stack string) int32 {
	if strings.Count(stack, ";") >= MaxFoldedDepth {
		if skip := foldedDepth(stack) - MaxFoldedDepth; skip > 0 {
			f.cut++
			for ; skip > 0; stack = stack[strings.IndexByte(stack, ';')+1:] {
				if stack[0] != ';' {
					skip--
				}
			}
		}
	}
	node := int32(0)
	for stack != "" {
		name, rest, _ := strings.Cut(stack, ";")
		stack = rest
		if name == "" {
			continue
		}
		fi, ok := f.frames[name]
		if !ok {
			name = strings.Clone(name) // not the whole line
			fi = int32(len(f.p.Frames))
			f.frames[name] = fi
			f.p.Frames = append(f.p.Frames, foldedFrame(name))
		}
		slot, child := f.children.find(f.p.Nodes, node, fi)
		if child < 0 {
			child = int32(len(f.p.Nodes))
			f.p.Nodes = append(f.p.Nodes, Node{Frame: fi, Parent: node})
			f.children.add(f.p.Nodes, slot, child)
			f.sampleOf = append(f.sampleOf, -1)
		}
		node = child
	}
	return node
}

// nodeTable finds a node by its parent and frame: an open-addressing hash
// table of node ids whose keys are the nodes themselves, 4 bytes a slot
// and at most 8 a node, where a map of (parent, frame) pairs took 20 or
// more: 2 M distinct stacks of 4-8 frames are 10 M nodes.
type nodeTable struct {
	slots []int32 // node id + 1; 0 for an empty slot
	used  int
}

// nodeHash mixes a node's parent and frame.
func nodeHash(parent, frame int32) uint64 {
	h := (uint64(uint32(parent))<<32 | uint64(uint32(frame))) * 0x9E3779B97F4A7C15
	return h ^ h>>29
}

// find returns the node with parent and frame (-1 when there is none) and
// the slot where it is or would go.
func (t *nodeTable) find(nodes []Node, parent, frame int32) (slot int, node int32) {
	if len(t.slots) == 0 {
		return -1, -1
	}
	mask := len(t.slots) - 1
	for i := int(nodeHash(parent, frame)) & mask; ; i = (i + 1) & mask {
		id := t.slots[i] - 1
		if id < 0 {
			return i, -1
		}
		if n := nodes[id]; n.Parent == parent && n.Frame == frame {
			return i, id
		}
	}
}

// add puts node, which find did not find, in slot (as find returned it),
// growing the table when it is over 3/4 full.
func (t *nodeTable) add(nodes []Node, slot int, node int32) {
	if slot >= 0 && (t.used+1)*4 <= len(t.slots)*3 {
		t.slots[slot] = node + 1
		t.used++
		return
	}
	old := t.slots
	t.slots = make([]int32, max(1024, 2*len(old)))
	t.used = 0
	for _, id := range old {
		if id > 0 {
			t.insert(nodes, id-1)
		}
	}
	t.insert(nodes, node)
}

// insert puts node in its first free slot.
func (t *nodeTable) insert(nodes []Node, node int32) {
	mask := len(t.slots) - 1
	n := nodes[node]
	i := int(nodeHash(n.Parent, n.Frame)) & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = node + 1
	t.used++
}

// foldedDepth returns the number of frames of a stack: its names between
// ';', not counting empty ones.
func foldedDepth(stack string) int {
	n := 0
	for stack != "" {
		name, rest, _ := strings.Cut(stack, ";")
		if name != "" {
			n++
		}
		stack = rest
	}
	return n
}

// count reads a line's count. Counts are decimal integers ("42"); times
// (units ns, us and ms) may have a decimal fraction ("0.5"); no sign,
// exponent or other notation.
func (f *foldedReader) count(s string) (float64, error) {
	if !foldedCount(s, !f.samples()) {
		if f.samples() {
			return 0, fmt.Errorf("the count %q is not a number of samples: counts are decimal integers such as 42 (times in ns, us or ms may have a fraction: 0.5)", clip(s))
		}
		return 0, fmt.Errorf("the count %q is not a time in %s: counts are decimal numbers such as 42 or 0.5", clip(s), f.unit)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("the count %q is too large", clip(s))
	}
	return v, nil
}

// foldedCount reports whether s is a count: decimal digits, then, if
// fraction, optionally '.' and more digits.
func foldedCount(s string, fraction bool) bool {
	whole, frac, dot := strings.Cut(s, ".")
	if dot && (!fraction || frac == "") {
		return false
	}
	return whole != "" && strings.Trim(whole, "0123456789") == "" && strings.Trim(frac, "0123456789") == ""
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// clip shortens text quoted in an error.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// foldedFrame makes a frame of a folded stack's name. A trailing
// " (file:line)" (py-spy, rbspy) or "_[k]" (perf's kernel frames) is taken
// apart, and so is profdiff's trailing " [package]", which names the
// package; else the package comes from the name where it says one: Go's
// import-path.Func, C++ and Rust's module::func, Java's package.Class.method,
// else from the file, else "(unknown)".
func foldedFrame(name string) Frame {
	// profdiff's own "name [package]".
	pkg := ""
	if i := strings.LastIndex(name, " ["); i > 0 && strings.HasSuffix(name, "]") {
		if p := name[i+2 : len(name)-1]; p != "" && !strings.ContainsAny(p, " []") && !strings.HasPrefix(p, "abi:") {
			pkg, name = p, name[:i]
		}
	}
	f := foldedFrameName(name)
	switch pkg {
	case "":
	case PackageGC:
		f.Kind, f.Package = KindGC, PackageGC
	case PackageNative:
		f.Kind, f.Package = KindNative, PackageNative
	default:
		f.Package = pkg
	}
	return f
}

// foldedFrameName makes a frame of a folded stack's name without
// profdiff's " [package]".
func foldedFrameName(name string) Frame {
	f := Frame{Kind: KindCode, Name: name}
	if strings.HasSuffix(name, ")") {
		if i := strings.LastIndex(name, " ("); i > 0 {
			loc := name[i+2 : len(name)-1]
			if j := strings.LastIndexByte(loc, ':'); j > 0 {
				if n, err := strconv.Atoi(loc[j+1:]); err == nil {
					f.Name, f.File, f.Line = name[:i], loc[:j], int32(n)
				}
			}
		}
	}
	switch {
	case strings.HasSuffix(f.Name, "_[k]"):
		f.Name, f.Package, f.Kind = strings.TrimSuffix(f.Name, "_[k]"), "(kernel)", KindNative
	case strings.HasSuffix(f.Name, "_[j]"), strings.HasSuffix(f.Name, "_[i]"):
		f.Name = f.Name[:len(f.Name)-4]
	}
	switch {
	case f.File != "":
		dir, file := path.Split(strings.ReplaceAll(f.File, "\\", "/"))
		if d := path.Base(strings.TrimSuffix(dir, "/")); dir != "" && d != "." && d != "/" {
			f.Package = d
		} else {
			f.Package = strings.TrimSuffix(file, path.Ext(file))
		}
	case f.Package != "":
	case strings.Contains(f.Name, "::"):
		f.Package = f.Name[:strings.LastIndex(f.Name, "::")]
	case !strings.Contains(f.Name, "/") && strings.Count(f.Name, ".") >= 2 && !strings.ContainsAny(f.Name, " <("):
		// Java's package.Class.method: the package is what precedes
		// the class.
		cls := strings.LastIndexByte(f.Name, '.')
		f.Package = f.Name[:strings.LastIndexByte(f.Name[:cls], '.')]
	case strings.Contains(f.Name, ".") && !strings.ContainsAny(f.Name, " <"):
		f.Package = GoPackage(f.Name) // Go's import/path.Func, Python's module.func
		if f.Package == PackageNative {
			f.Package = PackageUnknown
		}
	default:
		f.Package = PackageUnknown
	}
	return f
}

// foldedComment reports whether a line is a comment: '#' then a space or
// nothing, as perf report's header and profdiff's own first line, or "//"
// (speedscope's fixtures have both). A stack may begin with a frame named
// "#scan" (JavaScript's private methods).
func foldedComment(line string) bool {
	return line == "#" || strings.HasPrefix(line, "# ") || strings.HasPrefix(line, "#\t") || strings.HasPrefix(line, "//")
}

// perfReportEntry reports whether a line is one of perf report's entry
// lines ("    79.66%  prog  prog  [.] slow"), which head each symbol's
// stacks in "perf report --stdio -g folded" output.
func perfReportEntry(line string) bool {
	f := strings.Fields(line)
	if len(f) < 2 || !strings.HasSuffix(f[0], "%") || isNumber(f[len(f)-1]) {
		return false // a stack ends in its count: "0.5%;main 3" is one
	}
	_, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "%"), 64)
	return err == nil
}

// countFirst splits perf report's "count stack" lines (the count first);
// ok is false for lines that end in their count.
func countFirst(line string) (stack, num string, ok bool) {
	if i := strings.LastIndexByte(line, ' '); i > 0 && isNumber(line[i+1:]) {
		return "", "", false
	}
	trimmed := strings.TrimLeft(line, " \t")
	sp := strings.IndexAny(trimmed, " \t")
	if sp <= 0 {
		return "", "", false
	}
	if _, err := strconv.ParseUint(trimmed[:sp], 10, 64); err != nil {
		return "", "", false
	}
	return strings.TrimSpace(trimmed[sp:]), trimmed[:sp], true
}
