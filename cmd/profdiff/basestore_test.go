package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// baseStore records the runs as commit's record in a new store and
// returns the store.
func baseStore(t *testing.T, commit string, extra []string, runs ...string) string {
	t.Helper()
	store := filepath.Join(t.TempDir(), "store")
	args := append([]string{"history", "add", "-q", "--store", store, "--commit", commit, "--date", "2026-11-01T00:00:00Z"}, extra...)
	if code, _, errs := runCLI(append(args, runs...)...); code != 0 {
		t.Fatalf("history add: exit %d: %s", code, errs)
	}
	return store
}

// jsonRows is the part of the JSON report the cross-check reads.
type jsonRows struct {
	Sides []struct {
		Name  string   `json:"name"`
		Files []string `json:"files"`
		Runs  int      `json:"runs"`
	} `json:"sides"`
	Headline struct {
		OnCPU jsonMeasure `json:"on_cpu"`
	} `json:"headline"`
	Packages  []jsonRow `json:"packages"`
	Functions []jsonRow `json:"functions"`
	Paths     []any     `json:"paths"`
	Warnings  []string  `json:"warnings"`
}

type jsonRow struct {
	Package  string      `json:"package"`
	Function string      `json:"function"`
	File     string      `json:"file"`
	Self     jsonMeasure `json:"self"`
	Total    jsonMeasure `json:"total"`
}

type jsonMeasure struct {
	Ns       []float64 `json:"ns"`
	DeltaPct *float64  `json:"delta_pct"`
	Verdict  string    `json:"verdict"`
}

func (r jsonRow) key() string { return r.Package + "\x00" + r.Function + "\x00" + r.File }

func readJSONReport(t *testing.T, args ...string) jsonRows {
	t.Helper()
	code, out, errs := runCLI(append([]string{"--format", "json", "-q"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var r jsonRows
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return r
}

// TestBaseStoreCrossCheck: a comparison whose base is a commit's record
// gives the headline and the package and function verdicts of the
// comparison of that commit's profiles, for every row the record keeps
// (functions of one name in one file, which the record joins, aside).
// The router fixtures have over 700 functions (the record keeps 200, and
// with --keep 30 only 30); the folded ones two runs a side.
func TestBaseStoreCrossCheck(t *testing.T) {
	router := []string{fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")}
	folded := [][]string{{fixture("folded/perf-before-r1.folded"), fixture("folded/perf-before-r2.folded")}, {fixture("folded/perf-after-r1.folded"), fixture("folded/perf-after-r2.folded")}}
	for _, c := range []struct {
		name          string
		before, after []string
		keep          []string
	}{
		{"router", router[:1], router[1:], nil},
		{"router --keep 30", router[:1], router[1:], []string{"--keep", "30"}},
		// The folded fixture's rows are one to three samples each: at the
		// default floor a record keeps 11 rows of it.
		{"folded", folded[0], folded[1], []string{"--floor", "0.0001%", "--floor-samples", "1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			store := baseStore(t, "a1b2c3d4e5", c.keep, c.before...)
			var pair []string
			for _, f := range c.before {
				pair = append(pair, "--before", f)
			}
			for _, f := range c.after {
				pair = append(pair, "--after", f)
			}
			full := readJSONReport(t, pair...)
			rec := readJSONReport(t, append([]string{"--base-store", store, "--base-commit", "a1b2c3d"}, c.after...)...)
			fh, rh := full.Headline.OnCPU, rec.Headline.OnCPU
			if fh.Verdict != rh.Verdict || math.Abs(*fh.DeltaPct-*rh.DeltaPct) > 0.01 {
				t.Errorf("headline: %s %.3f%% from the profiles, %s %.3f%% from the record", fh.Verdict, *fh.DeltaPct, rh.Verdict, *rh.DeltaPct)
			}
			compared := 0
			for _, kind := range []struct {
				what      string
				full, rec []jsonRow
			}{{"package", full.Packages, rec.Packages}, {"function", full.Functions, rec.Functions}} {
				count, byKey := map[string]int{}, map[string]jsonRow{}
				for _, r := range kind.full {
					count[r.key()]++
					byKey[r.key()] = r
				}
				for _, r := range kind.rec {
					f, ok := byKey[r.key()]
					if r.Function == "(other)" || r.Package == "(other)" || count[r.key()] != 1 || !ok {
						continue
					}
					compared++
					if f.Self.Verdict != r.Self.Verdict || f.Total.Verdict != r.Total.Verdict {
						t.Errorf("%s %s %s: self %s, total %s from the profiles; %s, %s from the record", kind.what, r.Package, r.Function,
							f.Self.Verdict, f.Total.Verdict, r.Self.Verdict, r.Total.Verdict)
					}
				}
			}
			if compared < 20 {
				t.Errorf("only %d rows compared", compared)
			}
		})
	}
}

// TestBaseStoreOutputs: the text, markdown and JSON reports say the base
// is the store's record of the commit, that there is no call tree to
// follow, and which rows of the after side the record cannot tell; those
// are counted in (other), never shown as new.
func TestBaseStoreOutputs(t *testing.T) {
	before, after := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	store := baseStore(t, "a1b2c3d4e5", nil, before)
	args := []string{"--base-store", store, "--base-commit", "a1b2c3d4e5", "--commit", "f00d"}

	code, text, errs := runCLI(append([]string{"--format", "text"}, append(args, after)...)...)
	if code != 0 {
		t.Fatalf("text: exit %d: %s", code, errs)
	}
	for _, want := range []string{"before: record of a1b2c3d from the store (V8 .cpuprofile)", "Where it changed (not known: a side has no call tree",
		"the base is the record of a1b2c3d4e5 (" + filepath.Join(store, "20261101T000000Z-a1b2c3d4e5.json") + ")", "not among the record's rows (it kept every row above 0.1% of on-CPU time and 3 samples", "counted in (other), not as new"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	code, md, errs := runCLI(append([]string{"--format", "markdown"}, append(args, "--after", after)...)...)
	if code != 0 {
		t.Fatalf("markdown: exit %d: %s", code, errs)
	}
	for _, want := range []string{"### profdiff: record of a1b2c3d from the store → ", "_Commit f00d against base a1b2c3d4e5._", `"base":"a1b2c3d4e5"`, "_not known: a side has no call tree"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	rep := readJSONReport(t, append(args, after)...)
	if len(rep.Sides) != 2 || rep.Sides[0].Files[0] != "record of a1b2c3d from the store" || len(rep.Paths) != 0 || len(rep.Warnings) < 2 {
		t.Errorf("JSON: sides %+v, %d paths, %d warnings", rep.Sides, len(rep.Paths), len(rep.Warnings))
	}
	full := readJSONReport(t, before, after)
	newInFull := 0
	for _, r := range full.Functions {
		if r.Self.Ns[0] == 0 && r.Total.Ns[0] == 0 {
			newInFull++
		}
	}
	for _, r := range rep.Functions {
		if r.Total.Verdict == "new" || r.Self.Verdict == "new" || r.Total.Ns[0] == 0 && r.Function != "(other)" {
			t.Errorf("function %s %s is new against a record that cut its functions", r.Package, r.Function)
		}
	}
	if newInFull == 0 || len(rep.Functions) > 400 {
		t.Errorf("%d functions only after in the profiles' comparison, %d rows against the record", newInFull, len(rep.Functions))
	}
}

// TestBaseStoreErrors: a missing store, a commit it has no record of, an
// ambiguous prefix, a record of a later format, and flags that cannot
// apply are one line on standard error, naming the folder or file, with
// exit status 2.
func TestBaseStoreErrors(t *testing.T) {
	before, after := fixture("node-router-unbundled-before.cpuprofile"), fixture("node-router-unbundled-after.cpuprofile")
	store := baseStore(t, "a1b2c3d4e5", nil, before)
	if code, _, errs := runCLI("history", "add", "-q", "--store", store, "--commit", "a1b2ffff", "--date", "2026-11-02T00:00:00Z", before); code != 0 {
		t.Fatal(errs)
	}
	future := t.TempDir()
	data, _ := os.ReadFile(filepath.Join(store, "20261101T000000Z-a1b2c3d4e5.json"))
	os.WriteFile(filepath.Join(future, "20261101T000000Z-a1b2c3d4e5.json"), []byte(strings.Replace(string(data), `"profdiff_history": 3`, `"profdiff_history": 4`, 1)), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--base-store", filepath.Join(store, "nope"), "--base-commit", "a1b2c3d", after}, "nope: no such store"},
		{[]string{"--base-store", store, "--base-commit", "0badc0de", after}, store + ": no record of commit 0badc0de"},
		{[]string{"--base-store", store, "--base-commit", "a1b2", after}, "a1b2 names 2 recorded commits"},
		{[]string{"--base-store", future, "--base-commit", "a1b2c3d", after}, "20261101T000000Z-a1b2c3d4e5.json: written by a newer profdiff"},
		{[]string{"--base-store", store, after}, "--base-store needs --base-commit"},
		{[]string{"--base-store", store, "--base-commit", "a1b2c3d", "--before", before, "--after", after}, "give only the after runs"},
		{[]string{"--base-store", store, "--base-commit", "a1b2c3d", "--format", "html", after}, "with --base-store use text, markdown or json"},
		{[]string{"--base-store", store, "--base-commit", "a1b2c3d", "--phase", "a=0s..1s", after}, "--phase"},
		{[]string{"--base-store", store, "--base-commit", "a1b2c3d"}, "give the after runs"},
		{[]string{"--base-store", store, "--base-commit", "a1b2c3d", "--work-after", "5", after}, "as --work N"},
		{[]string{"--base-store", store, "--base-commit", "a1b2c3d", fixture("go-router-before.pprof")}, "is pprof"},
	} {
		code, out, errs := runCLI(c.args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, %q; want one line with %q", c.args, code, errs, c.want)
		}
	}
}

// TestBaseStoreOtherCheckout: a record made in one checkout is the base
// of runs made in another (their scripts below /srv/checkouts/pr-4242/
// instead of /srv/node-workload/): the files are matched below each
// side's root, so the program's functions are the record's, not unknown.
func TestBaseStoreOtherCheckout(t *testing.T) {
	store := baseStore(t, "a1b2c3d4e5", nil, fixture("node-router-unbundled-before.cpuprofile"))
	args := []string{"--base-store", store, "--base-commit", "a1b2c3d4e5"}
	same := readJSONReport(t, append(args, fixture("node-router-unbundled-after.cpuprofile"))...)
	moved := readJSONReport(t, append(args, fixture("checkouts/node-router-after-pr-4242.cpuprofile.gz"))...)
	unmatched := readJSONReport(t, append(args, "--no-root-match", fixture("checkouts/node-router-after-pr-4242.cpuprofile.gz"))...)
	deploy := func(r jsonRows) (n int) {
		for _, f := range r.Functions {
			if f.Package == "deploy" && f.Total.Ns[1] > 0 {
				n++
			}
		}
		return n
	}
	if deploy(same) < 20 || deploy(moved) != deploy(same) || deploy(unmatched) >= deploy(same) {
		t.Errorf("the program's functions: %d from one checkout, %d from another, %d unmatched", deploy(same), deploy(moved), deploy(unmatched))
	}
}

// TestBaseStoreWork: the record keeps the base's work per run, and --work
// gives the after runs': the comparison is per unit of work, the base's
// from the record.
func TestBaseStoreWork(t *testing.T) {
	store := baseStore(t, "a1b2c3d4e5", []string{"--work", "100", "--work-unit", "request"}, fixture("node-router-unbundled-before.cpuprofile"))
	code, out, errs := runCLI("--base-store", store, "--base-commit", "a1b2c3d", "--work", "80", "--work-unit", "request", fixture("node-router-unbundled-after.cpuprofile"))
	if code != 0 || !strings.Contains(out, "on-CPU / request 63.2 ms 58.3 ms") {
		t.Errorf("exit %d, %s\n%s", code, errs, out)
	}
	code, out, _ = runCLI("--base-store", store, "--base-commit", "a1b2c3d", fixture("node-router-unbundled-after.cpuprofile"))
	if code != 0 || !strings.Contains(out, "the after runs were given none (--work): compared per run") {
		t.Errorf("without --work: exit %d\n%s", code, out)
	}
}
