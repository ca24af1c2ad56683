package units

import "testing"

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
