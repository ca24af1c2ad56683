package tui

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// cacheInput is the cache fixture (renderDocument cached after; the code
// below it moves down by five lines), with each side's text of app.js.
func cacheInput(t *testing.T) Input {
	t.Helper()
	in := input(t, "cache/before-r1.cpuprofile", "cache/after-r1.cpuprofile")
	var texts [2]string
	for i, f := range []string{"app-before.js", "app-after.js"} {
		b, err := os.ReadFile("../testdata/cache/" + f)
		if err != nil {
			t.Fatal(err)
		}
		texts[i] = string(b)
	}
	in.Source = func(side int, file string) (string, bool) {
		if !strings.HasSuffix(file, "app.js") {
			return "", false
		}
		return texts[side], true
	}
	return in
}

// TestSourcePaneAlignsBuilds: when a function's text differs between the
// builds, the source pane shows both texts aligned as --source does: the
// before build's removed line (renderDocument's uncached parse, line 7)
// marked - with its before time, the after build's added lines marked +
// with their after time, each with both line numbers where both builds
// have the line; moving through it, the footer names each build's line.
func TestSourcePaneAlignsBuilds(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m := sized(New(cacheInput(t)), size[0], size[1])
		c, _ := press(t, m, "tab", "/", "renderDocument", "enter")
		c, _ = press(t, find(t, c, "renderDocument"), "enter")
		out := c.Render()
		if !strings.Contains(out, "old  new") || !strings.Contains(out, "texts differ") {
			t.Fatalf("%v: no aligned header:\n%s", size, out)
		}
		removed := regexp.MustCompile(`(?m)^\s+7\s+[\d.]+ ms\s+-[\d.]+ ms.*│-  return parse\(docs\[i % docs`)
		if !removed.MatchString(out) {
			t.Errorf("%v: line 7 before only, with its before time, not shown:\n%s", size, out)
		}
		if !regexp.MustCompile(`(?m)^\s+6\s+8\s.*│ function renderDocument`).MatchString(out) {
			t.Errorf("%v: the function's first line without both numbers:\n%s", size, out)
		}
		if !regexp.MustCompile(`(?m)^\s+9\s.*│\+  const key`).MatchString(out) {
			t.Errorf("%v: after's line 9 not marked +:\n%s", size, out)
		}
		if strings.Count(out, "\n") >= size[1] {
			t.Errorf("%v: the screen overflows", size)
		}
		f, _ := press(t, c, "tab")
		var labels []string
		for range 12 {
			f, _ = press(t, f, "j")
			labels = append(labels, f.sourceLineLabel(f.top()))
		}
		joined := strings.Join(labels, "|")
		for _, want := range []string{"(before only)", "(after only)", "→"} {
			if !strings.Contains(joined, want) {
				t.Errorf("%v: footer labels %q lack %q", size, joined, want)
			}
		}
	}
	// The same text on both sides: one line column.
	in := cacheInput(t)
	in.Source = func(_ int, file string) (string, bool) { return "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n", true }
	c, _ := press(t, sized(New(in), 120, 40), "tab", "/", "renderDocument", "enter")
	c, _ = press(t, find(t, c, "renderDocument"), "enter")
	if out := c.Render(); strings.Contains(out, "old  new") || !strings.Contains(out, "line    before") {
		t.Errorf("same text shown aligned:\n%s", out)
	}
}
