package fleet

import (
	"fmt"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"
)

// jsonProfile is google.v1.Profile (pprof's profile.proto) as protobuf
// JSON writes it: camelCase names, 64-bit integers in strings. Pyroscope
// answers SelectMergeStacktraces with one; marshal writes it back as the
// pprof protobuf that analyze reads, so that a profile from Pyroscope is
// read by the same reader as one from a file.
type jsonProfile struct {
	SampleType []jsonValueType `json:"sampleType"`
	Sample     []struct {
		LocationID []juint `json:"locationId"`
		Value      []jint  `json:"value"`
		Label      []struct {
			Key     jint `json:"key"`
			Str     jint `json:"str"`
			Num     jint `json:"num"`
			NumUnit jint `json:"numUnit"`
		} `json:"label"`
	} `json:"sample"`
	Mapping []struct {
		ID              juint `json:"id"`
		MemoryStart     juint `json:"memoryStart"`
		MemoryLimit     juint `json:"memoryLimit"`
		FileOffset      juint `json:"fileOffset"`
		Filename        jint  `json:"filename"`
		BuildID         jint  `json:"buildId"`
		HasFunctions    bool  `json:"hasFunctions"`
		HasFilenames    bool  `json:"hasFilenames"`
		HasLineNumbers  bool  `json:"hasLineNumbers"`
		HasInlineFrames bool  `json:"hasInlineFrames"`
	} `json:"mapping"`
	Location []struct {
		ID        juint `json:"id"`
		MappingID juint `json:"mappingId"`
		Address   juint `json:"address"`
		Line      []struct {
			FunctionID juint `json:"functionId"`
			Line       jint  `json:"line"`
		} `json:"line"`
		IsFolded bool `json:"isFolded"`
	} `json:"location"`
	Function []struct {
		ID         juint `json:"id"`
		Name       jint  `json:"name"`
		SystemName jint  `json:"systemName"`
		Filename   jint  `json:"filename"`
		StartLine  jint  `json:"startLine"`
	} `json:"function"`
	StringTable       []string       `json:"stringTable"`
	DropFrames        jint           `json:"dropFrames"`
	KeepFrames        jint           `json:"keepFrames"`
	TimeNanos         jint           `json:"timeNanos"`
	DurationNanos     jint           `json:"durationNanos"`
	PeriodType        *jsonValueType `json:"periodType"`
	Period            jint           `json:"period"`
	Comment           []jint         `json:"comment"`
	DefaultSampleType jint           `json:"defaultSampleType"`
}

// jsonValueType is google.v1.ValueType.
type jsonValueType struct {
	Type jint `json:"type"`
	Unit jint `json:"unit"`
}

// jint is an int64 of protobuf JSON: a string or a number.
type jint int64

func (n *jint) UnmarshalJSON(b []byte) error {
	v, err := strconv.ParseInt(string(unquote(b)), 10, 64)
	if err != nil {
		return fmt.Errorf("not an int64: %.40s", b)
	}
	*n = jint(v)
	return nil
}

// juint is a uint64 of protobuf JSON.
type juint uint64

func (n *juint) UnmarshalJSON(b []byte) error {
	v, err := strconv.ParseUint(string(unquote(b)), 10, 64)
	if err != nil {
		return fmt.Errorf("not a uint64: %.40s", b)
	}
	*n = juint(v)
	return nil
}

// unquote strips the quotes of a JSON string holding a number; null is 0.
func unquote(b []byte) []byte {
	if string(b) == "null" {
		return []byte("0")
	}
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		return b[1 : len(b)-1]
	}
	return b
}

// marshal writes the profile as pprof protobuf (uncompressed), each field
// under its profile.proto number; proto3 zeros are left out, but every
// string of the table is written, the empty first one too.
func (p *jsonProfile) marshal() []byte {
	var b []byte
	for _, vt := range p.SampleType {
		b = appendMessage(b, 1, vt.marshal())
	}
	for _, s := range p.Sample {
		var m []byte
		m = appendPackedUint(m, 1, s.LocationID)
		m = appendPackedInt(m, 2, s.Value)
		for _, l := range s.Label {
			var lm []byte
			lm = appendInt(lm, 1, int64(l.Key))
			lm = appendInt(lm, 2, int64(l.Str))
			lm = appendInt(lm, 3, int64(l.Num))
			lm = appendInt(lm, 4, int64(l.NumUnit))
			m = appendMessage(m, 3, lm)
		}
		b = appendMessage(b, 2, m)
	}
	for _, mp := range p.Mapping {
		var m []byte
		m = appendInt(m, 1, int64(mp.ID))
		m = appendInt(m, 2, int64(mp.MemoryStart))
		m = appendInt(m, 3, int64(mp.MemoryLimit))
		m = appendInt(m, 4, int64(mp.FileOffset))
		m = appendInt(m, 5, int64(mp.Filename))
		m = appendInt(m, 6, int64(mp.BuildID))
		m = appendBool(m, 7, mp.HasFunctions)
		m = appendBool(m, 8, mp.HasFilenames)
		m = appendBool(m, 9, mp.HasLineNumbers)
		m = appendBool(m, 10, mp.HasInlineFrames)
		b = appendMessage(b, 3, m)
	}
	for _, loc := range p.Location {
		var m []byte
		m = appendInt(m, 1, int64(loc.ID))
		m = appendInt(m, 2, int64(loc.MappingID))
		m = appendInt(m, 3, int64(loc.Address))
		for _, ln := range loc.Line {
			var lm []byte
			lm = appendInt(lm, 1, int64(ln.FunctionID))
			lm = appendInt(lm, 2, int64(ln.Line))
			m = appendMessage(m, 4, lm)
		}
		m = appendBool(m, 5, loc.IsFolded)
		b = appendMessage(b, 4, m)
	}
	for _, fn := range p.Function {
		var m []byte
		m = appendInt(m, 1, int64(fn.ID))
		m = appendInt(m, 2, int64(fn.Name))
		m = appendInt(m, 3, int64(fn.SystemName))
		m = appendInt(m, 4, int64(fn.Filename))
		m = appendInt(m, 5, int64(fn.StartLine))
		b = appendMessage(b, 5, m)
	}
	for _, s := range p.StringTable {
		b = protowire.AppendTag(b, 6, protowire.BytesType)
		b = protowire.AppendString(b, s)
	}
	b = appendInt(b, 7, int64(p.DropFrames))
	b = appendInt(b, 8, int64(p.KeepFrames))
	b = appendInt(b, 9, int64(p.TimeNanos))
	b = appendInt(b, 10, int64(p.DurationNanos))
	if p.PeriodType != nil {
		b = appendMessage(b, 11, p.PeriodType.marshal())
	}
	b = appendInt(b, 12, int64(p.Period))
	b = appendPackedInt(b, 13, p.Comment)
	b = appendInt(b, 14, int64(p.DefaultSampleType))
	return b
}

func (vt jsonValueType) marshal() []byte {
	return appendInt(appendInt(nil, 1, int64(vt.Type)), 2, int64(vt.Unit))
}

// appendInt writes a varint field, nothing for 0 (a uint64 passes as its
// bits).
func appendInt(b []byte, num protowire.Number, v int64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}

func appendBool(b []byte, num protowire.Number, v bool) []byte {
	if !v {
		return b
	}
	return appendInt(b, num, 1)
}

func appendMessage(b []byte, num protowire.Number, m []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, m)
}

func appendPackedInt(b []byte, num protowire.Number, vs []jint) []byte {
	if len(vs) == 0 {
		return b
	}
	var m []byte
	for _, v := range vs {
		m = protowire.AppendVarint(m, uint64(v))
	}
	return appendMessage(b, num, m)
}

func appendPackedUint(b []byte, num protowire.Number, vs []juint) []byte {
	if len(vs) == 0 {
		return b
	}
	var m []byte
	for _, v := range vs {
		m = protowire.AppendVarint(m, uint64(v))
	}
	return appendMessage(b, num, m)
}
