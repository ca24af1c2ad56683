package analyze

// chunkBits sets the block size of chunked lists: 4096 elements.
const chunkBits = 12

// chunked is an append-only list stored in fixed-size blocks. Growing it
// never copies what it holds beyond the first block, so a list of a million
// nodes touches each page of memory once (fresh pages are expensive: growing
// one slice geometrically page-faults about three times its final size). The
// first block grows like a slice, so that many small lists stay small.
type chunked[T any] struct {
	blocks [][]T
	n      int
}

func (c *chunked[T]) add(v T) {
	bi := c.n >> chunkBits
	if bi == len(c.blocks) {
		size := 1 << chunkBits
		if bi == 0 {
			size = 16
		}
		c.blocks = append(c.blocks, make([]T, 0, size))
	}
	b := &c.blocks[bi]
	*b = append(*b, v)
	c.n++
}

func (c *chunked[T]) len() int { return c.n }

func (c *chunked[T]) at(i int) T { return c.blocks[i>>chunkBits][i&(1<<chunkBits-1)] }

// truncate shortens the list to its first n elements.
func (c *chunked[T]) truncate(n int) {
	if n >= c.n {
		return
	}
	bi := n >> chunkBits
	if bi < len(c.blocks) {
		c.blocks[bi] = c.blocks[bi][:n&(1<<chunkBits-1)]
		clear(c.blocks[bi+1:])
		c.blocks = c.blocks[:bi+1]
	}
	c.n = n
}

// reset empties the list, keeping its first block for reuse.
func (c *chunked[T]) reset() {
	if len(c.blocks) > 0 {
		c.blocks = [][]T{c.blocks[0][:0]}
	}
	c.n = 0
}
