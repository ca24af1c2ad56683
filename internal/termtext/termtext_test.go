package termtext

import (
	"strings"
	"testing"
)

func TestFitAndClean(t *testing.T) {
	if got := Fit(strings.Repeat("a", 30)+strings.Repeat("b", 30), 48, false); Width(got) != 48 || !strings.Contains(got, "…") {
		t.Errorf("Fit = %q", got)
	}
	if got := Fit("/very/long/"+strings.Repeat("x/", 40)+"file.js:12", 40, true); !strings.HasSuffix(got, "file.js:12") || Width(got) > 40 {
		t.Errorf("Fit lost the tail: %q", got)
	}
	// Wide characters take two cells each; a cut never splits one.
	if got := Fit(strings.Repeat("漢", 30), 21, false); Width(got) > 21 || !strings.Contains(got, "…") {
		t.Errorf("Fit of CJK = %q (%d cells)", got, Width(got))
	}
	for in, want := range map[string]string{
		"RegExp: a\nb":       `RegExp: a\nb`,
		"Main\x1b]0;pwned\a": `Main\x1b]0;pwned\x07`,
		"x\u009b2J":          `x\u009b2J`,
		"\u202egnp.exe":      `\u202egnp.exe`,
		"nul\x00":            `nul\x00`,
		"plain 名前 ✓":         "plain 名前 ✓",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}
