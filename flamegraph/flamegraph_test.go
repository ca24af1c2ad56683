package flamegraph

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/report"
)

// table reads and aggregates a fixture as the command does.
func aggregate(t *testing.T, name string, rename map[string]string) *analyze.Table {
	t.Helper()
	p, err := analyze.ParseFile(filepath.Join("..", "testdata", name), analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.Frames {
		if n, ok := rename[p.Frames[i].Name]; ok {
			p.Frames[i].Name = n
		}
	}
	return analyze.Aggregate(p, analyze.AggregateOptions{Edges: true, Lines: true, Tree: true})
}

func compare(t *testing.T, tables ...*analyze.Table) *diff.Report {
	t.Helper()
	var sides []diff.Side
	for i, tab := range tables {
		sides = append(sides, diff.Side{Name: []string{"before", "after"}[i], Tables: []*analyze.Table{tab}})
	}
	r, err := diff.Compare(sides, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func page(t *testing.T, r *diff.Report) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, r, Options{Title: "test"}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const evil = `</script><img src=x onerror="document.title='pwned'">`

// TestPageIsOfflineAndDeterministic: a CSP that allows only the page's own
// script and style (by hash), no remote source anywhere, the same bytes
// twice, and a hostile function name only as escaped JSON.
func TestPageIsOfflineAndDeterministic(t *testing.T) {
	r := compare(t, aggregate(t, "node-router-unbundled-before.cpuprofile", map[string]string{"handle": evil}),
		aggregate(t, "node-router-unbundled-after.cpuprofile", map[string]string{"handle": evil}))
	a, b := page(t, r), page(t, r)
	if !bytes.Equal(a, b) {
		t.Fatal("two writes differ")
	}
	s := string(a)
	csp := regexp.MustCompile(`Content-Security-Policy" content="([^"]*)"`).FindStringSubmatch(s)
	if csp == nil || !strings.Contains(csp[1], "default-src 'none'") || strings.Contains(csp[1], "unsafe-inline") || !strings.Contains(csp[1], hash(pageJS)) {
		t.Errorf("CSP %q", csp)
	}
	if regexp.MustCompile(`(?i)(src|href)=["']?(https?:)?//`).MatchString(s) {
		t.Error("a remote source in the page")
	}
	if strings.Count(s, "</script>") != 2 || strings.Contains(s, "<img") {
		t.Error("the hostile name reached the markup")
	}
}

// chromium returns the browser, or skips.
func chromium(t *testing.T) string {
	if testing.Short() {
		t.Skip("no browser under -short")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium: apt-get install chromium (.ci/run does)")
	return ""
}

// load opens a page in headless Chromium and returns the page's self-test
// record, its DOM, the browser's log and its network log.
func load(t *testing.T, browser string, html []byte, hash ...string) (map[string]any, string, string, string) {
	t.Helper()
	return loadWith(t, browser, html, nil, hash...)
}

// loadWith is load with more flags for the browser (a window size).
func loadWith(t *testing.T, browser string, html []byte, flags []string, hash ...string) (map[string]any, string, string, string) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "page.html")
	os.WriteFile(file, html, 0o644)
	netlog := filepath.Join(dir, "net.json")
	// The browser's own traffic (updates, sync, dictionaries) is turned
	// off, so that what the network log holds is the page's.
	cmd := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
		"--no-first-run", "--disable-domain-reliability", "--disable-features=Translate,OptimizationHints,MediaRouter,SpellcheckService",
		"--enable-logging=stderr", "--v=0", "--log-net-log="+netlog, "--virtual-time-budget=5000")
	cmd.Args = append(append(cmd.Args, flags...), "--dump-dom", "file://"+file+strings.Join(hash, ""))
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v: %s", err, errs.String())
	}
	dom := out.String()
	m := regexp.MustCompile(`<pre id="selftest"[^>]*>([^<]*)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the page's script did not run: %s", errs.String())
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(unescape(m[1])), &st); err != nil {
		t.Fatalf("selftest %q: %v", m[1], err)
	}
	nl, _ := os.ReadFile(netlog)
	return st, dom, errs.String(), string(nl)
}

// pageRequests lists the URLs a network log shows requested by a page:
// the browser's own requests (updates, sync: "not an origin") are not.
func pageRequests(t *testing.T, netlog string) []string {
	var nl struct {
		Events []struct {
			Params map[string]any `json:"params"`
		} `json:"events"`
	}
	if err := json.Unmarshal([]byte(netlog), &nl); err != nil {
		t.Fatalf("network log: %v", err)
	}
	var urls []string
	for _, e := range nl.Events {
		u, ok := e.Params["url"].(string)
		if !ok {
			continue
		}
		// A request's start names its initiator: a page's origin ("null"
		// for a file), or "not an origin" for the browser's own.
		if init, ok := e.Params["initiator"].(string); ok && init != "not an origin" {
			urls = append(urls, u)
		}
	}
	return urls
}

func unescape(s string) string {
	return strings.NewReplacer("&quot;", `"`, "&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}

// TestPageInChromium loads pages in a real browser: no script error, no
// request beyond the file itself; the router change coloured where judged
// real (path-to-regexp's matcher gone), the rest grey, and the root as wide as
// on-CPU time; a profile against itself all grey with no NaN; a hostile
// name shown as text, running nothing.
func TestPageInChromium(t *testing.T) {
	browser := chromium(t)
	before := aggregate(t, "node-router-unbundled-before.cpuprofile", map[string]string{"handle": evil})
	after := aggregate(t, "node-router-unbundled-after.cpuprofile", map[string]string{"handle": evil})
	r := compare(t, before, after)
	st, dom, log, netlog := load(t, browser, page(t, r))
	if strings.Contains(log, "Uncaught") || strings.Contains(log, "Refused to") {
		t.Errorf("browser log: %s", log)
	}
	for _, u := range pageRequests(t, netlog) {
		if !strings.HasPrefix(u, "file://") {
			t.Errorf("the page requested %s", u)
		}
	}
	if st["resources"].(float64) != 0 {
		t.Errorf("the page loaded %v resources", st["resources"])
	}
	if strings.Contains(dom, "<title>pwned") || !strings.Contains(dom, "&lt;/script&gt;&lt;img src=x") {
		t.Error("the hostile name ran, or is not shown as text")
	}
	root := st["rootWidth"].([]any)
	if root[0].(float64) != r.Tree[0].Total.Mean[0] || root[1].(float64) != r.Tree[0].Total.Mean[1] || r.OnCPU(0) != r.Tree[0].Total.Mean[0] {
		t.Errorf("root %v, on-CPU %v %v", root, r.OnCPU(0), r.OnCPU(1))
	}
	// Judged by function (the default), frames are coloured faster
	// exactly when the report judges a function better (at one run a
	// side the matcher's -80% is not settled: its function rows are ~),
	// the rest grey: path-to-regexp's matcher moved under a new caller
	// and is one function, not gone and new; frames are new exactly when
	// their function is judged new (the after build's Router #scan, on
	// its total), and none is gone.
	better, added := false, false
	for _, row := range r.Functions {
		better = better || row.Self.Change.Verdict == diff.VerdictBetter || row.Total.Change.Verdict == diff.VerdictBetter
		added = added || row.Self.Change.Verdict == diff.VerdictNew || row.Total.Change.Verdict == diff.VerdictNew
	}
	if (st["faster"].(float64) > 0) != better || st["grey"].(float64) == 0 || st["goneFrames"].(float64) != 0 || (st["newFrames"].(float64) > 0) != added || st["notFinite"].(bool) || st["judge"] != "function" {
		t.Errorf("router change (a function judged better: %v, new: %v): %v", better, added, st)
	}
	// Judged frame by frame, the moved matcher's old frame is gone.
	st, _, _, _ = load(t, browser, page(t, r), "#judge=path")
	if st["goneFrames"].(float64) == 0 || st["judge"] != "path" {
		t.Errorf("router change by call path: %v", st)
	}
	tip := st["tip"].([]any)
	if first := r.Functions[r.Tree[1].Function]; tip[0].(string) != report.NewView(r).RowName(&first) {
		t.Errorf("tooltip %v for %s", tip, first.Key.Function)
	}

	same := compare(t, before, before)
	st, _, _, _ = load(t, browser, page(t, same))
	if st["coloured"].(float64) != 0 || st["notFinite"].(bool) || st["drawn"].(float64) < 10 {
		t.Errorf("a profile against itself: %v", st)
	}
}

// TestTablesFitAndSelect: at 1280x800 nothing scrolls sideways and the
// tables have at most six columns within their panel; a click on a
// function's row outlines its frames in the graph and marks the row, and
// a click on another function's frame marks that function's row.
func TestTablesFitAndSelect(t *testing.T) {
	browser := chromium(t)
	r := compare(t, aggregate(t, "node-router-unbundled-before.cpuprofile", nil), aggregate(t, "node-router-unbundled-after.cpuprofile", nil))
	one := compare(t, aggregate(t, "node-router-unbundled-before.cpuprofile", nil))
	for name, rep := range map[string]*diff.Report{"two sides": r, "one profile": one} {
		st, _, log, _ := loadWith(t, browser, page(t, rep), []string{"--window-size=1280,800"}, "#clicktest")
		if strings.Contains(log, "Uncaught") {
			t.Fatalf("%s: browser log: %s", name, log)
		}
		l := st["layout"].(map[string]any)
		if l["scrollWidth"].(float64) > l["viewport"].(float64) || l["asideScrollWidth"].(float64) > l["asideWidth"].(float64) {
			t.Errorf("%s: scrolls sideways: %v", name, l)
		}
		for id, tab := range l["tables"].(map[string]any) {
			tb := tab.(map[string]any)
			if tb["columns"].(float64) > 6 || tb["width"].(float64) > l["asideWidth"].(float64) {
				t.Errorf("%s: table %s: %v columns, %v px in a %v px panel", name, id, tb["columns"], tb["width"], l["asideWidth"])
			}
		}
		c, _ := st["clicks"].(map[string]any)
		if c == nil || c["row"].(float64) < 0 {
			t.Fatalf("%s: no click test: %v", name, st["clicks"])
		}
		if c["rowMarked"] != true || c["selectedDrawn"].(float64) < 1 {
			t.Errorf("%s: a click on the row of %v: marked %v, %v frames outlined", name, c["rowFunction"], c["rowMarked"], c["selectedDrawn"])
		}
		marked, _ := c["markedRows"].([]any)
		if c["frameRow"] == nil || len(marked) != 1 || marked[0] != c["frameRow"] {
			t.Errorf("%s: a click on a frame of %v marks rows %v, want [%v]", name, c["frameFunction"], marked, c["frameRow"])
		}
	}
}

// TestPageOfSeveralDrawsTheFirstVariant: a report of a base and two
// variants is drawn as its first variant's pair, byte for byte, not as a
// page with no tree (the pair's parts are not the report's own).
func TestPageOfSeveralDrawsTheFirstVariant(t *testing.T) {
	before := aggregate(t, "node-router-unbundled-before.cpuprofile", nil)
	after := aggregate(t, "node-router-unbundled-after.cpuprofile", nil)
	r, err := diff.Compare([]diff.Side{
		{Name: "before", Tables: []*analyze.Table{before}},
		{Name: "after", Tables: []*analyze.Table{after}},
		{Name: "again", Tables: []*analyze.Table{before}},
	}, diff.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	vs := r.Variants()
	if len(vs) != 2 || len(r.Tree) != 0 {
		t.Fatalf("%d variants, %d nodes of its own", len(vs), len(r.Tree))
	}
	if got, want := page(t, r), page(t, vs[0].Pair()); !bytes.Equal(got, want) {
		t.Errorf("the page of three sides (%d bytes) is not the first variant's (%d bytes)", len(got), len(want))
	}
}
