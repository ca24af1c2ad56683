package main

import (
	"bytes"
	"io"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/export"
	"github.com/profdiff/profdiff/report"
)

// exporter writes sides in a format another tool reads.
type exporter func(io.Writer, []export.Side) error

// writeExport writes the sides with an exporter.
func writeExport(w io.Writer, write exporter, ds []diff.Side, profiles [][]*analyze.Profile) error {
	var sides []export.Side
	for si, d := range ds {
		s := export.Side{Name: d.Name, Work: d.Work}
		for ri, t := range d.Tables {
			s.Runs = append(s.Runs, export.Run{Profile: profiles[si][ri], Table: t})
		}
		sides = append(sides, s)
	}
	return write(w, sides)
}

// writePprof writes gzipped profile.proto (a diff of two sides).
func writePprof(w io.Writer, sides []export.Side) error { return export.WritePprof(w, sides) }

// writeSpeedscope writes speedscope's JSON, its names escaped (C1 and
// bidi controls) as in --format json.
func writeSpeedscope(w io.Writer, sides []export.Side) error {
	var b bytes.Buffer
	if err := export.WriteSpeedscope(&b, sides, "profdiff "+version()); err != nil {
		return err
	}
	_, err := w.Write(report.EscapeJSON(b.Bytes()))
	return err
}

// writeFolded writes flamegraph.pl's folded stacks.
func writeFolded(w io.Writer, sides []export.Side) error { return export.WriteFolded(w, sides) }

// pairSides keeps the sides of the pair drawn, base first: those whose
// indices drawn holds (invocation.drawn).
func pairSides(drawn []int, ds []diff.Side, profiles [][]*analyze.Profile) ([]diff.Side, [][]*analyze.Profile) {
	keptSides := make([]diff.Side, len(drawn))
	kept := make([][]*analyze.Profile, len(drawn))
	for k, i := range drawn {
		keptSides[k] = ds[i]
		if i < len(profiles) {
			kept[k] = profiles[i]
		}
	}
	return keptSides, kept
}
