package report

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// routerText is a stand-in for the router's source (the profiles name
// /srv/node-workload/deploy/src/router.js, not in the repository): 230
// lines, match's body on lines 11-20.
func routerText() []string {
	var lines []string
	for i := 1; i <= 230; i++ {
		switch {
		case i == 11:
			lines = append(lines, "function match(routes, path) {")
		case i > 11 && i <= 20:
			lines = append(lines, fmt.Sprintf("  step%d(routes, path);", i))
		default:
			lines = append(lines, fmt.Sprintf("// line %d", i))
		}
	}
	return lines
}

// TestSourceAlignsEditedFunction: when the function's text differs between
// the builds, the two texts are aligned as a line diff: lines only before
// marked -, lines only after +, each line with its own side's numbers and
// times, a moved line with both; with the same text on both sides, one
// line column and each line's verdict.
func TestSourceAlignsEditedFunction(t *testing.T) {
	r := linesReport(t, "node-router-unbundled-before.cpuprofile", "node-router-unbundled-after.cpuprofile")
	before := routerText()
	after := slices.Clone(before)
	// 17 lines added above the body (the body moves down by 17), and
	// line 18 edited.
	var added []string
	for i := range 17 {
		added = append(added, fmt.Sprintf("// added %d", i+1))
	}
	after = slices.Insert(after, 11, added...)
	after[18+16] = "  step18Faster(routes, path);"
	texts := [2]string{strings.Join(before, "\n") + "\n", strings.Join(after, "\n") + "\n"}
	source := func(side int, file string) (string, string) {
		if strings.HasSuffix(file, "/src/router.js") {
			return texts[side], ""
		}
		return "", "not here"
	}
	var b bytes.Buffer
	if err := WriteSource(&b, r, SourceOptions{Match: regexp.MustCompile(`^match$`), Source: source, Context: 2}); err != nil {
		t.Fatal(err)
	}
	golden(t, "source-edited.txt", b.Bytes())

	texts[1] = texts[0]
	b.Reset()
	if err := WriteSource(&b, r, SourceOptions{Match: regexp.MustCompile(`^match$`), Source: source, Context: 2}); err != nil {
		t.Fatal(err)
	}
	golden(t, "source-same.txt", b.Bytes())
}
