package record

import (
	"strconv"
	"strings"
	"testing"
)

// order writes a schedule as letters, warm-ups in lower case.
func order(slots []Slot) string {
	var b strings.Builder
	for _, s := range slots {
		c := byte('A' + s.Side)
		if s.Warmup {
			c = byte('a' + s.Side)
		}
		b.WriteByte(c)
	}
	return b.String()
}

func TestSchedule(t *testing.T) {
	for _, tc := range []struct {
		order               Order
		sides, runs, warmup int
		want                string
	}{
		{Interleaved, 2, 4, 1, "abABABABAB"},
		{Interleaved, 2, 3, 0, "ABABAB"},
		{Interleaved, 3, 2, 1, "abcABCABC"},
		{AlternateABBA, 2, 4, 0, "ABBAABBA"},
		{AlternateABBA, 2, 4, 2, "abbaABBAABBA"},
		{AlternateABBA, 3, 2, 0, "ABCCBA"},
	} {
		got := order(Schedule(tc.order, tc.sides, tc.runs, tc.warmup, 1))
		if got != tc.want {
			t.Errorf("%s, %d sides, %d runs, %d warm-up: %s, want %s", tc.order, tc.sides, tc.runs, tc.warmup, got, tc.want)
		}
	}
}

func TestScheduleIndexes(t *testing.T) {
	var got []string
	for _, s := range Schedule(Interleaved, 2, 3, 2, 0) {
		got = append(got, strconv.Itoa(s.Index))
	}
	if g, want := strings.Join(got, " "), "1 1 2 2 1 1 2 2 3 3"; g != want {
		t.Errorf("indexes %s, want %s (warm-ups and runs each counted from 1)", g, want)
	}
}

// TestScheduleRandom: every round holds one run of each side, the same seed
// gives the same order, and the order is not always the same.
func TestScheduleRandom(t *testing.T) {
	a := order(Schedule(Random, 3, 20, 1, 42))
	if b := order(Schedule(Random, 3, 20, 1, 42)); a != b {
		t.Fatalf("seed 42 gave %s, then %s", a, b)
	}
	if c := order(Schedule(Random, 3, 20, 1, 43)); a == c {
		t.Errorf("seeds 42 and 43 gave the same order %s", a)
	}
	for i := 0; i < len(a); i += 3 {
		round := strings.ToUpper(a[i : i+3])
		if !strings.Contains(round, "A") || !strings.Contains(round, "B") || !strings.Contains(round, "C") {
			t.Errorf("round %d is %s, not one run of each side", i/3, a[i:i+3])
		}
	}
	if strings.Count(a[3:], "ABC") == 20 {
		t.Errorf("random order %s never shuffled", a)
	}
}

func TestParseOrder(t *testing.T) {
	for _, o := range []Order{Interleaved, AlternateABBA, Random} {
		if got, err := ParseOrder(o.String()); err != nil || got != o {
			t.Errorf("ParseOrder(%q) = %v, %v", o, got, err)
		}
	}
	if _, err := ParseOrder("abab"); err == nil || !strings.Contains(err.Error(), "interleaved, alternate-abba or random") {
		t.Errorf("ParseOrder(abab): %v, want the choices", err)
	}
}
