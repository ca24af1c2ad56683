package flamegraph

// This file keeps, as the reference the streaming Write is held to, the
// page writer as it was before it streamed: the data built as a struct,
// json.Marshal'ed and set in the page as one string.
// TestWriteMatchesReference compares the two byte for byte.

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/report"
)

// refData is what the page's script reads.
type refData struct {
	Title    string     `json:"title"`
	Compared bool       `json:"compared"`
	Per      string     `json:"per"`
	Sides    []string   `json:"sides"`
	Headline [][]string `json:"headline"`
	// Resources: a recording's resource tables, a row per measure and a
	// column per side ([] for none).
	Resources []refResources `json:"resources"`
	Warnings  []string       `json:"warnings"`
	// Functions of the tree: name, package, location; and each one's
	// judged change over all its calls (comparisons).
	Functions [][3]string  `json:"functions"`
	FnJudged  refJudgedSet `json:"fnJudged"`
	// Nodes, as parallel arrays (parents before children).
	Parent   []int32     `json:"parent"`
	Function []int32     `json:"function"`
	Self     [][]float64 `json:"self"`  // per side
	Total    [][]float64 `json:"total"` // per side
	// Judged changes per node (comparisons).
	Judged refJudgedSet `json:"judged"`
	// Other is, per side, the time of the nodes left out of the tree
	// (under Options.TreeMinShare of the comparison).
	Other     []float64 `json:"other"`
	MinShare  float64   `json:"minShare"`
	Paths     []refPath `json:"paths"`
	PathsNote string    `json:"pathsNote"`
	Packages  refTable  `json:"packages"`
	FuncTable refTable  `json:"functionTable"`
	// Stalls is the responsiveness strip's data.
	Stalls *stallsData `json:"stalls"`
}

// refJudgedSet holds judged changes of self and total time, as parallel
// arrays: verdicts as codes (see refVerdictCodes), Δ% (null when before is 0)
// and p.
type refJudgedSet struct {
	SelfVerdict  []int8     `json:"selfVerdict"`
	TotalVerdict []int8     `json:"totalVerdict"`
	SelfPct      []*float64 `json:"selfPct"`
	TotalPct     []*float64 `json:"totalPct"`
	SelfP        []*float64 `json:"selfP"`
	TotalP       []*float64 `json:"totalP"`
}

// add appends one row's or node's judged self and total change.
func (j *refJudgedSet) add(self, total *diff.Measure) {
	j.SelfVerdict = append(j.SelfVerdict, refVerdictCodes[self.Change.Verdict])
	j.TotalVerdict = append(j.TotalVerdict, refVerdictCodes[total.Change.Verdict])
	j.SelfPct = append(j.SelfPct, refNum(self.Change.DeltaPct))
	j.TotalPct = append(j.TotalPct, refNum(total.Change.DeltaPct))
	j.SelfP = append(j.SelfP, refNum(self.Change.P))
	j.TotalP = append(j.TotalP, refNum(total.Change.P))
}

type refPath struct {
	Nodes []int32 `json:"nodes"`
	Text  string  `json:"text"`
}

// refTable is a table as the text report shows it: headers and cells, and
// per row the sort keys of each column (numbers where the cell is one).
type refTable struct {
	Title   string      `json:"title"`
	Headers []string    `json:"headers"`
	Rows    [][]string  `json:"rows"`
	Keys    [][]float64 `json:"keys"`
	Total   int         `json:"total"`
	// Names are the columns of names (sorted as text).
	Names []int `json:"names"`
	// Fn are the rows' functions in the page's functions (functions
	// table only).
	Fn []int32 `json:"fn"`
}

// refVerdictCodes are the verdicts as the page's script knows them.
var refVerdictCodes = map[diff.Verdict]int8{diff.VerdictSame: 0, diff.VerdictBetter: 1, diff.VerdictWorse: 2, diff.VerdictNew: 3, diff.VerdictGone: 4}

// refResources is one resource table as the page's script reads it.
type refResources struct {
	Step   string     `json:"step"`
	Header []string   `json:"header"`
	Rows   [][]string `json:"rows"`
}

// writeReference writes the page for r.
func writeReference(w io.Writer, r *diff.Report, opts Options) error {
	if opts.Top <= 0 {
		opts.Top = 50
	}
	v := report.NewView(r)
	d := refData{Title: opts.Title, Compared: v.Layout() == report.LayoutPair, Per: v.Per(), Headline: headline(v), MinShare: r.Options.TreeMinShare}
	for _, s := range r.Sides {
		d.Sides = append(d.Sides, report.SideLine(s))
	}
	d.Resources = []refResources{}
	for _, t := range v.ResourceTables() {
		side := len(t.Header) - 1
		rt := refResources{Step: termtext.Clean(t.Step), Header: []string{""}}
		for _, row := range t.Rows {
			rt.Header = append(rt.Header, termtext.Clean(row[side].Text))
		}
		for m, title := range t.Header[:side] {
			cells := []string{title}
			for _, row := range t.Rows {
				cells = append(cells, row[m].Text)
			}
			rt.Rows = append(rt.Rows, cells)
		}
		d.Resources = append(d.Resources, rt)
	}
	for _, wn := range r.Warnings {
		d.Warnings = append(d.Warnings, termtext.Clean(wn.String()))
	}
	if d.Warnings == nil {
		d.Warnings = []string{}
	}
	d.addTree(r, v)
	d.addOther(r)
	for _, p := range r.Paths {
		d.Paths = append(d.Paths, refPath{Nodes: p.Nodes, Text: v.PathText(p)})
	}
	if d.Compared {
		d.PathsNote = v.PathsSummary()
	}
	// The tables are built as before; only how they are written changed.
	d.Packages = refTable(rowsTable(v, r, report.TablePackages, "Packages", opts.Top))
	d.FuncTable = refTable(rowsTable(v, r, report.TableFunctions, "Functions", opts.Top))
	d.Stalls = stallsOf(r, v)

	blob, err := json.Marshal(d) // escapes <, > and & as \u003c...: safe in a script element
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, refDocument(opts.Title, blob))
	return err
}

// addTree adds the merged call tree, node by node (parent, function, self
// and total per side, judged changes), and the functions its nodes name.
func (d *refData) addTree(r *diff.Report, v *report.View) {
	nsides := len(r.Sides)
	d.Self, d.Total = make([][]float64, nsides), make([][]float64, nsides)
	fnIndex := map[int32]int32{}
	for _, n := range r.Tree {
		fn := int32(-1)
		if n.Function >= 0 {
			id, ok := fnIndex[n.Function]
			if !ok {
				id = int32(len(d.Functions))
				fnIndex[n.Function] = id
				row := &r.Functions[n.Function]
				d.Functions = append(d.Functions, [3]string{v.RowName(row), termtext.Clean(row.Key.Package), v.Location(row.Key)})
				if d.Compared {
					d.FnJudged.add(&row.Self, &row.Total)
				}
			}
			fn = id
		}
		d.Parent = append(d.Parent, n.Parent)
		d.Function = append(d.Function, fn)
		for s := range nsides {
			d.Self[s] = append(d.Self[s], refRound(n.Self.Mean[s]))
			d.Total[s] = append(d.Total[s], refRound(n.Total.Mean[s]))
		}
		if d.Compared {
			d.Judged.add(&n.Self, &n.Total)
		}
	}
}

// addOther adds, per side, the time left out of the tree: on-CPU time
// not held by its nodes' self time.
func (d *refData) addOther(r *diff.Report) {
	nsides := len(r.Sides)
	d.Other = make([]float64, nsides)
	for s := range nsides {
		var held float64
		for _, x := range d.Self[s] {
			held += x
		}
		if len(r.Tree) > 0 {
			d.Other[s] = math.Max(0, refRound(r.Tree[0].Total.Mean[s])-held)
		}
	}
}

// refDocument is the whole HTML page: the data as JSON, the inline style and
// script, allowed by hash in its Content-Security-Policy.
func refDocument(title string, blob []byte) string {
	if title == "" {
		title = "profdiff"
	}
	csp := fmt.Sprintf("default-src 'none'; script-src '%s'; style-src '%s'; img-src data:; base-uri 'none'; form-action 'none'", refHash(pageJS), refHash(pageCSS))
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	fmt.Fprintf(&b, "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n", csp)
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	fmt.Fprintf(&b, "<title>%s</title>\n", html.EscapeString(termtext.Clean(title)))
	fmt.Fprintf(&b, "<style>%s</style>\n</head>\n<body>\n", pageCSS)
	fmt.Fprintf(&b, "<script type=\"application/json\" id=\"data\">%s</script>\n", blob)
	b.WriteString(pageHTML)
	fmt.Fprintf(&b, "<script>%s</script>\n</body>\n</html>\n", pageJS)
	return b.String()
}

// refHash is a CSP source allowing exactly one inline script or style.
func refHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(h[:])
}

func refRound(x float64) float64 { return math.Round(x) }

// refNum is x, or nil (null in JSON) when it is not a finite number.
func refNum(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	y := math.Round(x*1e6) / 1e6
	return &y
}

// BenchmarkWriteReference is BenchmarkWrite through the reference writer,
// to compare the two in one run.
func BenchmarkWriteReference(b *testing.B) {
	benchWrite(b, writeReference)
}
