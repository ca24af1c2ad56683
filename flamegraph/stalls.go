package flamegraph

import (
	_ "embed"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/jsonwrite"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/report"
)

// The stalls strip: above the flame graph, a timeline of each run on one
// time scale with its stretches over 16 ms marked (over 50 ms darker).
// Clicking one of the longest shows when it ran, how long, what ran in it,
// highlights those functions in the flame graph (through its search), and
// gives the --window command that narrows the whole report to it: the
// page's tree is of whole runs, so it cannot narrow to a stretch itself.

//go:embed stalls.js
var stallsJS string

//go:embed stalls.css
var stallsCSS string

// stallsData is the strip's data, the page data's "stalls" member (null
// without stall figures):
//
//	source: where the stretches come from ("from samples").
//	lo, hi: the time the strips span, ns from the runs' starts.
//	runs: each run's label and its stretches over 16 ms, [start, duration].
//	longest: the longest stalls over 50 ms, each with its run (index in
//	    runs), start and duration, its text as the report says it, match
//	    (a search for the functions that ran most in it) and command (the
//	    profdiff --window command that narrows to it).
type stallsData struct {
	Source  string        `json:"source"`
	Lo      int64         `json:"lo"`
	Hi      int64         `json:"hi"`
	Runs    []stallsRun   `json:"runs"`
	Longest []stallsEntry `json:"longest"`
}

type stallsRun struct {
	Label string     `json:"label"`
	Long  [][2]int64 `json:"long"`
}

type stallsEntry struct {
	Run      int    `json:"run"`
	Start    int64  `json:"start"`
	Duration int64  `json:"duration"`
	Text     string `json:"text"`
	Match    string `json:"match"`
	Command  string `json:"command"`
}

// stallsOf builds the strip's data; nil when the report has no stall
// figures. The longest stalls are the report's table of them
// (LongStallsTable), in its order and with its text; the strip adds where
// each is drawn, the search that lights up its functions, and the command
// that narrows to it.
func stallsOf(r *diff.Report, v *report.View) *stallsData {
	rs := r.Responsiveness
	if rs == nil {
		return nil
	}
	d := &stallsData{Source: v.SourceText(), Runs: []stallsRun{}, Longest: []stallsEntry{}}
	first := make([][]int, len(rs.Runs)) // side, run -> index in d.Runs
	for si, side := range rs.Runs {
		for ri, st := range side {
			label := r.Sides[si].Name
			if len(side) > 1 {
				label += fmt.Sprintf(" run %d", ri+1)
			}
			run := stallsRun{Label: termtext.Clean(label), Long: [][2]int64{}}
			d.Hi = max(d.Hi, st.EndNs)
			for _, s := range st.Long {
				run.Long = append(run.Long, [2]int64{s.Start, s.Duration})
				d.Lo, d.Hi = min(d.Lo, s.Start), max(d.Hi, s.Start+s.Duration)
			}
			first[si] = append(first[si], len(d.Runs))
			d.Runs = append(d.Runs, run)
		}
	}
	t := v.LongStallsTable()
	note := report.ColumnsOf(t.Columns, report.KindNote)[0]
	for _, row := range t.Rows {
		s := rs.Longest[row.Index]
		var names []string
		for _, f := range s.Top {
			names = append(names, regexp.QuoteMeta(v.Name(f.Key)))
		}
		match := ""
		if len(names) > 0 {
			match = "^(?:" + strings.Join(names, "|") + ")(?: |$)"
		}
		file := ""
		if s.Side < len(r.Sides) && s.Run < len(r.Sides[s.Side].Files) {
			file = r.Sides[s.Side].Files[s.Run]
		}
		d.Longest = append(d.Longest, stallsEntry{Run: first[s.Side][s.Run], Start: s.Start, Duration: s.Duration,
			Text: row.Cells[note].Text, Match: match, Command: windowCommand(s.Start, s.Duration, file)})
	}
	return d
}

// windowCommand is the profdiff command that narrows a run to a stretch:
// whole milliseconds around it.
func windowCommand(start, dur int64, file string) string {
	from := max(int64(math.Floor(float64(start)/1e6)), 0)
	to := int64(math.Ceil(float64(start+dur) / 1e6))
	if file == "" {
		file = "PROFILE"
	}
	return fmt.Sprintf("profdiff --window %dms..%dms %s", from, to, shellQuote(termtext.Clean(file)))
}

// shellQuote quotes s for a POSIX shell where it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// write writes the strip's data as the page data's "stalls" member, as
// json.Marshal would.
func (d *stallsData) write(j *jsonwrite.Writer) {
	j.Key("stalls")
	if d == nil {
		j.Null()
		return
	}
	j.BeginObject()
	j.Key("source")
	j.String(d.Source)
	j.Key("lo")
	j.Int(d.Lo)
	j.Key("hi")
	j.Int(d.Hi)
	j.Key("runs")
	j.BeginArray()
	for _, run := range d.Runs {
		j.BeginObject()
		j.Key("label")
		j.String(run.Label)
		j.Key("long")
		j.BeginArray()
		for _, s := range run.Long {
			j.BeginArray()
			j.Int(s[0])
			j.Int(s[1])
			j.EndArray()
		}
		j.EndArray()
		j.EndObject()
	}
	j.EndArray()
	j.Key("longest")
	j.BeginArray()
	for _, e := range d.Longest {
		j.BeginObject()
		j.Key("run")
		j.Int(int64(e.Run))
		j.Key("start")
		j.Int(e.Start)
		j.Key("duration")
		j.Int(e.Duration)
		j.Key("text")
		j.String(e.Text)
		j.Key("match")
		j.String(e.Match)
		j.Key("command")
		j.String(e.Command)
		j.EndObject()
	}
	j.EndArray()
	j.EndObject()
}
