package fleet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	"google.golang.org/protobuf/proto"

	"github.com/profdiff/profdiff/analyze"
)

// pyroscope reads a Grafana Pyroscope server through its Connect API:
// SelectMergeStacktraces with PROFILE_FORMAT_PPROF for the profile and
// SelectSeries grouped by the replicate label for its values.
type pyroscope struct {
	q       Query
	c       querierv1connect.QuerierServiceClient
	retries int
	token   string
	max     int64
}

func newPyroscope(o Options, q Query) *pyroscope {
	base := newClient(o, q) // the same timeout, retries, cap
	return &pyroscope{q: q, retries: base.retries, token: base.token, max: base.max,
		c: querierv1connect.NewQuerierServiceClient(base.http, q.Base, connect.WithReadMaxBytes(int(min(base.max, 1<<31-1))))}
}

// splitSelector cuts TYPE{matchers} into the profile type ID and selector.
func splitSelector(sel string) (typ, labels string) {
	i := strings.Index(sel, "{")
	if i < 0 {
		return sel, "{}"
	}
	return sel[:i], sel[i:]
}

// call runs one request with the token and retries a server-side failure.
func call[Req, Resp any](ctx context.Context, p *pyroscope, msg *Req, do func(context.Context, *connect.Request[Req]) (*connect.Response[Resp], error)) (*Resp, error) {
	var last error
	for attempt := 0; attempt <= p.retries; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Duration(attempt) * 200 * time.Millisecond):
			}
		}
		req := connect.NewRequest(msg)
		if p.token != "" {
			req.Header().Set("Authorization", "Bearer "+p.token)
		}
		resp, err := do(ctx, req)
		if err == nil {
			return resp.Msg, nil
		}
		var ce *connect.Error
		if !errors.As(err, &ce) {
			return nil, fmt.Errorf("%s: %v", p.q.Base, err)
		}
		switch ce.Code() {
		case connect.CodeUnavailable:
			last = fmt.Errorf("%s: server unreachable: %s", p.q.Base, oneLine([]byte(ce.Message())))
			continue
		case connect.CodeInternal, connect.CodeUnknown:
			last = fmt.Errorf("%s: server error: %s", p.q.Base, oneLine([]byte(ce.Message())))
			continue
		case connect.CodeResourceExhausted:
			return nil, fmt.Errorf("%s: answer larger than %d bytes", p.q.Base, p.max)
		}
		return nil, fmt.Errorf("%s: bad query (%s): %s", p.q.Base, ce.Code(), oneLine([]byte(ce.Message())))
	}
	return nil, last
}

func (p *pyroscope) labelValues(ctx context.Context, label string) ([]string, error) {
	if !validLabel(label) {
		return nil, fmt.Errorf("--replicate-by %q is not a valid label name", label)
	}
	typ, sel := splitSelector(p.q.Selector)
	resp, err := call(ctx, p, &querierv1.SelectSeriesRequest{ProfileTypeID: typ, LabelSelector: sel,
		Start: p.q.From.UnixMilli(), End: p.q.To.UnixMilli(), GroupBy: []string{label},
		Step: p.q.To.Sub(p.q.From).Seconds()}, p.c.SelectSeries)
	if err != nil {
		return nil, err
	}
	var values []string
	for _, s := range resp.Series {
		for _, l := range s.Labels {
			if l.Name == label {
				values = append(values, l.Value)
			}
		}
	}
	slices.Sort(values)
	values = slices.Compact(values)
	if len(values) == 0 {
		return nil, fmt.Errorf("%s: label %q has no values in the window: %w", p.q.Base, label, ErrEmpty)
	}
	return values, nil
}

func (p *pyroscope) merge(ctx context.Context, selector string, from, to time.Time, po analyze.ParseOptions) (*analyze.Profile, error) {
	typ, sel := splitSelector(selector)
	resp, err := call(ctx, p, &querierv1.SelectMergeStacktracesRequest{ProfileTypeID: typ, LabelSelector: sel,
		Start: from.UnixMilli(), End: to.UnixMilli(), Format: querierv1.ProfileFormat_PROFILE_FORMAT_PPROF}, p.c.SelectMergeStacktraces)
	if err != nil {
		return nil, err
	}
	var b []byte
	if resp.Pprof != nil && resp.Pprof.Profile != nil && len(resp.Pprof.Profile.Sample) > 0 {
		if b, err = proto.Marshal(resp.Pprof.Profile); err != nil {
			return nil, fmt.Errorf("%s: %w", p.q.Base, err)
		}
	}
	return readMerged(b, p.q.Base, "pyroscope:"+selector, to.Sub(from), p.max, po)
}
