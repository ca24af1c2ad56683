package report

import (
	"fmt"
	"strings"
)

// This file lays out, as markdown, the typed tables of stalls and of
// resources (ResponsivenessTable, ResourceTable.Table) for one and two
// sides.

// mdStalls is the markdown block of stalls (or its one line): the table
// of stall figures, what bounds them, and the longest stalls; "" without
// stalls.
func mdStalls(v *View) string {
	rs := v.r.Responsiveness
	if rs == nil {
		return ""
	}
	if !rs.HasLong() {
		return "\n_" + EscapeMarkdown(v.NoLongStalls()) + "_\n"
	}
	var b strings.Builder
	b.WriteString("\n#### Responsiveness\n\n_Per run, " + EscapeMarkdown(v.SourceText()) + "._\n\n")
	t := v.ResponsivenessTable()
	b.WriteString(mdHeadline(&t, false))
	fmt.Fprintf(&b, "\n_%s_\n\nLongest %s:\n\n", EscapeMarkdown(v.StallsUncertainty()), v.stallsNoun())
	long := v.LongStallsTable()
	note := ColumnsOf(long.Columns, KindNote)[0]
	for i, row := range long.Rows {
		fmt.Fprintf(&b, "%d. %s\n", i+1, EscapeMarkdown(row.Cells[note].Text))
	}
	return b.String()
}

// mdResources is the resource tables as markdown, folded: one table per
// step and group of measures, a row per side, the side's name first; ""
// without resources.
func mdResources(v *View) string {
	tables := v.ResourceTables()
	if len(tables) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n<details><summary>Resources per run, from the operating system</summary>\n")
	last := "\x00"
	for _, rt := range tables {
		if rt.Step != last {
			if c := v.ProfilingCost(last); last != "\x00" && c != "" {
				fmt.Fprintf(&b, "\n_%s._\n", EscapeMarkdown(c))
			}
			last = rt.Step
			if rt.Step != "" {
				fmt.Fprintf(&b, "\n**Step %s**\n", EscapeMarkdown(rt.Step))
			}
		}
		t := rt.Table()
		namesFirst(&t)
		b.WriteString("\n" + mdHeadline(&t, false))
	}
	if c := v.ProfilingCost(last); c != "" {
		fmt.Fprintf(&b, "\n_%s._\n", EscapeMarkdown(c))
	}
	b.WriteString("\n</details>\n")
	return b.String()
}

// namesFirst moves a table's columns of names (KindName) before its
// others, keeping each group's order: a markdown table reads the row's
// name first.
func namesFirst(t *Table) {
	var names, others []int
	for i, c := range t.Columns {
		if c.Kind == KindName {
			names = append(names, i)
		} else {
			others = append(others, i)
		}
	}
	order := append(names, others...)
	cols := make([]Column, len(order))
	for j, i := range order {
		cols[j] = t.Columns[i]
	}
	t.Columns = cols
	for r := range t.Rows {
		cells := make([]Cell, len(order))
		for j, i := range order {
			cells[j] = t.Rows[r].Cells[i]
		}
		t.Rows[r].Cells = cells
	}
}
