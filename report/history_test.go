package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/profdiff/profdiff/history"
)

// censoredHistory is eight commits of three runs: package app steady at
// about 5 s, package gone at 300 ms until the 5th commit and below the
// records' 0.1% floor from there (left out of the records).
func censoredHistory(t *testing.T) *history.Result {
	t.Helper()
	var recs []*history.Record
	for c := range 8 {
		r := &history.Record{Version: history.Version, Commit: fmt.Sprintf("c%02d", c), Format: "V8 .cpuprofile", Top: 1000,
			Date: time.Date(2026, 11, 1, c, 0, 0, 0, time.UTC).Format(time.RFC3339), Floor: &history.Floor{Share: 0.001, Samples: 3}}
		app := history.Row{Kind: history.KindPackage, Name: "app"}
		gone := history.Row{Kind: history.KindPackage, Name: "gone"}
		for run := range 3 {
			a := int64(5_000_000 + 20_000*((c*3+run)%5))
			g := int64(300_000 + 5_000*((c+run)%3))
			on := a
			if c < 4 {
				on += g
				gone.SelfUs, gone.TotalUs = append(gone.SelfUs, g), append(gone.TotalUs, g)
			}
			app.SelfUs, app.TotalUs = append(app.SelfUs, a), append(app.TotalUs, a)
			r.Runs = append(r.Runs, history.Run{File: fmt.Sprintf("r%d", run), OnCPUUs: on, WallUs: on, IntervalUs: 500, Samples: on / 500})
			r.Floor.Us = append(r.Floor.Us, on/1000)
		}
		r.Rows = append(r.Rows, app)
		if c < 4 {
			r.Rows = append(r.Rows, gone)
		}
		recs = append(recs, r)
	}
	res, err := history.Analyze(recs, history.Options{Alpha: 0.05, MinDeltaPct: 5, MinDeltaPP: 0.1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestHistoryOutputsShowTheFloor: where a record left a row out, every
// output says it was below the floor there ("below 0.1% here"), never
// that it was 0: text, markdown and HTML in the change and the series,
// JSON as after_below, a null mean and the floor in below_floor_ns.
func TestHistoryOutputsShowTheFloor(t *testing.T) {
	res := censoredHistory(t)
	if len(res.ChangePoints) != 1 || res.ChangePoints[0].Commit != "c04" {
		t.Fatalf("change points %+v, want one at c04", res.ChangePoints)
	}
	var c *history.Change
	for i, ch := range res.ChangePoints[0].Changes {
		if ch.Name == "gone" && ch.Metric == history.MetricSelf {
			c = &res.ChangePoints[0].Changes[i]
		}
	}
	if c == nil || c.Verdict != "gone" || !c.AfterBelow {
		t.Fatalf("the change of gone: %+v", c)
	}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return WriteHistoryText(b, res) },
		"markdown": func(b *bytes.Buffer) error { return WriteHistoryMarkdown(b, res) },
		"html":     func(b *bytes.Buffer) error { return WriteHistoryHTML(b, res) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		out := strings.ReplaceAll(b.String(), "\u00a0", " ")
		line := ""
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "package gone self") {
				line = l
				break
			}
		}
		if !strings.Contains(line, "→ below 0.1% here") {
			t.Errorf("%s: the change of gone reads %q, want it below 0.1%% here", name, line)
		}
		if strings.Contains(line, "→ 0 ") || strings.Contains(line, "→ 0<") || strings.Contains(line, "→ 0 |") {
			t.Errorf("%s: gone reads as 0: %q", name, line)
		}
		if name != "html" && !strings.Contains(out, "·") {
			t.Errorf("%s: no sparkline marks a commit below the floor", name)
		}
		if name == "html" && !strings.Contains(out, "c05: below 0.1% here") {
			t.Errorf("html: the chart does not mark the commits below the floor")
		}
	}
	var b bytes.Buffer
	if err := WriteHistoryJSON(&b, res); err != nil {
		t.Fatal(err)
	}
	var j struct {
		Commits []struct {
			FloorShare *float64 `json:"floor_share"`
		} `json:"commits"`
		ChangePoints []struct {
			Changes []struct {
				Name, Metric string
				AfterBelow   bool     `json:"after_below"`
				AfterNs      *float64 `json:"after_ns"`
			} `json:"changes"`
		} `json:"change_points"`
		Series []struct {
			Name, Metric string
			Means        []*float64 `json:"means_ns"`
			Below        []*float64 `json:"below_floor_ns"`
		} `json:"series"`
	}
	if err := json.Unmarshal(b.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	if len(j.Commits) != 8 || j.Commits[0].FloorShare == nil || *j.Commits[0].FloorShare != 0.001 {
		t.Errorf("JSON commits lack their floor")
	}
	if len(res.Warnings) == 0 && !strings.Contains(b.String(), `"warnings": []`) {
		t.Errorf("JSON: no warnings is not an empty list: %.300s", b.String())
	}
	found := false
	for _, ch := range j.ChangePoints[0].Changes {
		if ch.Name == "gone" && ch.Metric == "self" {
			found = ch.AfterBelow && ch.AfterNs != nil && *ch.AfterNs > 0
		}
	}
	if !found {
		t.Errorf("JSON: the change of gone is not after_below with the floor as its after")
	}
	for _, s := range j.Series {
		if s.Name != "gone" {
			continue
		}
		if s.Means[3] == nil || s.Means[4] != nil || len(s.Below) != 8 || s.Below[4] == nil || math.Abs(*s.Below[4]-5e6) > 1e5 {
			t.Errorf("JSON series of gone: means %v, below %v", s.Means, s.Below)
		}
	}
}

// TestSparklineOfALongHistory: a series of 2,000 commits is drawn in at
// most sparkWidth bars, a bar per 34 commits, with its step where it
// is; a bar whose commits were all below the floor is marked, and a bar
// with one measured commit among censored ones shows it.
func TestSparklineOfALongHistory(t *testing.T) {
	values := make([]float64, 2000)
	below := make([]bool, 2000)
	for i := range values {
		values[i] = 10
		if i >= 1000 {
			values[i] = 20
		}
		below[i] = i < 68 && i != 40 // the first two bars, but for commit 40
	}
	got := []rune(SparklineBelow(values, below))
	if len(got) != 59 || sparkCommits(2000) != 34 {
		t.Fatalf("%d bars, a bar per %d commits", len(got), sparkCommits(2000))
	}
	if got[0] != belowMark || got[1] == belowMark {
		t.Errorf("the censored bars: %q", string(got[:3]))
	}
	// commits 986..1019 are the 30th bar: half and half, between the two
	if got[28] != sparkBars[0] || got[29] == sparkBars[0] || got[29] == sparkBars[len(sparkBars)-1] || got[30] != sparkBars[len(sparkBars)-1] {
		t.Errorf("the step: %q", string(got[26:32]))
	}
	if short := SparklineBelow(values[:60], nil); len([]rune(short)) != 60 {
		t.Errorf("60 commits drew %d bars", len([]rune(short)))
	}
}
