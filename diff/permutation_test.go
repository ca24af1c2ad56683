package diff

import (
	"slices"
	"testing"
)

// TestSplitsOf: every split of 5 + 5 runs but the recorded one, one of
// each mirror pair, each once; 4 v 4's 35 are too few at α = 0.05; 10 v
// 10 draws permutationSplits, each side's runs of the right count.
func TestSplitsOf(t *testing.T) {
	splits, count := splitsOf(5, 5, permutationLeast/0.05)
	if count != 126 || len(splits) != 125 {
		t.Fatalf("5 v 5: %d splits counted over %d, want 125 over 126", len(splits), count)
	}
	seen := map[string]bool{}
	for _, s := range splits {
		side := slices.Clone(s[:5])
		if !slices.IsSorted(side) || side[0] != 0 {
			t.Fatalf("split %v: side 0 must hold run 0, sorted", s)
		}
		if slices.Equal(side, []int{0, 1, 2, 3, 4}) {
			t.Fatalf("the recorded split is among the others")
		}
		all := slices.Sorted(slices.Values(s))
		if !slices.Equal(all, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
			t.Fatalf("split %v is not an order of the runs", s)
		}
		key := string(rune(side[1])) + string(rune(side[2])) + string(rune(side[3])) + string(rune(side[4]))
		if seen[key] {
			t.Fatalf("split %v twice", s)
		}
		seen[key] = true
	}
	if s, _ := splitsOf(4, 4, permutationLeast/0.05); s != nil {
		t.Errorf("4 v 4: %d splits, want none (35 distinct)", len(s))
	}
	if s, c := splitsOf(4, 5, permutationLeast/0.05); len(s) != 125 || c != 126 {
		t.Errorf("4 v 5: %d splits over %d, want 125 over 126", len(s), c)
	}
	s, c := splitsOf(10, 10, permutationLeast/0.05)
	if len(s) != permutationSplits || c != permutationSplits+1 {
		t.Fatalf("10 v 10: %d splits over %d", len(s), c)
	}
	for _, o := range s {
		if len(o) != 20 || !slices.IsSorted(o[:10]) || !slices.IsSorted(o[10:]) {
			t.Fatalf("10 v 10 split %v", o)
		}
	}
}
