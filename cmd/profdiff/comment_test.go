package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"

	"github.com/profdiff/profdiff/internal/units"
)

// corpusPair is a held-out pair of the shared corpus (no golden holds it)
// and the flags that compare it.
type corpusPair struct {
	name string
	args func(c string) []string
}

// corpusPairs are the corpus's pairs as a reviewer meets them; a glob is
// one side's runs (see sideArgs).
var corpusPairs = []corpusPair{
	{"router 5v5 bundled", func(c string) []string {
		h := filepath.Join(c, "node-router-ab")
		return []string{"--sourcemaps-before", h + "/bundle-before", "--sourcemaps-after", h + "/bundle-after",
			h + "/before-r*.cpuprofile", h + "/after-r*.cpuprofile"}
	}},
	{"router A/A bundled", func(c string) []string {
		h := filepath.Join(c, "node-router-ab")
		return []string{"--sourcemaps", h + "/bundle-before", h + "/before-r1.cpuprofile", h + "/before-r2.cpuprofile"}
	}},
	{"router 1v1 unbundled", func(c string) []string {
		h := filepath.Join(c, "node-router-ab-unbundled")
		return []string{h + "/before.cpuprofile", h + "/after.cpuprofile"}
	}},
	{"go 3v3", func(c string) []string {
		h := filepath.Join(c, "go-pprof")
		return []string{h + "/before-r*.pprof", h + "/after-r*.pprof"}
	}},
	{"node pprof lines", func(c string) []string {
		h := filepath.Join(c, "node-pprof")
		return []string{h + "/before-lines.pb.gz", h + "/after-lines.pb.gz"}
	}},
	{"loader stalls 3v3", func(c string) []string {
		h := filepath.Join(c, "responsiveness")
		return []string{h + "/before-r*.cpuprofile", h + "/after-r*.cpuprofile"}
	}},
}

// sideArgs turns the two globs of a pair's arguments into --before and
// --after runs.
func sideArgs(t *testing.T, args []string) []string {
	var out []string
	side := []string{"--before", "--after"}
	n := 0
	for _, a := range args {
		if !strings.Contains(a, "*") {
			out = append(out, a)
			continue
		}
		files, _ := filepath.Glob(a)
		if len(files) == 0 {
			t.Fatalf("no files %s", a)
		}
		for _, f := range files {
			out = append(out, side[n], f)
		}
		n++
	}
	return out
}

// corpusDir is the shared corpus, or skips.
func corpusDir(t *testing.T) string {
	c := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(filepath.Join(c, "node-router-ab")); err != nil {
		t.Skip("no shared corpus at ../shared/corpus")
	}
	return c
}

// pairOutputs runs a pair once for its markdown and, in the same run, its
// JSON (--json-output), as the Action does.
func pairOutputs(t *testing.T, p corpusPair, extra ...string) (string, jsonComment) {
	t.Helper()
	js := filepath.Join(t.TempDir(), "r.json")
	code, md, errs := runCLI(append(append([]string{"--format", "markdown", "-q", "--json-output", js}, extra...), sideArgs(t, p.args(corpusDir(t)))...)...)
	if code > 1 {
		t.Fatalf("%s: exit %d: %s", p.name, code, errs)
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var j jsonComment
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	return md, j
}

// jsonComment is what of the JSON report the comment's numbers come from.
type jsonComment struct {
	Headline struct {
		OnCPU commentMeasure `json:"on_cpu"`
	} `json:"headline"`
	Functions []struct {
		Function string         `json:"function"`
		Package  string         `json:"package"`
		Self     commentMeasure `json:"self"`
		Total    commentMeasure `json:"total"`
	} `json:"functions"`
}

type commentMeasure struct {
	Ns       []float64 `json:"ns"`
	DeltaNs  float64   `json:"delta_ns"`
	DeltaPct *float64  `json:"delta_pct"`
	Verdict  string    `json:"verdict"`
	P        *float64  `json:"p"`
}

func (m commentMeasure) real() bool {
	return m.Verdict == "better" || m.Verdict == "worse" || m.Verdict == "new" || m.Verdict == "gone"
}

func (m commentMeasure) pct() string {
	if m.DeltaPct == nil {
		return ""
	}
	return units.SignedPct(*m.DeltaPct)
}

func (m commentMeasure) p() string {
	if m.P == nil {
		return ""
	}
	return units.PValue(*m.P)
}

// firstScreen is the comment up to its first <details>.
func firstScreen(md string) string {
	s, _, _ := strings.Cut(md, "<details>")
	return s
}

// TestCommentFirstScreen: on every corpus pair the markdown's first screen
// (before the first <details>) is at most 40 lines, the whole under
// 65,536 characters, every table at most 6 columns, and the top changes
// as many rows as --top asks (5 by default).
func TestCommentFirstScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("compares the corpus's pairs")
	}
	for _, p := range corpusPairs {
		md, _ := pairOutputs(t, p)
		first := firstScreen(md)
		lines := strings.Count(first, "\n")
		t.Logf("%s: %d lines before the first <details>, %d in all, %d characters", p.name, lines, strings.Count(md, "\n"), len([]rune(md)))
		if lines > 40 {
			t.Errorf("%s: %d lines before the first <details>:\n%s", p.name, lines, first)
		}
		if n := len([]rune(md)); n >= 65536 {
			t.Errorf("%s: %d characters", p.name, n)
		}
		for _, l := range strings.Split(md, "\n") {
			if strings.HasPrefix(l, "|---") && strings.Count(l, "|")-1 > 6 {
				t.Errorf("%s: a table of %d columns", p.name, strings.Count(l, "|")-1)
			}
		}
		if got := len(topRows(first)); got != 5 {
			t.Errorf("%s: %d top changes, want 5", p.name, got)
		}
		// Sections only when they say something: pprof has no sample
		// times, so no stalls; @datadog/pprof's line-level files have
		// lines; the stall pair's stalls are over 50 ms.
		switch p.name {
		case "go 3v3":
			if strings.Contains(md, "Responsiveness") {
				t.Errorf("%s: a stall section", p.name)
			}
		case "node pprof lines":
			if !strings.Contains(md, "<summary>Lines of the changed functions") {
				t.Errorf("%s: no lines of the changed functions", p.name)
			}
		case "loader stalls 3v3":
			if !strings.Contains(md, "<summary>Responsiveness: stalls</summary>") || strings.Contains(first, "Responsiveness") {
				t.Errorf("%s: the stalls are not folded below the first screen", p.name)
			}
		}
	}
	md, _ := pairOutputs(t, corpusPairs[0], "--top", "3")
	if got := len(topRows(firstScreen(md))); got != 3 {
		t.Errorf("--top 3: %d top changes", got)
	}
}

// topRows are the cells of the top changes table's rows.
func topRows(first string) [][]string {
	_, rest, ok := strings.Cut(first, "**Top changes**")
	if !ok {
		return nil
	}
	var rows [][]string
	for _, l := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(l, "| ") || strings.HasPrefix(l, "| function |") {
			continue
		}
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		rows = append(rows, cells)
	}
	return rows
}

var titleRe = regexp.MustCompile(`^<span title="([^"]*)">.*</span>$`)

// cellName is a name cell's full name: its title when cut.
func cellName(cell string) string {
	if m := titleRe.FindStringSubmatch(cell); m != nil {
		return unentity(m[1])
	}
	return strings.NewReplacer(`\_`, "_", `\*`, "*", `\|`, "|", "@&#8203;", "@", "#&#8203;", "#").Replace(cell)
}

func unentity(s string) string {
	return regexp.MustCompile(`&#(\d+);`).ReplaceAllStringFunc(s, func(e string) string {
		var r rune
		fmt.Sscanf(e, "&#%d;", &r)
		return string(r)
	})
}

// TestCommentNumbersMatchJSON checks every number of the first screen
// against the JSON of the same run: the verdict sentence's counts (a
// function counts by the real verdict of its larger real change), its
// headline change and p, the on-CPU row, and each top change's self and
// total before → after, its change and p.
func TestCommentNumbersMatchJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("compares the corpus's pairs")
	}
	for _, p := range corpusPairs {
		md, j := pairOutputs(t, p)
		first := firstScreen(md)
		// The sentence.
		counts := map[string]int{}
		for _, f := range j.Functions {
			if sum(f.Self.Ns)+sum(f.Total.Ns) == 0 {
				continue
			}
			s, tt := f.Self.real(), f.Total.real()
			switch {
			case s && (!tt || math.Abs(f.Self.DeltaNs) >= math.Abs(f.Total.DeltaNs)):
				counts[f.Self.Verdict]++
			case tt:
				counts[f.Total.Verdict]++
			default:
				counts["same"]++
			}
		}
		var parts []string
		for _, v := range []string{"worse", "better", "new", "gone"} {
			if n := counts[v]; n > 0 {
				if len(parts) == 0 {
					parts = append(parts, units.Plural(n, "function", "functions")+" "+v)
				} else {
					parts = append(parts, units.Count(int64(n))+" "+v)
				}
			}
		}
		if len(parts) == 0 {
			parts = append(parts, units.Plural(counts["same"], "function", "functions")+", none changed for real")
		} else {
			parts = append(parts, units.Count(int64(counts["same"]))+" unchanged")
		}
		h := j.Headline.OnCPU
		verdict := "within noise"
		if h.real() {
			verdict = h.Verdict
		}
		want := strings.Join(parts, ", ") + "; on-CPU per run " + h.pct() + " (" + h.p() + "), " + verdict + "."
		if !strings.Contains(first, "**"+want+"**") {
			t.Errorf("%s: the sentence is not %q:\n%s", p.name, want, first)
		}
		// The on-CPU row.
		onCPU := fmt.Sprintf("| on-CPU / run | %s", unbrokenText(units.Duration(h.Ns[0])))
		if !strings.Contains(strings.ReplaceAll(first, "\u00a0", " "), strings.ReplaceAll(onCPU, "\u00a0", " ")) {
			t.Errorf("%s: no %q", p.name, onCPU)
		}
		// The top changes.
		for _, cells := range topRows(first) {
			if len(cells) != 5 {
				t.Fatalf("%s: a top row of %d cells: %v", p.name, len(cells), cells)
			}
			name, pkg := cellName(cells[0]), cellName(cells[1])
			found := false
			for _, f := range j.Functions {
				if pkg != f.Package || !strings.HasPrefix(name, f.Function) {
					continue
				}
				ba := func(m commentMeasure) string {
					return units.Duration(m.Ns[0]) + " → " + units.Duration(m.Ns[1])
				}
				m, which := f.Self, "self"
				if strings.HasPrefix(cells[4], "total") {
					m, which = f.Total, "total"
				}
				change := strings.ReplaceAll(strings.ReplaceAll(cells[4], "\u00a0", " "), "**", "")
				wantChange := strings.TrimSpace(strings.Join([]string{which, m.pct(), m.Verdict, m.p()}, " "))
				wantChange = strings.ReplaceAll(wantChange, "  ", " ")
				if norm(cells[2]) == norm(ba(f.Self)) && norm(cells[3]) == norm(ba(f.Total)) && change == wantChange {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s: no function in the JSON has the top change %v", p.name, cells)
			}
		}
	}
}

func unbrokenText(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") }

func norm(s string) string { return strings.ReplaceAll(s, "\u00a0", " ") }

func sum(xs []float64) float64 {
	var t float64
	for _, x := range xs {
		t += x
	}
	return t
}

// commentPage is a comment's markdown as GitHub renders it, in GitHub's
// comment column (780 px) with its markdown-body table styles, and a
// script that opens every <details> and writes each table's width.
func commentPage(md string) ([]byte, error) {
	var body bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe())).Convert([]byte(md), &body); err != nil {
		return nil, err
	}
	const style = `body{margin:0;background:#fff}
.markdown-body{box-sizing:border-box;width:780px;padding:0;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif;font-size:14px;line-height:1.5;color:#1f2328;word-wrap:break-word}
.markdown-body table{border-spacing:0;border-collapse:collapse;display:block;width:max-content;max-width:100%;overflow:auto;margin:0 0 16px}
.markdown-body table th,.markdown-body table td{padding:6px 13px;border:1px solid #d1d9e0}
.markdown-body table th{font-weight:600}
.markdown-body table tr:nth-child(2n){background:#f6f8fa}
.markdown-body blockquote{margin:0 0 16px;padding:0 1em;color:#59636e;border-left:.25em solid #d1d9e0}
.markdown-body h3{font-size:1.25em;font-weight:600;margin:24px 0 16px}
.markdown-body p,.markdown-body ul,.markdown-body ol,.markdown-body details{margin:0 0 16px}`
	const script = `<script>
for (const d of document.querySelectorAll('details')) d.open = true;
const out = [...document.querySelectorAll('table')].map(t => ({scroll: t.scrollWidth, client: t.clientWidth, head: t.rows[0].innerText.replace(/\s+/g, ' ')}));
document.getElementById('widths').textContent = JSON.stringify({tables: out, body: document.querySelector('.markdown-body').scrollWidth});
</script>`
	return []byte("<!doctype html><meta charset=utf-8><style>" + style + "</style><div class=markdown-body>" + body.String() + "</div><pre id=widths style=white-space:pre-wrap></pre>" + script), nil
}

// tableWidths loads a page in headless Chromium and returns its tables'
// widths; with shot, it also saves a screenshot there.
func tableWidths(t *testing.T, browser string, page []byte, shot string) (tables []struct {
	Scroll, Client int
	Head           string
}, body int) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "comment.html")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + filepath.Join(dir, "profile"), "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=800,1200"}
	out, err := exec.Command(browser, append(args, "--virtual-time-budget=3000", "--dump-dom", "file://"+file)...).Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	m := regexp.MustCompile(`<pre id="widths"[^>]*>([^<]*)</pre>`).FindSubmatch(out)
	if m == nil {
		t.Fatal("the page's script did not run")
	}
	var res struct {
		Tables []struct {
			Scroll, Client int
			Head           string
		}
		Body int
	}
	if err := json.Unmarshal([]byte(strings.NewReplacer("&quot;", `"`, "&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(string(m[1]))), &res); err != nil {
		t.Fatal(err)
	}
	if shot != "" {
		if err := exec.Command(browser, append(args, "--screenshot="+shot, "file://"+file)...).Run(); err != nil {
			t.Errorf("screenshot: %v", err)
		}
	}
	return res.Tables, res.Body
}

// TestCommentFitsTheColumn renders each corpus pair's markdown (every
// <details> open) in real Chromium in GitHub's 780 px comment column and
// checks that no table is wider than the column: a table wider scrolls
// (its scrollWidth exceeds what it shows). PROFDIFF_SHOTS=DIR keeps a
// screenshot of each first screen there.
func TestCommentFitsTheColumn(t *testing.T) {
	if testing.Short() {
		t.Skip("no browser under -short")
	}
	var browser string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("no chromium")
	}
	// PROFDIFF_MEASURE=FILE,... measures comments written elsewhere too,
	// such as the Action's comment.md.
	for _, f := range strings.Split(os.Getenv("PROFDIFF_MEASURE"), ",") {
		if f == "" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		page, err := commentPage(string(b))
		if err != nil {
			t.Fatal(err)
		}
		tables, _ := tableWidths(t, browser, page, "")
		widest := 0
		for _, tb := range tables {
			widest = max(widest, tb.Scroll)
		}
		t.Logf("%s: %d lines before the first <details>, %d characters, %d tables, widest %d px", f, strings.Count(firstScreen(string(b)), "\n"), len([]rune(string(b))), len(tables), widest)
		if widest > 780 {
			t.Errorf("%s: a table %d px wide", f, widest)
		}
	}
	for i, p := range corpusPairs {
		md, _ := pairOutputs(t, p)
		page, err := commentPage(md)
		if err != nil {
			t.Fatal(err)
		}
		shot := ""
		if d := os.Getenv("PROFDIFF_SHOTS"); d != "" {
			shot = filepath.Join(d, fmt.Sprintf("pair%d.png", i))
			first, _ := commentPage(firstScreen(md))
			os.WriteFile(filepath.Join(d, fmt.Sprintf("pair%d.html", i)), page, 0o644)
			page = first
		}
		tables, body := tableWidths(t, browser, page, shot)
		if shot != "" { // measure the whole comment, not only the first screen
			page, _ = commentPage(md)
			tables, body = tableWidths(t, browser, page, "")
		}
		widest := 0
		for _, tb := range tables {
			widest = max(widest, tb.Scroll)
			if tb.Scroll > 780 {
				t.Errorf("%s: a table %d px wide (column 780 px): %.80s", p.name, tb.Scroll, tb.Head)
			}
		}
		t.Logf("%s: %d tables, widest %d px, body %d px", p.name, len(tables), widest, body)
		if len(tables) < 3 {
			t.Errorf("%s: %d tables rendered", p.name, len(tables))
		}
	}
}

// TestCommentSaysTheMachineWasLoaded: a recording made under load (its
// record.json's load average above its CPUs, and sampled on-CPU time
// above the process CPU time) says so first, before any number.
func TestCommentSaysTheMachineWasLoaded(t *testing.T) {
	code, md, errs := runCLI("--format", "markdown", "-q", fixture("record-power-loaded/before"), fixture("record-power-loaded/after"))
	if code > 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	verdict := strings.Index(md, "\n**")
	for _, want := range []string{"The machine was loaded when the recording started: load average 7.69 on 2 logical CPUs.", "exceeds the process CPU time"} {
		if i := strings.Index(md, want); i < 0 || i > verdict {
			t.Errorf("%q not before the verdict:\n%.1200s", want, md)
		}
	}
}
