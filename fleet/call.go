package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
)

// caller sends the requests of one side to its server: the timeout, the
// retries of a transport error or a 5xx answer with a growing pause, the
// bearer token and the cap on an answer's size, the same for Parca's JSON
// gateway and Pyroscope's Connect API. Its errors are one line and name
// the server, never the token.
type caller struct {
	base    string // the server, as errors name it
	http    *http.Client
	retries int
	token   string
	max     int64
	pause   time.Duration // before the first retry; the nth waits n times it
}

// newCaller applies Options' defaults.
func newCaller(o Options, base string) *caller {
	c := &caller{base: base, http: o.Client, retries: o.Retries, token: o.Token, max: o.MaxResponse, pause: 200 * time.Millisecond}
	if c.http == nil {
		t := o.Timeout
		if t == 0 {
			t = 30 * time.Second
		}
		c.http = &http.Client{Timeout: t}
	}
	if c.retries == 0 {
		c.retries = 2
	} else if c.retries < 0 {
		c.retries = 0
	}
	if c.max <= 0 {
		c.max = DefaultMaxResponse
	}
	return c
}

// request is one call: GET when body is nil, else POST of body as
// contentType.
type request struct {
	method, url string
	body        []byte
	contentType string
	header      http.Header
}

// do sends r until it is answered, retrying a transport error or a 5xx,
// and returns the body of a 200 answer. 401 and 403 are a token refused
// (or missing); another status is a bad query; both with the server's
// message (a gRPC-gateway or Connect error).
func (c *caller) do(ctx context.Context, r request) ([]byte, error) {
	var last error
	for attempt := 0; attempt <= c.retries; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Duration(attempt) * c.pause):
			}
		}
		body, status, err := c.once(ctx, r)
		var big *tooLarge
		switch {
		case errors.As(err, &big):
			return nil, fmt.Errorf("%s: %v", c.base, err)
		case err != nil:
			var ue *url.Error
			if errors.As(err, &ue) {
				err = ue.Err // the *url.Error repeats the URL, which holds the query
			}
			last = fmt.Errorf("%s: server unreachable: %v", c.base, err)
		case status >= 500:
			last = fmt.Errorf("%s: server error %d: %s", c.base, status, oneLine(body))
		case status == http.StatusUnauthorized || status == http.StatusForbidden:
			return nil, fmt.Errorf("%s: not authorized (%s): %s", c.base, errorCode(body, status), oneLine(body))
		case status != http.StatusOK:
			return nil, fmt.Errorf("%s: bad query (%s): %s", c.base, errorCode(body, status), oneLine(body))
		default:
			return body, nil
		}
	}
	return nil, last
}

// tooLarge is an answer over the cap.
type tooLarge struct{ max int64 }

func (e *tooLarge) Error() string { return fmt.Sprintf("answer larger than %d bytes", e.max) }

func (c *caller) once(ctx context.Context, r request) ([]byte, int, error) {
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, r.url, body)
	if err != nil {
		return nil, 0, err
	}
	for k, v := range r.header {
		req.Header[k] = v
	}
	req.Header.Set("Accept", "application/json")
	if r.body != nil {
		req.Header.Set("Content-Type", r.contentType)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, c.max+1))
	if err != nil {
		return nil, 0, err
	}
	if int64(len(b)) > c.max {
		return nil, 0, &tooLarge{c.max}
	}
	return b, resp.StatusCode, nil
}

// errorCode names a refusal: the Connect error code ("invalid_argument")
// when the body is a Connect error, else the HTTP status ("HTTP 400").
func errorCode(body []byte, status int) string {
	var e struct {
		Code any `json:"code"` // a string in Connect, a number in the gRPC gateway
	}
	if json.Unmarshal(body, &e) == nil {
		if s, ok := e.Code.(string); ok && validCode(s) {
			return s
		}
	}
	return fmt.Sprintf("HTTP %d", status)
}

// validCode reports whether s looks like a Connect code (lower case and
// underscores), so that a server's text is not taken for one.
func validCode(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, c := range s {
		if c != '_' && (c < 'a' || c > 'z') {
			return false
		}
	}
	return true
}

// oneLine shortens a server's error body to one line of at most 200
// printable characters: the gRPC-gateway or Connect message when there is
// one (a server's text reaches the terminal: no control characters).
func oneLine(body []byte) string {
	var e struct{ Message string }
	s := string(body)
	if json.Unmarshal(body, &e) == nil && e.Message != "" {
		s = e.Message
	}
	s = printable(s)
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "..."
	}
	return s
}

// printable makes s one line of printable characters: runs of white
// space are one space, other control characters and invalid UTF-8 "?".
func printable(s string) string {
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "?")), " ")
	return strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) {
			return '?'
		}
		return r
	}, s)
}

// lineError is err said in one printable line (a profile's own strings
// reach the readers' errors), still err to errors.Is and errors.As.
type lineError struct {
	msg string
	err error
}

func (e *lineError) Error() string { return e.msg }
func (e *lineError) Unwrap() error { return e.err }
