// Package termtext shows text from profiles safely and in columns: Clean
// turns control and invisible characters into visible escapes, and Width,
// Fit and Pad measure, cut and pad text in terminal cells (CJK and emoji
// take two). Every renderer of a report and the explorer use it.
package termtext

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clipperhouse/displaywidth"
)

// Clean makes text from a profile safe to show on a terminal: control
// characters (C0 with ESC and NUL, DEL, C1), bidirectional overrides and
// isolates, and other invisible format characters become visible escapes
// (\x1b, \u202e), so that a name cannot move the cursor, set a title, or
// read as another name.
func Clean(s string) string {
	if !strings.ContainsFunc(s, Escapes) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case Escapes(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Escapes reports whether Clean writes r as an escape: controls,
// bidirectional controls and invisible format characters.
func Escapes(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true // bidirectional controls
	case r == 0x200b, r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff, r == 0xfff9, r == 0xfffa, r == 0xfffb:
		return true
	case r == 0xfffd: // the replacement character stands for invalid UTF-8
		return false
	}
	return false
}

// Width returns the number of terminal cells s takes (CJK and emoji take
// two).
func Width(s string) int { return displaywidth.String(s) }

// Fit shortens s to at most width cells, cutting the middle ("…"); keepTail
// keeps more of the end, for paths, whose file name is there.
func Fit(s string, width int, keepTail bool) string {
	if width <= 0 || Width(s) <= width {
		return s
	}
	if width == 1 {
		return "…"
	}
	var gs []string
	g := displaywidth.StringGraphemes(s)
	for g.Next() {
		gs = append(gs, g.Value())
	}
	head := (width - 1) / 2
	if keepTail {
		head = (width - 1) / 4
	}
	var b strings.Builder
	w := 0
	i := 0
	for ; i < len(gs) && w+Width(gs[i]) <= head; i++ {
		b.WriteString(gs[i])
		w += Width(gs[i])
	}
	b.WriteString("…")
	w++
	var tail []string
	for j := len(gs) - 1; j >= i; j-- {
		if w+Width(gs[j]) > width {
			break
		}
		tail = append(tail, gs[j])
		w += Width(gs[j])
	}
	slices.Reverse(tail)
	b.WriteString(strings.Join(tail, ""))
	return b.String()
}

// Pad pads s with spaces to width cells, on the left when right is set.
func Pad(s string, width int, right bool) string {
	n := width - Width(s)
	if n <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}

// CleanAll returns each string cleaned (Clean).
func CleanAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = Clean(s)
	}
	return out
}
