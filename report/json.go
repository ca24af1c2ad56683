package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"unicode/utf8"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/jsonwrite"
	"github.com/profdiff/profdiff/internal/termtext"
)

// JSONVersion is the version of the JSON shape WriteJSON writes: one shape
// whatever the flags and the count of sides. Every row has self and total
// measures; every measure has vs_base, one judged change per side other
// than the base, and the report names its base. A report of two sides
// with the base first also writes its one change at the top of each
// measure, as version 2 did (the same numbers as its one vs_base entry).
const JSONVersion = 3

// MaxJSONCalls bounds the calls the JSON report lists: the heaviest, and
// every call judged to have changed.
const MaxJSONCalls = 5000

// WriteJSON writes the whole report (every row, not only the top) as JSON,
// version JSONVersion (see docs/json.md for the schema), indented by one space per
// level, with the characters EscapeJSON escapes escaped. It streams: each
// value is written as it is read from the report, through one buffer.
//
// The comments at each member below are the schema. "Absent when" marks
// the members left out in some reports; every other member is always
// there, and a list is [] when empty unless it says null.
func WriteJSON(w io.Writer, r *diff.Report) error {
	return WriteJSONWith(w, r, JSONOptions{})
}

// WriteJSONWith writes the report as WriteJSON does, with the optional
// parts opts asks for.
func WriteJSONWith(w io.Writer, r *diff.Report, opts JSONOptions) error {
	j := jsonReport{Writer: jsonwrite.New(w, jsonwrite.Options{Indent: true, Escape: jsonUnsafe}), r: r, opts: opts, layout: layoutOf(r)}
	v := NewView(r)
	j.BeginObject()
	j.Key("version")
	j.Int(JSONVersion)
	// unit says what the nanoseconds of rows, calls, paths and the
	// headline's per-work measure are: "ns per run" or "ns per <unit>".
	j.Key("unit")
	j.String("ns " + v.Per())
	// work_unit: absent unless per unit of work, or unnamed.
	if r.PerWork && r.Options.WorkUnit != "" {
		j.Key("work_unit")
		j.String(r.Options.WorkUnit)
	}
	// narrowing lists the filters and window applied to every run; absent
	// when none was.
	if len(r.Options.Narrowing) > 0 {
		j.Key("narrowing")
		j.Strings(r.Options.Narrowing)
	}
	j.Key("sides")
	j.BeginArray()
	for i := range r.Sides {
		j.side(&r.Sides[i])
	}
	j.EndArray()
	// base: the name of the side the others are judged against; absent
	// for one side.
	if len(r.Sides) > 1 {
		j.Key("base")
		j.String(r.Sides[r.Base].Name)
	}
	// correction says how the rows' p-values were corrected: "splits"
	// (the headline and the tables of packages, functions and files as
	// one family, over splits of the runs between the sides; see
	// docs/comparing.md) or "holm" (each table on its own, the headline
	// alone); absent for one side.
	// splits: how many splits, absent unless "splits".
	if len(r.Sides) > 1 {
		j.Key("correction")
		if r.Splits > 0 {
			j.String("splits")
			j.Key("splits")
			j.Int(int64(r.Splits))
		} else {
			j.String("holm")
		}
	}
	j.headline()
	j.responsiveness()
	j.resources()
	j.phases()
	j.paths(v)
	j.rows()
	j.rules(v)
	j.Key("warnings")
	j.BeginArray()
	for _, wn := range r.Warnings {
		j.String(wn.String())
	}
	j.EndArray()
	j.symbolicationOfSides()
	j.EndObject()
	j.Raw("\n")
	return j.Flush()
}

// phases writes each --phase's name, its window as given and its
// headline, shaped as the report's; absent without phases.
func (j *jsonReport) phases() {
	if len(j.r.Phases) == 0 {
		return
	}
	j.Key("phases")
	j.BeginArray()
	for _, ph := range j.r.Phases {
		j.BeginObject()
		j.Key("name")
		j.String(ph.Name)
		j.Key("window")
		j.String(ph.Window)
		(&jsonReport{Writer: j.Writer, r: ph.Report, layout: layoutOf(ph.Report)}).headline()
		j.EndObject()
	}
	j.EndArray()
}

// rules writes each --fail-on rule, whether it broke and the rows that
// broke it, one entry per rule and variant; but for two sides with the
// base first (written as before → after, where the variant goes without
// saying), with side, the variant's name; absent without rules.
func (j *jsonReport) rules(v *View) {
	type sideRule struct {
		side string
		res  diff.RuleResult
	}
	var rules []sideRule
	for _, va := range j.r.Variants() {
		name := j.r.Sides[va.Side].Name
		if j.layout == LayoutPair {
			name = ""
		}
		for _, res := range va.Rules {
			rules = append(rules, sideRule{name, res})
		}
	}
	if len(rules) == 0 {
		return
	}
	j.Key("rules")
	j.BeginArray()
	for _, sr := range rules {
		j.BeginObject()
		if sr.side != "" {
			j.Key("side")
			j.String(sr.side)
		}
		j.Key("rule")
		j.String(sr.res.Rule.Text)
		j.Key("broken")
		j.Bool(sr.res.Broken)
		j.Key("offenders")
		j.list(v.Offenders(sr.res))
		j.EndObject()
	}
	j.EndArray()
}

// symbolicationOfSides writes the sides' source-map coverage added up
// (per run); absent when maps were not applied.
func (j *jsonReport) symbolicationOfSides() {
	var all *analyze.Symbolication
	for _, s := range j.r.Sides {
		if s.Symbolication != nil {
			if all == nil {
				all = &analyze.Symbolication{}
			}
			all.Add(s.Symbolication)
		}
	}
	if all != nil {
		j.Key("symbolication")
		j.symbolication(all)
	}
}

// jsonReport writes a report's JSON.
type jsonReport struct {
	*jsonwrite.Writer
	r    *diff.Report
	opts JSONOptions
	// nums are a change's numbers, formatted once (formatChange).
	nums [4][]byte
	// sides are the variants' sides, in side order (variantSides).
	sides []int
	// layout is the report's layout (View.Layout): a pair writes its one
	// change at the top of each measure too, and its rules and paths
	// without a side.
	layout Layout
}

// variantSides returns the side of each of the report's variants, in side
// order, found once.
func (j *jsonReport) variantSides() []int {
	if j.sides == nil {
		j.sides = []int{}
		for _, v := range j.r.Variants() {
			j.sides = append(j.sides, v.Side)
		}
	}
	return j.sides
}

// side writes a side's headline; with several runs, each number is the
// mean per run.
func (j *jsonReport) side(s *diff.SideSummary) {
	j.BeginObject()
	j.Key("name")
	j.String(s.Name)
	j.Key("files")
	j.Strings(s.Files) // null when none
	j.Key("runs")
	j.Int(int64(s.Runs))
	// formed: how the runs were formed ("3 runs, one per instance" of a
	// server query); absent for runs read from files.
	if s.Formed != "" {
		j.Key("formed")
		j.String(s.Formed)
	}
	// work: the work per run; absent when not given.
	if s.Work != 0 {
		j.Key("work")
		j.Float(s.Work)
	}
	j.Key("format")
	j.String(s.Format.String())
	// root: the directory this side's files are matched and named below
	// (two checkouts of one program); absent when they keep their paths.
	if s.Root != "" {
		j.Key("root")
		j.String(s.Root)
	}
	// threads: for traces, the thread of each run; absent otherwise.
	if len(s.Threads) > 0 {
		j.Key("threads")
		j.BeginArray()
		for _, t := range s.Threads {
			j.String(t.String())
		}
		j.EndArray()
	}
	// sample_type: the pprof sample type; absent for other formats.
	if s.SampleType != "" {
		j.Key("sample_type")
		j.String(s.SampleType)
	}
	// symbolication is this side's source-map coverage, per run; absent
	// when maps were not applied.
	if s.Symbolication != nil {
		j.Key("symbolication")
		j.symbolication(s.Symbolication)
	}
	for _, f := range []struct {
		key string
		ns  int64
	}{{"wall_ns", s.WallNs}, {"sampled_ns", s.SampledNs}, {"on_cpu_ns", s.OnCPUNs}, {"idle_ns", s.IdleNs},
		{"program_ns", s.ProgramNs}, {"gc_ns", s.GCNs}, {"samples", s.Samples}, {"interval_ns", s.IntervalNs}} {
		j.Key(f.key)
		j.Int(f.ns)
	}
	// narrowed_from_on_cpu_ns is the on-CPU time per run before
	// narrowing; absent without narrowing.
	if s.NarrowedFromNs != 0 {
		j.Key("narrowed_from_on_cpu_ns")
		j.Int(s.NarrowedFromNs)
	}
	j.EndObject()
}

// symbolication writes source-map coverage: scripts seen and mapped, the
// scripts without a map, on-CPU time in JavaScript and in mapped code.
func (j *jsonReport) symbolication(s *analyze.Symbolication) {
	j.BeginObject()
	j.Key("scripts")
	j.Int(int64(s.Scripts))
	j.Key("mapped_scripts")
	j.Int(int64(s.MappedScripts))
	j.Key("missing")
	j.list(s.Missing)
	j.Key("on_cpu_js_ns")
	j.Int(s.OnCPUJSNs)
	j.Key("on_cpu_mapped_ns")
	j.Int(s.OnCPUMappedNs)
	// minified are the scripts without a map that look minified, and
	// unmapped_minified_ns their on-CPU time; each absent when none.
	if len(s.Minified) > 0 {
		j.Key("minified")
		j.Strings(s.Minified)
	}
	if s.UnmappedMinifiedNs != 0 {
		j.Key("unmapped_minified_ns")
		j.Int(s.UnmappedMinifiedNs)
	}
	j.EndObject()
}

// headline writes the headline's measures (on-CPU time, and per unit of
// work) and each side's busy fraction and GC share.
func (j *jsonReport) headline() {
	r := j.r
	j.Key("headline")
	j.BeginObject()
	j.Key("on_cpu")
	j.measure(&r.Headline.OnCPU)
	// per_work: on-CPU time per unit of work; absent unless both sides
	// gave their work.
	if r.PerWork {
		j.Key("per_work")
		j.measure(&r.Headline.PerWork)
	}
	// process_cpu: each run's CPU time as the operating system charged
	// its processes (profdiff record's record.json), judged like on_cpu;
	// absent unless both sides of a pair carry it.
	if r.Headline.Basis == diff.BasisProcess {
		j.Key("process_cpu")
		j.measure(&r.Headline.ProcessCPU)
	}
	// basis: which measure the headline's verdict is from, "process CPU
	// time" (process_cpu) or "sampled on-CPU time" (per_work when given,
	// else on_cpu).
	if j.layout == LayoutPair {
		j.Key("basis")
		j.String(r.Headline.Basis.String())
	}
	j.Key("busy")
	j.perSide(diff.SideSummary.Busy)
	j.Key("gc_share")
	j.perSide(diff.SideSummary.GCShare)
	// runs_needed: runs per side that would settle a change one run
	// cannot; absent when there is none.
	if r.Headline.RunsNeeded != 0 {
		j.Key("runs_needed")
		j.Int(int64(r.Headline.RunsNeeded))
	}
	// robust_spread_ns: each side's 1.4826 × median absolute deviation
	// over runs of the judged measure (process_cpu when there, else per_work
	// when given, else on_cpu),
	// an estimate of σ that one wild run cannot inflate; null with one run.
	j.Key("robust_spread_ns")
	j.BeginArray()
	for _, v := range r.Headline.RobustSpread {
		j.num(v)
	}
	j.EndArray()
	// spread_vs_base: for each side but the base, its σ over the base's
	// (ratio, null with one run on either), the Brown-Forsythe test's p
	// (Holm-corrected over the sides; null when untested), and a verdict:
	// "noisier", "steadier", "~", or "" when untested, with why_untested;
	// absent for one side.
	if len(r.Headline.Spreads) > 0 {
		j.Key("spread_vs_base")
		j.BeginArray()
		for _, sc := range r.Headline.Spreads {
			j.BeginObject()
			j.Key("side")
			j.String(r.Sides[sc.Side].Name)
			j.Key("ratio")
			j.num(sc.Ratio)
			j.Key("p")
			j.num(sc.P)
			j.Key("verdict")
			j.String(sc.Verdict.String())
			if sc.Why != "" {
				j.Key("why_untested")
				j.String(sc.Why)
			}
			j.EndObject()
		}
		j.EndArray()
	}
	j.EndObject()
}

// perSide writes f of each side, null for no side.
func (j *jsonReport) perSide(f func(diff.SideSummary) float64) {
	if len(j.r.Sides) == 0 {
		j.Null()
		return
	}
	j.BeginArray()
	for _, s := range j.r.Sides {
		j.Float(f(s))
	}
	j.EndArray()
}

// paths writes the call paths that carry the change, step by step, and
// what share of the change they cover.
func (j *jsonReport) paths(v *View) {
	r := j.r
	onDelta := r.OnCPU(len(r.Sides)-1) - r.OnCPU(0)
	j.Key("paths")
	j.BeginArray()
	for _, p := range r.Paths {
		j.BeginObject()
		// steps: the path's call-tree nodes from the root; null when none.
		j.Key("steps")
		j.pathSteps(p.Nodes)
		// end says why the path stops: self, split (over its callees),
		// new or gone (the function itself), moved (gone from this call
		// path, the function still runs) or arrived (new on it, the
		// function ran before).
		j.Key("end")
		j.String(p.End.String())
		if p.Elsewhere >= 0 {
			// elsewhere, for a moved path: the function's call path
			// (function names from the root) whose total time grew most,
			// where its time went; for arrived, the one that fell most;
			// with that node's total change. Absent for the other ends,
			// and when no other path changed so.
			j.Key("elsewhere")
			j.elsewhere(p.Elsewhere)
		}
		// delta_ns: the change the path explains; share_pct, its share
		// of the on-CPU change (null when that is 0).
		j.Key("delta_ns")
		j.Float(p.Delta)
		j.Key("share_pct")
		j.num(100 * p.Delta / onDelta)
		j.Key("text")
		j.String(v.PathText(p))
		j.EndObject()
	}
	j.EndArray()
	// paths_delta_ns and paths_share_pct: the change the paths explain
	// together, and its share; absent for one side, or when not finite.
	if j.layout == LayoutPair {
		if d := r.PathsDelta; finite(d) {
			j.Key("paths_delta_ns")
			j.Float(d)
		}
		if pct := 100 * r.PathsDelta / onDelta; finite(pct) {
			j.Key("paths_share_pct")
			j.Float(pct)
		}
	}
}

// pathSteps writes a path's call-tree nodes from the root, each with its
// function and its own measures on the path; null for none.
func (j *jsonReport) pathSteps(nodes []int32) {
	r := j.r
	if len(nodes) == 0 {
		j.Null()
		return
	}
	j.BeginArray()
	for _, n := range nodes {
		t := &r.Tree[n]
		k := r.TreeFunction(n)
		j.BeginObject()
		j.Key("function")
		j.String(diff.FunctionName(k))
		j.Key("package")
		j.String(k.Package)
		j.Key("file")
		j.String(k.File)
		j.Key("line")
		j.Int(int64(k.Line))
		j.Key("column")
		j.Int(int64(k.Column))
		// function_index indexes functions.
		j.Key("function_index")
		j.Int(int64(t.Function))
		// self and total: the node's own measures on this call path.
		j.Key("self")
		j.measure(&t.Self)
		j.Key("total")
		j.measure(&t.Total)
		j.EndObject()
	}
	j.EndArray()
}

// elsewhere writes the call path (function names from the root) of the
// tree node where a moved path's time went, or an arrived one's came
// from, with that node's total change.
func (j *jsonReport) elsewhere(node int32) {
	r := j.r
	j.BeginObject()
	j.Key("functions")
	j.BeginArray()
	var chain []int32
	for n := node; n > 0; n = r.Tree[n].Parent {
		chain = append(chain, n)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		j.String(diff.FunctionName(r.TreeFunction(chain[i])))
	}
	j.EndArray()
	j.Key("total_delta_ns")
	j.Float(r.Tree[node].Total.Change.Delta)
	j.EndObject()
}

// rows writes every package, function and file row, and the calls (those
// past MaxJSONCalls only when judged real).
func (j *jsonReport) rows() {
	r := j.r
	j.Key("packages")
	j.BeginArray()
	for i := range r.Packages {
		row := &r.Packages[i]
		j.BeginObject()
		j.Key("package")
		j.String(row.Key.Package)
		j.selfTotal(row)
		j.EndObject()
	}
	j.EndArray()
	j.Key("functions")
	j.BeginArray()
	for i := range r.Functions {
		row := &r.Functions[i]
		k := row.Key
		j.BeginObject()
		j.Key("function")
		j.String(diff.FunctionName(k))
		// renamed is the after side's name of a minified function
		// renamed between builds at the same position; absent otherwise.
		if row.Renamed != "" {
			j.Key("renamed")
			j.String(row.Renamed)
		}
		// aliases are other names recorded at the function's position;
		// absent when none.
		if len(row.Aliases) > 0 {
			j.Key("aliases")
			j.Strings(row.Aliases)
		}
		j.Key("file")
		j.String(k.File)
		j.Key("line")
		j.Int(int64(k.Line))
		j.Key("column")
		j.Int(int64(k.Column))
		j.Key("package")
		j.String(k.Package)
		j.selfTotal(row)
		if j.opts.Lines {
			j.functionLines(int32(i))
		}
		j.EndObject()
	}
	j.EndArray()
	j.Key("files")
	j.BeginArray()
	for i := range r.Files {
		row := &r.Files[i]
		j.BeginObject()
		j.Key("file")
		j.String(row.Key.File)
		j.Key("package")
		j.String(row.Key.Package)
		j.selfTotal(row)
		j.EndObject()
	}
	j.EndArray()
	// calls are caller -> callee edges; caller and callee index functions.
	j.Key("calls")
	j.BeginArray()
	for i := range r.Calls {
		c := &r.Calls[i]
		if i >= MaxJSONCalls && !c.Total.Change.Verdict.Real() {
			continue
		}
		j.BeginObject()
		j.Key("caller")
		j.Int(int64(c.Caller))
		j.Key("callee")
		j.Int(int64(c.Callee))
		j.Key("total")
		j.measure(&c.Total)
		j.EndObject()
	}
	j.EndArray()
}

// selfTotal writes a row's self and total measures.
func (j *jsonReport) selfTotal(row *diff.Row) {
	j.Key("self")
	j.measure(&row.Self)
	j.Key("total")
	j.measure(&row.Total)
}

// measure writes a Measure: one entry per side; the change members only
// when two sides are compared.
func (j *jsonReport) measure(m *diff.Measure) {
	j.BeginObject()
	// ns: each side's mean over its runs.
	j.Key("ns")
	j.Floats(m.Mean)
	// runs_ns: each side's value in each run.
	j.Key("runs_ns")
	if m.Runs == nil {
		j.Null()
	} else {
		j.BeginArray()
		for _, run := range m.Runs {
			j.Floats(run)
		}
		j.EndArray()
	}
	// spread_ns: each side's standard deviation over its runs (σ); null
	// with a single run.
	j.Key("spread_ns")
	j.BeginArray()
	for si := range m.Runs {
		j.num(m.Spread(si))
	}
	j.EndArray()
	// A report of two sides with the base first writes its one change
	// at the top of the measure too, as version 2 did.
	pair := j.layout == LayoutPair
	if pair {
		j.formatChange(&m.Change)
		j.changeMembers(&m.Change, false)
	}
	// vs_base: one judged change per side other than the base, in side
	// order, each with the members above and side, the side's name;
	// absent for one side. A pair's one entry is its change above, its
	// numbers formatted once.
	if pair || len(m.VsBase) > 0 {
		j.Key("vs_base")
		j.BeginArray()
		for _, side := range j.variantSides() {
			c := m.ChangeFor(side)
			if !pair {
				j.formatChange(&c)
			}
			j.change(&c, side)
		}
		j.EndArray()
	}
	j.EndObject()
}

// formatChange formats a change's numbers into j.nums (delta, points,
// percent, p; "null" where not a number).
func (j *jsonReport) formatChange(c *diff.Change) {
	for i, v := range [4]float64{c.Delta, c.DeltaPP, c.DeltaPct, c.P} {
		if finite(v) {
			j.nums[i] = j.AppendFloat(j.nums[i][:0], v)
		} else {
			j.nums[i] = append(j.nums[i][:0], "null"...)
		}
	}
}

// changeMembers writes a change's members, whose numbers formatChange has
// formatted: delta_ns, after - before (absent when not a number);
// delta_pp, the change in points of on-CPU share (null where a share has
// no meaning: on-CPU itself); delta_pct, the relative change (null when
// the base's is 0); verdict, "better", "worse", "new", "gone" or "~"
// (absent when none was given, unless always); p, the corrected p-value
// (null when no test ran).
func (j *jsonReport) changeMembers(c *diff.Change, always bool) {
	if finite(c.Delta) {
		j.Key("delta_ns")
		j.Number(j.nums[0])
	}
	j.Key("delta_pp")
	j.Number(j.nums[1])
	j.Key("delta_pct")
	j.Number(j.nums[2])
	if s := c.Verdict.String(); s != "" || always {
		j.Key("verdict")
		j.String(s)
	}
	j.Key("p")
	j.Number(j.nums[3])
	// runs_needed: for a change past the minimum effect that the test
	// cannot settle, about how many runs a side would; absent otherwise.
	if c.RunsNeeded > 0 {
		j.Key("runs_needed")
		j.Int(int64(c.RunsNeeded))
	}
}

// change writes one side's judged change against the base, whose numbers
// formatChange has formatted.
func (j *jsonReport) change(c *diff.Change, side int) {
	j.BeginObject()
	j.Key("side")
	j.String(j.r.Sides[side].Name)
	j.changeMembers(c, true)
	j.EndObject()
}

// num writes v, or null when it is not a finite number.
func (j *jsonReport) num(v float64) {
	if finite(v) {
		j.Float(v)
	} else {
		j.Null()
	}
}

// list writes a list of strings, [] (not null) for none.
func (j *jsonReport) list(xs []string) {
	if xs == nil {
		xs = []string{}
	}
	j.Strings(xs)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// jsonUnsafe reports the characters above ASCII that termtext.Clean
// escapes and encoding/json leaves raw, which the JSON escapes (see
// EscapeJSON).
func jsonUnsafe(r rune) bool { return r >= 0x80 && termtext.Escapes(r) }

// EscapeJSON rewrites, in JSON that encoding/json wrote, as \uXXXX
// escapes the characters above ASCII that termtext.Clean escapes (C1
// controls such as U+009B, a CSI on some terminals, and bidirectional
// overrides), which encoding/json leaves raw: a name from a profile then
// cannot act on a terminal that shows the JSON. They occur only inside
// strings, so the escape keeps the JSON's meaning. (WriteJSON escapes them
// as it writes.)
func EscapeJSON(b []byte) []byte {
	if !bytes.ContainsFunc(b, jsonUnsafe) {
		return b
	}
	out := make([]byte, 0, len(b)+64)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if jsonUnsafe(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return out
}
