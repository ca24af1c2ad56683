package export

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestGoToolPprofTop runs go tool pprof -top on the export of a profile
// whose names include V8's "RegExp: ..." frames: pprof's own flat column
// gives each function name profdiff's self time, and pprof prints no
// symbolization warning. (pprof demangles a function whose system name
// equals its name as if it were C++, which turned hundreds of distinct
// "RegExp: ^(?:\/users..." frames into one "RegExp: ^$".)
func TestGoToolPprofTop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go tool pprof")
	}
	r := run(t, "node-router-unbundled-before.cpuprofile")
	var b bytes.Buffer
	if err := WritePprof(&b, []Side{{Name: "profile", Runs: []Run{r}}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "p.pb.gz")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "tool", "pprof", "-top", "-nodecount=100000", "-nodefraction=0", "-unit=ns", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go tool pprof: %v %s", err, stderr.String())
	}
	if strings.Contains(strings.ToLower(stderr.String()), "symboliz") {
		t.Errorf("pprof warns: %s", stderr.String())
	}
	theirs := map[string]float64{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) >= 6 && strings.HasSuffix(f[0], "ns") {
			v, _ := strconv.ParseFloat(strings.TrimSuffix(f[0], "ns"), 64)
			theirs[strings.Join(f[5:], " ")] += v
		}
	}
	ours := map[string]float64{}
	for _, row := range r.Table.Functions {
		ours[strings.Join(strings.Fields(name(row.Key)), " ")] += float64(row.Self)
	}
	regexps, off := 0, 0
	for n, v := range ours {
		if strings.HasPrefix(n, "RegExp: ") {
			regexps++
		}
		if math.Abs(theirs[n]-v) > max(2000, v*0.002) {
			off++
			if off <= 5 {
				t.Errorf("%q: pprof flat %.0f, profdiff self %.0f", n, theirs[n], v)
			}
		}
	}
	if off > 0 || regexps < 10 {
		t.Errorf("%d of %d function names differ (%d RegExp frames)", off, len(ours), regexps)
	}
}
