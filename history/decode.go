package history

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/profdiff/profdiff/internal/jsonscan"
)

// This file reads a record without encoding/json's reflection for its
// runs and rows, which is most of a long history's time. It is only a fast
// path, built on internal/jsonscan's readers: it accepts JSON with its
// strings in valid UTF-8, integers where Record has integers (as JSON
// writes them, of at most 18 digits), each key once and spelled as Record
// spells it, in any order and any layout, and anything else sends the
// whole record to
// encoding/json, so the result and the errors are those of encoding/json's
// strict decoding (unknown fields refused).

// decodeFast decodes data into r when it is plain as above; false when it
// is not (r is then to be decoded again from scratch).
func decodeFast(data []byte, r *Record) bool {
	end := plainObject(data, jsonscan.SkipSpace(data, 0), func(key string, i int) int {
		switch key {
		case "profdiff_history":
			return plainIntField(data, i, &r.Version)
		case "commit":
			return plainStringField(data, i, &r.Commit)
		case "date":
			return plainStringField(data, i, &r.Date)
		case "branch":
			return plainStringField(data, i, &r.Branch)
		case "message":
			return plainStringField(data, i, &r.Message)
		case "format":
			return plainStringField(data, i, &r.Format)
		case "work_unit":
			return plainStringField(data, i, &r.WorkUnit)
		case "top":
			return plainIntField(data, i, &r.Top)
		case "floor":
			return strictValue(data, i, &r.Floor)
		case "runs":
			r.Runs = []Run{}
			return plainArray(data, i, func(i int) int {
				var run Run
				i = plainRun(data, i, &run)
				r.Runs = append(r.Runs, run)
				return i
			})
		case "rows":
			r.Rows = []Row{}
			return plainArray(data, i, func(i int) int {
				var row Row
				i = plainRow(data, i, &row)
				r.Rows = append(r.Rows, row)
				return i
			})
		}
		return -1
	})
	return end >= 0 && jsonscan.SkipSpace(data, end) == len(data)
}

// plainRun reads a run's object at data[i] into run; its end, or -1.
func plainRun(data []byte, i int, run *Run) int {
	return plainObject(data, i, func(key string, i int) int {
		switch key {
		case "file":
			return plainStringField(data, i, &run.File)
		case "wall_us":
			return plainInt64(data, i, &run.WallUs)
		case "on_cpu_us":
			return plainInt64(data, i, &run.OnCPUUs)
		case "gc_us":
			return plainInt64(data, i, &run.GCUs)
		case "sampled_us":
			return plainInt64(data, i, &run.SampledUs)
		case "narrowed_from_us":
			return plainInt64(data, i, &run.NarrowedFromUs)
		case "samples":
			return plainInt64(data, i, &run.Samples)
		case "interval_us":
			return plainFloat(data, i, &run.IntervalUs)
		case "work":
			return plainFloat(data, i, &run.Work)
		case "process_cpu_us":
			return plainInt64(data, i, &run.ProcessCPUUs)
		}
		return -1
	})
}

// plainRow reads a row's object at data[i] into row; its end, or -1.
func plainRow(data []byte, i int, row *Row) int {
	return plainObject(data, i, func(key string, i int) int {
		switch key {
		case "kind":
			return plainStringField(data, i, &row.Kind)
		case "name":
			return plainStringField(data, i, &row.Name)
		case "package":
			return plainStringField(data, i, &row.Package)
		case "file":
			return plainStringField(data, i, &row.File)
		case "line":
			var n int64
			j := plainInt64(data, i, &n)
			if j < 0 || n < math.MinInt32 || n > math.MaxInt32 {
				return -1
			}
			row.Line = int32(n)
			return j
		case "self_us":
			return plainInts(data, i, &row.SelfUs)
		case "total_us":
			return plainInts(data, i, &row.TotalUs)
		}
		return -1
	})
}

// plainObject walks the object at data[i], calling field with each key
// and the index of its value, which returns the value's end or -1; it
// returns the object's end, or -1 when it is not a plain object, a key
// repeats or field refuses one.
func plainObject(data []byte, i int, field func(key string, i int) int) int {
	if i >= len(data) || data[i] != '{' {
		return -1
	}
	i = jsonscan.SkipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return i + 1
	}
	var keys [12]string // few keys: an array beats a map
	seen := keys[:0]
	for {
		key, j := jsonscan.PlainKey(data, i)
		if j < 0 {
			return -1
		}
		k := string(key)
		for _, s := range seen {
			if s == k {
				return -1
			}
		}
		seen = append(seen, k)
		if j = field(k, j); j < 0 {
			return -1
		}
		var more bool
		if i, more = jsonscan.NextMember(data, j, '}'); i < 0 {
			return -1
		}
		if !more {
			return i
		}
	}
}

// plainArray walks the array at data[i], calling elem with the index of
// each element, which returns the element's end or -1; it returns the
// array's end, or -1.
func plainArray(data []byte, i int, elem func(i int) int) int {
	i, empty := jsonscan.OpenArray(data, i)
	if i < 0 || empty {
		return i
	}
	for {
		j := elem(jsonscan.SkipSpace(data, i))
		if j < 0 {
			return -1
		}
		var more bool
		if i, more = jsonscan.NextMember(data, j, ']'); i < 0 {
			return -1
		}
		if !more {
			return i
		}
	}
}

// plainStringField reads a string of valid UTF-8 (as encoding/json gives
// it unchanged) at data[i]; one with escapes (a RegExp's name) is
// unescaped as encoding/json unescapes it.
func plainStringField(data []byte, i int, dst *string) int {
	j := jsonscan.PlainString(data, i)
	if j >= 0 {
		if !utf8.Valid(data[i+1 : j-1]) {
			return -1
		}
		*dst = string(data[i+1 : j-1])
		return j
	}
	if j = valueEnd(data, i); j < 0 || data[i] != '"' || !utf8.Valid(data[i+1:j-1]) {
		return -1
	}
	text, err := jsonscan.Unescape(nil, data[i+1:j-1])
	if err != nil {
		return -1
	}
	*dst = string(text)
	return j
}

// valueEnd is the end of the JSON value at data[i] (jsonscan's Walker
// checks its grammar), or -1.
func valueEnd(data []byte, i int) int {
	w := jsonscan.NewWalker(data, i)
	if w.Skip() != nil {
		return -1
	}
	j := w.Pos()
	for j > i && jsonscan.SkipSpace(data[j-1:j], 0) == 1 {
		j-- // Pos is past the white space after the value
	}
	return j
}

// plainInt64 reads an integer as JSON writes one (no leading zero, no
// fraction or exponent) at data[i].
func plainInt64(data []byte, i int, dst *int64) int {
	v, j := jsonscan.PlainInt(data, i)
	if j < 0 || !plainDigits(data[i:j]) {
		return -1
	}
	*dst = v
	return j
}

// plainIntField is plainInt64 into an int.
func plainIntField(data []byte, i int, dst *int) int {
	var v int64
	j := plainInt64(data, i, &v)
	if j >= 0 {
		*dst = int(v)
	}
	return j
}

// plainInts reads an array of integers at data[i].
func plainInts(data []byte, i int, dst *[]int64) int {
	n := 0 // the elements, to size the slice once: a comma more than the commas
	if end := bytes.IndexByte(data[i:], ']'); end > 0 {
		n = bytes.Count(data[i:i+end], []byte(",")) + 1
	}
	out := make([]int64, 0, n)
	j := plainArray(data, i, func(i int) int {
		var v int64
		j := plainInt64(data, i, &v)
		out = append(out, v)
		return j
	})
	if j >= 0 {
		*dst = out
	}
	return j
}

// plainFloat reads a JSON number at data[i] (jsonscan's Walker checks its
// grammar) as a float64; -1 for one out of range, which encoding/json
// refuses.
func plainFloat(data []byte, i int, dst *float64) int {
	if i >= len(data) || (data[i] != '-' && data[i]-'0' > 9) {
		return -1
	}
	j := valueEnd(data, i)
	if j < 0 {
		return -1
	}
	f, err := strconv.ParseFloat(string(data[i:j]), 64)
	if err != nil {
		return -1
	}
	*dst = f
	return j
}

// strictValue decodes the value at data[i] with encoding/json, unknown
// fields refused; its end, or -1.
func strictValue(data []byte, i int, dst any) int {
	j := valueEnd(data, i)
	if j < 0 {
		return -1
	}
	dec := json.NewDecoder(bytes.NewReader(data[i:j]))
	dec.DisallowUnknownFields()
	if dec.Decode(dst) != nil {
		return -1
	}
	if _, err := dec.Token(); err != io.EOF {
		return -1
	}
	return j
}

// plainDigits reports whether tok is an integer as JSON writes one: an
// optional minus, then digits without a leading zero.
func plainDigits(tok []byte) bool {
	if len(tok) > 0 && tok[0] == '-' {
		tok = tok[1:]
	}
	return len(tok) > 0 && (len(tok) == 1 || tok[0] != '0')
}
