package fleet

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	pprofile "github.com/google/pprof/profile"
	googlev1 "github.com/grafana/pyroscope/api/gen/proto/go/google/v1"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/profdiff/profdiff/analyze"
)

// FuzzParseURI: a side URI parses to a query whose window is ordered and
// whose base is http(s), or to a one-line error that never shows a
// password given in the authority.
func FuzzParseURI(f *testing.F) {
	for _, s := range []string{
		`parca+http://127.0.0.1:7070/?query=process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta{job="gobench",build="before"}&from=2026-12-02T09:40:00Z&to=2026-12-02T09:55:00Z`,
		`pyroscope+https://h:4040/prefix/?query=process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="api"}&from=-1h&to=now`,
		`parca+http://u:pw-secret@h:7070/?query=x`,
		`parca+http://u:pw-secret@h:bad/?query=x`,
		`parca+http://h/?query=x&from=-90m&to=-1h`,
		`parca+ftp://h/?query=x`,
		`pyroscope+http://[::1]:4040?query=t{a="b"}&from=2026-12-02T09:40:00.5Z`,
	} {
		f.Add(s)
	}
	now := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := ParseURI(raw, now)
		if err != nil {
			msg := err.Error()
			if strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error of two lines: %q", msg)
			}
			if i := strings.Index(raw, "://"); i >= 0 {
				auth := raw[i+3:]
				if j := strings.IndexAny(auth, "/?#"); j >= 0 {
					auth = auth[:j]
				}
				if at := strings.LastIndex(auth, "@"); at >= 0 {
					if _, pw, ok := strings.Cut(auth[:at], ":"); ok && len(pw) >= 4 && !strings.Contains(withoutUserinfo(raw), pw) && strings.Contains(msg, pw) && !fromTheMessage(raw, pw, now) {
						t.Fatalf("error shows the password %q: %s", pw, msg)
					}
				}
			}
			return
		}
		if q.Kind != Parca && q.Kind != Pyroscope || q.Selector == "" || !q.From.Before(q.To) {
			t.Fatalf("%q parsed to %+v", raw, q)
		}
		if u, err := url.Parse(q.Base); err != nil || u.User != nil || u.Scheme != "http" && u.Scheme != "https" || strings.HasSuffix(q.Base, "/") {
			t.Fatalf("%q: base %q", raw, q.Base)
		}
	})
}

// fromTheMessage reports whether pw is in the error of raw only because
// the message's own words hold it (a password "ca+h" and the help's
// "parca+http"): with another password of its length in its place, the
// error still holds it.
func fromTheMessage(raw, pw string, now time.Time) bool {
	_, err := ParseURI(strings.Replace(raw, ":"+pw+"@", ":"+strings.Repeat("Q", len(pw))+"@", 1), now)
	return err != nil && strings.Contains(err.Error(), pw)
}

// FuzzParcaAnswer: whatever a server answers to a merge query is a
// profile with the window as its duration and counts that add up, or an
// error of one line naming the server; never a panic.
func FuzzParcaAnswer(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "fleet", "parca", "query-*.json"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"pprof":"H4sIAAAAAAAA/wEAAP//AAAAAAAAAAA="}`))
	f.Add([]byte(`{"pprof":null}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var out queryResponse
		if json.Unmarshal(body, &out) != nil {
			return // get says the answer is not the expected JSON
		}
		checkMerged(t, out.Pprof)
	})
}

// FuzzPyroscopeAnswer: a SelectMergeStacktraces answer decodes, and its
// profile written back as pprof says what the JSON said: the pprof
// library reads as many samples, locations and functions, and the same
// strings and values; then it is read as a Parca answer is.
func FuzzPyroscopeAnswer(f *testing.F) {
	for _, name := range []string{"before-r1.pprof", "after-r2.pprof"} {
		p, err := readGoProfile(name)
		if err != nil {
			f.Fatal(err)
		}
		smallProfile(p, 12) // the fuzzer mutates a 180 KB seed a few times a second
		b, err := protojson.Marshal(&querierv1.SelectMergeStacktracesResponse{Pprof: &querierv1.PprofProfile{Profile: p}})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"pprof":{"profile":{"sampleType":[{"type":"1","unit":2}],"sample":[{"locationId":["1"],"value":["10000000"]}],"location":[{"id":"1","line":[{"functionId":"1","line":"-3"}]}],"function":[{"id":"1","name":"3"}],"stringTable":["","cpu","nanoseconds","main"],"period":"10000000"}}}`))
	f.Add([]byte(`{"pprof":{}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var resp selectMergeStacktracesResponse
		if json.Unmarshal(body, &resp) != nil {
			return
		}
		b := resp.pprof()
		if b == nil {
			return
		}
		jp := resp.Pprof.Profile
		if lp, err := pprofile.ParseUncompressed(b); err == nil {
			if len(lp.Sample) != len(jp.Sample) || len(lp.Location) != len(jp.Location) || len(lp.Function) != len(jp.Function) || len(lp.SampleType) != len(jp.SampleType) {
				t.Fatalf("written back: %d samples, %d locations, %d functions, %d types; the JSON had %d, %d, %d, %d",
					len(lp.Sample), len(lp.Location), len(lp.Function), len(lp.SampleType), len(jp.Sample), len(jp.Location), len(jp.Function), len(jp.SampleType))
			}
			for i, s := range lp.Sample {
				for k, v := range s.Value {
					if v != int64(jp.Sample[i].Value[k]) {
						t.Fatalf("sample %d value %d: %d written back, %d in the JSON", i, k, v, jp.Sample[i].Value[k])
					}
				}
			}
			for i, fn := range lp.Function {
				if n := int(jp.Function[i].Name); n >= 0 && n < len(jp.StringTable) && fn.Name != jp.StringTable[n] {
					t.Fatalf("function %d: %q written back, %q in the JSON", i, fn.Name, jp.StringTable[n])
				}
			}
		}
		checkMerged(t, b)
	})
}

// smallProfile keeps the first n samples of p, with the locations and
// functions they use and the strings those name (renumbered).
func smallProfile(p *googlev1.Profile, n int) {
	p.Sample = p.Sample[:min(n, len(p.Sample))]
	locs := map[uint64]bool{}
	for _, s := range p.Sample {
		for _, id := range s.LocationId {
			locs[id] = true
		}
	}
	fns := map[uint64]bool{}
	var keptLocs []*googlev1.Location
	for _, l := range p.Location {
		if locs[l.Id] {
			keptLocs = append(keptLocs, l)
			for _, ln := range l.Line {
				fns[ln.FunctionId] = true
			}
		}
	}
	p.Location = keptLocs
	strs := map[int64]int64{0: 0}
	table := []string{""}
	keep := func(i int64) int64 {
		if j, ok := strs[i]; ok {
			return j
		}
		strs[i] = int64(len(table))
		table = append(table, p.StringTable[i])
		return strs[i]
	}
	for _, vt := range append(p.SampleType, p.PeriodType) {
		vt.Type, vt.Unit = keep(vt.Type), keep(vt.Unit)
	}
	var keptFns []*googlev1.Function
	for _, fn := range p.Function {
		if fns[fn.Id] {
			fn.Name, fn.SystemName, fn.Filename = keep(fn.Name), keep(fn.SystemName), keep(fn.Filename)
			keptFns = append(keptFns, fn)
		}
	}
	p.Function = keptFns
	for _, m := range p.Mapping {
		m.Filename, m.BuildId = keep(m.Filename), keep(m.BuildId)
	}
	for _, s := range p.Sample {
		for _, l := range s.Label {
			l.Key, l.Str, l.NumUnit = keep(l.Key), keep(l.Str), keep(l.NumUnit)
		}
	}
	for i, c := range p.Comment {
		p.Comment[i] = keep(c)
	}
	p.DropFrames, p.KeepFrames = keep(p.DropFrames), keep(p.KeepFrames)
	p.StringTable = table
}

// checkMerged reads b as a merged answer over a 15-minute window.
func checkMerged(t *testing.T, b []byte) {
	t.Helper()
	p, err := readMerged(b, "http://h:7070", "parca:sel{}", 15*time.Minute, 1<<20, analyze.ParseOptions{})
	if err != nil {
		if msg := err.Error(); strings.ContainsAny(msg, "\n\r") || !strings.HasPrefix(msg, "http://h:7070: ") {
			t.Fatalf("error %q", msg)
		}
		return
	}
	if p.WallNs != int64(15*time.Minute) || p.SampleCount < 0 || p.IntervalNs < 0 || p.OnCPUNs() <= 0 {
		t.Fatalf("wall %d, %d samples of %d ns, on-CPU %d", p.WallNs, p.SampleCount, p.IntervalNs, p.OnCPUNs())
	}
}

// FuzzSeriesAndErrors: label values from any SelectSeries answer are
// sorted and distinct; a server's error body becomes one line of at most
// 200 printable characters (and "..."), and its code a Connect code or
// the HTTP status.
func FuzzSeriesAndErrors(f *testing.F) {
	f.Add([]byte(`{"series":[{"labels":[{"name":"service_name","value":"gobench"},{"name":"instance","value":"r2"}]},{"labels":[{"name":"instance","value":"r1"}]},{"labels":[{"name":"instance","value":"r2"}]}]}`))
	f.Add([]byte(`{"code":"invalid_argument","message":"parse error:\n\x1b[31mbad\x1b[0m"}`))
	f.Add([]byte(`{"code":3,"message":"failed to parse query","details":[]}`))
	f.Add([]byte("<html>\r\n<h1>502 Bad Gateway</h1></html>"))
	f.Fuzz(func(t *testing.T, body []byte) {
		var resp selectSeriesResponse
		if json.Unmarshal(body, &resp) == nil {
			v := resp.values("instance")
			for i := 1; i < len(v); i++ {
				if v[i-1] >= v[i] {
					t.Fatalf("values %q", v)
				}
			}
		}
		s := oneLine(body)
		if r := []rune(strings.TrimSuffix(s, "...")); len(r) > 200 {
			t.Fatalf("%d runes", len(r))
		}
		for _, r := range s {
			if !unicode.IsPrint(r) {
				t.Fatalf("unprintable %q in %q", r, s)
			}
		}
		if c := errorCode(body, 400); c != "HTTP 400" && !validCode(c) {
			t.Fatalf("code %q", c)
		}
	})
}
