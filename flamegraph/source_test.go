package flamegraph

import (
	"bytes"
	"fmt"
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
