package analyze

// ChildIndex builds a tree whose children are merged by a key (a function
// id): Child finds a node's child with a key or adds it. Node 0 is the
// root. Children are found by walking the node's child list, which is
// faster than hashing for the few children most nodes have; a node with
// many children gets a map, so a wide node costs no more than hashing. A
// node costs 17 bytes: a deep profile's tree has as many nodes as the
// profile (271,459 for the 57 MiB tsc profile), and on this machine fresh
// memory costs more than the walk.
type ChildIndex struct {
	parent, key, first, next []int32
	kids                     []uint8          // children, up to 255
	wide                     map[uint64]int32 // (parent, key) -> child, for wide parents
}

// wideChildren is the child count from which a node's children are hashed.
const wideChildren = 16

// NewChildIndex returns an index holding the root, with room for n nodes.
func NewChildIndex(n int) *ChildIndex {
	x := &ChildIndex{}
	for _, s := range []*[]int32{&x.parent, &x.key, &x.first, &x.next} {
		*s = make([]int32, 1, max(n, 1))
	}
	x.kids = make([]uint8, 1, max(n, 1))
	x.parent[0], x.key[0], x.first[0], x.next[0] = -1, -1, -1, -1
	return x
}

// Len returns the number of nodes, the root included.
func (x *ChildIndex) Len() int { return len(x.parent) }

// Parent returns a node's parent (-1 for the root).
func (x *ChildIndex) Parent(node int32) int32 { return x.parent[node] }

// Key returns a node's key (-1 for the root).
func (x *ChildIndex) Key(node int32) int32 { return x.key[node] }

// Child returns parent's child with key, adding it when there is none;
// added reports whether it was added. A node's id is the number of nodes
// before it, so a parent's id is always below its children's.
func (x *ChildIndex) Child(parent, key int32) (child int32, added bool) {
	if c := x.Find(parent, key); c >= 0 {
		return c, false
	}
	return x.add(parent, key), true
}

// add adds a child with key to parent, which has none, and returns it.
func (x *ChildIndex) add(parent, key int32) int32 {
	c := int32(len(x.parent))
	x.parent = append(x.parent, parent)
	x.key = append(x.key, key)
	x.first = append(x.first, -1)
	x.kids = append(x.kids, 0)
	// The newest child heads the list: the order of the list changes no
	// answer, only how long a lookup walks.
	x.next = append(x.next, x.first[parent])
	x.first[parent] = c
	if x.kids[parent] < 255 {
		x.kids[parent]++
	}
	switch n := x.kids[parent]; {
	case n == wideChildren+1:
		if x.wide == nil {
			x.wide = map[uint64]int32{}
		}
		for k := x.first[parent]; k >= 0; k = x.next[k] {
			x.wide[wideKey(parent, x.key[k])] = k
		}
	case n > wideChildren+1:
		x.wide[wideKey(parent, key)] = c
	}
	return c
}

// wideKey is the map key of a wide parent's child.
func wideKey(parent, key int32) uint64 { return uint64(uint32(parent))<<32 | uint64(uint32(key)) }

// Nodes returns each node's parent and key, the index's own arrays: the
// index must not be used after.
func (x *ChildIndex) Nodes() (parent, key []int32) { return x.parent, x.key }

// Find returns parent's child with key, -1 when there is none.
func (x *ChildIndex) Find(parent, key int32) int32 {
	if x.kids[parent] > wideChildren {
		if c, ok := x.wide[wideKey(parent, key)]; ok {
			return c
		}
		return -1
	}
	for c := x.first[parent]; c >= 0; c = x.next[c] {
		if x.key[c] == key {
			return c
		}
	}
	return -1
}
