package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/fleet"
)

// TestQuerySides: a side that is a profiling server's query reaches
// profdiff as given, not as a glob (its "?query=" would match no file),
// and history add gets it as the head's run; the prefixes are fleet's.
func TestQuerySides(t *testing.T) {
	before := `parca+http://parca:7070/?query=process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta{job="api",build="v1"}&from=-2h&to=-1h`
	after := `pyroscope+https://pyro:4040/?query=process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="api"}&from=-1h`
	env := map[string]string{"INPUT_BEFORE": before, "INPUT_AFTER": after, "INPUT_ARGS": "--replicate-by instance"}
	c, err := environment{getenv: func(k string) string { return env[k] }}.config()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.args[len(c.args)-3:], []string{"--", before, after}) || !slices.Contains(c.args, "--replicate-by") {
		t.Errorf("args %q", c.args)
	}
	if c.storeArgs[len(c.storeArgs)-1] != after {
		t.Errorf("history add args %q", c.storeArgs)
	}
	env["INPUT_AFTER"] = after + "\nprofiles/*.pprof"
	if _, err := (environment{getenv: func(k string) string { return env[k] }}).config(); err == nil || !strings.Contains(err.Error(), "one line") {
		t.Errorf("a query and files in one side: %v", err)
	}
	for _, p := range queryPrefixes {
		if !fleet.IsURI(p + "h/?query=x") {
			t.Errorf("%s is no query prefix of fleet's", p)
		}
	}
	if isQuery("parca+ftp://h/") || isQuery("profiles/before-r1.pprof") {
		t.Error("isQuery takes more than queries")
	}
}
