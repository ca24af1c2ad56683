package record

import (
	"fmt"
	"math/rand/v2"
)

// Order is the order in which the sides' runs take turns.
type Order int

// The orders of the runs.
const (
	// Interleaved runs one run of each side in turn: A B A B ... (with
	// three sides A B C A B C ...), so that a drift of the machine's speed
	// reaches every side alike.
	Interleaved Order = iota
	// AlternateABBA reverses the turn every round: A B B A A B ..., so
	// that neither side always runs right after the other.
	AlternateABBA
	// Random shuffles the sides within each round (seeded), so that every
	// round still has one run of each side.
	Random
)

// String returns the name ParseOrder reads.
func (o Order) String() string {
	switch o {
	case Interleaved:
		return "interleaved"
	case AlternateABBA:
		return "alternate-abba"
	case Random:
		return "random"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// ParseOrder reads an order by its name.
func ParseOrder(s string) (Order, error) {
	for _, o := range []Order{Interleaved, AlternateABBA, Random} {
		if o.String() == s {
			return o, nil
		}
	}
	return 0, fmt.Errorf("--order %q: choose interleaved, alternate-abba or random", s)
}

// Slot is one run of the schedule: which side, its index among that side's
// runs of the same kind (1-based), and whether it is a warm-up.
type Slot struct {
	Side   int
	Index  int
	Warmup bool
	// Unprofiled says the run runs without the profiler.
	Unprofiled bool
}

// Schedule returns the runs in the order they run: warmup rounds, then
// runs rounds, each round one run of every side in the order's turn. The
// measured runs start their own alternation (A B B A ... from their first
// round, whatever the warm-ups did); seed drives Random only.
func Schedule(order Order, sides, runs, warmup int, seed int64) []Slot {
	return ScheduleWith(order, sides, runs, warmup, 0, seed)
}

// ScheduleWith is Schedule with unprofiled rounds as well, spread among
// the measured rounds (one after every runs/(unprofiled+1) measured
// rounds, the rest at the end), so that a drift of the machine's speed
// reaches profiled and unprofiled runs alike; the measured runs keep the
// order Schedule gives them.
func ScheduleWith(order Order, sides, runs, warmup, unprofiled int, seed int64) []Slot {
	slots := schedule(order, sides, runs, warmup, seed)
	if unprofiled <= 0 {
		return slots
	}
	extra := schedule(order, sides, unprofiled, 0, seed+1)
	var out []Slot
	u, measured := 0, 0
	for i, s := range slots {
		out = append(out, s)
		if s.Warmup || (i+1)%sides != 0 {
			continue
		}
		measured++
		// Unprofiled round k (1-based) follows measured round
		// ceil(k·runs/(unprofiled+1)).
		for u < unprofiled && (u+1)*runs <= measured*(unprofiled+1) && measured < runs {
			for _, x := range extra[u*sides : (u+1)*sides] {
				x.Unprofiled = true
				out = append(out, x)
			}
			u++
		}
	}
	for ; u < unprofiled; u++ {
		for _, x := range extra[u*sides : (u+1)*sides] {
			x.Unprofiled = true
			out = append(out, x)
		}
	}
	return out
}

func schedule(order Order, sides, runs, warmup int, seed int64) []Slot {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	var out []Slot
	for round := 0; round < warmup+runs; round++ {
		warm := round < warmup
		index := round + 1
		if !warm {
			index = round - warmup + 1
		}
		turn := make([]int, sides)
		for i := range turn {
			turn[i] = i
		}
		switch order {
		case AlternateABBA:
			if index%2 == 0 {
				for i, j := 0, len(turn)-1; i < j; i, j = i+1, j-1 {
					turn[i], turn[j] = turn[j], turn[i]
				}
			}
		case Random:
			rng.Shuffle(len(turn), func(i, j int) { turn[i], turn[j] = turn[j], turn[i] })
		}
		for _, s := range turn {
			out = append(out, Slot{Side: s, Index: index, Warmup: warm})
		}
	}
	return out
}
