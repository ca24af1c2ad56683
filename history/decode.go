package history

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"unicode/utf8"
)

// This file reads a record in the layout Marshal writes without
// encoding/json's reflection for its rows, which is most of a long
// history's time. It is only a fast path: it accepts only a strict
// subset of JSON (each line as Marshal writes it, strings without escapes
// in valid UTF-8, plain integers, the commas between lines), and anything
// it does not expect (another layout, an escaped or odd string, a number
// that is not an integer where one is due, an unknown or repeated key)
// sends the line, or the whole record, to encoding/json, so the result
// and the errors are those of encoding/json's strict decoding.

// decodeFast decodes data into r if it is laid out as Marshal writes it;
// false when it is not (r is then to be decoded again from scratch).
func decodeFast(data []byte, r *Record) bool {
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) < 4 || string(lines[0]) != "{" || len(lines[len(lines)-1]) != 0 || string(lines[len(lines)-2]) != "}" {
		return false
	}
	lines = lines[1 : len(lines)-2]
	seen := map[string]bool{}
	i := 0
	for ; i < len(lines); i++ {
		l := lines[i]
		if bytes.HasPrefix(l, []byte(`"runs": [`)) {
			break
		}
		key, rest, ok := fastString(l)
		if !ok || !bytes.HasPrefix(rest, []byte(": ")) || !bytes.HasSuffix(rest, []byte(",")) || seen[key] {
			return false
		}
		seen[key] = true
		v := rest[2 : len(rest)-1]
		var dst any
		switch key {
		case "profdiff_history":
			dst = &r.Version
		case "commit":
			dst = &r.Commit
		case "date":
			dst = &r.Date
		case "branch":
			dst = &r.Branch
		case "message":
			dst = &r.Message
		case "format":
			dst = &r.Format
		case "work_unit":
			dst = &r.WorkUnit
		case "top":
			dst = &r.Top
		case "floor":
			dst = &r.Floor
		default:
			return false
		}
		if !strictLine(v, dst) {
			return false
		}
	}
	if i >= len(lines) || string(lines[i]) != `"runs": [` {
		return false
	}
	i++
	r.Runs = []Run{}
	for ; i < len(lines) && string(lines[i]) != "],"; i++ {
		l := lines[i]
		if i+1 < len(lines) && string(lines[i+1]) != "]," {
			// every run line but the last ends with a comma
			if !bytes.HasSuffix(l, []byte(",")) {
				return false
			}
			l = l[:len(l)-1]
		}
		run, ok := fastRun(l)
		if !ok && !strictLine(l, &run) {
			return false
		}
		r.Runs = append(r.Runs, run)
	}
	if i+1 >= len(lines) || string(lines[i+1]) != `"rows": [` {
		return false
	}
	rows := lines[i+2:]
	if len(rows) == 0 || string(rows[len(rows)-1]) != "]" {
		return false
	}
	rows = rows[:len(rows)-1]
	r.Rows = make([]Row, 0, len(rows))
	for k, l := range rows {
		if k < len(rows)-1 {
			if !bytes.HasSuffix(l, []byte(",")) {
				return false
			}
			l = l[:len(l)-1]
		}
		row, ok := fastRow(l)
		if !ok && !strictLine(l, &row) {
			return false
		}
		r.Rows = append(r.Rows, row)
	}
	return true
}

// strictLine decodes one value with encoding/json, unknown fields
// refused: false when it does not decode or more follows it.
func strictLine(v []byte, dst any) bool {
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.DisallowUnknownFields()
	if dec.Decode(dst) != nil {
		return false
	}
	_, err := dec.Token()
	return err == io.EOF // nothing after the value
}

// fastRow reads a row line as Marshal writes it:
// {"kind":…,"name":…[,"package":…][,"file":…][,"line":N],"self_us":[…][,"total_us":[…]]}.
func fastRow(l []byte) (Row, bool) {
	var row Row
	var ok bool
	if l, ok = cut(l, `{"kind":`); !ok {
		return row, false
	}
	if row.Kind, l, ok = fastString(l); !ok {
		return row, false
	}
	if l, ok = cut(l, `,"name":`); !ok {
		return row, false
	}
	if row.Name, l, ok = fastString(l); !ok {
		return row, false
	}
	if rest, has := cut(l, `,"package":`); has {
		if row.Package, l, ok = fastString(rest); !ok {
			return row, false
		}
	}
	if rest, has := cut(l, `,"file":`); has {
		if row.File, l, ok = fastString(rest); !ok {
			return row, false
		}
	}
	if rest, has := cut(l, `,"line":`); has {
		end := bytes.IndexByte(rest, ',')
		if end < 0 {
			return row, false
		}
		n, err := strconv.ParseInt(string(rest[:end]), 10, 32)
		if err != nil || !plainInt(rest[:end]) {
			return row, false
		}
		row.Line, l = int32(n), rest[end:]
	}
	if l, ok = cut(l, `,"self_us":`); !ok {
		return row, false
	}
	if row.SelfUs, l, ok = fastInts(l); !ok {
		return row, false
	}
	if rest, has := cut(l, `,"total_us":`); has {
		if row.TotalUs, l, ok = fastInts(rest); !ok {
			return row, false
		}
	}
	return row, string(l) == "}"
}

// fastRun reads a run line as Marshal writes it: its keys in Run's order,
// the optional ones where they are.
func fastRun(l []byte) (Run, bool) {
	var run Run
	var ok bool
	if l, ok = cut(l, `{"file":`); !ok {
		return run, false
	}
	if run.File, l, ok = fastString(l); !ok {
		return run, false
	}
	ints := []struct {
		key      string
		v        *int64
		optional bool
	}{{`,"wall_us":`, &run.WallUs, false}, {`,"on_cpu_us":`, &run.OnCPUUs, false}, {`,"gc_us":`, &run.GCUs, false},
		{`,"sampled_us":`, &run.SampledUs, true}, {`,"narrowed_from_us":`, &run.NarrowedFromUs, true}, {`,"samples":`, &run.Samples, false}}
	for _, f := range ints {
		rest, has := cut(l, f.key)
		if !has {
			if f.optional {
				continue
			}
			return run, false
		}
		if *f.v, l, ok = fastInt(rest); !ok {
			return run, false
		}
	}
	rest, has := cut(l, `,"interval_us":`)
	if !has {
		return run, false
	}
	if run.IntervalUs, l, ok = fastFloat(rest); !ok {
		return run, false
	}
	if rest, has := cut(l, `,"work":`); has {
		if run.Work, l, ok = fastFloat(rest); !ok {
			return run, false
		}
	}
	if rest, has := cut(l, `,"process_cpu_us":`); has {
		if run.ProcessCPUUs, l, ok = fastInt(rest); !ok {
			return run, false
		}
	}
	return run, string(l) == "}"
}

// numberEnd is where the number at the start of l ends.
func numberEnd(l []byte) int {
	for i, c := range l {
		if c == ',' || c == '}' || c == ']' {
			return i
		}
	}
	return len(l)
}

// fastInt reads a plain integer from the start of l.
func fastInt(l []byte) (int64, []byte, bool) {
	end := numberEnd(l)
	if !plainInt(l[:end]) {
		return 0, l, false
	}
	n, err := strconv.ParseInt(string(l[:end]), 10, 64)
	return n, l[end:], err == nil
}

// fastFloat reads a JSON number from the start of l: an integer part as
// plainInt has it, then an optional fraction and exponent.
func fastFloat(l []byte) (float64, []byte, bool) {
	end := numberEnd(l)
	tok := l[:end]
	intEnd := 0
	for intEnd < len(tok) && (tok[intEnd] == '-' || tok[intEnd] >= '0' && tok[intEnd] <= '9') {
		intEnd++
	}
	if !plainInt(tok[:intEnd]) {
		return 0, l, false
	}
	rest := tok[intEnd:]
	if len(rest) > 0 && rest[0] == '.' {
		k := 1
		for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
			k++
		}
		if k == 1 {
			return 0, l, false
		}
		rest = rest[k:]
	}
	if len(rest) > 0 && (rest[0] == 'e' || rest[0] == 'E') {
		k := 1
		if k < len(rest) && (rest[k] == '+' || rest[k] == '-') {
			k++
		}
		d := k
		for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
			k++
		}
		if k == d {
			return 0, l, false
		}
		rest = rest[k:]
	}
	if len(rest) != 0 {
		return 0, l, false
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	return f, l[end:], err == nil
}

func cut(l []byte, prefix string) ([]byte, bool) {
	if len(l) < len(prefix) || string(l[:len(prefix)]) != prefix {
		return l, false
	}
	return l[len(prefix):], true
}

// fastString reads a JSON string that needs no unescaping and is valid
// UTF-8 (as encoding/json would give it unchanged) from the start of l.
func fastString(l []byte) (string, []byte, bool) {
	if len(l) < 2 || l[0] != '"' {
		return "", l, false
	}
	for i := 1; i < len(l); i++ {
		switch c := l[i]; {
		case c == '"':
			s := l[1:i]
			if !utf8.Valid(s) {
				return "", l, false
			}
			return string(s), l[i+1:], true
		case c == '\\' || c < 0x20:
			return "", l, false
		}
	}
	return "", l, false
}

// fastInts reads a JSON array of integers ([1,2,3]) from the start of l.
func fastInts(l []byte) ([]int64, []byte, bool) {
	if len(l) < 2 || l[0] != '[' {
		return nil, l, false
	}
	end := bytes.IndexByte(l, ']')
	if end < 0 {
		return nil, l, false
	}
	body := l[1:end]
	out := make([]int64, 0, bytes.Count(body, []byte(","))+1)
	if len(body) > 0 {
		for len(body) > 0 {
			k := bytes.IndexByte(body, ',')
			tok := body
			if k >= 0 {
				tok, body = body[:k], body[k+1:]
				if len(body) == 0 {
					return nil, l, false
				}
			} else {
				body = nil
			}
			n, err := strconv.ParseInt(string(tok), 10, 64)
			if err != nil || !plainInt(tok) {
				return nil, l, false
			}
			out = append(out, n)
		}
	}
	return out, l[end+1:], true
}

// plainInt reports whether tok is an integer as JSON writes one: an
// optional minus, then digits without a leading zero.
func plainInt(tok []byte) bool {
	if len(tok) > 0 && tok[0] == '-' {
		tok = tok[1:]
	}
	if len(tok) == 0 || len(tok) > 1 && tok[0] == '0' {
		return false
	}
	for _, c := range tok {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
