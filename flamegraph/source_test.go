package flamegraph

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestPageShowsSource: with Options.Lines, clicking a frame shows its
// function's source with each line's self time on each side and the
// change (here opened by #source, as a click does, in headless Chromium);
// without it the page holds no sources.
func TestPageShowsSource(t *testing.T) {
	r := compare(t, aggregate(t, "node-router-unbundled-before.cpuprofile", nil), aggregate(t, "node-router-unbundled-after.cpuprofile", nil))
	source := func(_ int, file string) (string, bool) {
		if !strings.HasSuffix(file, "path-to-regexp/dist/index.js") {
			return "", false
		}
		var b strings.Builder
		for i := 1; i <= 400; i++ {
			fmt.Fprintf(&b, "code of line %d\n", i)
		}
		return b.String(), true
	}
	var plain, withLines bytes.Buffer
	if err := Write(&plain, r, Options{Title: "t"}); err != nil {
		t.Fatal(err)
	}
	if err := Write(&withLines, r, Options{Title: "t", Lines: true, Source: source}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), `"sources"`) || !strings.Contains(withLines.String(), `"sources"`) ||
		!strings.Contains(withLines.String(), "code of line 213") {
		t.Fatal("sources: only with Options.Lines, and with the text")
	}
	st, dom, logs, _ := load(t, chromium(t), withLines.Bytes(), "#source")
	if rows, _ := st["sourceRows"].(float64); rows < 1 {
		t.Fatalf("no source shown: %v\n%s", st, logs)
	}
	if !strings.Contains(dom, `id="source-section"`) || strings.Contains(dom, `id="source-section" hidden`) {
		t.Errorf("the source section is not shown")
	}
}

// TestPageShowsBothBuilds: when the clicked function's text differs
// between the builds (the cache fixture: renderDocument edited, the code
// below it moved down), the page shows both texts aligned as --source
// does: lines only before marked - and only after +, each with its own
// side's time, the others with both line numbers.
func TestPageShowsBothBuilds(t *testing.T) {
	r := compare(t, aggregate(t, "cache/before-r1.cpuprofile", nil), aggregate(t, "cache/after-r1.cpuprofile", nil))
	var texts [2]string
	for i, f := range []string{"app-before.js", "app-after.js"} {
		b, err := os.ReadFile("../testdata/cache/" + f)
		if err != nil {
			t.Fatal(err)
		}
		texts[i] = string(b)
	}
	source := func(side int, file string) (string, bool) {
		if !strings.HasSuffix(file, "app.js") {
			return "", false
		}
		return texts[side], true
	}
	var b bytes.Buffer
	if err := Write(&b, r, Options{Title: "t", Lines: true, Source: source}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	// renderDocument's rows: its uncached line before only, with before's
	// time; the cached lookups after only; its first line at 6 and 8.
	for _, want := range []string{`"aligned":true`, `[7,0,"-","  return parse(docs[i % docs.length]);",`, `[0,9,"+","  const key = i % docs.length;",`, `[6,8," ","function renderDocument(i) {",`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page's data lacks %s", want)
		}
	}
	st, dom, logs, _ := load(t, chromium(t), b.Bytes(), "#source=renderDocument")
	if rows, _ := st["sourceRows"].(float64); rows < 1 {
		t.Fatalf("no source shown: %v\n%s", st, logs)
	}
	for _, want := range []string{`<th>old</th><th>new</th>`, `<tr class="removed">`, `<tr class="added">`} {
		if !strings.Contains(dom, want) {
			t.Errorf("the shown source lacks %s", want)
		}
	}
}
