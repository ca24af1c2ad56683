package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fleetReplay serves the answers recorded from a real Parca
// (testdata/fleet/README.md) for the Go job's builds and instances.
func fleetReplay(t *testing.T) *httptest.Server {
	sel := regexp.MustCompile(`\{job="gobench",build="(before|after)"(?:,instance="(r\d)")?\}$`)
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		file := "query-empty.json"
		if r.URL.Path == "/api/profiles/labels/instance/values" {
			file = "values-instance.json"
		} else if m := sel.FindStringSubmatch(r.URL.Query().Get("merge.query")); m != nil {
			file = "query-go-" + m[1] + ".json"
			if m[2] != "" {
				file = "query-go-" + m[1] + "-instance-" + m[2] + ".json"
			}
		}
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fleet", "parca", file))
		if err != nil {
			t.Error(err)
		}
		w.Write(b)
	}))
}

// TestQuerySides: two Parca query sides with --replicate-by compare as
// two sides of three runs each, and an empty query exits 2 in one line.
func TestQuerySides(t *testing.T) {
	srv := fleetReplay(t)
	defer srv.Close()
	side := func(build string) string {
		return strings.Replace(srv.URL, "http://", "parca+http://", 1) + `/?query=process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta{job="gobench",build="` + build + `"}&from=2026-12-02T09:40:00Z&to=2026-12-02T09:55:00Z`
	}
	code, out, errs := runCLI("--format", "json", "--replicate-by", "instance", side("before"), side("after"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Sides []struct {
			Name   string `json:"name"`
			Runs   int    `json:"runs"`
			Formed string `json:"formed"`
		} `json:"sides"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `instance=\"r3\"`) {
		t.Errorf("the runs do not say how they were formed (instance=\"r3\" missing)")
	}
	if len(doc.Sides) != 2 || doc.Sides[0].Runs != 3 || doc.Sides[1].Runs != 3 {
		t.Errorf("sides: %+v", doc.Sides)
	}
	for _, s := range doc.Sides {
		if s.Formed != "3 runs, one per instance, each over 15m" {
			t.Errorf("side %s: formed %q", s.Name, s.Formed)
		}
	}
	// The report says how the runs were formed, in every format.
	code, out, errs = runCLI("--format", "text", "--windows", "3", side("before"), side("after"))
	if code != 0 || !strings.Contains(out, "(pprof, 3 windows of 5m)") {
		t.Errorf("text: exit %d, %s\n%s", code, errs, out)
	}
	code, out, errs = runCLI("--format", "markdown", "--replicate-by", "instance", side("before"), side("after"))
	if code != 0 || !strings.Contains(out, "before (3 runs, one per instance, each over 15m) → after (3 runs, one per instance, each over 15m)") {
		t.Errorf("markdown: exit %d, %s\n%s", code, errs, out)
	}
	code, out, errs = runCLI("--format", "text", side("after"))
	if code != 0 || !strings.Contains(out, "\n1 run, merged over 15m\n") {
		t.Errorf("one side: exit %d, %s\n%s", code, errs, out)
	}
	if code, out, _ := runCLI("--format", "json", fixture("fleet/files/before-r1.pprof"), fixture("fleet/files/after-r1.pprof")); code != 0 || strings.Contains(out, `"formed"`) {
		t.Errorf("files: exit %d, a formed field for sides of files", code)
	}
	code, _, errs = runCLI("--format", "text", side("nosuch"), side("after"))
	if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "matched no samples") {
		t.Errorf("empty query: exit %d, %q", code, errs)
	}
}
