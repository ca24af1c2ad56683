package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/history"
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

// TestNamedQuerySides: --side NAME=URI names a query side, beside a side
// of files; a name given a query and files is refused in one line.
func TestNamedQuerySides(t *testing.T) {
	srv := fleetReplay(t)
	defer srv.Close()
	uri := strings.Replace(srv.URL, "http://", "parca+http://", 1) + `/?query=process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta{job="gobench",build="after"}&from=2026-12-02T09:40:00Z&to=2026-12-02T09:55:00Z`
	files := filepath.Join("..", "..", "testdata", "fleet", "files", "before-r*.pprof")
	code, out, errs := runCLI("--format", "json", "--replicate-by", "instance", "--side", "base="+files, "--side", "canary="+uri)
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
	if len(doc.Sides) != 2 || doc.Sides[0].Name != "base" || doc.Sides[0].Runs != 3 || doc.Sides[0].Formed != "" ||
		doc.Sides[1].Name != "canary" || doc.Sides[1].Runs != 3 || doc.Sides[1].Formed != "3 runs, one per instance, each over 15m" {
		t.Errorf("sides: %+v", doc.Sides)
	}
	code, _, errs = runCLI("--format", "json", "--side", "canary="+files, "--side", "canary="+uri)
	if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "a query side is given once") {
		t.Errorf("query and files under one name: exit %d, %q", code, errs)
	}
}

// TestQueryToken: the token is read from PROFDIFF_FLEET_TOKEN and sent as
// a bearer token; a refused one is not printed, nor are credentials put in
// the URI, whose error names the variable to use instead.
func TestQueryToken(t *testing.T) {
	replay := fleetReplay(t)
	defer replay.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-9f8e7d" {
			http.Error(w, `{"code":16,"message":"unauthenticated"}`, http.StatusUnauthorized)
			return
		}
		http.Redirect(w, r, replay.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	uri := strings.Replace(srv.URL, "http://", "parca+http://", 1) + `/?query=process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta{job="gobench",build="after"}&from=2026-12-02T09:40:00Z&to=2026-12-02T09:55:00Z`
	t.Setenv(fleetTokenEnv, "tok-9f8e7d")
	if code, _, errs := runCLI("--format", "json", uri); code != 0 {
		t.Fatalf("with the token: exit %d: %s", code, errs)
	}
	t.Setenv(fleetTokenEnv, "tok-wrong")
	code, out, errs := runCLI("--format", "json", uri)
	if code != 2 || strings.Contains(out+errs, "tok-wrong") || !strings.Contains(errs, "not authorized (HTTP 401): unauthenticated") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("wrong token: exit %d, %q", code, errs)
	}
	code, _, errs = runCLI("--format", "json", strings.Replace(uri, "http://", "http://me:pw-5a4b@", 1))
	if code != 2 || strings.Contains(errs, "pw-5a4b") || !strings.Contains(errs, fleetTokenEnv) {
		t.Errorf("credentials in the URI: exit %d, %q", code, errs)
	}
}

// TestHistoryAddFromQuery: history add records a query side's runs as it
// records the files the server was given: the same runs and rows.
func TestHistoryAddFromQuery(t *testing.T) {
	srv := fleetReplay(t)
	defer srv.Close()
	uri := strings.Replace(srv.URL, "http://", "parca+http://", 1) + `/?query=process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta{job="gobench",build="before"}&from=2026-12-02T09:40:00Z&to=2026-12-02T09:55:00Z`
	dir := filepath.Join("..", "..", "testdata", "fleet", "files")
	files := []string{filepath.Join(dir, "before-r1.pprof"), filepath.Join(dir, "before-r2.pprof"), filepath.Join(dir, "before-r3.pprof")}
	fromServer := historyRecord(t, "--replicate-by", "instance", uri)
	fromFiles := historyRecord(t, files...)
	if len(fromServer.Runs) != 3 || len(fromServer.Rows) == 0 || len(fromServer.Rows) != len(fromFiles.Rows) {
		t.Fatalf("%d runs, %d rows from the server; %d rows from the files", len(fromServer.Runs), len(fromServer.Rows), len(fromFiles.Rows))
	}
	for i, r := range fromServer.Runs {
		f := fromFiles.Runs[i]
		if r.OnCPUUs != f.OnCPUUs || r.Samples != f.Samples || r.GCUs != f.GCUs || r.WallUs != 15*60*1e6 {
			t.Errorf("run %d: %+v from the server, %+v from the file", i, r, f)
		}
	}
	for i := range fromServer.Rows {
		if !reflect.DeepEqual(fromServer.Rows[i], fromFiles.Rows[i]) {
			t.Errorf("row %d: %+v from the server, %+v from the files", i, fromServer.Rows[i], fromFiles.Rows[i])
		}
	}
	if code, _, errs := runCLI("history", "add", "-q", "--store", t.TempDir(), "--commit", "c1", uri, files[0]); code != 2 || !strings.Contains(errs, "give it alone") {
		t.Errorf("a query and a file: exit %d, %q", code, errs)
	}
}

// historyRecord adds the runs to a new store as commit c1 and reads the
// record back.
func historyRecord(t *testing.T, args ...string) *history.Record {
	t.Helper()
	store := filepath.Join(t.TempDir(), "store")
	if code, _, errs := runCLI(append([]string{"history", "add", "-q", "--store", store, "--commit", "c1", "--date", "2026-12-02T10:00:00Z"}, args...)...); code != 0 {
		t.Fatalf("history add %v: exit %d: %s", args, code, errs)
	}
	s, err := history.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	return s.Records[0]
}
