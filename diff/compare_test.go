package diff

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

func table(t *testing.T, name string) *analyze.Table {
	t.Helper()
	p, err := analyze.ParseFile(filepath.Join("..", "testdata", name), analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tab := analyze.Aggregate(p, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true})
	tab.File = name
	return tab
}

// routerPair is the unbundled router workload, before and after bucketed
// routing: one run each side.
func routerPair(t *testing.T, opts Options) *Report {
	t.Helper()
	r, err := Compare([]Side{
		{Name: "before", Tables: []*analyze.Table{table(t, "node-router-unbundled-before.cpuprofile")}},
		{Name: "after", Tables: []*analyze.Table{table(t, "node-router-unbundled-after.cpuprofile")}},
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func find(rows []Row, pkg, fn string) *Row {
	for i := range rows {
		if rows[i].Key.Package == pkg && (fn == "" || rows[i].Key.Function == fn) {
			return &rows[i]
		}
	}
	return nil
}

func TestRouterChangeIsFoundAndNothingElse(t *testing.T) {
	r := routerPair(t, DefaultOptions())
	ptr := find(r.Packages, "path-to-regexp", "")
	if ptr == nil || ptr.Self.Change.Verdict != VerdictBetter || ptr.Self.Change.DeltaPct > -70 {
		t.Fatalf("path-to-regexp: %+v", ptr)
	}
	// Independently: 687 ms -> 156 ms of self time (the matcher and its
	// regular expressions), from the raw profiles.
	if got := ptr.Self.Mean[0] / 1e6; math.Abs(got-687) > 2 {
		t.Errorf("path-to-regexp before %.0f ms, want 687", got)
	}
	for _, row := range r.Packages {
		if row.Key.Package != "path-to-regexp" && row.Key.Package != "deploy" && row.Real() {
			t.Errorf("unrelated package %s flagged: self %+v, total %+v", row.Key.Package, row.Self.Change, row.Total.Change)
		}
	}
}

func TestSameProfileBothSidesIsAllNoise(t *testing.T) {
	tab := table(t, "node-router-unbundled-before.cpuprofile")
	r, err := Compare([]Side{{Name: "a", Tables: []*analyze.Table{tab}}, {Name: "b", Tables: []*analyze.Table{tab}}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, rows := range [][]Row{r.Packages, r.Functions, r.Files} {
		for _, row := range rows {
			for _, m := range []Measure{row.Self, row.Total} {
				if m.Change.Verdict != VerdictSame || m.Change.Delta != 0 {
					t.Fatalf("%+v: %+v", row.Key, m.Change)
				}
			}
		}
	}
	if r.Headline.OnCPU.Change.Verdict != VerdictSame || len(r.Paths) != 0 {
		t.Errorf("headline %+v, paths %v", r.Headline.OnCPU.Change, r.Paths)
	}
}

func TestHolm(t *testing.T) {
	p := []float64{0.01, 0.04, 0.03, math.NaN(), 0.005}
	holm(p)
	want := []float64{0.03, 0.06, 0.06, math.NaN(), 0.02}
	for i := range p {
		if math.IsNaN(want[i]) != math.IsNaN(p[i]) || (!math.IsNaN(want[i]) && math.Abs(p[i]-want[i]) > 1e-12) {
			t.Errorf("holm = %v, want %v", p, want)
			break
		}
	}
}

func TestMinDeltaAndAlpha(t *testing.T) {
	c := Change{Delta: -10, DeltaPP: -0.05, DeltaPct: -50, P: 1e-9}
	o := DefaultOptions()
	if v := verdict(c, o, true, false, false); v != VerdictSame {
		t.Errorf("below 0.1pp: %v", v)
	}
	c.DeltaPP = -2
	if v := verdict(c, o, true, false, false); v != VerdictBetter {
		t.Errorf("real change: %v", v)
	}
	c.P = 0.2
	if v := verdict(c, o, true, false, false); v != VerdictSame {
		t.Errorf("p above alpha: %v", v)
	}
	c.P, c.DeltaPct = 1e-9, 3
	if v := verdict(c, o, true, false, false); v != VerdictSame {
		t.Errorf("below 5%%: %v", v)
	}
}

func TestRules(t *testing.T) {
	for _, bad := range []string{"package", "package:x", "cpu>5%", "package:x>5", "on-cpu>2pp", "function:>1%", "package:x>abc%"} {
		if _, err := ParseRule(bad); err == nil {
			t.Errorf("ParseRule(%q) accepted", bad)
		}
	}
	r := routerPair(t, DefaultOptions())
	// Reversed (after -> before), path-to-regexp gets worse.
	rev, err := Compare([]Side{
		{Name: "before", Tables: []*analyze.Table{table(t, "node-router-unbundled-after.cpuprofile")}},
		{Name: "after", Tables: []*analyze.Table{table(t, "node-router-unbundled-before.cpuprofile")}},
	}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		rule string
		rep  *Report
		want bool
	}{
		{"package:*>+5%", r, false},
		{"package:*>+5%", rev, true},
		{"package:path-to-regexp<-50%", r, true},
		{"package:lodash>+1%", rev, false}, // lodash's change is noise
		{"package:*>+2pp", rev, true},
		{"function-total:match>+5%", rev, true},
		{"function:nosuchfunction>+5%", rev, false},
		{"file:path-to-regexp/dist/index.js>+10%", rev, true},
		{"on-cpu>+50%", rev, false},
	}
	for _, c := range cases {
		rule, err := ParseRule(c.rule)
		if err != nil {
			t.Fatal(err)
		}
		res := evaluate(c.rep, []Rule{rule})[0]
		if res.Broken != c.want || res.Broken != (len(res.Offenders) > 0) {
			t.Errorf("%s: broken %v, want %v (%v)", c.rule, res.Broken, c.want, res.Offenders)
		}
	}
	// Offenders are the rows and their changes, for the renderers to name.
	rule, _ := ParseRule("package:path-to-regexp<-50%")
	res := evaluate(r, []Rule{rule})[0]
	if len(res.Offenders) != 1 || res.Offenders[0].Key.Package != "path-to-regexp" || res.Offenders[0].Change != find(r.Packages, "path-to-regexp", "").Self.Change {
		t.Errorf("offenders %+v", res.Offenders)
	}
	// A rule per unit of work without work is not judged.
	rule, _ = ParseRule("on-cpu/work>+3%")
	if res := evaluate(rev, []Rule{rule})[0]; !res.NoWork || res.Broken || res.Offenders != nil {
		t.Errorf("on-cpu/work without work: %+v", res)
	}
}

func TestEscapeMarkdown(t *testing.T) {
	if got := EscapeMarkdown("#tokenizeInlines"); got != "#tokenizeInlines" {
		t.Errorf("a private method's name is changed: %q", got)
	}
	evil := "a|b <script>alert(1)</script> <img src=x onerror=alert(1)> [y](javascript:alert(1)) `code` @octocat #123 [x](http://evil.test) **b** _i_ ~s~ $x$ www.evil.test\u202eevil\nline"
	got := EscapeMarkdown(evil)
	var html bytes.Buffer
	// Unsafe, as GitHub is: raw HTML would pass through if not escaped.
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
	if err := md.Convert([]byte("| name |\n|---|\n| "+got+" |\n"), &html); err != nil {
		t.Fatal(err)
	}
	h := html.String()
	// Text such as "onerror=" may remain, as text: what must not appear is
	// markup made from it.
	for _, bad := range []string{"<script", "<img", "href=", "<a ", "<code>", "<strong>", "<em>", "<del>", "@octocat", "#123", "http://evil", "www.evil", "\u202e"} {
		if strings.Contains(h, bad) {
			t.Errorf("escaped name renders %q:\n%s", bad, h)
		}
	}
	if strings.Count(h, "<td>") != 1 || strings.Contains(got, "\n") {
		t.Errorf("the name broke the table:\n%s", h)
	}
}

// TestMarkdownRendersAsTables renders a real comparison with goldmark and
// checks every table row has its header's number of cells.
func TestMarkdownRendersAsTables(t *testing.T) {
	r := routerPair(t, DefaultOptions())
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r, MarkdownOptions{Files: true}); err != nil {
		t.Fatal(err)
	}
	if md.Len() > MarkdownLimit {
		t.Errorf("markdown is %d characters", md.Len())
	}
	var html bytes.Buffer
	// Unsafe: let <details> through, as GitHub does.
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe())).Convert(md.Bytes(), &html); err != nil {
		t.Fatal(err)
	}
	h := html.String()
	tables := strings.Split(h, "<table>")[1:]
	if len(tables) < 6 {
		t.Fatalf("%d tables rendered", len(tables))
	}
	for i, tb := range tables {
		tb = tb[:strings.Index(tb, "</table>")]
		rows := strings.Split(tb, "<tr>")[1:]
		cells := strings.Count(rows[0], "<th")
		for _, row := range rows[1:] {
			if n := strings.Count(row, "<td"); n != cells {
				t.Errorf("table %d: a row of %d cells under %d headers: %s", i, n, cells, row)
				break
			}
		}
	}
	if !strings.Contains(h, "<details>") || !strings.Contains(md.String(), "**better**") {
		t.Errorf("no details or no verdict")
	}
}

// TestMarkdownHostileNames puts hostile names of every kind into a real
// report and checks the rendered HTML: no element or attribute from them,
// every table row with its header's cells, long names cut.
func TestMarkdownHostileNames(t *testing.T) {
	r := routerPair(t, DefaultOptions())
	hostile := []string{
		"<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", "a|b|c",
		"@octocat", "#123", "`x`", "line\nbreak", "\u202egnp.exe", strings.Repeat("n", 100000),
	}
	for i := range r.Functions {
		r.Functions[i].Key.Function = hostile[i%len(hostile)]
		r.Functions[i].Key.File = hostile[(i+3)%len(hostile)]
	}
	for i := range r.Packages {
		r.Packages[i].Key.Package = hostile[i%len(hostile)]
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r, MarkdownOptions{Files: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), strings.Repeat("n", 1000)) {
		t.Errorf("a 100,000-character name was not cut")
	}
	var html bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe())).Convert(md.Bytes(), &html); err != nil {
		t.Fatal(err)
	}
	h := html.String()
	for _, bad := range []string{"<script", "<img", "href=", "<a ", "\u202e"} {
		if strings.Contains(h, bad) {
			t.Errorf("rendered HTML holds %q", bad)
		}
	}
	// Only the report's own elements.
	allowed := map[string]bool{"h3": true, "h4": true, "p": true, "strong": true, "em": true, "table": true, "thead": true, "tbody": true,
		"tr": true, "th": true, "td": true, "details": true, "summary": true, "blockquote": true, "code": true, "ul": true, "ol": true, "li": true}
	for _, m := range regexp.MustCompile(`<(/?)([a-zA-Z0-9]+)`).FindAllStringSubmatch(h, -1) {
		if !allowed[strings.ToLower(m[2])] {
			t.Errorf("element <%s> in the HTML", m[2])
		}
	}
	for i, tb := range strings.Split(h, "<table>")[1:] {
		tb = tb[:strings.Index(tb, "</table>")]
		rows := strings.Split(tb, "<tr>")[1:]
		cells := strings.Count(rows[0], "<th")
		for _, row := range rows[1:] {
			if n := strings.Count(row, "<td"); n != cells {
				t.Errorf("table %d: %d cells under %d headers", i, n, cells)
				break
			}
		}
	}
}

func TestMarkdownStaysUnderTheLimit(t *testing.T) {
	r := routerPair(t, DefaultOptions())
	// Names of 500 characters in every row.
	for i := range r.Functions {
		r.Functions[i].Key.Function = strings.Repeat("x", 500)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if md.Len() > MarkdownLimit || !strings.Contains(md.String(), "rows shown to stay within") {
		t.Errorf("markdown of %d characters, or no note on cut rows", md.Len())
	}
}

func TestJSONCompared(t *testing.T) {
	rule, _ := ParseRule("package:*>+5%")
	o := DefaultOptions()
	o.Rules = []Rule{rule}
	r := routerPair(t, o)
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	type measure struct {
		Ns       []float64 `json:"ns"`
		DeltaPct *float64  `json:"delta_pct"`
		Verdict  string    `json:"verdict"`
		P        *float64  `json:"p"`
	}
	var out struct {
		Version  int               `json:"version"`
		Sides    []json.RawMessage `json:"sides"`
		Headline struct {
			OnCPU measure `json:"on_cpu"`
		} `json:"headline"`
		Packages []struct {
			Package string  `json:"package"`
			Self    measure `json:"self"`
			Total   measure `json:"total"`
		} `json:"packages"`
		Rules []struct {
			Rule   string `json:"rule"`
			Broken bool   `json:"broken"`
		} `json:"rules"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out.Version != 2 || len(out.Sides) != 2 || len(out.Headline.OnCPU.Ns) != 2 || len(out.Rules) != 1 || out.Rules[0].Broken {
		t.Fatalf("shape: %s", b.String()[:400])
	}
	for _, p := range out.Packages {
		for _, m := range []measure{p.Self, p.Total} {
			if len(m.Ns) != 2 || m.Verdict == "" || m.P == nil {
				t.Errorf("row %+v", p)
			}
		}
		if p.Package == "path-to-regexp" && (p.Self.Verdict != "better" || *p.Self.DeltaPct > -70) {
			t.Errorf("path-to-regexp %+v", p)
		}
	}
}

// TestRunsAreMeans: a side of two identical runs reports what one run does,
// headline and rows alike.
func TestRunsAreMeans(t *testing.T) {
	tab := table(t, "go-router-before.pprof")
	one, err := Compare([]Side{{Name: "a", Tables: []*analyze.Table{tab}}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	two, err := Compare([]Side{{Name: "a", Tables: []*analyze.Table{tab, tab}}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if one.Sides[0].Summary != two.Sides[0].Summary || two.Sides[0].Runs != 2 {
		t.Errorf("summary %+v, two runs %+v", one.Sides[0].Summary, two.Sides[0].Summary)
	}
	for i := range one.Packages {
		if one.Packages[i].Self.Mean[0] != two.Packages[i].Self.Mean[0] || one.Packages[i].Total.Mean[0] != two.Packages[i].Total.Mean[0] {
			t.Errorf("%s: %v vs %v", one.Packages[i].Key.Package, one.Packages[i].Self.Mean, two.Packages[i].Self.Mean)
		}
	}
}

// TestIndentJSONMatchesEncoding holds the report's one-pass indenter to
// json.Indent on the golden reports and on awkward documents.
func TestIndentJSONMatchesEncoding(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `{"a":[]}`, `{"a":{},"b":[[],[{}]],"c":[1,2,{"d":null}]}`,
		`{"s":"a,b:c{d}[e]\"f\\\\","t":"\\","u":"\u003cx\u003e"}`, `[true,false,null,-1.5e3,"x"]`, `"lone"`, `7`,
	}
	goldens, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range goldens {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, data); err != nil {
			t.Fatal(err)
		}
		docs = append(docs, compact.String())
	}
	if len(goldens) == 0 {
		t.Fatal("no JSON goldens found")
	}
	for _, d := range docs {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(d), "", " "); err != nil {
			t.Fatalf("%.60s: %v", d, err)
		}
		if got := indentJSON(nil, []byte(d)); string(got) != want.String() {
			t.Errorf("indentJSON(%.60s) =\n%s\nwant\n%s", d, got, want.String())
		}
	}
}
