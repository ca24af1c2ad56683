package jsonwrite

import "fmt"

// Section returns a Writer that writes into memory of its own what w would
// write next from its present place, so that a large part of a document
// can be written on another goroutine while w goes on; Join then adds it
// to w. w must be at the same place when the section is joined as when
// it was made: the same depth, with a value written at that depth both
// times or neither (so the section's first value is the next member of
// the same object, or element of the same array, after those w wrote in
// between). A section holds what it writes; it never flushes.
func (w *Writer) Section() *Writer {
	at := place{depth: w.depth, comma: w.comma, afterKey: w.afterKey}
	return &Writer{indent: w.indent, escape: w.escape, depth: w.depth, comma: w.comma, afterKey: w.afterKey, section: &at}
}

// place is where a section starts: the depth and state of its Writer.
type place struct {
	depth           int
	comma, afterKey bool
}

// Join writes what section s wrote, at w's present place, and takes on the
// state s ended in and its first error. Joining a section at a place other
// than the one it was made for is an error, kept as w's.
func (w *Writer) Join(s *Writer) {
	if here := (place{depth: w.depth, comma: w.comma, afterKey: w.afterKey}); s.section == nil || here != *s.section {
		if w.err == nil {
			w.err = fmt.Errorf("jsonwrite: a section joined at another place than it was made for")
		}
		return
	}
	if s.err != nil && w.err == nil {
		w.err = s.err
	}
	w.rawBytes(s.buf)
	w.depth, w.comma, w.afterKey = s.depth, s.comma, s.afterKey
}
