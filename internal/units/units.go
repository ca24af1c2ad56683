// Package units writes the numbers of a report for people: durations with
// three significant digits, counts with thousands separators, shares,
// signed changes in percent and in percentage points, and p-values.
package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Duration formats nanoseconds with three significant digits at every unit:
// "1.23 s", "45.6 ms", "789 µs", "1.87 µs", "187 ns"; "0" for zero.
func Duration(ns float64) string {
	neg := ""
	if ns < 0 {
		neg, ns = "-", -ns
	}
	if ns == 0 || math.IsNaN(ns) {
		return "0"
	}
	unit, div := "ns", 1.0
	switch {
	case ns >= 999.5e6:
		unit, div = "s", 1e9
	case ns >= 999.5e3:
		unit, div = "ms", 1e6
	case ns >= 999.5:
		unit, div = "µs", 1e3
	}
	return neg + sig3(ns/div) + " " + unit
}

// sig3 writes a positive number with three significant digits (more for
// numbers of four digits and more: 1234 s stays 1234).
func sig3(x float64) string {
	switch {
	case x >= 99.95:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case x >= 9.995:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// SignedDuration is Duration with a sign: "+1.23 ms", "-456 µs".
func SignedDuration(ns float64) string {
	if ns > 0 {
		return "+" + Duration(ns)
	}
	return Duration(ns)
}

// Count formats an integer with thousands separators: 14,305.
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Plural writes a count with its noun: "1 package", "3 packages".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Count(int64(n)) + " " + many
}

// Share formats part/whole as a percentage, "-" when whole is 0.
func Share(part, whole float64) string {
	if whole == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*part/whole, 'f', 1, 64) + "%"
}

// SignedPct formats a relative change: "+12.3%", "-92.0%"; "-" for NaN.
func SignedPct(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", v)
}

// SignedPP formats a change in percentage points: "+1.2", "-" for NaN.
func SignedPP(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%+.2f", v)
}

// FormatP writes a p-value: "0.003", "<0.001", "-" when no test ran.
func FormatP(p float64) string {
	switch {
	case math.IsNaN(p):
		return "-"
	case p < 0.001:
		return "<0.001"
	}
	return strconv.FormatFloat(p, 'f', 3, 64)
}

// PValue writes a p-value as a statement: "p<0.001", "p=0.252", or "" when
// no test ran.
func PValue(p float64) string {
	s := FormatP(p)
	switch {
	case s == "-":
		return ""
	case strings.HasPrefix(s, "<"):
		return "p" + s
	}
	return "p=" + s
}
