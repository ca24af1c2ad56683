package units

import (
	"math"
	"testing"
)

func TestDuration(t *testing.T) {
	cases := map[float64]string{0: "0", 1.5: "1.50 ns", 999: "999 ns", 999.6: "1.00 µs", 1500: "1.50 µs", 1870: "1.87 µs", 18_700: "18.7 µs",
		2_340_000: "2.34 ms", 123_400_000: "123 ms", 6_810_000_000: "6.81 s", 1234e9: "1234 s", -2_000_000: "-2.00 ms"}
	for ns, want := range cases {
		if got := Duration(ns); got != want {
			t.Errorf("Duration(%v) = %q, want %q", ns, got, want)
		}
	}
	if got := Count(1234567); got != "1,234,567" {
		t.Errorf("Count = %q", got)
	}
	if got := Plural(1, "package", "packages") + ", " + Plural(2, "package", "packages"); got != "1 package, 2 packages" {
		t.Errorf("Plural: %q", got)
	}
}

// TestSpreadsAndCounts: a spread in its mean's unit and to its mean's
// last digit; counts whole when whole, one decimal at most otherwise.
func TestSpreadsAndCounts(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{DurationSpread(3.13e9, 0.18e9), "3.13 s ±0.18 s"},
		{DurationSpread(3.13e9, 403e6), "3.13 s ±0.40 s"},
		{DurationSpread(45.6e6, 2.14e6), "45.6 ms ±2.1 ms"},
		{DurationSpread(789e3, 23.4e3), "789 µs ±23 µs"},
		{DurationSpread(6.07e9, math.NaN()), "6.07 s"},
		{DurationSpread(0, 1e6), "0 ±1.00 ms"},
		{CountSpread(151.8, 3.9), "151.8 ±3.9"},
		{CountSpread(151.8000001, 3.9000001), "151.8 ±3.9"},
		{CountSpread(1, 0), "1"},
		{CountSpread(146.4, 4.98), "146.4 ±5.0"},
		{CountSpread(1.3333333, 0.5773), "1.3 ±0.6"},
		{CountMean(14305), "14,305"},
		{SignedCount(0.3333), "+0.3"},
		{SignedCount(-1), "-1"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
