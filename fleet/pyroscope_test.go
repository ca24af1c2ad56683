package fleet

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"connectrpc.com/connect"
	googlev1 "github.com/grafana/pyroscope/api/gen/proto/go/google/v1"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"google.golang.org/protobuf/proto"

	"github.com/profdiff/profdiff/analyze"
)

// fakePyroscope is the api module's own Connect handler over the corpus's
// Go profiles: service_name="gobench", build and instance pick the files
// (the merge of several is not done: a selector without instance is
// answered as instance r1). It checks every field profdiff sends, as the
// handler decoded it from the wire (the handler drops unknown JSON fields,
// so a misnamed one arrives as its zero): the window in milliseconds, the
// step, the format, the profile type, the Connect protocol header and the
// token; its first `unavailable` answers are Connect's CodeUnavailable.
type fakePyroscope struct {
	querierv1connect.UnimplementedQuerierServiceHandler
	// doubled serves every stack twice over (no stack seen once)
	doubled     bool
	token       string
	unavailable *atomic.Int32
	calls       *atomic.Int32
}

var pyroSel = regexp.MustCompile(`^\{service_name="gobench",build="(before|after)"(?:,instance="(r\d)")?\}$`)

const (
	pyroType      = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
	pyroCountType = "process_cpu:samples:count:cpu:nanoseconds"
)

// check is what every request must carry.
func (f fakePyroscope) check(h http.Header, typ, sel string, start, end int64) error {
	f.calls.Add(1)
	if h.Get("Authorization") != "Bearer "+f.token && f.token != "" {
		return connect.NewError(connect.CodeUnauthenticated, errors.New("no valid token"))
	}
	if f.unavailable.Add(-1) >= 0 {
		return connect.NewError(connect.CodeUnavailable, errors.New("ingesters warming up"))
	}
	if h.Get("Connect-Protocol-Version") != "1" {
		return connect.NewError(connect.CodeInvalidArgument, errors.New("missing Connect-Protocol-Version"))
	}
	if (typ != pyroType && typ != pyroCountType) || pyroSel.FindStringSubmatch(sel) == nil {
		return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("parse error: type %q selector %q", typ, sel))
	}
	if start < window0.UnixMilli() || end > window1.UnixMilli() || start >= end {
		return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("window %d..%d outside the fixtures' %d..%d", start, end, window0.UnixMilli(), window1.UnixMilli()))
	}
	return nil
}

func (f fakePyroscope) SelectSeries(_ context.Context, req *connect.Request[querierv1.SelectSeriesRequest]) (*connect.Response[querierv1.SelectSeriesResponse], error) {
	m := req.Msg
	if err := f.check(req.Header(), m.ProfileTypeID, m.LabelSelector, m.Start, m.End); err != nil {
		return nil, err
	}
	if m.Step != float64(m.End-m.Start)/1000 {
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("step %v", m.Step))
	}
	resp := &querierv1.SelectSeriesResponse{}
	if m.ProfileTypeID == pyroCountType && len(m.GroupBy) == 0 {
		// the selector's samples, counted, in two points of the window
		p, err := f.profileOf(m.LabelSelector)
		if err != nil {
			return nil, err
		}
		var n int64
		for _, s := range p.Sample {
			n += s.Value[0] // the corpus's Go profiles: samples/count first
		}
		resp.Series = append(resp.Series, &typesv1.Series{Labels: []*typesv1.LabelPair{{Name: "service_name", Value: "gobench"}},
			Points: []*typesv1.Point{{Value: float64(n / 2), Timestamp: m.Start}, {Value: float64(n - n/2), Timestamp: m.End}}})
		return connect.NewResponse(resp), nil
	}
	if len(m.GroupBy) != 1 || m.ProfileTypeID != pyroType {
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("group_by %v of %s", m.GroupBy, m.ProfileTypeID))
	}
	for _, v := range []string{"r2", "r1", "r3"} {
		resp.Series = append(resp.Series, &typesv1.Series{Labels: []*typesv1.LabelPair{{Name: "service_name", Value: "gobench"}, {Name: m.GroupBy[0], Value: v}},
			Points: []*typesv1.Point{{Value: 1, Timestamp: m.Start}}})
	}
	return connect.NewResponse(resp), nil
}

func (f fakePyroscope) SelectMergeStacktraces(_ context.Context, req *connect.Request[querierv1.SelectMergeStacktracesRequest]) (*connect.Response[querierv1.SelectMergeStacktracesResponse], error) {
	m := req.Msg
	if err := f.check(req.Header(), m.ProfileTypeID, m.LabelSelector, m.Start, m.End); err != nil {
		return nil, err
	}
	if m.Format != querierv1.ProfileFormat_PROFILE_FORMAT_PPROF {
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("format %v", m.Format))
	}
	if m.ProfileTypeID != pyroType {
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("merge of %s", m.ProfileTypeID))
	}
	p, err := f.profileOf(m.LabelSelector)
	if err != nil {
		return nil, err
	}
	// As a merged profile of time: the cpu/nanoseconds values alone, no
	// count of samples and no period.
	for _, s := range p.Sample {
		s.Value = s.Value[len(s.Value)-1:]
	}
	p.SampleType = p.SampleType[len(p.SampleType)-1:]
	p.Period, p.PeriodType = 0, nil
	return connect.NewResponse(&querierv1.SelectMergeStacktracesResponse{Pprof: &querierv1.PprofProfile{Profile: p}}), nil
}

// profileOf is the corpus file the selector names.
func (f fakePyroscope) profileOf(sel string) (*googlev1.Profile, error) {
	g := pyroSel.FindStringSubmatch(sel)
	if g[2] == "" {
		g[2] = "r1"
	}
	p, err := readGoProfile(g[1] + "-" + g[2] + ".pprof")
	if err == nil && f.doubled {
		for _, s := range p.Sample {
			for i := range s.Value {
				s.Value[i] *= 2
			}
		}
	}
	return p, err
}

// readGoProfile reads a corpus file as the api module's pprof message.
func readGoProfile(name string) (*googlev1.Profile, error) {
	gz, err := os.ReadFile(filepath.Join("..", "testdata", "fleet", "files", name))
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	var p googlev1.Profile
	return &p, proto.Unmarshal(raw, &p)
}

// newFakePyroscope serves f through the api module's Connect handler.
func newFakePyroscope(f fakePyroscope) *httptest.Server {
	if f.unavailable == nil {
		f.unavailable = new(atomic.Int32)
	}
	if f.calls == nil {
		f.calls = new(atomic.Int32)
	}
	mux := http.NewServeMux()
	mux.Handle(querierv1connect.NewQuerierServiceHandler(f))
	return httptest.NewServer(mux)
}

func pyroQuery(t *testing.T, base, build string) Query {
	t.Helper()
	q, err := ParseURI("pyroscope+"+base+`/?query=`+pyroType+`{service_name="gobench",build="`+build+`"}&from=2026-12-02T09:40:00Z&to=2026-12-02T09:55:00Z`, window1)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestPyroscopeEqualsFiles: each instance's profile read through the
// Connect handler has profdiff's values of the file it serves, function by
// function; a bad selector is a one-line bad query.
func TestPyroscopeEqualsFiles(t *testing.T) {
	srv := newFakePyroscope(fakePyroscope{})
	defer srv.Close()
	for _, build := range []string{"before", "after"} {
		runs, err := Fetch(context.Background(), pyroQuery(t, srv.URL, build), Options{ReplicateBy: "instance"})
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != 3 {
			t.Fatalf("%d runs", len(runs))
		}
		for i, run := range runs {
			name := build + "-r" + string(rune('1'+i)) + ".pprof"
			fp, err := analyze.ParseFile(filepath.Join("..", "testdata", "fleet", "files", name), analyze.ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if run.Label != "instance=r"+string(rune('1'+i)) {
				t.Errorf("run %d label %q", i, run.Label)
			}
			sameAsFile(t, name, fp, run.Profile)
		}
	}
	q := pyroQuery(t, srv.URL, "after")
	q.Selector = pyroType + `{oops`
	_, err := Fetch(context.Background(), q, Options{})
	if err == nil || !regexp.MustCompile(`^http://[^ ]+: bad query \(invalid_argument\): parse error: type "process_cpu:cpu:nanoseconds:cpu:nanoseconds" selector "\{oops"$`).MatchString(err.Error()) {
		t.Errorf("bad query: %v", err)
	}
}

// TestPyroscopeRetryTokenWindows: an unavailable server is asked again,
// the token goes in the header (and nowhere in an error), sub-windows
// reach the server in milliseconds, and an unreachable one says so.
func TestPyroscopeRetryTokenWindows(t *testing.T) {
	f := fakePyroscope{token: "s3cret", unavailable: new(atomic.Int32), calls: new(atomic.Int32)}
	f.unavailable.Store(2)
	srv := newFakePyroscope(f)
	defer srv.Close()
	runs, err := Fetch(context.Background(), pyroQuery(t, srv.URL, "before"), Options{Token: "s3cret", Windows: 3})
	if err != nil || len(runs) != 3 || runs[0].Profile.WallNs != int64(5*time.Minute) {
		t.Fatalf("windows: %v, %d runs", err, len(runs))
	}
	if n := f.calls.Load(); n != 8 {
		t.Errorf("%d calls, want 2 refused + 3 windows, each merged and counted", n)
	}
	f.unavailable.Store(5)
	_, err = Fetch(context.Background(), pyroQuery(t, srv.URL, "before"), Options{Token: "s3cret", Retries: 1})
	if err == nil || !strings.Contains(err.Error(), "server error 503: ingesters warming up") {
		t.Errorf("still unavailable: %v", err)
	}
	f.unavailable.Store(0)
	_, err = Fetch(context.Background(), pyroQuery(t, srv.URL, "before"), Options{Token: "wrong"})
	if err == nil || strings.Contains(err.Error(), "wrong") || !strings.Contains(err.Error(), "not authorized (unauthenticated): no valid token") {
		t.Errorf("bad token: %v", err)
	}
	_, err = Fetch(context.Background(), pyroQuery(t, "http://127.0.0.1:1", "before"), Options{Retries: -1, Timeout: time.Second})
	if err == nil || !strings.HasPrefix(err.Error(), "http://127.0.0.1:1: server unreachable: ") || strings.Contains(err.Error(), "gobench") {
		t.Errorf("unreachable: %v", err)
	}
}

// TestPyroscopeCountsFromTheSeries: a merged profile of time has lost its
// count of samples; it is taken from the count series Pyroscope keeps
// beside it. When no stack was seen once (every one here twice over), the
// estimate from the smallest weight would take the interval for twice
// what it is and the count for half: the series says the truth. Without
// sampleCount this test fails.
func TestPyroscopeCountsFromTheSeries(t *testing.T) {
	srv := newFakePyroscope(fakePyroscope{doubled: true})
	defer srv.Close()
	runs, err := Fetch(context.Background(), pyroQuery(t, srv.URL, "before"), Options{ReplicateBy: "instance"})
	if err != nil || len(runs) != 3 {
		t.Fatalf("%v, %d runs", err, len(runs))
	}
	fp, err := analyze.ParseFile(filepath.Join("..", "testdata", "fleet", "files", "before-r1.pprof"), analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := runs[0].Profile; got.SampleCount != 2*fp.SampleCount || got.IntervalNs != fp.IntervalNs {
		t.Errorf("%d samples of %d ns from the server, want %d of %d", got.SampleCount, got.IntervalNs, 2*fp.SampleCount, fp.IntervalNs)
	}
}
