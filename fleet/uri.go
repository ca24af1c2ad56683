// Package fleet reads profiles from continuous-profiling servers (Parca,
// Grafana Pyroscope) as sides: a side URI names the server, a selector and
// a time window, and Fetch returns one analyze.Profile per replicate (a
// label value or a sub-window), so the noise model sees runs as it does
// for files. It speaks to both servers with the standard library only.
package fleet

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Kind is the kind of server a side URI names.
type Kind int

const (
	// Parca is a Parca server, read through its JSON gateway.
	Parca Kind = iota + 1
	// Pyroscope is a Grafana Pyroscope server, read through its Connect API.
	Pyroscope
)

// String returns the URI scheme prefix of the kind.
func (k Kind) String() string {
	switch k {
	case Parca:
		return "parca"
	case Pyroscope:
		return "pyroscope"
	}
	return "unknown"
}

// Query is a parsed side URI:
//
//	parca+http://HOST:7070/?query=SELECTOR&from=TIME&to=TIME
//	pyroscope+http://HOST:4040/?query=SELECTOR&from=TIME&to=TIME
//
// SELECTOR is the server's profile selector, e.g.
// process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta{job="api"} (Parca) or
// process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="api"}
// (Pyroscope: the profile type ID, then the label selector). TIME is
// RFC 3339 (2026-12-02T09:40:00Z) or relative to now: -1h, -90m, "now".
// from defaults to -1h and to to now. https works as parca+https.
type Query struct {
	Kind     Kind
	Base     string // http(s)://host:port and path prefix, no trailing slash
	Selector string
	From, To time.Time
}

// IsURI reports whether arg looks like a side URI rather than a file.
func IsURI(arg string) bool {
	for _, p := range []string{"parca+http://", "parca+https://", "pyroscope+http://", "pyroscope+https://"} {
		if strings.HasPrefix(arg, p) {
			return true
		}
	}
	return false
}

// ParseURI parses a side URI, resolving relative times against now. Its
// errors quote the URI without any user:password@ in it.
func ParseURI(raw string, now time.Time) (Query, error) {
	shown := withoutUserinfo(raw)
	scheme, rest, ok := strings.Cut(raw, "+")
	kind := map[string]Kind{"parca": Parca, "pyroscope": Pyroscope}[scheme]
	if !ok || kind == 0 {
		return Query{}, fmt.Errorf("side %q: not a server query (want parca+http://HOST:PORT/?query=... or pyroscope+http://)", shown)
	}
	u, err := url.Parse(rest)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the *url.Error quotes the URI as given
		}
		return Query{}, fmt.Errorf("side %q: %v", shown, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return Query{}, fmt.Errorf("side %q: want %s+http://HOST:PORT/ or %s+https://", shown, kind, kind)
	}
	if u.User != nil {
		return Query{}, fmt.Errorf("side %q: no credentials in the URI; set PROFDIFF_FLEET_TOKEN instead", shown)
	}
	v := u.Query()
	q := Query{Kind: kind, Base: u.Scheme + "://" + u.Host + strings.TrimRight(u.EscapedPath(), "/"), Selector: v.Get("query")}
	if q.Selector == "" {
		return Query{}, fmt.Errorf("side %q: no query= selector", shown)
	}
	if q.From, err = parseTime(v.Get("from"), "-1h", now); err != nil {
		return Query{}, fmt.Errorf("side %q: from: %w", shown, err)
	}
	if q.To, err = parseTime(v.Get("to"), "now", now); err != nil {
		return Query{}, fmt.Errorf("side %q: to: %w", shown, err)
	}
	if !q.From.Before(q.To) {
		return Query{}, fmt.Errorf("side %q: from (%s) is not before to (%s)", shown, q.From.Format(time.RFC3339), q.To.Format(time.RFC3339))
	}
	return q, nil
}

// withoutUserinfo cuts a user:password@ from the authority of a URI
// (after "://", before the first "/", "?" or "#"), for errors.
func withoutUserinfo(raw string) string {
	i := strings.Index(raw, "://")
	if i < 0 {
		return raw
	}
	auth := raw[i+3:]
	if j := strings.IndexAny(auth, "/?#"); j >= 0 {
		auth = auth[:j]
	}
	at := strings.LastIndex(auth, "@")
	if at < 0 {
		return raw
	}
	return raw[:i+3] + raw[i+3+at+1:]
}

// parseTime reads RFC 3339, "now", or a negative duration from now.
func parseTime(s, def string, now time.Time) (time.Time, error) {
	if s == "" {
		s = def
	}
	if s == "now" {
		return now, nil
	}
	if strings.HasPrefix(s, "-") {
		d, err := time.ParseDuration(s[1:])
		if err != nil || d <= 0 {
			return time.Time{}, fmt.Errorf("%q: a relative time is -DURATION, e.g. -1h or -30m", s)
		}
		return now.Add(-d), nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q: want RFC 3339 (2026-12-02T09:40:00Z), now, or -DURATION", s)
	}
	return t, nil
}

// withLabel returns selector with name="value" added to its matchers.
func withLabel(selector, name, value string) (string, error) {
	if !validLabel(name) {
		return "", fmt.Errorf("label name %q is not a valid label name", name)
	}
	m := name + "=" + strconv.Quote(value)
	i := strings.LastIndex(selector, "}")
	if i < 0 {
		return selector + "{" + m + "}", nil
	}
	inner := strings.TrimSpace(selector[strings.Index(selector, "{")+1 : i])
	if inner == "" {
		return selector[:i] + m + selector[i:], nil
	}
	return selector[:i] + "," + m + selector[i:], nil
}

func validLabel(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// ErrEmpty is returned when a query matches no samples.
var ErrEmpty = errors.New("the query matched no samples in the window")
