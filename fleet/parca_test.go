package fleet

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/profdiff/profdiff/analyze"
)

const goType = "process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta"

var (
	window0 = time.Date(2026, 12, 2, 9, 40, 0, 0, time.UTC)
	window1 = time.Date(2026, 12, 2, 9, 55, 0, 0, time.UTC)
)

// fakeParca replays the answers record.sh took from a real Parca
// (testdata/fleet/README.md): the merge query's selector picks the file.
func fakeParca(t *testing.T) *httptest.Server {
	t.Helper()
	dir := filepath.Join("..", "testdata", "fleet", "parca")
	sel := regexp.MustCompile(`^` + regexp.QuoteMeta(goType) + `\{job="(\w+)"(?:,build="(\w+)")?(?:,instance="(\w+)")?\}$`)
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var file string
		switch {
		case r.URL.Path == "/api/profiles/labels/instance/values":
			file = "values-instance.json"
		case r.URL.Path == "/api/profiles/query":
			v := r.URL.Query()
			if v.Get("mode") != "MODE_MERGE" || v.Get("reportType") != "REPORT_TYPE_PPROF" {
				http.Error(w, `{"code":3,"message":"unsupported"}`, http.StatusBadRequest)
				return
			}
			m := sel.FindStringSubmatch(v.Get("merge.query"))
			switch {
			case m == nil:
				http.Error(w, `{"code":3,"message":"failed to parse query"}`, http.StatusBadRequest)
				return
			case m[1] != "gobench":
				file = "query-empty.json"
			case m[3] == "" && m[2] != "":
				file = "query-go-" + m[2] + ".json"
			case m[2] != "" && strings.HasPrefix(m[3], "r"):
				file = "query-go-" + m[2] + "-instance-" + m[3] + ".json"
			default:
				file = "query-empty.json"
			}
		default:
			http.NotFound(w, r)
			return
		}
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Errorf("fixture: %v", err)
			http.Error(w, "no fixture", 500)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
}

func query(base, build string) Query {
	return Query{Kind: Parca, Base: base, Selector: goType + `{job="gobench",build="` + build + `"}`, From: window0, To: window1}
}

// TestServerEqualsFiles: each instance's profile read from (the recorded
// answers of) Parca has the on-CPU time, sample count and per-function
// self and total times of profdiff's reading of the file pushed as it.
func TestServerEqualsFiles(t *testing.T) {
	srv := fakeParca(t)
	defer srv.Close()
	for _, build := range []string{"before", "after"} {
		runs, err := Fetch(context.Background(), query(srv.URL, build), Options{ReplicateBy: "instance"})
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != 3 {
			t.Fatalf("%s: %d runs, want 3 (instances r1..r3; a and b are another job's)", build, len(runs))
		}
		for i, run := range runs {
			name := build + "-r" + string(rune('1'+i)) + ".pprof"
			if want := "instance=r" + string(rune('1'+i)); run.Label != want {
				t.Errorf("run %d label %q, want %q", i, run.Label, want)
			}
			fp, err := analyze.ParseFile(filepath.Join("..", "testdata", "fleet", "files", name), analyze.ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			sameAsFile(t, name, fp, run.Profile)
		}
	}
}

// sameAsFile checks that a profile read from a server has the on-CPU time,
// sample count, interval and per-function self and total times of
// profdiff's reading of the file pushed as it, and the window's duration.
func sameAsFile(t *testing.T, name string, fp, sp *analyze.Profile) {
	t.Helper()
	ft := analyze.Aggregate(fp, analyze.AggregateOptions{})
	st := analyze.Aggregate(sp, analyze.AggregateOptions{})
	if st.Summary.OnCPUNs != ft.Summary.OnCPUNs {
		t.Errorf("%s: on-CPU %d from the server, %d from the file", name, st.Summary.OnCPUNs, ft.Summary.OnCPUNs)
	}
	if sp.SampleCount != fp.SampleCount || sp.IntervalNs != fp.IntervalNs {
		t.Errorf("%s: %d samples of %d ns from the server, %d of %d from the file", name, sp.SampleCount, sp.IntervalNs, fp.SampleCount, fp.IntervalNs)
	}
	if sp.WallNs != int64(window1.Sub(window0)) {
		t.Errorf("%s: wall %d, want the window", name, sp.WallNs)
	}
	want := map[analyze.Key][2]int64{}
	for _, r := range ft.Functions {
		want[r.Key] = [2]int64{r.Self, r.Total}
	}
	if len(st.Functions) != len(ft.Functions) {
		t.Errorf("%s: %d functions from the server, %d from the file", name, len(st.Functions), len(ft.Functions))
	}
	for _, r := range st.Functions {
		if w, ok := want[r.Key]; !ok || w != [2]int64{r.Self, r.Total} {
			t.Errorf("%s: %v self/total %d/%d from the server, %v from the file", name, r.Key, r.Self, r.Total, w)
		}
	}
}

// TestMergedAndWindows: a merged side is one run holding all instances;
// windows split the time.
func TestMergedAndWindows(t *testing.T) {
	srv := fakeParca(t)
	defer srv.Close()
	runs, err := Fetch(context.Background(), query(srv.URL, "before"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, n := range []string{"before-r1.pprof", "before-r2.pprof", "before-r3.pprof"} {
		fp, err := analyze.ParseFile(filepath.Join("..", "testdata", "fleet", "files", n), analyze.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sum += fp.OnCPUNs()
	}
	if len(runs) != 1 || runs[0].Profile.OnCPUNs() != sum {
		t.Fatalf("merged: %d runs, on-CPU %d, want 1 run of %d", len(runs), runs[0].Profile.OnCPUNs(), sum)
	}
	runs, err = Fetch(context.Background(), query(srv.URL, "before"), Options{Windows: 3})
	if err != nil || len(runs) != 3 || runs[2].Label != "window 3/3" || runs[0].Profile.WallNs != int64(5*time.Minute) || !strings.HasSuffix(runs[2].Profile.File, "[window 3/3]") {
		t.Fatalf("windows: %v, %d runs", err, len(runs))
	}
}

func TestErrors(t *testing.T) {
	srv := fakeParca(t)
	defer srv.Close()
	ctx := context.Background()
	q := query(srv.URL, "before")
	q.Selector = goType + `{job="nosuchjob"}`
	if _, err := Fetch(ctx, q, Options{}); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: %v", err)
	}
	q.Selector = "not a selector{"
	if _, err := Fetch(ctx, q, Options{}); err == nil || !strings.Contains(err.Error(), "bad query") || strings.Contains(err.Error(), "\n") {
		t.Errorf("bad query: %v", err)
	}
	q = query("http://127.0.0.1:1", "before")
	if _, err := Fetch(ctx, q, Options{Retries: -1, Timeout: time.Second}); err == nil || !strings.Contains(err.Error(), "unreachable") {
		t.Errorf("unreachable: %v", err)
	}
	if _, err := Fetch(ctx, query(srv.URL, "before"), Options{MaxResponse: 1000}); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("cap: %v", err)
	}
}

// TestRetryAndToken: a 5xx is retried; the token goes in the header only.
func TestRetryAndToken(t *testing.T) {
	real := fakeParca(t)
	defer real.Close()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, `{"message":"unauthenticated"}`, http.StatusUnauthorized)
			return
		}
		if calls.Add(1) == 1 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		http.Redirect(w, r, real.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	if _, err := Fetch(context.Background(), query(srv.URL, "before"), Options{Token: "s3cret"}); err != nil || calls.Load() != 2 {
		t.Fatalf("retry: %v after %d calls", err, calls.Load())
	}
	_, err := Fetch(context.Background(), query(srv.URL, "before"), Options{Token: "wrong"})
	if err == nil || strings.Contains(err.Error(), "wrong") || !strings.Contains(err.Error(), "401") {
		t.Fatalf("bad token: %v", err)
	}
}

func TestFormation(t *testing.T) {
	for _, c := range []struct {
		o    Options
		runs int
		run  time.Duration
		want string
	}{
		{Options{ReplicateBy: "instance"}, 3, 15 * time.Minute, "3 runs, one per instance, each over 15m"},
		{Options{ReplicateBy: "pod"}, 1, 90 * time.Minute, "1 run, one per pod, each over 1h30m"},
		{Options{Windows: 6}, 6, 10 * time.Minute, "6 windows of 10m"},
		{Options{Windows: 4}, 3, 225 * time.Second, "3 windows of 3m45s (1 of 4 had no samples)"},
		{Options{}, 1, 2 * time.Hour, "1 run, merged over 2h"},
	} {
		if got := Formation(c.o, c.runs, c.run); got != c.want {
			t.Errorf("%+v %d %v: %q, want %q", c.o, c.runs, c.run, got, c.want)
		}
	}
}

func TestParseURI(t *testing.T) {
	now := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	q, err := ParseURI(`parca+http://h:7070/?query=`+goType+`{job="api"}&from=-1h&to=2026-12-07T00:00:00Z`, now)
	if err != nil || q.Base != "http://h:7070" || q.Selector != goType+`{job="api"}` || q.From != now.Add(-time.Hour) || q.To != now {
		t.Fatalf("%+v %v", q, err)
	}
	for _, bad := range []string{"parca+ftp://h/?query=x", "parca+http://h/", "parca+http://u:p@h/?query=x", "parca+http://h/?query=x&from=yesterday", "parca+http://h/?query=x&from=-1h&to=-2h"} {
		if _, err := ParseURI(bad, now); err == nil || strings.Contains(err.Error(), "u:p") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	for raw, base := range map[string]string{"pyroscope+https://h:4040//?query=p": "https://h:4040", "parca+http://h/a%20b/?query=p": "http://h/a%20b"} {
		if q, err := ParseURI(raw, now); err != nil || q.Base != base {
			t.Errorf("%s: base %q, want %q (%v)", raw, q.Base, base, err)
		}
	}
	if _, err := ParseURI("parca+http://me:pw-5a4b@h:bad/?query=x", now); err == nil || strings.Contains(err.Error(), "pw-5a4b") {
		t.Errorf("a bad port with credentials: %v", err)
	}
	if s, _ := withLabel(`t{a="b"}`, "instance", `x"y`); s != `t{a="b",instance="x\"y"}` {
		t.Errorf("withLabel: %s", s)
	}
}
