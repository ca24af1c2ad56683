package record

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// resourceHelper runs the test binary as a program of known resource use,
// each writing a folded profile at args[0] when done:
//
//	alloc PATH MiB        allocates and touches MiB mebibytes
//	burn PATH MS          spends MS milliseconds of CPU (its own, measured)
//	nap PATH MS           sleeps MS milliseconds
//	spawn PATH K MS MiB   starts K children that each allocate MiB and
//	                      burn MS, and waits for them all
func resourceHelper(mode string, args []string) (int, bool) {
	num := func(i int) int {
		if i >= len(args) {
			return 0
		}
		n, _ := strconv.Atoi(args[i])
		return n
	}
	if mode == "by-arg" { // the mode is the second word: for steps
		if len(args) < 2 {
			return 2, true
		}
		return resourceHelper(args[1], append([]string{args[0]}, args[2:]...))
	}
	switch mode {
	case "alloc":
		b := make([]byte, num(1)<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		code := writeFolded(args[0])
		runtime.KeepAlive(b)
		return code, true
	case "burn":
		burn(time.Duration(num(1)) * time.Millisecond)
		return writeFolded(args[0]), true
	case "nap":
		time.Sleep(time.Duration(num(1)) * time.Millisecond)
		return writeFolded(args[0]), true
	case "child":
		b := make([]byte, num(1)<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		burn(time.Duration(num(2)) * time.Millisecond)
		runtime.KeepAlive(b)
		return 0, true
	case "spawn":
		var cmds []*exec.Cmd
		for range num(1) {
			c := exec.Command(os.Args[0], "-", strconv.Itoa(num(3)), strconv.Itoa(num(2)))
			c.Env = append(os.Environ(), helperEnv+"=child")
			if err := c.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1, true
			}
			cmds = append(cmds, c)
		}
		for _, c := range cmds {
			if err := c.Wait(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1, true
			}
		}
		return writeFolded(args[0]), true
	}
	return 0, false
}

// burn spins until the process has spent d of CPU time (user and system,
// every thread's), as the kernel counts it.
func burn(d time.Duration) {
	x := 1.0
	for {
		for i := 0; i < 100000; i++ {
			x = math.Sqrt(x + float64(i))
		}
		var ru syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil || time.Duration(ru.Utime.Nano()+ru.Stime.Nano()) >= d {
			break
		}
	}
	if x < 0 {
		fmt.Println(x)
	}
}

func writeFolded(path string) int {
	if err := os.WriteFile(path, []byte("main;work 10\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// timeV is what /usr/bin/time -v says of a command.
type timeV struct {
	wall, user, sys         float64 // seconds
	maxRSSKiB, minor, major float64
	voluntary, involuntary  float64
}

// runTimeV runs args under /usr/bin/time -v with env and returns its
// figures.
func runTimeV(t *testing.T, env []string, dir string, args ...string) timeV {
	t.Helper()
	cmd := exec.Command("/usr/bin/time", append([]string{"-v"}, args...)...)
	cmd.Env, cmd.Dir = env, dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("/usr/bin/time -v %q: %v\n%s", args, err, stderr.String())
	}
	var tv timeV
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), ": ")
		if !ok {
			continue
		}
		f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
		switch {
		case k == "User time (seconds)":
			tv.user = f
		case k == "System time (seconds)":
			tv.sys = f
		case k == "Maximum resident set size (kbytes)":
			tv.maxRSSKiB = f
		case strings.HasPrefix(k, "Major"):
			tv.major = f
		case strings.HasPrefix(k, "Minor"):
			tv.minor = f
		case k == "Voluntary context switches":
			tv.voluntary = f
		case k == "Involuntary context switches":
			tv.involuntary = f
		case strings.HasPrefix(k, "Elapsed (wall clock) time"):
			// m:ss.ss or h:mm:ss
			parts := strings.Split(strings.TrimSpace(v), ":")
			sec := 0.0
			for _, p := range parts {
				x, _ := strconv.ParseFloat(p, 64)
				sec = sec*60 + x
			}
			tv.wall = sec
		}
	}
	return tv
}

// TestResourcesAgainstTime records programs of known resource use and
// holds record.json's figures against the program's design and against
// /usr/bin/time -v of the same command (which reads the same wait4 rusage,
// through another program).
func TestResourcesAgainstTime(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the figures are Linux's")
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("no /usr/bin/time")
	}
	if testing.Short() {
		t.Skip("15 s of runs on a loaded machine")
	}
	// The runs' max RSS is at least this process's resident set (see
	// rssFloor): as small as it can be.
	debug.FreeOSMemory()
	exe, _ := os.Executable()
	type prog struct {
		name string
		mode string
		args []string
	}
	progs := []prog{
		{"alloc", "alloc", []string{"96"}},
		{"burn", "burn", []string{"300"}},
		{"nap", "nap", []string{"400"}},
		{"spawn", "spawn", []string{"3", "150", "48"}},
	}
	modes := map[string]string{}
	var sides []Side
	for _, p := range progs {
		modes[p.name] = p.mode
		sides = append(sides, Side{Name: p.name, Args: append([]string{exe, "{profile}.folded"}, p.args...), Dir: t.TempDir()})
	}
	opts := helperOptions(t, modes, sides...)
	opts.Runs, opts.Warmup = 2, 0
	rec, err := Do(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	// record.json sums them up per side.
	saved, err := Read(opts.Out)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(saved.Resources); n != len(progs)*len(Measures) || saved.Resources[0].Side != "alloc" || saved.Resources[0].Runs != 2 {
		t.Errorf("record.json's resources: %d summaries, first %+v", n, saved.Resources[0])
	}
	got := map[string]map[Measure]float64{}
	for _, p := range progs {
		got[p.name] = map[Measure]float64{}
		for _, s := range rec.SeriesOf(p.name) {
			if s.Kind == KindMeasured && s.Step == "" {
				got[p.name][s.Measure] = s.Mean()
			}
		}
		if len(got[p.name]) != len(Measures) {
			t.Fatalf("%s: measures %v, want all %d", p.name, got[p.name], len(Measures))
		}
	}
	const mib = 1 << 20
	// The figures the programs were made to have.
	g := got["alloc"]
	if rss := g[MeasureMaxRSS] / mib; rss < 96 || rss > 96+40 {
		t.Errorf("alloc 96 MiB: max RSS %.1f MiB", rss)
	}
	if minor := g[MeasureMinorFaults]; minor < 96*256 {
		t.Errorf("alloc 96 MiB: %.0f minor faults, want at least one per 4 KiB page (%d)", minor, 96*256)
	}
	if cpu := (got["burn"][MeasureUser] + got["burn"][MeasureSys]) / 1e6; cpu < 300 || cpu > 300+150 {
		t.Errorf("burn 300 ms: user+sys %.0f ms", cpu)
	}
	if wall, cpu := got["nap"][MeasureWall]/1e6, (got["nap"][MeasureUser]+got["nap"][MeasureSys])/1e6; wall < 400 || cpu > 100 {
		t.Errorf("nap 400 ms: wall %.0f ms, user+sys %.0f ms", wall, cpu)
	}
	if got["nap"][MeasureVoluntaryCtx] < 1 {
		t.Errorf("nap: no voluntary context switch")
	}
	// Three children of 150 ms each, reaped by the run's process: their
	// CPU is the run's; their RSS is not summed (the largest one's).
	s := got["spawn"]
	if cpu := (s[MeasureUser] + s[MeasureSys]) / 1e6; cpu < 3*150 {
		t.Errorf("spawn 3 x 150 ms: user+sys %.0f ms, want the children's 450 ms in it", cpu)
	}
	if rss := s[MeasureMaxRSS] / mib; rss < 48 || rss > 2*48 {
		t.Errorf("spawn 3 x 48 MiB: max RSS %.1f MiB, want one child's (48 MiB and the runtime's), not their sum", rss)
	}
	// The same commands under /usr/bin/time -v.
	for _, p := range progs {
		var tv timeV
		const n = 2
		for range n {
			x := runTimeV(t, append(os.Environ(), helperEnv+"="+p.mode), t.TempDir(), append([]string{exe, filepath.Join(t.TempDir(), "p.folded")}, p.args...)...)
			tv.wall += x.wall / n
			tv.user += x.user / n
			tv.sys += x.sys / n
			tv.maxRSSKiB += x.maxRSSKiB / n
			tv.minor += x.minor / n
			tv.major += x.major / n
			tv.voluntary += x.voluntary / n
			tv.involuntary += x.involuntary / n
		}
		g := got[p.name]
		t.Logf("%s: record wall %.3fs user %.3fs sys %.3fs rss %.1fMiB minor %.0f major %.0f vcs %.0f ics %.0f",
			p.name, g[MeasureWall]/1e9, g[MeasureUser]/1e9, g[MeasureSys]/1e9, g[MeasureMaxRSS]/mib, g[MeasureMinorFaults], g[MeasureMajorFaults], g[MeasureVoluntaryCtx], g[MeasureInvoluntaryCtx])
		t.Logf("%s: time -v wall %.3fs user %.3fs sys %.3fs rss %.1fMiB minor %.0f major %.0f vcs %.0f ics %.0f",
			p.name, tv.wall, tv.user, tv.sys, tv.maxRSSKiB/1024, tv.minor, tv.major, tv.voluntary, tv.involuntary)
		within := func(what string, ours, theirs, rel, abs float64) {
			if math.Abs(ours-theirs) > max(rel*math.Abs(theirs), abs) {
				t.Errorf("%s: %s %.4g by record, %.4g by /usr/bin/time -v", p.name, what, ours, theirs)
			}
		}
		// RSS and page faults are the program's own doing, and agree
		// closely; CPU time moves with the machine's load (the kernel's
		// work per page fault with the caches other work thrashes), and
		// wall time far more (a load average of 14 on 2 CPUs doubled it
		// between two runs of alloc), so theirs are loose bounds.
		floored := slices.ContainsFunc(rec.Runs, func(r Run) bool { return r.Side == p.name && r.Resources.AtFloor() })
		switch {
		case floored && (p.name == "alloc" || p.name == "spawn"):
			t.Errorf("%s: max RSS %.1f MiB is at the floor of this process's memory", p.name, g[MeasureMaxRSS]/mib)
		case floored:
			// Charged this process's resident set (rssFloor): a bound.
			if tv.maxRSSKiB/1024 > g[MeasureMaxRSS]/mib*1.05 {
				t.Errorf("%s: max RSS at most %.1f MiB by record, %.1f MiB by /usr/bin/time -v", p.name, g[MeasureMaxRSS]/mib, tv.maxRSSKiB/1024)
			}
		default:
			within("max RSS (MiB)", g[MeasureMaxRSS]/mib, tv.maxRSSKiB/1024, 0.10, 4)
		}
		within("minor faults", g[MeasureMinorFaults], tv.minor, 0.15, 600)
		within("major faults", g[MeasureMajorFaults], tv.major, 0.5, 20)
		within("user+sys (s)", (g[MeasureUser]+g[MeasureSys])/1e9, tv.user+tv.sys, 0.3, 0.12)
		within("wall (s)", g[MeasureWall]/1e9, tv.wall, 1.0, 0.3)
	}
}
