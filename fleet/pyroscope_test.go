package fleet

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"

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
// answered as instance r1, which these tests do not use).
type fakePyroscope struct {
	querierv1connect.UnimplementedQuerierServiceHandler
	t *testing.T
}

var pyroSel = regexp.MustCompile(`^\{service_name="gobench",build="(before|after)"(?:,instance="(r\d)")?\}$`)

func (f fakePyroscope) SelectSeries(_ context.Context, req *connect.Request[querierv1.SelectSeriesRequest]) (*connect.Response[querierv1.SelectSeriesResponse], error) {
	if pyroSel.FindStringSubmatch(req.Msg.LabelSelector) == nil || len(req.Msg.GroupBy) != 1 {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("parse error"))
	}
	resp := &querierv1.SelectSeriesResponse{}
	for _, v := range []string{"r2", "r1", "r3"} {
		resp.Series = append(resp.Series, &typesv1.Series{Labels: []*typesv1.LabelPair{{Name: req.Msg.GroupBy[0], Value: v}}})
	}
	return connect.NewResponse(resp), nil
}

func (f fakePyroscope) SelectMergeStacktraces(_ context.Context, req *connect.Request[querierv1.SelectMergeStacktracesRequest]) (*connect.Response[querierv1.SelectMergeStacktracesResponse], error) {
	m := pyroSel.FindStringSubmatch(req.Msg.LabelSelector)
	if m == nil || req.Msg.Format != querierv1.ProfileFormat_PROFILE_FORMAT_PPROF || req.Msg.ProfileTypeID != "process_cpu:cpu:nanoseconds:cpu:nanoseconds" {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("parse error"))
	}
	if m[2] == "" {
		m[2] = "r1"
	}
	gz, err := os.ReadFile(filepath.Join("..", "testdata", "fleet", "files", m[1]+"-"+m[2]+".pprof"))
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
	if err := proto.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	return connect.NewResponse(&querierv1.SelectMergeStacktracesResponse{Pprof: &querierv1.PprofProfile{Profile: &p}}), nil
}

func TestPyroscopeEqualsFiles(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle(querierv1connect.NewQuerierServiceHandler(fakePyroscope{t: t}))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	q, err := ParseURI("pyroscope+"+srv.URL+`/?query=process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="gobench",build="after"}&from=2026-12-02T09:40:00Z&to=2026-12-02T09:55:00Z`, window1)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := Fetch(context.Background(), q, Options{ReplicateBy: "instance"})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 3 {
		t.Fatalf("%d runs", len(runs))
	}
	for i, run := range runs {
		fp, err := analyze.ParseFile(filepath.Join("..", "testdata", "fleet", "files", "after-r"+string(rune('1'+i))+".pprof"), analyze.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if run.Label != "instance=r"+string(rune('1'+i)) || run.Profile.OnCPUNs() != fp.OnCPUNs() || run.Profile.SampleCount != fp.SampleCount {
			t.Errorf("run %d %s: on-CPU %d, %d samples; file %d, %d", i, run.Label, run.Profile.OnCPUNs(), run.Profile.SampleCount, fp.OnCPUNs(), fp.SampleCount)
		}
	}
	q.Selector = `process_cpu:cpu:nanoseconds:cpu:nanoseconds{oops`
	if _, err := Fetch(context.Background(), q, Options{}); err == nil || !regexp.MustCompile(`bad query \(invalid_argument\)`).MatchString(err.Error()) {
		t.Errorf("bad query: %v", err)
	}
}
