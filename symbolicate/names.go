package symbolicate

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/profdiff/profdiff/sourcemap"
)

// preambleSlack is how far before a function's start (its "(") the mapping
// of its own name or keyword may sit beyond the length of V8's name for it:
// "async function " and a space.
const preambleSlack = 16

// adjacent reports whether a mapping before a function start belongs to the
// function itself (its name, or the function keyword) rather than to code
// before it: minified bundles pack unrelated statements onto one line.
func adjacent(before *sourcemap.Position, column int, v8Name string) bool {
	return before != nil && column >= 0 && column-before.GenColumn <= len(v8Name)+preambleSlack
}

// originalPosition picks the mapping that places a function start: the one
// exactly at the start, else the last one before it on the same generated
// line (the spec's greatest lower bound); with an unknown column, the first
// on the line. Nothing places a start that no mapping precedes, nor one
// whose covering segment is explicitly unmapped (1 field): such code is the
// bundler's own (a module wrapper, the script's top level), and taking the
// next mapping instead would charge it, with everything it calls, to
// whichever module follows.
func originalPosition(a sourcemap.Answer, column int) (sourcemap.Position, bool) {
	c := a.Exact
	switch {
	case column < 0:
		c = a.First
	case c == nil:
		c = a.Before
	}
	if c == nil {
		return sourcemap.Position{}, false
	}
	return *c, c.Source >= 0
}

// functionName recovers the original name of a function whose start (the
// "(" of its parameter list, where V8 places it) maps to pos: the name of a
// mapping exactly at the start; else that of the mapping just before it on
// the same generated line when that mapping is the function's own name
// (bundlers name the identifier before the "("); else the identifier at the
// original position in sourcesContent; else the name V8 recorded.
// "constructor" reads "Class.constructor" when the class is found in the
// source. A name that turns out to be the parameter of an arrow function
// (x => ..., where V8 places the start) is not taken for the function's.
func functionName(m *sourcemap.Map, source func(int) *sourceText, a sourcemap.Answer, pos sourcemap.Position, column int, v8Name string) string {
	name := ""
	switch {
	case a.Exact != nil && a.Exact.Name >= 0:
		name = m.Names[a.Exact.Name]
	case adjacent(a.Before, column, v8Name) && a.Before.Name >= 0:
		name = m.Names[a.Before.Name]
	}
	src := source(pos.Source)
	if src != nil {
		if param, target := arrowParam(src, pos.Line, pos.Column); param {
			return target // the arrow's assignment target, or "" (anonymous)
		}
		if name == "" && (a.Exact != nil || adjacent(a.Before, column, v8Name)) {
			name = identifierAt(src, pos.Line, pos.Column)
		}
	}
	if name == "" {
		name = v8Name
	}
	if name == "constructor" && src != nil {
		if class := enclosingClass(src, pos.Line, pos.Column); class != "" {
			name = class + ".constructor"
		}
	}
	return name
}

// arrowParam reports whether the source at a position is the lone parameter
// of an arrow function (x => ...), and returns the name the arrow is
// assigned to, if any.
func arrowParam(st *sourceText, line, column int) (bool, string) {
	src, off := st.text, st.offset(line, column)
	if off < 0 {
		return false, ""
	}
	id := identAfter(src, off)
	if id == "" {
		return false, ""
	}
	rest := strings.TrimLeft(src[off+len(id):], " \t")
	if strings.HasPrefix(rest, "=>") {
		return true, assignedName(src, skipSpaceBack(src, off))
	}
	// The first of a parenthesised list: (r) => or (a, b) =>.
	open := skipSpaceBack(src, off)
	if open == 0 || src[open-1] != '(' {
		return false, ""
	}
	end := closingParen(rest)
	if end < 0 {
		return false, ""
	}
	after := strings.TrimLeft(rest[end+1:], " \t")
	if strings.HasPrefix(after, ":") { // a return type: (a: T): R =>
		stop := strings.IndexAny(after, ";{\n")
		if stop < 0 {
			stop = len(after)
		}
		if !strings.Contains(after[:stop], "=>") {
			return false, ""
		}
	} else if !strings.HasPrefix(after, "=>") {
		return false, ""
	}
	return true, assignedName(src, skipSpaceBack(src, open-1))
}

// closingParen returns the index of the ")" that closes a parameter list
// whose opening "(" came before s (brackets and braces within it nest,
// as in TypeScript types and default values), or -1 within 300 bytes.
func closingParen(s string) int {
	depth := 0
	for i := 0; i < len(s) && i < 300; i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ']', '}':
			depth--
		case ')':
			if depth == 0 {
				return i
			}
			depth--
		case ';':
			return -1
		}
	}
	return -1
}

// assignedName returns the name a function expression ending at i is
// given: the target of "name =" (or "obj.name ="), the key of "name:" in an
// object literal, or, for a branch of a conditional ("x = c ? a : function"),
// the target of the assignment the conditional stands in. "" if none.
func assignedName(src string, i int) string {
	if i == 0 {
		return ""
	}
	switch c := src[i-1]; {
	case c == '=' && (i < 2 || !strings.ContainsRune("=!<>", rune(src[i-2]))):
		if id := identBefore(src, skipSpaceBack(src, i-1)); id != "" && !notNames[id] {
			return id
		}
	case c == ':' || c == '?':
		j := skipSpaceBack(src, i-1)
		id := identBefore(src, j)
		before := skipSpaceBack(src, j-len(id))
		if c == ':' && id != "" && !notNames[id] && before > 0 && (src[before-1] == '{' || src[before-1] == ',') {
			return id // an object literal's key
		}
		// A conditional's branch: find "name =" before it on the line.
		start := strings.LastIndexByte(src[:i], '\n') + 1
		for k := i - 2; k > start; k-- {
			if src[k] == '=' && !strings.ContainsRune("=!<>", rune(src[k-1])) && (k+1 >= len(src) || (src[k+1] != '=' && src[k+1] != '>')) {
				return assignedName(src, k+1)
			}
		}
	}
	return ""
}

// sourceText is an original source with the offsets of its lines, built
// once per source: a bundle's map may name thousands of functions in one
// source of megabytes.
type sourceText struct {
	text   string
	starts []int32 // byte offset of each line (maps are far below 2 GiB)
	// ascii says, per line, whether it is known to be all ASCII (1) or not
	// (2): then a UTF-16 column is a byte offset, even on the megabyte
	// lines of minified code vendored into a bundle. Filled on first use.
	ascii []uint8
}

// newSourceText indexes the lines of text. The lines are counted first, so
// that the index is allocated once at its size.
func newSourceText(text string) *sourceText {
	if len(text) >= 1<<31 {
		return nil
	}
	st := &sourceText{text: text, starts: make([]int32, 1, strings.Count(text, "\n")+1)}
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		st.starts = append(st.starts, int32(i))
	}
	return st
}

// offset returns the byte offset of a 0-based line and UTF-16 column, or -1.
func (st *sourceText) offset(line, column int) int {
	if line < 0 || line >= len(st.starts) || column < 0 {
		return -1
	}
	src, off := st.text, int(st.starts[line])
	if st.lineIsASCII(line) {
		end := len(src)
		if line+1 < len(st.starts) {
			end = int(st.starts[line+1]) - 1 // its '\n'
		}
		if off+column > end {
			return -1
		}
		return off + column
	}
	// Columns count UTF-16 code units; walk the line's runes.
	for u := 0; u < column; {
		if off >= len(src) || src[off] == '\n' {
			return -1
		}
		r, size := utf8.DecodeRuneInString(src[off:])
		off += size
		if r >= 0x10000 {
			u += 2
		} else {
			u++
		}
	}
	return off
}

// lineIsASCII reports whether a line holds only ASCII, remembering it.
func (st *sourceText) lineIsASCII(line int) bool {
	if st.ascii == nil {
		st.ascii = make([]uint8, len(st.starts))
	}
	if st.ascii[line] == 0 {
		start, end := int(st.starts[line]), len(st.text)
		if line+1 < len(st.starts) {
			end = int(st.starts[line+1])
		}
		st.ascii[line] = 1
		for i := start; i < end; i++ {
			if st.text[i] >= utf8.RuneSelf {
				st.ascii[line] = 2
				break
			}
		}
	}
	return st.ascii[line] == 1
}

func isIdentStart(r rune) bool { return r == '_' || r == '$' || unicode.IsLetter(r) }
func isIdentPart(r rune) bool  { return isIdentStart(r) || unicode.IsDigit(r) }

// modifiers are the keywords that may precede a function's name at its
// original start: export default async function* name(...).
var modifiers = map[string]bool{
	"export": true, "default": true, "async": true, "function": true, "static": true,
	"declare": true, "public": true, "private": true, "protected": true, "abstract": true, "override": true,
}

// notNames are keywords that may stand where a name is looked for.
var notNames = map[string]bool{
	"function": true, "async": true, "return": true, "new": true, "await": true, "yield": true,
	"static": true, "if": true, "for": true, "while": true, "switch": true, "catch": true,
	"typeof": true, "void": true, "delete": true, "in": true, "of": true, "export": true,
	"default": true, "const": true, "let": true, "var": true, "class": true, "extends": true,
	"import": true, "case": true, "else": true, "do": true, "throw": true,
}

// identifierAt returns the name at a function's original start: an
// identifier at the position itself (after "function" or "async function",
// the one that follows), else the one just before it (the "(" of
// match(path)), else the target of an assignment before it
// (const handle = (req) => ...).
func identifierAt(st *sourceText, line, column int) string {
	src, off := st.text, st.offset(line, column)
	if off < 0 {
		return ""
	}
	id := identAfter(src, off)
	for modifiers[id] {
		keyword := off
		off += len(id)
		for off < len(src) && (src[off] == ' ' || src[off] == '\t' || src[off] == '*') {
			off++
		}
		next := identAfter(src, off)
		if next == "" && id == "function" {
			// function (...): an anonymous function expression, perhaps
			// assigned to a name.
			return assignedName(src, skipSpaceBack(src, keyword))
		}
		if next == "" {
			off = keyword
			break
		}
		id = next
	}
	if id != "" && !notNames[id] {
		return id
	}
	i := skipSpaceBack(src, off)
	if id := identBefore(src, i); id != "" {
		if !notNames[id] {
			return id
		}
		return ""
	}
	return assignedName(src, i)
}

func identAfter(src string, off int) string {
	end := off
	for end < len(src) {
		r, size := utf8.DecodeRuneInString(src[end:])
		if (end == off && !isIdentStart(r)) || (end > off && !isIdentPart(r)) {
			break
		}
		end += size
	}
	return src[off:end]
}

func identBefore(src string, end int) string {
	start := end
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(src[:start])
		if !isIdentPart(r) {
			break
		}
		start -= size
	}
	id := src[start:end]
	if id == "" {
		return ""
	}
	if r, _ := utf8.DecodeRuneInString(id); !isIdentStart(r) {
		return ""
	}
	return id
}

func skipSpaceBack(src string, i int) int {
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n' || src[i-1] == '\r') {
		i--
	}
	return i
}

// enclosingClass returns the name of the nearest "class Name" before a
// position, or "".
func enclosingClass(st *sourceText, line, column int) string {
	src, off := st.text, st.offset(line, column)
	if off < 0 {
		return ""
	}
	for i := strings.LastIndex(src[:off], "class "); i >= 0; i = strings.LastIndex(src[:i], "class ") {
		if i > 0 {
			if r, _ := utf8.DecodeLastRuneInString(src[:i]); isIdentPart(r) {
				continue
			}
		}
		j := i + len("class ")
		for j < len(src) && src[j] == ' ' {
			j++
		}
		if id := identAfter(src, j); id != "" && id != "extends" {
			return id
		}
	}
	return ""
}
