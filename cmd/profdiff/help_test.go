package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestHelpFits: --help is at most 60 lines, and no line of any help
// (--help, --help-all, each topic, record's and history's) is wider than
// 80 columns; profdiff help lists the topics, and an unknown one is a
// usage error.
func TestHelpFits(t *testing.T) {
	_, short, _ := runCLI("--help")
	if n := strings.Count(short, "\n"); n > 60 {
		t.Errorf("--help is %d lines", n)
	}
	helps := [][]string{{"--help"}, {"--help-all"}, {"help"}, {"record", "--help"}, {"history", "--help"}}
	for _, topic := range helpTopics() {
		helps = append(helps, []string{"help", topic.name})
	}
	for _, args := range helps {
		code, out, errs := runCLI(args...)
		if code != 0 || strings.Count(out, "\n") < 5 {
			t.Errorf("%v: exit %d, %d lines: %s", args, code, strings.Count(out, "\n"), errs)
		}
		for _, l := range strings.Split(out, "\n") {
			if utf8.RuneCountInString(l) > 80 {
				t.Errorf("%v: a line of %d columns: %s", args, utf8.RuneCountInString(l), l)
			}
		}
	}
	if _, out, _ := runCLI("help"); !strings.Contains(out, "  record ") || !strings.Contains(out, "  formats ") {
		t.Errorf("help lists no topics:\n%s", out)
	}
	if code, _, errs := runCLI("help", "nosuch"); code != 2 || !strings.Contains(errs, "no such topic") {
		t.Errorf("help nosuch: exit %d %s", code, errs)
	}
}
