package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

// TestNotATerminalGatesAndPipes adds to TestNoTerminalMeansText what a CI
// job does: --fail-on with the report sent to /dev/null exits 0 or 1 by
// the rule, and "profdiff P | cat" writes text without colour.
func TestNotATerminalGatesAndPipes(t *testing.T) {
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Skip(err)
	}
	defer devnull.Close()
	prof := fixture("node-router-unbundled-before.cpuprofile")
	after := fixture("node-router-unbundled-after.cpuprofile")
	var errs bytes.Buffer
	if code := run([]string{prof}, devnull, devnull, &errs); code != 0 || !onlyWarnings(errs.String()) {
		t.Errorf("profdiff P > /dev/null: exit %d, stderr %q", code, errs.String())
	}
	for _, c := range []struct {
		rule string
		want int
	}{{"package:*>+1000pp", 0}, {"package:path-to-regexp<-10%", 1}} {
		errs.Reset()
		if code := run([]string{"--fail-on", c.rule, prof, after}, devnull, devnull, &errs); code != c.want {
			t.Errorf("--fail-on %s > /dev/null: exit %d, want %d; stderr %q", c.rule, code, c.want, errs.String())
		}
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string)
	go func() { b, _ := io.ReadAll(r); done <- string(b) }()
	errs.Reset()
	code := run([]string{prof}, devnull, w, &errs)
	w.Close()
	out := <-done
	if code != 0 || !strings.Contains(out, "on-CPU") || strings.Contains(out, "\x1b") {
		t.Errorf("profdiff P | cat: exit %d, stderr %q, stdout %.200q", code, errs.String(), out)
	}

	errs.Reset()
	var stdout bytes.Buffer
	code = run([]string{"--format", "tui", prof}, devnull, &stdout, &errs)
	if code != 2 || stdout.Len() > 0 || strings.Count(errs.String(), "\n") != 1 || !strings.Contains(errs.String(), "terminal") {
		t.Errorf("--format tui < /dev/null: exit %d, stderr %q", code, errs.String())
	}
}
