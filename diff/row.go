package diff

import "github.com/profdiff/profdiff/analyze"

// This file holds what every reader of a report's rows names them by: the
// metric that picks a row's self or total measure, and a function's name.

// Metric names the time a row is ranked or shown by: its self or its
// total time.
type Metric uint8

// The metrics.
const (
	MetricSelf Metric = iota
	MetricTotal
)

// String returns "self" or "total".
func (m Metric) String() string {
	if m == MetricTotal {
		return "total"
	}
	return "self"
}

// Of returns the row's measure of the metric.
func (m Metric) Of(r *Row) *Measure {
	if m == MetricTotal {
		return &r.Total
	}
	return &r.Self
}

// FunctionName returns a function key's name, "(anonymous)" for none.
func FunctionName(k analyze.Key) string {
	if k.Function == "" {
		return "(anonymous)"
	}
	return k.Function
}
