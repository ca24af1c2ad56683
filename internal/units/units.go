// Package units writes the numbers of a report for people: durations with
// three significant digits (a spread in its mean's unit), counts with
// thousands separators (means of counts with one decimal at most), shares,
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
	unit, div := unitOf(ns)
	return neg + sig3(ns/div) + " " + unit
}

// unitOf is the unit Duration writes a positive ns in, and its size.
func unitOf(ns float64) (string, float64) {
	switch {
	case ns >= 999.5e6:
		return "s", 1e9
	case ns >= 999.5e3:
		return "ms", 1e6
	case ns >= 999.5:
		return "µs", 1e3
	}
	return "ns", 1
}

// DurationSpread writes a mean with its standard deviation in the mean's
// unit and to the mean's last digit: "3.13 s ±0.18 s", "45.6 ms ±2.1 ms",
// "789 µs ±23 µs"; the mean alone when sd is NaN (one run).
func DurationSpread(mean, sd float64) string {
	s := Duration(mean)
	if math.IsNaN(sd) {
		return s
	}
	m := math.Abs(mean)
	if m == 0 || math.IsNaN(m) {
		return s + " ±" + Duration(sd)
	}
	unit, div := unitOf(m)
	decimals := 2
	switch x := m / div; {
	case x >= 99.95:
		decimals = 0
	case x >= 9.995:
		decimals = 1
	}
	return s + " ±" + strconv.FormatFloat(sd/div, 'f', decimals, 64) + " " + unit
}

// CountMean writes a mean of counts: whole when it is ("151"), else with
// one decimal ("151.8"), never more.
func CountMean(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return Count(int64(x))
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// CountSpread writes a mean of counts with its standard deviation to one
// decimal: "151.8 ±3.9", "146.4 ±5.0"; "1" when there is no spread.
func CountSpread(mean, sd float64) string {
	s := CountMean(mean)
	if math.IsNaN(sd) || sd == 0 {
		return s
	}
	return s + " ±" + strconv.FormatFloat(sd, 'f', 1, 64)
}

// SignedCount writes a change of a mean of counts: "+2", "-0.3".
func SignedCount(d float64) string {
	d = math.Round(d*10) / 10
	if d > 0 {
		return "+" + CountMean(d)
	}
	return CountMean(d)
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
