package analyze

import (
	"math/rand/v2"
	"testing"
)

// TestChildIndexMatchesMap builds random trees, narrow and wide (past the
// point where a node's children are hashed), and checks every lookup
// against a plain map.
func TestChildIndexMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, keys := range []int32{3, 40, 1000} {
		x := NewChildIndex(0)
		want := map[[2]int32]int32{}
		for range 20000 {
			parent := rng.Int32N(int32(x.Len()))
			key := rng.Int32N(keys)
			c, added := x.Child(parent, key)
			w, ok := want[[2]int32{parent, key}]
			switch {
			case ok && (added || c != w):
				t.Fatalf("keys %d: child(%d, %d) = %d, %v; want %d", keys, parent, key, c, added, w)
			case !ok && (!added || c != int32(x.Len()-1)):
				t.Fatalf("keys %d: child(%d, %d) = %d, %v; want a new node", keys, parent, key, c, added)
			}
			want[[2]int32{parent, key}] = c
			if x.Parent(c) != parent || x.Key(c) != key || c <= parent {
				t.Fatalf("node %d: parent %d key %d", c, x.Parent(c), x.Key(c))
			}
		}
	}
}

// TestChildIndexVeryWide: a node with more children than its count holds
// (255) still finds each of them.
func TestChildIndexVeryWide(t *testing.T) {
	x := NewChildIndex(0)
	for round := range 2 {
		for key := range int32(1000) {
			c, added := x.Child(0, key)
			if added != (round == 0) || x.Key(c) != key || x.Parent(c) != 0 {
				t.Fatalf("round %d: child(0, %d) = %d, %v", round, key, c, added)
			}
			if x.Find(0, key) != c {
				t.Fatalf("find(0, %d) = %d, want %d", key, x.Find(0, key), c)
			}
		}
	}
	if x.Find(0, 1000) != -1 || x.Len() != 1001 {
		t.Fatalf("find of an absent key %d, %d nodes", x.Find(0, 1000), x.Len())
	}
}
