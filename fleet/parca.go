package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/profdiff/profdiff/analyze"
)

// DefaultMaxResponse caps the bytes read from one server answer.
const DefaultMaxResponse = 64 << 20

// Options tune Fetch.
type Options struct {
	// Client is the HTTP client; nil uses one with Timeout.
	Client *http.Client
	// Timeout bounds each request; 0 means 30s.
	Timeout time.Duration
	// Retries is how many times a 5xx answer or a transport error is
	// retried; negative means none, 0 means 2.
	Retries int
	// Token, when set, is sent as a bearer token. The command takes it
	// from the environment; it is never printed.
	Token string
	// MaxResponse caps each answer's size; 0 means DefaultMaxResponse.
	MaxResponse int64
	// ReplicateBy makes one run per value of this label.
	ReplicateBy string
	// Windows, when > 1, makes one run per equal sub-window.
	Windows int
	// Parse are the options each fetched pprof is read with.
	Parse analyze.ParseOptions
}

// Run is one replicate of a side: its profile and how it was formed.
type Run struct {
	Profile *analyze.Profile
	// Label is "instance=r1" or "window 2/4" or "merged".
	Label string
}

// Fetch reads the runs of a side query from its server. Errors are one
// line and name the server; a query that matches nothing is ErrEmpty.
func Fetch(ctx context.Context, q Query, opts Options) ([]Run, error) {
	var c source = newClient(opts, q)
	if q.Kind == Pyroscope {
		c = newPyroscope(opts, q)
	}
	if opts.ReplicateBy != "" && opts.Windows > 1 {
		return nil, errors.New("choose --replicate-by or --windows, not both")
	}
	var runs []Run
	switch {
	case opts.ReplicateBy != "":
		values, err := c.labelValues(ctx, opts.ReplicateBy)
		if err != nil {
			return nil, err
		}
		for _, v := range values {
			sel, err := withLabel(q.Selector, opts.ReplicateBy, v)
			if err != nil {
				return nil, err
			}
			p, err := c.merge(ctx, sel, q.From, q.To, opts.Parse)
			if errors.Is(err, ErrEmpty) {
				continue // Parca lists a label's values over all series
			}
			if err != nil {
				return nil, err
			}
			runs = append(runs, Run{Profile: p, Label: opts.ReplicateBy + "=" + v})
		}
	case opts.Windows > 1:
		step := q.To.Sub(q.From) / time.Duration(opts.Windows)
		for i := range opts.Windows {
			from := q.From.Add(time.Duration(i) * step)
			to := from.Add(step)
			if i == opts.Windows-1 {
				to = q.To
			}
			p, err := c.merge(ctx, q.Selector, from, to, opts.Parse)
			if errors.Is(err, ErrEmpty) {
				continue
			}
			if err != nil {
				return nil, err
			}
			runs = append(runs, Run{Profile: p, Label: fmt.Sprintf("window %d/%d", i+1, opts.Windows)})
		}
	default:
		p, err := c.merge(ctx, q.Selector, q.From, q.To, opts.Parse)
		if err != nil {
			return nil, err
		}
		runs = append(runs, Run{Profile: p, Label: "merged"})
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s: %s: %w", q.Base, q.Selector, ErrEmpty)
	}
	if opts.Windows > 1 {
		for _, r := range runs {
			r.Profile.File += " [" + r.Label + "]" // the selector alone does not say which window
		}
	}
	return runs, nil
}

// source is what Fetch asks of a server.
type source interface {
	labelValues(ctx context.Context, label string) ([]string, error)
	merge(ctx context.Context, selector string, from, to time.Time, po analyze.ParseOptions) (*analyze.Profile, error)
}

// client reads a Parca server through its JSON gateway.
type client struct {
	q Query
	*caller
}

func newClient(o Options, q Query) *client {
	return &client{q: q, caller: newCaller(o, q.Base)}
}

// get fetches base+path?v and decodes the JSON answer into out.
func (c *client) get(ctx context.Context, base, path string, v url.Values, out any) error {
	body, err := c.do(ctx, request{method: http.MethodGet, url: base + path + "?" + v.Encode()})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("%s: answer is not the expected JSON: %v", base, err)
	}
	return nil
}

func (c *client) labelValues(ctx context.Context, label string) ([]string, error) {
	q := c.q
	if !validLabel(label) {
		return nil, fmt.Errorf("--replicate-by %q is not a valid label name", label)
	}
	v := url.Values{"match": {q.Selector}, "start": {q.From.UTC().Format(time.RFC3339Nano)}, "end": {q.To.UTC().Format(time.RFC3339Nano)}}
	var out struct {
		LabelValues []string `json:"labelValues"`
	}
	if err := c.get(ctx, q.Base, "/api/profiles/labels/"+url.PathEscape(label)+"/values", v, &out); err != nil {
		return nil, err
	}
	values := slices.Clone(out.LabelValues)
	slices.Sort(values)
	values = slices.Compact(values)
	if len(values) == 0 {
		return nil, fmt.Errorf("%s: label %q has no values in the window: %w", q.Base, label, ErrEmpty)
	}
	return values, nil
}

// merge fetches the merged pprof of selector over [from, to) and reads it.
func (c *client) merge(ctx context.Context, selector string, from, to time.Time, po analyze.ParseOptions) (*analyze.Profile, error) {
	v := url.Values{
		"mode":        {"MODE_MERGE"},
		"reportType":  {"REPORT_TYPE_PPROF"},
		"merge.query": {selector},
		"merge.start": {from.UTC().Format(time.RFC3339Nano)},
		"merge.end":   {to.UTC().Format(time.RFC3339Nano)},
	}
	q := c.q
	var out queryResponse
	if err := c.get(ctx, q.Base, "/api/profiles/query", v, &out); err != nil {
		return nil, err
	}
	return readMerged(out.Pprof, q.Base, "parca:"+selector, to.Sub(from), c.max, po)
}

// queryResponse is the part of Parca's QueryResponse a merge reads.
type queryResponse struct {
	Pprof []byte `json:"pprof"` // base64 in JSON
}

// readMerged reads a merged pprof answer as a run of a window's length.
func readMerged(b []byte, base, name string, window time.Duration, max int64, po analyze.ParseOptions) (*analyze.Profile, error) {
	selector := strings.SplitN(name, ":", 2)[1]
	if len(b) == 0 {
		return nil, fmt.Errorf("%s: %s: %w", base, selector, ErrEmpty)
	}
	if po.MaxInputSize == 0 || po.MaxInputSize > max*8 {
		po.MaxInputSize = max * 8 // bounds the gunzipped size too
	}
	p, err := analyze.Parse(bytes.NewReader(b), po)
	if err != nil {
		if strings.Contains(err.Error(), "has no samples") { // Parca's answer to a selector that matched nothing
			return nil, fmt.Errorf("%s: %s: %w", base, selector, ErrEmpty)
		}
		return nil, &lineError{printable(base + ": " + selector + ": " + err.Error()), err}
	}
	if len(p.Samples) == 0 || p.OnCPUNs() == 0 {
		return nil, fmt.Errorf("%s: %s: %w", base, selector, ErrEmpty)
	}
	p.File = name
	fillCounts(p, window)
	return p, nil
}

// fillCounts gives a merged profile what merging lost: the duration is the
// window; Parca's answer has period 0 and one sample per stack, so the
// sampling interval is the smallest positive sample weight (a stack seen
// once weighs one period) and the count is the time over the interval.
func fillCounts(p *analyze.Profile, window time.Duration) {
	p.WallNs = int64(window)
	if p.IntervalNs > 0 && p.SampleCount > int64(len(p.Samples)) {
		return
	}
	var period int64
	for _, s := range p.Samples {
		if s.Weight > 0 && (period == 0 || s.Weight < period) {
			period = s.Weight
		}
	}
	if period <= 0 {
		return
	}
	p.IntervalNs = period
	var total int64
	for _, s := range p.Samples {
		total += s.Weight
	}
	p.SampleCount = (total + period/2) / period
}

// Formation says, for the report, how a side's runs were formed: "3 runs,
// one per instance, each over 15m", "6 windows of 10m", "1 run, merged
// over 15m". runs is how many Fetch returned and run the wall time of one
// (Run.Profile.WallNs: the window, or with Windows the shortest
// sub-window); windows without samples are left out, and counted.
func Formation(o Options, runs int, run time.Duration) string {
	d := shortDuration(run)
	switch {
	case o.ReplicateBy != "":
		return fmt.Sprintf("%d %s, one per %s, each over %s", runs, plural(runs, "run"), o.ReplicateBy, d)
	case o.Windows > 1:
		s := fmt.Sprintf("%d %s of %s", runs, plural(runs, "window"), d)
		if runs < o.Windows {
			s += fmt.Sprintf(" (%d of %d had no samples)", o.Windows-runs, o.Windows)
		}
		return s
	}
	return fmt.Sprintf("%d %s, merged over %s", runs, plural(runs, "run"), d)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// shortDuration writes d to the second without zero units: 10m, 1h30m,
// 3m45s.
func shortDuration(d time.Duration) string {
	s := d.Round(time.Second).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
