package diff

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/profdiff/profdiff/analyze"
)

// Rule is a --fail-on rule: the comparison fails when a change judged real
// crosses a limit. The grammar:
//
//	RULE   = TARGET OP LIMIT
//	TARGET = "on-cpu" | "on-cpu/work" | KIND ":" (NAME | "*") | STALLS
//	KIND   = ("package" | "function" | "file") ["-total"]
//	STALLS = "longest-stall" | "stalls-16ms" | "stalls-50ms" | "blocking"
//	OP     = ">" (grew by more than) | "<" (shrank by more than)
//	LIMIT  = [+|-] NUMBER ("%" | "pp" | "ms")  pp: percentage points of on-CPU, for rows;
//	                                         ms: milliseconds, for longest-stall and blocking
//
// e.g. on-cpu>+5%, on-cpu/work>+3%, package:*>+2pp, package:lodash>+10%,
// function:match>+5%, function-total:render>+10%. A row rule judges the
// row's self time, or its total time with "-total". A file rule's NAME
// matches the end of the path.
type Rule struct {
	Text   string
	Target string // "on-cpu", "on-cpu/work", "package", "function", "file"
	Name   string // "*" for any
	// Total judges rows by total time instead of self time.
	Total bool
	Less  bool // "<": shrank by more than |Limit|
	Limit float64
	PP    bool // Limit is in percentage points
	// Ms says Limit is in milliseconds (longest-stall and blocking).
	Ms bool
}

// RuleResult says whether a rule broke, and which rows broke it.
type RuleResult struct {
	// Rule is the rule judged.
	Rule Rule
	// Broken says a change judged real crossed its limit.
	Broken bool
	// Offenders are the changes that crossed the limit, in their table's
	// order: the headline's for on-cpu and on-cpu/work, else one per row.
	Offenders []Offender
	// NoWork says the rule is on on-CPU time per unit of work and the
	// sides gave no work (--work): it could not be judged, and did not
	// break.
	NoWork bool
	// NoRows says the rule names rows (a NAME, not *) and no row of its
	// table has that name, on either side: it judged nothing, and did not
	// break. A gate with a misspelt name would otherwise pass silently.
	NoRows bool
}

// Offender is a judged change that crossed a rule's limit.
type Offender struct {
	// Key is the offending row's key; the zero Key for the headline's
	// on-CPU time.
	Key analyze.Key
	// Change is the row's (or the headline's) change of the metric the
	// rule judges.
	Change Change
}

// ParseRule parses one rule, such as "package:*>+5%"; its errors quote
// the rule.
func ParseRule(s string) (Rule, error) {
	r := Rule{Text: s}
	i := strings.IndexAny(s, "<>")
	if i <= 0 {
		return r, fmt.Errorf("%q: want TARGET>LIMIT or TARGET<LIMIT, e.g. package:*>+5%%", s)
	}
	target, limit := strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
	r.Less = s[i] == '<'
	switch {
	case target == "on-cpu" || target == "on-cpu/work" || isStallTarget(target):
		r.Target = target
	default:
		kind, name, ok := strings.Cut(target, ":")
		kind, r.Total = strings.CutSuffix(kind, "-total")
		if !ok || name == "" || (kind != "package" && kind != "function" && kind != "file") {
			return r, fmt.Errorf("%q: the target is on-cpu, on-cpu/work, package:NAME, function:NAME, file:NAME (NAME may be *; package-total:NAME and the like judge total time), longest-stall, stalls-16ms, stalls-50ms or blocking", s)
		}
		r.Target, r.Name = kind, name
	}
	switch {
	case strings.HasSuffix(limit, "pp"):
		r.PP, limit = true, strings.TrimSuffix(limit, "pp")
	case strings.HasSuffix(limit, "%"):
		limit = strings.TrimSuffix(limit, "%")
	case strings.HasSuffix(limit, "ms") && (r.Target == "longest-stall" || r.Target == "blocking"):
		r.Ms, limit = true, strings.TrimSuffix(limit, "ms")
	default:
		return r, fmt.Errorf("%q: the limit ends in %% or pp (or ms, for longest-stall and blocking)", s)
	}
	v, err := strconv.ParseFloat(limit, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return r, fmt.Errorf("%q: %q is not a number", s, limit)
	}
	if r.PP && strings.HasPrefix(r.Target, "on-cpu") {
		return r, fmt.Errorf("%q: on-CPU limits are in %%", s)
	}
	if r.PP && isStallTarget(r.Target) {
		return r, fmt.Errorf("%q: stall limits are in %% or ms", s)
	}
	r.Limit = math.Abs(v)
	return r, nil
}

// crosses reports whether a change judged real crosses the rule's limit.
func (r Rule) crosses(c Change) bool {
	if !c.Verdict.Real() {
		return false
	}
	v := c.DeltaPct
	switch {
	case r.PP:
		v = c.DeltaPP
	case r.Ms:
		v = c.Delta / 1e6
	}
	if math.IsNaN(v) { // new: grew from nothing
		v = math.Inf(1)
		if c.Delta < 0 {
			v = math.Inf(-1)
		}
	}
	if r.Less {
		return v < -r.Limit
	}
	return v > r.Limit
}

// evaluate judges each rule on a report.
func evaluate(rep *Report, rules []Rule) []RuleResult {
	var out []RuleResult
	for _, rule := range rules {
		res := RuleResult{Rule: rule}
		matched := 0
		check := func(k analyze.Key, c Change) {
			matched++
			if rule.crosses(c) {
				res.Broken = true
				res.Offenders = append(res.Offenders, Offender{Key: k, Change: c})
			}
		}
		metric := func(row *Row) Change {
			if rule.Total {
				return row.Total.Change
			}
			return row.Self.Change
		}
		switch rule.Target {
		case "on-cpu":
			check(analyze.Key{}, rep.Headline.OnCPU.Change)
		case "on-cpu/work":
			if !rep.PerWork {
				res.NoWork = true
				break
			}
			check(analyze.Key{}, rep.Headline.PerWork.Change)
		case "longest-stall", "stalls-16ms", "stalls-50ms", "blocking":
			if f := rep.Responsiveness.figure(rule.Target); f != nil {
				check(analyze.Key{}, f.Measure.Change)
			}
		case "package":
			for i := range rep.Packages {
				row := &rep.Packages[i]
				if rule.Name == "*" || rule.Name == row.Key.Package {
					check(row.Key, metric(row))
				}
			}
		case "function":
			for i := range rep.Functions {
				row := &rep.Functions[i]
				if rule.Name == "*" || rule.Name == FunctionName(row.Key) {
					check(row.Key, metric(row))
				}
			}
		case "file":
			for i := range rep.Files {
				row := &rep.Files[i]
				if rule.Name == "*" || strings.HasSuffix(row.Key.File, rule.Name) {
					check(row.Key, metric(row))
				}
			}
		}
		res.NoRows = matched == 0 && rule.Name != "" && rule.Name != "*"
		out = append(out, res)
	}
	return out
}

// UnmatchedRules returns the --fail-on rules, in their order, that name
// rows no table of the comparison has on the base or the variant, for
// every variant. Such a rule can never break, which is almost always a
// misspelt name rather than a passed gate.
func (r *Report) UnmatchedRules() []Rule {
	vs := r.Variants()
	if len(vs) == 0 {
		return nil
	}
	var out []Rule
	for i, res := range vs[0].Rules {
		unmatched := true
		for _, v := range vs {
			if i >= len(v.Rules) || !v.Rules[i].NoRows {
				unmatched = false
				break
			}
		}
		if unmatched {
			out = append(out, res.Rule)
		}
	}
	return out
}

// Broken reports whether any rule broke, for any variant.
func (r *Report) Broken() bool {
	for _, v := range r.Variants() {
		for _, res := range v.Rules {
			if res.Broken {
				return true
			}
		}
	}
	return false
}
