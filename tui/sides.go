package tui

import (
	"fmt"
	"math"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/profdiff/profdiff/internal/units"
	"github.com/profdiff/profdiff/report"
)

// This file is the explorer of a base and several variants: it shows one
// pair (the base against a variant, Input.Several.Variants()[Input.Variant]) as
// it shows two sides, with a column per other variant beside each row (its
// change against the base and verdict); v shows the next variant, b makes
// the next side the base.

// sidesIndex finds a key's row in the several-sides report's tables.
type sidesIndex struct {
	of       *diff.Report
	packages map[analyze.Key]int
	funcs    map[analyze.Key]int
	files    map[analyze.Key]int
}

func newSidesIndex(r *diff.Report) *sidesIndex {
	ix := &sidesIndex{of: r}
	index := func(rows []diff.Row) map[analyze.Key]int {
		m := make(map[analyze.Key]int, len(rows))
		for i := range rows {
			m[rows[i].Key] = i
		}
		return m
	}
	ix.packages, ix.funcs, ix.files = index(r.Packages), index(r.Functions), index(r.Files)
	return ix
}

// row returns the several-sides row of a key in the table a screen lists.
func (ix *sidesIndex) row(k kind, key analyze.Key) *diff.Row {
	rows, m := ix.of.Functions, ix.funcs
	switch k {
	case kindPackages:
		rows, m = ix.of.Packages, ix.packages
	case kindFiles:
		rows, m = ix.of.Files, ix.files
	}
	if i, ok := m[key]; ok {
		return &rows[i]
	}
	return nil
}

// otherVariants are the sides, besides the base and the variant shown,
// that get a column of their own; none unless several variants are
// explored.
func (m Model) otherVariants() []int {
	sev := m.in.Several
	if sev == nil || m.sides == nil {
		return nil
	}
	switch m.top().kind {
	case kindCalls, kindPaths:
		return nil
	}
	shown := m.report().Sides[1].Name
	var out []int
	for si, s := range sev.Sides {
		if si != sev.Base && s.Name != shown {
			out = append(out, si)
		}
	}
	return out
}

// variantHeaders name the columns of the other variants.
func (m Model) variantHeaders() []string {
	var h []string
	for _, si := range m.otherVariants() {
		h = append(h, m.in.Several.Sides[si].Name+" Δ%")
	}
	return h
}

// variantCells are a row's cells in the other variants' columns: the
// change against the base and its verdict, and their sort keys.
func (m Model) variantCells(key analyze.Key) (cells []string, sort []float64) {
	others := m.otherVariants()
	if len(others) == 0 {
		return nil, nil
	}
	row := m.sides.row(m.top().kind, key)
	for _, si := range others {
		if row == nil {
			cells, sort = append(cells, ""), append(sort, math.Inf(-1))
			continue
		}
		for _, c := range m.metric().Of(row).VsBase {
			if int(c.Side) != si {
				continue
			}
			text := units.SignedPct(c.DeltaPct) + " " + c.Verdict.String()
			if c.Verdict == diff.VerdictNew || c.Verdict == diff.VerdictGone {
				text = c.Verdict.String()
			}
			v := math.Abs(c.DeltaPct)
			if math.IsNaN(v) {
				v = math.Inf(1)
			}
			cells, sort = append(cells, text), append(sort, v)
		}
	}
	return cells, sort
}

// showSides opens a several-sides report on one of its variants (an index
// into its Variants), on the tab shown.
func (m *Model) showSides(sev *diff.Report, variant int) {
	vs := sev.Variants()
	variant = min(max(variant, 0), len(vs)-1)
	m.in.Several, m.in.Variant, m.sides = sev, variant, newSidesIndex(sev)
	m.in.Report = vs[variant].Pair()
	m.view = report.NewView(m.in.Report)
	tab := m.stack[0].kind
	m.stack, m.tabs = []screen{{kind: tab, sortCol: -1}}, map[kind]screen{}
	p := m.in.Report
	m.status = fmt.Sprintf("%s against the base %s (v: next variant, b: next base)", termtext.Clean(p.Sides[1].Name), termtext.Clean(p.Sides[0].Name))
}

// nextVariant shows the base against the next variant.
func (m *Model) nextVariant() {
	if m.in.Several == nil || len(m.in.Several.Variants()) < 2 {
		m.status = "one pair only: v switches between the variants of three sides or more"
		return
	}
	m.showSides(m.in.Several, (m.in.Variant+1)%len(m.in.Several.Variants()))
}

// nextBase compares again with the next side as the base.
func (m *Model) nextBase() {
	sev := m.in.Several
	if sev == nil || m.in.Rebase == nil {
		m.status = "b changes the base of three sides or more"
		return
	}
	rep, err := m.in.Rebase((sev.Base + 1) % len(sev.Sides))
	if err != nil {
		m.status = "base: " + termtext.Clean(err.Error())
		return
	}
	m.showSides(rep, 0)
}
