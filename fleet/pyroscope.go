package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/profdiff/profdiff/analyze"
)

// pyroscope reads a Grafana Pyroscope server through its Connect API, in
// Connect's JSON protocol over net/http (a POST of the request message as
// protobuf JSON to /querier.v1.QuerierService/METHOD; an error is a
// non-200 answer of {"code", "message"}): SelectMergeStacktraces with
// PROFILE_FORMAT_PPROF for the profile and SelectSeries grouped by the
// replicate label for its values. The api module's Connect client would
// do the same and weighs 13 MB of binary and 5-6 MiB of every run's peak memory;
// the tests check these requests against its handler.
type pyroscope struct {
	q Query
	*caller
}

func newPyroscope(o Options, q Query) *pyroscope {
	return &pyroscope{q: q, caller: newCaller(o, q.Base)}
}

// querierService is the path of Pyroscope's querier service.
const querierService = "/querier.v1.QuerierService/"

// connectHeader marks a request as Connect's protocol, version 1.
var connectHeader = http.Header{"Connect-Protocol-Version": {"1"}}

// call posts req as JSON to method and decodes the answer into resp.
func (p *pyroscope) call(ctx context.Context, method string, req, resp any) error {
	b, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("%s: %w", p.q.Base, err)
	}
	body, err := p.do(ctx, request{method: http.MethodPost, url: p.q.Base + querierService + method, body: b, contentType: "application/json", header: connectHeader})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, resp); err != nil {
		return fmt.Errorf("%s: %s answer is not the expected JSON: %v", p.q.Base, method, err)
	}
	return nil
}

// splitSelector cuts TYPE{matchers} into the profile type ID and selector.
func splitSelector(sel string) (typ, labels string) {
	i := strings.Index(sel, "{")
	if i < 0 {
		return sel, "{}"
	}
	return sel[:i], sel[i:]
}

// millis is a time as protobuf JSON writes an int64: milliseconds since
// the epoch, in a string.
func millis(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

// selectSeriesRequest is querier.v1.SelectSeriesRequest in protobuf JSON.
type selectSeriesRequest struct {
	ProfileTypeID string   `json:"profileTypeID"`
	LabelSelector string   `json:"labelSelector"`
	Start         string   `json:"start"`
	End           string   `json:"end"`
	GroupBy       []string `json:"groupBy"`
	Step          float64  `json:"step"`
}

// selectSeriesResponse is querier.v1.SelectSeriesResponse: the series'
// labels and their points' values.
type selectSeriesResponse struct {
	Series []struct {
		Labels []struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		} `json:"labels"`
		Points []struct {
			Value float64 `json:"value"`
		} `json:"points"`
	} `json:"series"`
}

// total is the sum of every point of every series.
func (r *selectSeriesResponse) total() float64 {
	var sum float64
	for _, s := range r.Series {
		for _, p := range s.Points {
			sum += p.Value
		}
	}
	return sum
}

// countType is the profile type that counts the samples of a profile type
// of time, as Pyroscope keeps the two side by side:
// process_cpu:cpu:nanoseconds:cpu:nanoseconds counts as
// process_cpu:samples:count:cpu:nanoseconds; "" for a type of another
// shape, or one that is a count already.
func countType(typ string) string {
	parts := strings.Split(typ, ":")
	if len(parts) != 5 || parts[2] == "count" {
		return ""
	}
	parts[1], parts[2] = "samples", "count"
	return strings.Join(parts, ":")
}

// sampleCount is how many samples the selector's profiles took over the
// window, from the series of the count type beside typ; 0 when the
// server keeps none.
func (p *pyroscope) sampleCount(ctx context.Context, typ, sel string, from, to time.Time) (int64, error) {
	ct := countType(typ)
	if ct == "" {
		return 0, nil
	}
	var resp selectSeriesResponse
	err := p.call(ctx, "SelectSeries", selectSeriesRequest{ProfileTypeID: ct, LabelSelector: sel,
		Start: millis(from), End: millis(to), GroupBy: []string{}, Step: to.Sub(from).Seconds()}, &resp)
	if err != nil {
		return 0, err
	}
	return int64(math.Round(resp.total())), nil
}

// values are the label's values in the series, sorted, each once.
func (r *selectSeriesResponse) values(label string) []string {
	var values []string
	for _, s := range r.Series {
		for _, l := range s.Labels {
			if l.Name == label {
				values = append(values, l.Value)
			}
		}
	}
	slices.Sort(values)
	return slices.Compact(values)
}

// selectMergeStacktracesRequest is querier.v1.SelectMergeStacktracesRequest.
type selectMergeStacktracesRequest struct {
	ProfileTypeID string `json:"profileTypeID"`
	LabelSelector string `json:"labelSelector"`
	Start         string `json:"start"`
	End           string `json:"end"`
	Format        string `json:"format"`
}

// selectMergeStacktracesResponse is the answer's pprof (the other formats
// are not asked for).
type selectMergeStacktracesResponse struct {
	Pprof *struct {
		Profile *jsonProfile `json:"profile"`
	} `json:"pprof"`
}

func (p *pyroscope) labelValues(ctx context.Context, label string) ([]string, error) {
	if !validLabel(label) {
		return nil, fmt.Errorf("--replicate-by %q is not a valid label name", label)
	}
	typ, sel := splitSelector(p.q.Selector)
	var resp selectSeriesResponse
	err := p.call(ctx, "SelectSeries", selectSeriesRequest{ProfileTypeID: typ, LabelSelector: sel,
		Start: millis(p.q.From), End: millis(p.q.To), GroupBy: []string{label},
		Step: p.q.To.Sub(p.q.From).Seconds()}, &resp)
	if err != nil {
		return nil, err
	}
	values := resp.values(label)
	if len(values) == 0 {
		return nil, fmt.Errorf("%s: label %q has no values in the window: %w", p.q.Base, label, ErrEmpty)
	}
	return values, nil
}

func (p *pyroscope) merge(ctx context.Context, selector string, from, to time.Time, po analyze.ParseOptions) (*analyze.Profile, error) {
	typ, sel := splitSelector(selector)
	var resp selectMergeStacktracesResponse
	err := p.call(ctx, "SelectMergeStacktraces", selectMergeStacktracesRequest{ProfileTypeID: typ, LabelSelector: sel,
		Start: millis(from), End: millis(to), Format: "PROFILE_FORMAT_PPROF"}, &resp)
	if err != nil {
		return nil, err
	}
	prof, err := readMerged(resp.pprof(), p.q.Base, "pyroscope:"+selector, to.Sub(from), p.max, po)
	if err != nil {
		return nil, err
	}
	// A merged profile of time has lost its count of samples, which the
	// noise model needs: Pyroscope's count series says it. Without one,
	// readMerged's estimate (a stack seen once weighs one period) stands.
	if n, err := p.sampleCount(ctx, typ, sel, from, to); err == nil && n > 0 {
		var total int64
		for _, s := range prof.Samples {
			total += s.Weight
		}
		prof.SampleCount, prof.IntervalNs = n, (total+n/2)/n
	}
	return prof, nil
}

// pprof is the answer's profile as pprof protobuf, nil when it has no
// samples.
func (r *selectMergeStacktracesResponse) pprof() []byte {
	if r.Pprof == nil || r.Pprof.Profile == nil || len(r.Pprof.Profile.Sample) == 0 {
		return nil
	}
	return r.Pprof.Profile.marshal()
}
