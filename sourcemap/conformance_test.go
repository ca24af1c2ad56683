package sourcemap

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// conformanceDir is the TC39 source-map-tests suite (BSD licence), taken from
// github.com/tc39/source-map-tests; see its ORIGIN file.
const conformanceDir = "../../shared/conformance/source-map-tests"

type conformanceSuite struct {
	Tests []conformanceCase `json:"tests"`
}

type conformanceCase struct {
	Name             string              `json:"name"`
	Description      string              `json:"description"`
	BaseFile         string              `json:"baseFile"`
	SourceMapFile    string              `json:"sourceMapFile"`
	SourceMapIsValid bool                `json:"sourceMapIsValid"`
	TestActions      []conformanceAction `json:"testActions"`
}

type conformanceAction struct {
	ActionType       string   `json:"actionType"`
	GeneratedLine    int      `json:"generatedLine"`
	GeneratedColumn  int      `json:"generatedColumn"`
	OriginalSource   *string  `json:"originalSource"`
	OriginalLine     *int     `json:"originalLine"`
	OriginalColumn   *int     `json:"originalColumn"`
	MappedName       *string  `json:"mappedName"`
	IntermediateMaps []string `json:"intermediateMaps"`
	Present          []string `json:"present"`
}

func loadConformance(t testing.TB) conformanceSuite {
	data, err := os.ReadFile(filepath.Join(conformanceDir, "source-map-spec-tests.json"))
	if os.IsNotExist(err) {
		t.Skipf("conformance suite absent: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var suite conformanceSuite
	if err := json.Unmarshal(data, &suite); err != nil {
		t.Fatal(err)
	}
	if len(suite.Tests) == 0 {
		t.Fatal("no tests in the conformance suite")
	}
	return suite
}

func loadConformanceMap(t *testing.T, name string) (*Map, error) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(conformanceDir, "resources", name))
	if err != nil {
		t.Fatal(err)
	}
	return Parse(data)
}

// sourceName is what the suite calls originalSource: Map.Sources as
// specified (sourceRoot prefixed). The suite's expectations are relative to
// the map's own URL ("theroot/basic-mapping-original.js" for sourceRoot
// "theroot"; "/baz/quux/…" unchanged), so resolving both sides against the
// map's URL would change nothing: the names are compared as they are. A null
// source (Sources entry "") is nil.
func sourceName(m *Map, i int) *string {
	if i < 0 || m.Sources[i] == "" {
		return nil
	}
	return &m.Sources[i]
}

func strOrNull(p *string) string {
	if p == nil {
		return "null"
	}
	return "\"" + *p + "\""
}

func TestConformance(t *testing.T) {
	suite := loadConformance(t)
	actions := 0
	for _, tc := range suite.Tests {
		t.Run(tc.Name, func(t *testing.T) {
			m, err := loadConformanceMap(t, tc.SourceMapFile)
			if tc.SourceMapIsValid && err != nil {
				t.Fatalf("%s (%s): Parse: %v; want valid", tc.SourceMapFile, tc.Description, err)
			}
			if !tc.SourceMapIsValid {
				if err == nil {
					t.Fatalf("%s (%s): Parse succeeded; want an error", tc.SourceMapFile, tc.Description)
				}
				t.Logf("%s: %v", tc.SourceMapFile, err)
				return
			}
			for ai, a := range tc.TestActions {
				actions++
				switch a.ActionType {
				case "checkMapping":
					checkMapping(t, ai, []*Map{m}, a)
				case "checkMappingTransitive":
					maps := []*Map{m}
					for _, name := range a.IntermediateMaps {
						im, err := loadConformanceMap(t, name)
						if err != nil {
							t.Fatalf("action %d: intermediate map %s: %v", ai, name, err)
						}
						maps = append(maps, im)
					}
					checkMapping(t, ai, maps, a)
				case "checkIgnoreList":
					var got []string
					for i, ig := range m.Ignored {
						if ig {
							got = append(got, m.Sources[i])
						}
					}
					if len(got) != len(a.Present) {
						t.Errorf("action %d: ignored sources %q, want %q", ai, got, a.Present)
						break
					}
					for i := range got {
						if got[i] != a.Present[i] {
							t.Errorf("action %d: ignored sources %q, want %q", ai, got, a.Present)
							break
						}
					}
				default:
					t.Errorf("action %d: unknown action type %q", ai, a.ActionType)
				}
			}
		})
	}
	t.Logf("%d tests, %d actions", len(suite.Tests), actions)
}

// checkMapping looks the generated position up in maps[0], then the
// resulting original position in maps[1], and so on; the last answer must
// match the action.
func checkMapping(t *testing.T, ai int, maps []*Map, a conformanceAction) {
	t.Helper()
	line, col := a.GeneratedLine, a.GeneratedColumn
	var (
		pos Position
		ok  bool
		m   *Map
	)
	for _, m = range maps {
		pos, ok = original(m, line, col)
		if !ok {
			break
		}
		line, col = pos.Line, pos.Column
	}
	where := func() string {
		return "action " + strconv.Itoa(ai) + " (" + strconv.Itoa(a.GeneratedLine) + ":" + strconv.Itoa(a.GeneratedColumn) + ")"
	}
	if !ok {
		if a.OriginalSource != nil || a.OriginalLine != nil || a.OriginalColumn != nil || a.MappedName != nil {
			t.Errorf("%s: no mapping; want %s %v:%v name %s", where(), strOrNull(a.OriginalSource),
				deref(a.OriginalLine), deref(a.OriginalColumn), strOrNull(a.MappedName))
		}
		return
	}
	if got := sourceName(m, pos.Source); strOrNull(got) != strOrNull(a.OriginalSource) {
		t.Errorf("%s: source %s, want %s", where(), strOrNull(got), strOrNull(a.OriginalSource))
	}
	if a.OriginalLine == nil || pos.Line != *a.OriginalLine {
		t.Errorf("%s: original line %d, want %v", where(), pos.Line, deref(a.OriginalLine))
	}
	if a.OriginalColumn == nil || pos.Column != *a.OriginalColumn {
		t.Errorf("%s: original column %d, want %v", where(), pos.Column, deref(a.OriginalColumn))
	}
	var name *string
	if pos.Name >= 0 {
		name = &m.Names[pos.Name]
	}
	if strOrNull(name) != strOrNull(a.MappedName) {
		t.Errorf("%s: name %s, want %s", where(), strOrNull(name), strOrNull(a.MappedName))
	}
}

func deref(p *int) any {
	if p == nil {
		return "null"
	}
	return *p
}
