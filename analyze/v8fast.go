package analyze

import (
	"bytes"

	"github.com/profdiff/profdiff/internal/jsonscan"
)

// This file is the fast path of the V8 node reader. Almost every node of a
// real profile has one shape: a flat callFrame object whose text repeats
// across the nodes that share the frame, a few integers, and arrays of
// integers and of {line, ticks}. fastNode reads such a node straight from the
// scanner's buffer, looks its callFrame up by its raw text, and hands
// anything else (escapes, floats, nulls, nesting, a node cut by the end of
// the buffer) back to the general reader, which reads the same node again
// from its start. A callFrame text met for the first time is read by the
// general reader too. Both paths must give the same result for any input they
// both accept; TestFastNodeMatchesGeneral holds them to it.

// fastWindow is how much input readNodes keeps buffered ahead of a node, so
// that the fast path sees whole nodes.
const fastWindow = 32 << 10

// nodeScratch holds a node's lists while the fast path reads it: nothing
// reaches the rawProfile until the node has been read whole.
type nodeScratch struct {
	children []int64
	ticks    [][2]int64 // line, ticks as read
}

// byteClass marks the bytes flatObjectEnd must look at: quotes, escapes,
// brackets and control characters.
var byteClass = func() (c [256]uint8) {
	for i := range 0x20 {
		c[i] = 1
	}
	for _, b := range `"\{}[]` {
		c[b] = 1
	}
	return c
}()

// nodeKey reads a node member's key at b[i] like jsonscan.PlainKey, first trying
// the keys Node and Chrome write, as whole literals.
func nodeKey(b []byte, i int) ([]byte, int) {
	if i+2 < len(b) && b[i] == '"' {
		var lit string
		switch b[i+1] {
		case 'i':
			lit = `"id":`
		case 'c':
			lit = `"callFrame":`
			if b[i+2] == 'h' {
				lit = `"children":`
			}
		case 'h':
			lit = `"hitCount":`
		case 'p':
			lit = `"positionTicks":`
			if b[i+2] == 'a' {
				lit = `"parent":`
			}
		}
		if n := len(lit); n > 0 && len(b)-i > n && string(b[i:i+n]) == lit {
			return b[i+1 : i+n-2], jsonscan.SkipSpace(b, i+n)
		}
	}
	return jsonscan.PlainKey(b, i)
}

// flatObjectEnd returns the end of the object at b[i] if it holds no nested
// object or array and no control character in a string, else -1.
func flatObjectEnd(b []byte, i int) int {
	inString := false
	for j := i + 1; j < len(b); j++ {
		c := b[j]
		if byteClass[c] == 0 {
			continue
		}
		switch {
		case c == '"':
			inString = !inString
		case c == '\\':
			if !inString {
				return -1
			}
			j++ // the escaped byte, which may be a quote
		case inString:
			if c < 0x20 {
				return -1
			}
			// a brace or bracket inside a string
		case c == '}':
			return j + 1
		case c == ' ' || c == '\n' || c == '\r' || c == '\t':
			// white space between members
		default:
			return -1
		}
	}
	return -1
}

// objectEnd returns the end of the object at b[i] if it is flat (see
// flatObjectEnd), or a position within it when it is not: the caller
// validates what it finds. Without escapes, a closing brace is outside every
// string exactly when an even number of quotes precede it, and both are
// found with the vectorized byte search.
func objectEnd(b []byte, i int) int {
	quotes := 0 // before from; each byte is looked at once
	for from := i + 1; ; {
		k := bytes.IndexByte(b[from:], '}')
		if k < 0 {
			return -1
		}
		end := from + k + 1
		seg := b[from:end]
		if bytes.IndexByte(seg, '\\') >= 0 {
			return flatObjectEnd(b, i)
		}
		if quotes += bytes.Count(seg, quote); quotes%2 == 0 {
			return end
		}
		from = end
	}
}

var quote = []byte{'"'}

// fastCallFrame finds the flat callFrame object at b[i] and returns its
// frame and end, or end -1. A callFrame text seen before is looked up; a new
// one is read by the general reader, so that both paths agree on it.
func (in *frameInterner) fastCallFrame(b []byte, i int) (int32, int) {
	end := objectEnd(b, i)
	if end < 0 {
		return 0, -1
	}
	// Only texts the general reader accepted whole are in rawFrames, so a
	// wrong end (a nested object) finds nothing there and fails below.
	raw := b[i:end]
	if f, ok := in.rawFrames[string(raw)]; ok {
		return f, end
	}
	s := jsonscan.New(bytes.NewReader(raw), len(raw)+1)
	f := readCallFrame(s, in)
	if s.Err() != nil || !s.AtEnd() {
		return 0, -1
	}
	in.rawFrames[string(raw)] = f
	return f, end
}

// plainInts reads an array of plain integers at b[i] into dst, returning
// the end, or -1.
func plainInts(b []byte, i int, dst []int64) ([]int64, int) {
	i, empty := jsonscan.OpenArray(b, i)
	if i < 0 || empty {
		return dst, i
	}
	for more := true; more; {
		v, j := jsonscan.PlainInt(b, jsonscan.SkipSpace(b, i))
		if j < 0 {
			return dst, -1
		}
		dst = append(dst, v)
		if i, more = jsonscan.NextMember(b, j, ']'); i < 0 {
			return dst, -1
		}
	}
	return dst, i
}

// plainTicks reads a positionTicks array of {line, ticks} objects at b[i]
// into dst, returning the end, or -1.
func plainTicks(b []byte, i int, dst [][2]int64) ([][2]int64, int) {
	i, empty := jsonscan.OpenArray(b, i)
	if i < 0 || empty {
		return dst, i
	}
	for more := true; more; {
		i = jsonscan.SkipSpace(b, i)
		if i >= len(b) || b[i] != '{' {
			return dst, -1
		}
		var t [2]int64
		i++
		for inner := true; inner; {
			key, v := jsonscan.PlainKey(b, i)
			if v < 0 {
				return dst, -1
			}
			var j int
			switch string(key) {
			case "line":
				t[0], j = jsonscan.PlainInt(b, v)
			case "ticks":
				t[1], j = jsonscan.PlainInt(b, v)
			default:
				j = jsonscan.PlainScalar(b, v)
			}
			if j < 0 {
				return dst, -1
			}
			if i, inner = jsonscan.NextMember(b, j, '}'); i < 0 {
				return dst, -1
			}
		}
		dst = append(dst, t)
		if i, more = jsonscan.NextMember(b, i, ']'); i < 0 {
			return dst, -1
		}
	}
	return dst, i
}

// fastNode reads the node object at the start of b (after white space) when
// it has the common shape, adding it to rp and returning the number of
// bytes read; it returns 0, having changed nothing in rp, otherwise.
func (in *frameInterner) fastNode(b []byte, rp *rawProfile, sc *nodeScratch) int {
	i := jsonscan.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return 0
	}
	n := rawNode{id: noID, frame: -1}
	parent, hits := noID, int64(0)
	sc.children, sc.ticks = sc.children[:0], sc.ticks[:0]
	j := jsonscan.SkipSpace(b, i+1)
	if j < len(b) && b[j] == '}' {
		return 0 // no id: the general reader words the error
	}
	i++
	for more := true; more; {
		key, v := nodeKey(b, i)
		if v < 0 {
			return 0
		}
		switch string(key) {
		case "id":
			n.id, j = jsonscan.PlainInt(b, v)
		case "callFrame":
			if v >= len(b) || b[v] != '{' {
				return 0
			}
			n.frame, j = in.fastCallFrame(b, v)
		case "hitCount":
			hits, j = jsonscan.PlainInt(b, v)
			if hits < 0 || hits > 1<<31-1 {
				return 0
			}
		case "children":
			sc.children, j = plainInts(b, v, sc.children[:0])
		case "positionTicks":
			sc.ticks, j = plainTicks(b, v, sc.ticks[:0])
		case "parent":
			parent, j = jsonscan.PlainInt(b, v)
		default:
			j = jsonscan.PlainScalar(b, v)
		}
		if j < 0 {
			return 0
		}
		if i, more = jsonscan.NextMember(b, j, '}'); i < 0 {
			return 0
		}
	}
	if n.id == noID || n.frame < 0 {
		return 0
	}
	index := int32(rp.nodes.len())
	for _, c := range sc.children {
		rp.children.add(c)
	}
	for _, t := range sc.ticks {
		addLineTick(&rp.ticks, index, t[0], t[1])
	}
	n.childEnd = int32(rp.children.len())
	rp.addNode(n, parent, int32(hits))
	return i
}
