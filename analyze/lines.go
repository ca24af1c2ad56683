package analyze

import (
	"cmp"
	"maps"
	"math/bits"
	"slices"
)

// LineTotal is a frame's time on one line: the weight of the samples in
// whose stack the frame was on the line, each sample counted once.
type LineTotal struct {
	Frame int32 // index into Profile.Frames
	Line  int32 // 1-based
	Ns    int64
}

// addLineTotals adds a sample's weight to each (frame, line) of its stack
// of locations (leaf first), once each.
func (b *pprofBuilder) addLineTotals(locs []int32, w int64) {
	b.seen = b.seen[:0]
	for _, li := range locs {
		loc := b.pp.locs[li]
		lines := b.pp.lines[loc.lineStart:loc.lineEnd]
		fs := b.framesOf(li) // outermost first; lines are innermost first
		if len(fs) != len(lines) {
			continue
		}
		for j, ln := range lines {
			if ln.line <= 0 || ln.line >= 1<<31 {
				continue
			}
			k := [2]int32{fs[len(fs)-1-j], int32(ln.line)}
			if slices.Contains(b.seen, k) {
				continue
			}
			b.seen = append(b.seen, k)
			b.lineTotals[k] += w
		}
	}
}

// sortedLineTotals lists the totals by frame and line.
func sortedLineTotals(m map[[2]int32]int64) []LineTotal {
	if len(m) == 0 {
		return nil
	}
	keys := slices.SortedFunc(maps.Keys(m), func(a, b [2]int32) int {
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return cmp.Compare(a[1], b[1])
	})
	out := make([]LineTotal, len(keys))
	for i, k := range keys {
		out[i] = LineTotal{Frame: k[0], Line: k[1], Ns: m[k]}
	}
	return out
}

// lineTimes spreads each node's self time over the lines its ticks were on
// (V8's positionTicks, pprof's leaf lines) in proportion to the ticks,
// exactly (the parts add up to the node's self time), and sums by function
// and line. A function with lines keeps the self time of its nodes that
// recorded none on line 0, unattributed, so that its lines add up to its
// self time. Totals come from Profile.LineTotals. Frames mapped through a
// source map keep no lines: their ticks are the bundle's lines.
func lineTimes(p *Profile, fnKey []int32, k *keyer, self []int64) ([]LineTime, []BundledLine) {
	if fnKey == nil || (len(p.LineTicks) == 0 && len(p.LineTotals) == 0) {
		return nil, nil
	}
	acc := lineAcc{}
	attributed, bundled := acc.spreadTicks(p, fnKey, self)
	hasLines := map[int32]bool{}
	for x := range acc {
		hasLines[x.fn] = true
	}
	for n, fn := range fnKey {
		if fn >= 0 && self[n] > 0 && hasLines[fn] && !attributed[int32(n)] && !mappedLines(p, int32(n)) {
			acc.add(fn, 0, self[n], self[n])
		}
	}
	acc.addTotals(p, fnKey)
	rank := k.ranks(dimFunction)
	keys := slices.SortedFunc(maps.Keys(acc), func(a, b funcLine) int {
		if c := cmp.Compare(rank[a.fn], rank[b.fn]); c != 0 {
			return c
		}
		return cmp.Compare(a.line, b.line)
	})
	out := make([]LineTime, len(keys))
	for i, x := range keys {
		v := acc[x]
		out[i] = LineTime{Function: k.keys[dimFunction][x.fn], Line: x.line, Self: v[0], Total: v[1]}
	}
	var bl []BundledLine
	for fn := range bundled {
		bl = append(bl, BundledLine{Function: k.keys[dimFunction][fn], Minified: true})
	}
	slices.SortFunc(bl, func(a, b BundledLine) int { return CompareKeys(a.Function, b.Function) })
	return out, bl
}

// funcLine is a function (its key's index) and a line of it.
type funcLine struct{ fn, line int32 }

// lineAcc sums self and total time by function and line.
type lineAcc map[funcLine]*[2]int64

func (acc lineAcc) add(fn, line int32, self, total int64) {
	x := acc[funcLine{fn, line}]
	if x == nil {
		x = new([2]int64)
		acc[funcLine{fn, line}] = x
	}
	x[0] += self
	x[1] += total
}

// mappedLines reports whether node n's frame was mapped through a source
// map that kept no lines: its ticks are the bundle's lines.
func mappedLines(p *Profile, n int32) bool {
	f := &p.Frames[p.Nodes[n].Frame]
	return f.Generated != nil && !f.LinesMapped
}

// spreadTicks spreads each node's self time over the lines of its ticks,
// exactly: each line gets the time up to its ticks so far less the time
// given so far. It returns the nodes that got lines, and the functions
// whose ticks were a bundle's lines (left out).
func (acc lineAcc) spreadTicks(p *Profile, fnKey []int32, self []int64) (attributed, bundled map[int32]bool) {
	bundled = map[int32]bool{}
	sums := map[int32]int64{} // node -> its ticks
	for _, lt := range p.LineTicks {
		sums[lt.Node] += int64(lt.Ticks)
	}
	given := map[int32]*[2]int64{} // node -> ticks so far, time given so far
	for _, lt := range p.LineTicks {
		n := lt.Node
		fn := fnKey[n]
		if fn < 0 || self[n] == 0 || sums[n] == 0 {
			continue
		}
		if mappedLines(p, n) {
			bundled[fn] = true
			continue
		}
		st := given[n]
		if st == nil {
			st = new([2]int64)
			given[n] = st
		}
		st[0] += int64(lt.Ticks)
		upTo := mulDiv(self[n], st[0], sums[n])
		acc.add(fn, lt.Line, upTo-st[1], 0)
		st[1] = upTo
	}
	attributed = make(map[int32]bool, len(given))
	for n := range given {
		attributed[n] = true
	}
	return attributed, bundled
}

// addTotals adds Profile.LineTotals (pprof's total time by frame and
// line) to the functions of their frames.
func (acc lineAcc) addTotals(p *Profile, fnKey []int32) {
	if len(p.LineTotals) == 0 {
		return
	}
	frameFn := make(map[int32]int32, len(p.Frames))
	for n, fn := range fnKey {
		if fn >= 0 {
			frameFn[p.Nodes[n].Frame] = fn
		}
	}
	for _, lt := range p.LineTotals {
		if fn, ok := frameFn[lt.Frame]; ok {
			acc.add(fn, lt.Line, 0, lt.Ns)
		}
	}
}

// BundledLine is a function whose samples' lines were recorded in a
// bundle that its source map maps it out of: the lines are the bundle's,
// not the function's source's.
type BundledLine struct {
	Function Key
	// Minified says the bundle's lines each map to several original
	// lines (minified code), so that they say little of where in the
	// function the time went. Symbolication maps the lines of a bundle
	// that maps each line to one (see Frame.LinesMapped), so every
	// function left here is so today.
	Minified bool
}

// mulDiv returns a*b/c without overflow, for a, b >= 0 and b <= c.
func mulDiv(a, b, c int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c))
	return int64(q)
}
