package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// --top is a request every output honours: markdown's top changes and the
// HTML page's tables hold that many rows, and without it their own
// defaults (10 and 50) stand.
func TestTopIsHonouredByEveryOutput(t *testing.T) {
	before, after := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	markdownRows := func(args ...string) int {
		code, out, errs := runCLI(append(args, "-f", "markdown", before, after)...)
		if code > 1 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		_, rest, _ := strings.Cut(out, "**Top changes** (functions")
		_, rest, _ = strings.Cut(rest, "\n\n")
		table, _, _ := strings.Cut(rest, "\n\n")
		return strings.Count(table, "\n| ") // the lines after the header's, which starts the table
	}
	htmlRows := func(args ...string) int {
		code, out, errs := runCLI(append(args, "-f", "html", before, after)...)
		if code > 1 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		m := regexp.MustCompile(`"title":"Functions","headers":\[[^\]]*\],"rows":(\[\[.*?\]\])`).FindStringSubmatch(out)
		if m == nil {
			t.Fatal("no functions table in the page")
		}
		var rows [][]string
		if err := json.Unmarshal([]byte(m[1]), &rows); err != nil {
			t.Fatal(err)
		}
		return len(rows)
	}
	for _, c := range []struct {
		args           []string
		markdown, html int
	}{
		{nil, 5, 50},
		{[]string{"--top", "3"}, 3, 3},
		{[]string{"-n", "12"}, 12, 12},
	} {
		if got := markdownRows(c.args...); got != c.markdown {
			t.Errorf("markdown %v: %d rows of top functions, want %d", c.args, got, c.markdown)
		}
		if got := htmlRows(c.args...); got != c.html {
			t.Errorf("html %v: %d rows of functions, want %d", c.args, got, c.html)
		}
	}
}
