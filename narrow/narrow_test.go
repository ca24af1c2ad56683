package narrow

import (
	"fmt"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

func load(t *testing.T, name string) *analyze.Profile {
	t.Helper()
	p, err := analyze.ParseFile(filepath.Join("..", "testdata", name), analyze.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	analyze.AttributePackages(p, nil)
	return p
}

type fkey struct {
	name, file   string
	line, column int32
}

// bruteForce narrows each sample's stack as a list, by the filters'
// definitions, and sums self and total time per function: an independent
// computation of what Apply and Aggregate give.
func bruteForce(p *analyze.Profile, f Filters) (self, total map[fkey]int64) {
	self, total = map[fkey]int64{}, map[fkey]int64{}
	re := func(r *regexp.Regexp, fi int32, pkg string) bool {
		fr := &p.Frames[fi]
		return r.MatchString(fr.Name) || r.MatchString(pkg) || (fr.File != "" && (r.MatchString(fr.File) || r.MatchString(fmt.Sprintf("%s:%d", fr.File, fr.Line))))
	}
	for _, s := range p.Samples {
		if !p.Frames[p.Nodes[s.Node].Frame].Kind.OnCPU() {
			continue
		}
		var stack []int32
		var names []string
		for n := s.Node; n >= 0; n = p.Nodes[n].Parent {
			if p.Frames[p.Nodes[n].Frame].Kind != analyze.KindRoot {
				stack = append([]int32{p.Nodes[n].Frame}, stack...)
			}
		}
		pkg := ""
		for _, fi := range stack {
			if fr := &p.Frames[fi]; !fr.Kind.InheritsPackage() && fr.Package != "" {
				pkg = fr.Package
			}
			names = append(names, pkg)
		}
		any := func(r *regexp.Regexp) bool {
			for i, fi := range stack {
				if re(r, fi, names[i]) {
					return true
				}
			}
			return false
		}
		if f.Focus != nil && !any(f.Focus) || f.Ignore != nil && any(f.Ignore) {
			continue
		}
		var kept []int32
		var keptPkg []string
		for i, fi := range stack {
			// The profiler's marks ((garbage collector) here) stay.
			mark := p.Frames[fi].Kind == analyze.KindGC
			if !mark && (f.Hide != nil && re(f.Hide, fi, names[i]) || f.Show != nil && !re(f.Show, fi, names[i])) {
				continue
			}
			kept, keptPkg = append(kept, fi), append(keptPkg, names[i])
		}
		if f.ShowFrom != nil {
			start := -1
			for i, fi := range kept {
				if re(f.ShowFrom, fi, keptPkg[i]) {
					start = i
					break
				}
			}
			if start < 0 {
				continue
			}
			kept, keptPkg = kept[start:], keptPkg[start:]
		}
		if f.PruneFrom != nil {
			for i := len(kept) - 1; i >= 0; i-- {
				if p.Frames[kept[i]].Kind != analyze.KindGC && re(f.PruneFrom, kept[i], keptPkg[i]) {
					kept = kept[:i+1]
					break
				}
			}
		}
		if len(kept) == 0 {
			continue
		}
		seen := map[fkey]bool{}
		for i, fi := range kept {
			fr := &p.Frames[fi]
			k := fkey{fr.Name, fr.File, fr.Line, fr.Column}
			if i == len(kept)-1 {
				self[k] += s.Weight
			}
			if !seen[k] {
				total[k] += s.Weight
				seen[k] = true
			}
		}
	}
	return self, total
}

// TestFiltersAgainstBruteForce: each filter, with patterns on a function
// name, a package and a file, on a real profile, gives per function the
// self and total time of the independent computation.
func TestFiltersAgainstBruteForce(t *testing.T) {
	for _, pat := range []string{"^match$", "lodash", "handlers\\.js", "RegExp"} {
		re := regexp.MustCompile(pat)
		for name, f := range map[string]Filters{
			"focus": {Focus: re}, "ignore": {Ignore: re}, "hide": {Hide: re}, "show": {Show: re},
			"show-from": {ShowFrom: re}, "prune-from": {PruneFrom: re}, "focus+hide": {Focus: re, Hide: regexp.MustCompile("^handle$")},
		} {
			p := load(t, "node-router-unbundled-before.cpuprofile")
			wantSelf, wantTotal := bruteForce(p, f)
			if err := f.Apply(p); err != nil {
				t.Fatal(err)
			}
			tab := analyze.Aggregate(p, analyze.AggregateOptions{})
			gotSelf, gotTotal := map[fkey]int64{}, map[fkey]int64{}
			for _, r := range tab.Functions {
				k := fkey{r.Key.Function, r.Key.File, r.Key.Line, r.Key.Column}
				gotSelf[k] += r.Self
				gotTotal[k] = max(gotTotal[k], r.Total)
			}
			bad := 0
			for k := range wantTotal {
				if gotSelf[k] != wantSelf[k] || gotTotal[k] != wantTotal[k] {
					if bad < 2 {
						t.Errorf("%s %s: %v self %d total %d, brute force %d %d", name, pat, k, gotSelf[k], gotTotal[k], wantSelf[k], wantTotal[k])
					}
					bad++
				}
			}
			for k := range gotTotal {
				if _, ok := wantTotal[k]; !ok && gotTotal[k] != 0 {
					t.Errorf("%s %s: %v has time %d, brute force none", name, pat, k, gotTotal[k])
				}
			}
		}
	}
}

// TestWindow: a window keeps the samples whose time falls in it, and the
// run's wall time becomes the window's span; past the end it is no window.
func TestWindow(t *testing.T) {
	p := load(t, "node-router-unbundled-before.cpuprofile")
	all := p.OnCPUNs()
	var want int64
	for _, s := range p.Samples {
		if s.Time >= 1e9 && s.Time < 3e9 && p.Frames[p.Nodes[s.Node].Frame].Kind.OnCPU() {
			want += s.Weight
		}
	}
	w, err := ParseWindow("1s..3000ms")
	if err != nil {
		t.Fatal(err)
	}
	f := Filters{Window: w}
	if err := f.Apply(p); err != nil {
		t.Fatal(err)
	}
	if got := p.OnCPUNs(); got != want || p.WallNs != 2e9 || want == 0 || want == all {
		t.Errorf("on-CPU %d, want %d (of %d); wall %d", got, want, all, p.WallNs)
	}
	q := load(t, "node-router-unbundled-before.cpuprofile")
	w, _ = ParseWindow("..1000s")
	f = Filters{Window: w}
	f.Apply(q)
	if q.OnCPUNs() != all {
		t.Errorf("a window past the end keeps %d of %d", q.OnCPUNs(), all)
	}
	for _, bad := range []string{"3s..1s", "1s", "a..b", "1s..1s"} {
		if _, err := ParseWindow(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	g := load(t, "go-router-before.pprof")
	if err := f.Apply(g); err == nil {
		t.Error("a window on pprof: no error")
	}
}

// TestTrimIdle: the samples off the CPU at the ends go ((program) here,
// the page's idle time before and after its work), the busy span stays.
func TestTrimIdle(t *testing.T) {
	p := load(t, "chrome-cdp-page.cpuprofile")
	on := p.OnCPUNs()
	n := len(p.Samples)
	f := Filters{TrimIdle: true}
	if err := f.Apply(p); err != nil {
		t.Fatal(err)
	}
	if p.OnCPUNs() != on || len(p.Samples) >= n {
		t.Errorf("on-CPU %d of %d, %d of %d samples", p.OnCPUNs(), on, len(p.Samples), n)
	}
	first := p.Frames[p.Nodes[p.Samples[0].Node].Frame].Kind
	last := p.Frames[p.Nodes[p.Samples[len(p.Samples)-1].Node].Frame].Kind
	if !first.OnCPU() || !last.OnCPU() {
		t.Errorf("idle at an end: %v %v", first, last)
	}
}

// The stack filters never move time on or off the CPU: hiding, showing or
// pruning at the profiler's marks ((idle), (program), (garbage collector),
// as --hide '\(.*\)' matches them) leaves them in place, so on-CPU, idle
// and GC time stay what they were, and a narrowed share stays within 100%.
func TestStackFiltersKeepOffCPUOff(t *testing.T) {
	sums := func(p *analyze.Profile) (on, off, gc int64) {
		for _, s := range p.Samples {
			switch k := p.Frames[p.Nodes[s.Node].Frame].Kind; {
			case !k.OnCPU():
				off += s.Weight
			case k == analyze.KindGC:
				gc += s.Weight
				on += s.Weight
			default:
				on += s.Weight
			}
		}
		return on, off, gc
	}
	for _, pat := range []string{`\(.*\)`, `idle|program|garbage`, `^\(root\)$`} {
		re := regexp.MustCompile(pat)
		for name, f := range map[string]Filters{"hide": {Hide: re}, "show": {Show: re}, "prune-from": {PruneFrom: re}} {
			p := load(t, "node-router-unbundled-before.cpuprofile")
			on, off, gc := sums(p)
			if off == 0 || gc == 0 {
				t.Fatalf("the fixture has no idle or GC time: %d %d", off, gc)
			}
			if err := f.Apply(p); err != nil {
				t.Fatal(err)
			}
			if on2, off2, gc2 := sums(p); on2 != on || off2 != off || gc2 != gc {
				t.Errorf("--%s %q: on-CPU %d -> %d, off %d -> %d, GC %d -> %d", name, pat, on, on2, off, off2, gc, gc2)
			}
		}
	}
	// (anonymous) is still hidden by the same pattern.
	p := load(t, "node-router-unbundled-before.cpuprofile")
	if err := (&Filters{Hide: regexp.MustCompile(`\(.*\)`)}).Apply(p); err != nil {
		t.Fatal(err)
	}
	for _, n := range p.Nodes {
		if p.Frames[n.Frame].Name == "(anonymous)" {
			t.Fatal("(anonymous) is still in a stack")
		}
	}
}
