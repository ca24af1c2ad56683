package analyze

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
)

// How many bytes of live memory reading and aggregating a profile takes
// per byte of its file, by what the file holds, as measured: a folded file
// of 2 M distinct stacks (72 MB, 10 M nodes) keeps some 270 MB live while
// it is read, and some 650 MB while it is aggregated with its calls (the
// sums of 9 M calls), while the V8 reader streams (the 57 MiB tsc profile
// peaks at 31 MB) and pprof is read whole before it is decoded. A gzipped
// file is taken to have been a fifth of its text.
const (
	foldedCostPerByte     = 4
	foldedEdgeCostPerByte = 5 // more, when the calls are summed
	pprofCostPerByte      = 3
	jsonCostPerByte       = 1
	gzipRatio             = 5
)

// ReadCost estimates the memory, in bytes, that reading and aggregating the
// profile in the named file with opts takes, from its size and the first
// bytes of what it holds, so that a program reading several can read fewer
// at once when they are large. It is an estimate, not a bound: 0 when the
// file cannot be opened (reading it will say why).
func ReadCost(path string, opts AggregateOptions) int64 {
	size, costPerByte := sniff(path)
	if costPerByte == foldedCostPerByte && opts.Edges {
		costPerByte += foldedEdgeCostPerByte
	}
	return size * costPerByte
}

// InputSize estimates the size of the profile in the named file as read:
// its size, or for a gzipped file the size of its text as its trailer
// says, at least a few times the file's; 0 when it cannot be opened.
func InputSize(path string) int64 {
	size, _ := sniff(path)
	return size
}

// sniff returns the estimated size of a profile file's content and the
// memory reading it takes per byte of that, by its first bytes. A
// gzipped file's content is the size its trailer gives, at least
// gzipRatio times the file.
func sniff(path string) (size, costPerByte int64) {
	f, err := openProfile(path)
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, 0
	}
	size = st.Size()
	br := bufio.NewReaderSize(f, 64<<10)
	var in *bufio.Reader = br
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return size, 1
		}
		// A gzip member ends in its text's size (mod 4 GiB): a folded
		// file of repeated stacks shrinks far more than gzipRatio.
		var tail [4]byte
		text := int64(0)
		if _, err := f.ReadAt(tail[:], size-4); err == nil {
			text = int64(binary.LittleEndian.Uint32(tail[:]))
		}
		size = max(size*gzipRatio, text)
		in = bufio.NewReaderSize(zr, 64<<10)
	}
	first, ok, _ := firstByte(in)
	head, _ := in.Peek(64 << 10)
	switch {
	case !ok:
		return 0, 0
	case first == '{' || first == '[':
		return size, jsonCostPerByte
	case looksFolded(head) || len(head) == 64<<10 && foldedLineCut(head):
		return size, foldedCostPerByte
	}
	return size, pprofCostPerByte
}
