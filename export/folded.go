package export

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/profdiff/profdiff/analyze"
)

// WriteFolded writes folded stacks, one line per distinct stack of
// functions, root first, separated by ';', with the stack's on-CPU time in
// microseconds per run (per unit of work when given), rounded: the format
// of Brendan Gregg's flamegraph.pl. With two sides, each line has two
// values, before and after, the differential form difffolded.pl writes
// and flamegraph.pl reads. A name that two functions share is written
// "name (file:line)"; each frame ends in its package, "name [package]";
// names lose ';' and control characters. A first
// comment line says "unit=us", which profdiff's folded reader honours.
func WriteFolded(w io.Writer, sides []Side) error {
	values, order := foldStacks(sides, foldedLabel(sides))
	bw := bufio.NewWriter(w)
	writeFoldedHeader(bw, sides)
	for _, k := range order {
		if !slices.ContainsFunc(values[k], func(v float64) bool { return math.Round(v) != 0 }) {
			continue // under half a microsecond on every side
		}
		bw.WriteString(k)
		for _, v := range values[k] {
			fmt.Fprintf(bw, " %d", int64(math.Round(v)))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// foldedLabel returns the frame label of a function: its name, with its
// file and line when other functions share the name, then its package.
func foldedLabel(sides []Side) func(analyze.Key) string {
	// Names first: which are shared by different functions.
	keysOf := map[string]map[analyze.Key]bool{}
	for _, s := range sides {
		for _, r := range s.Runs {
			for _, row := range r.Table.Functions {
				n := name(row.Key)
				if keysOf[n] == nil {
					keysOf[n] = map[analyze.Key]bool{}
				}
				keysOf[n][row.Key] = true
			}
		}
	}
	return func(k analyze.Key) string {
		n := name(k)
		if len(keysOf[n]) > 1 && k.File != "" {
			n = fmt.Sprintf("%s (%s:%d)", n, k.File, k.Line)
		}
		n = cleanName(n, ";")
		if k.Package != "" {
			// The package, which the name alone rarely says (JavaScript),
			// so that the stacks read back with the report's packages.
			n += " [" + cleanName(strings.ReplaceAll(k.Package, " ", "_"), ";[]") + "]"
		}
		return n
	}
}

// foldStacks sums the time of each distinct folded stack per side, in
// microseconds per run (or unit of work), and returns the stacks sorted.
func foldStacks(sides []Side, label func(analyze.Key) string) (map[string][]float64, []string) {
	values := map[string][]float64{}
	var order []string
	var sb strings.Builder
	for si, s := range sides {
		scale := s.scale() / 1e3 // microseconds
		for _, r := range s.Runs {
			names := make([]string, len(r.Table.Functions))
			for i, row := range r.Table.Functions {
				names[i] = label(row.Key)
			}
			r.nodeStacks(func(_ int32, stack []int32, _ int, weight int64) {
				sb.Reset()
				for i, fn := range stack {
					if i > 0 {
						sb.WriteByte(';')
					}
					sb.WriteString(names[fn])
				}
				k := sb.String()
				v := values[k]
				if v == nil {
					v = make([]float64, len(sides))
					values[k] = v
					order = append(order, k)
				}
				v[si] += float64(weight) * scale
			})
		}
	}
	slices.Sort(order)
	return values, order
}

// writeFoldedHeader writes the first comment line, which tells profdiff's
// folded reader the unit, so that the file reads back as the same times
// without flags. It ends in a zero count per side, so that flamegraph.pl
// and difffolded.pl, which know no comments, read it as an empty stack
// instead of warning about it.
func writeFoldedHeader(bw *bufio.Writer, sides []Side) {
	names := make([]string, len(sides))
	per := "per_run"
	for i, s := range sides {
		names[i] = cleanName(strings.ReplaceAll(s.Name, " ", "_"), ";")
		if s.Work > 0 {
			per = "per_unit_of_work"
		}
	}
	fmt.Fprintf(bw, "# profdiff folded stacks: %s, unit=us %s%s\n", strings.Join(names, " "), per, strings.Repeat(" 0", len(sides)))
}
