package report

import (
	"bytes"
	"encoding/json"
	"github.com/profdiff/profdiff/diff"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestJSONCompared(t *testing.T) {
	rule, _ := diff.ParseRule("package:*>+5%")
	o := diff.DefaultOptions()
	o.Rules = []diff.Rule{rule}
	r := routerPair(t, o)
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	type change struct {
		Side     string   `json:"side"`
		DeltaPct *float64 `json:"delta_pct"`
		Verdict  string   `json:"verdict"`
		P        *float64 `json:"p"`
	}
	type measure struct {
		Ns       []float64 `json:"ns"`
		DeltaPP  *float64  `json:"delta_pp"`
		DeltaPct *float64  `json:"delta_pct"`
		Verdict  string    `json:"verdict"`
		P        *float64  `json:"p"`
		VsBase   []change  `json:"vs_base"`
	}
	var out struct {
		Version  int               `json:"version"`
		Sides    []json.RawMessage `json:"sides"`
		Headline struct {
			OnCPU measure `json:"on_cpu"`
		} `json:"headline"`
		Packages []struct {
			Package string  `json:"package"`
			Self    measure `json:"self"`
			Total   measure `json:"total"`
		} `json:"packages"`
		Rules []struct {
			Rule   string `json:"rule"`
			Broken bool   `json:"broken"`
		} `json:"rules"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out.Version != 3 || len(out.Sides) != 2 || len(out.Headline.OnCPU.Ns) != 2 || len(out.Rules) != 1 || out.Rules[0].Broken {
		t.Fatalf("shape: %s", b.String()[:400])
	}
	for _, p := range out.Packages {
		for _, m := range []measure{p.Self, p.Total} {
			// A change below the minimum effect (0.1pp, 5%) is not
			// tested: its p is null; every other has one.
			tested := m.DeltaPP != nil && math.Abs(*m.DeltaPP) >= 0.1 && (m.DeltaPct == nil || math.Abs(*m.DeltaPct) >= 5)
			if len(m.Ns) != 2 || m.Verdict == "" || (m.P == nil) == tested {
				t.Errorf("row %+v", p)
			}
			// Two sides keep the top-level change, equal to vs_base[0].
			if len(m.VsBase) != 1 || m.VsBase[0].Side != "after" || m.VsBase[0].Verdict != m.Verdict || (m.P == nil) != (m.VsBase[0].P == nil) || (m.P != nil && *m.P != *m.VsBase[0].P) {
				t.Errorf("%s: vs_base %+v against %+v", p.Package, m.VsBase, m)
			}
		}
		if p.Package == "path-to-regexp" && (p.Self.Verdict != "better" || *p.Self.DeltaPct > -70) {
			t.Errorf("path-to-regexp %+v", p)
		}
	}
}

// TestIndentJSONMatchesEncoding holds the report's one-pass indenter to
// json.Indent on the golden reports and on awkward documents.
func TestIndentJSONMatchesEncoding(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `{"a":[]}`, `{"a":{},"b":[[],[{}]],"c":[1,2,{"d":null}]}`,
		`{"s":"a,b:c{d}[e]\"f\\\\","t":"\\","u":"\u003cx\u003e"}`, `[true,false,null,-1.5e3,"x"]`, `"lone"`, `7`,
	}
	goldens, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range goldens {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, data); err != nil {
			t.Fatal(err)
		}
		docs = append(docs, compact.String())
	}
	if len(goldens) == 0 {
		t.Fatal("no JSON goldens found")
	}
	for _, d := range docs {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(d), "", " "); err != nil {
			t.Fatalf("%.60s: %v", d, err)
		}
		if got := indentJSON(nil, []byte(d)); string(got) != want.String() {
			t.Errorf("indentJSON(%.60s) =\n%s\nwant\n%s", d, got, want.String())
		}
	}
}
