package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/export"
)

// writeExport writes the sides in an export format.
func writeExport(w io.Writer, format string, ds []diff.Side, profiles [][]*analyze.Profile) error {
	var sides []export.Side
	for si, d := range ds {
		s := export.Side{Name: d.Name, Work: d.Work}
		for ri, t := range d.Tables {
			s.Runs = append(s.Runs, export.Run{Profile: profiles[si][ri], Table: t})
		}
		sides = append(sides, s)
	}
	switch format {
	case "pprof":
		return export.WritePprof(w, sides)
	case "speedscope":
		// JSON of the profile's names: C1 and bidi controls escaped, as
		// in --format json.
		var b bytes.Buffer
		if err := export.WriteSpeedscope(&b, sides, "profdiff "+version()); err != nil {
			return err
		}
		_, err := w.Write(diff.EscapeJSON(b.Bytes()))
		return err
	}
	return export.WriteFolded(w, sides)
}

// htmlTitle heads the HTML page: the files compared, or the profile.
func htmlTitle(sides []sideArg) string {
	name := func(s sideArg) string {
		if len(s.files) == 1 {
			return filepath.Base(s.files[0])
		}
		return fmt.Sprintf("%s (%d runs)", filepath.Dir(s.files[0]), len(s.files))
	}
	if len(sides) == 2 {
		return "profdiff: " + name(sides[0]) + " → " + name(sides[1])
	}
	return "profdiff: " + name(sides[0])
}
