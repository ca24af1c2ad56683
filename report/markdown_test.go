package report

import (
	"bytes"
	"github.com/profdiff/profdiff/diff"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

// TestEscapeMarkdownOnlyWhatGFMNeeds: ordinary names and our own notes
// read the same raw as rendered (they were "node\_modules", "\[gone\]",
// "\~" and "p=&lt;0.001" in the raw comment).
func TestEscapeMarkdownOnlyWhatGFMNeeds(t *testing.T) {
	for _, s := range []string{"node_modules/path-to-regexp/dist/index.js:416:10", "match [gone]", "(anonymous)", "~", "p<0.001",
		"a -> b", "#tokenizeInlines", "__proto__x", "snake_case_name", "1 < 2 & 3 > 2", "C:\\dir", "$", "lodash.js:2597:14"} {
		got := EscapeMarkdown(s)
		if s == "__proto__x" {
			if got == s {
				t.Errorf("%q can open emphasis and is not escaped", s)
			}
			continue
		}
		if got != s {
			t.Errorf("EscapeMarkdown(%q) = %q: nothing in it is markup", s, got)
		}
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
	r := routerPair(t, diff.DefaultOptions())
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
	r := routerPair(t, diff.DefaultOptions())
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
		"tr": true, "th": true, "td": true, "details": true, "summary": true, "blockquote": true, "code": true, "ul": true, "ol": true, "li": true,
		"span": true, "br": true} // a cut name's span, holding the full name in its title only; a location under its function
	for _, sp := range regexp.MustCompile(`<span[^>]*>`).FindAllString(h, -1) {
		if !regexp.MustCompile(`^<span title="[^"<>]*">$`).MatchString(sp) {
			t.Errorf("a span with more than a title: %s", sp)
		}
	}
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
	r := routerPair(t, diff.DefaultOptions())
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

// TestMarkdownEmphasizesVerdictsOnly: a cell is bold because its verdict
// says the change is real, not because its text holds a verdict's word:
// a narrowing flag with "new" in it stays plain, the path-to-regexp rows'
// real verdicts are bold.
func TestMarkdownEmphasizesVerdictsOnly(t *testing.T) {
	opts := diff.DefaultOptions()
	opts.Narrowing = []string{"--focus", "renew|gone"}
	r := routerPair(t, opts)
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	var narrowed string
	for _, l := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(l, "| narrowed |") {
			narrowed = l
		}
	}
	if narrowed == "" || strings.Contains(narrowed, "**") {
		t.Errorf("narrowed row %q", narrowed)
	}
	if !strings.Contains(md.String(), "\u00a0**better** p=") {
		t.Errorf("no real verdict in bold:\n%s", md.String())
	}
}

// TestMarkdownTablesAtMostSevenColumns: every table of a pull request
// comment reads without scrolling far (the top changes were 11 and 13
// columns, with one p column for two verdicts).
func TestMarkdownTablesAtMostSevenColumns(t *testing.T) {
	r := routerPair(t, diff.DefaultOptions())
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r, MarkdownOptions{Files: true}); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(l, "|---") {
			if n := strings.Count(l, "|") - 1; n > 7 {
				t.Errorf("a table of %d columns: %s", n, l)
			}
		}
	}
	if strings.Contains(md.String(), "| p |") {
		t.Errorf("a p column serves two verdicts")
	}
}

// TestMarkdownEnvironmentFirst: sides that ran on different CPUs, core
// counts and Node versions, one of them loaded, are said at the top,
// before any number; the same machine says nothing.
func TestMarkdownEnvironmentFirst(t *testing.T) {
	r := routerPair(t, diff.DefaultOptions())
	envs := []SideEnvironment{
		{CPUModel: "AMD EPYC 7B13", CPUs: 2, Versions: map[string]string{"node": "v20.20.2"}, Load: 0.3},
		{CPUModel: "Intel Xeon Platinum 8370C", CPUs: 4, Versions: map[string]string{"node": "v22.11.0"}, Load: 6.5},
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r, MarkdownOptions{Environments: envs}); err != nil {
		t.Fatal(err)
	}
	out := md.String()
	firstNumber := strings.Index(out, "\n**")
	for _, want := range []string{"different CPUs: AMD EPYC 7B13 before, Intel Xeon Platinum 8370C after", "different core counts: 2 logical CPUs before, 4 after",
		"different node versions: v20.20.2 before, v22.11.0 after", "The after side's machine was loaded when it started: load average 6.50 on 4 logical CPUs"} {
		if i := strings.Index(out, want); i < 0 || i > firstNumber {
			t.Errorf("%q not said before the verdict (at %d, verdict at %d):\n%.1500s", want, i, firstNumber, out)
		}
	}
	md.Reset()
	same := []SideEnvironment{envs[0], envs[0]}
	if err := WriteMarkdown(&md, r, MarkdownOptions{Environments: same}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "[!WARNING]") {
		t.Errorf("one machine, unloaded, and still a warning:\n%.800s", md.String())
	}
}

// TestMarkdownStallsOnlyWhenTheySaySomething: the router pair's runs have
// stalls over 50 ms, so the stalls are listed (folded); with none over
// 50 ms and no stall figure judged, there is no stall section; a stall
// figure judged a change brings it back.
func TestMarkdownStallsOnlyWhenTheySaySomething(t *testing.T) {
	render := func(r *diff.Report) string {
		var md bytes.Buffer
		if err := WriteMarkdown(&md, r, MarkdownOptions{}); err != nil {
			t.Fatal(err)
		}
		return md.String()
	}
	r := routerPair(t, diff.DefaultOptions())
	if r.Responsiveness == nil || !r.Responsiveness.HasLong() {
		t.Fatal("the router pair has no stall over 50 ms")
	}
	if !strings.Contains(render(r), "<summary>Responsiveness: stalls</summary>") {
		t.Error("stalls over 50 ms and no stall section")
	}
	rs := r.Responsiveness
	for _, runs := range rs.Over50ms.Runs {
		for i := range runs {
			runs[i] = 0
		}
	}
	for _, m := range []*diff.Measure{&rs.LongestStall, &rs.Over16ms, &rs.Over50ms, &rs.Blocking} {
		m.Change.Verdict = diff.VerdictSame
	}
	if md := render(r); strings.Contains(md, "Responsiveness") {
		t.Errorf("a stall section with no stall over 50 ms and no stall verdict:\n%s", md[strings.Index(md, "Responsiveness")-200:][:400])
	}
	rs.Blocking.Change.Verdict = diff.VerdictWorse
	if !strings.Contains(render(r), "<summary>Responsiveness: stalls</summary>") {
		t.Error("a stall figure judged worse and no stall section")
	}
}
