package record

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Environment is a fingerprint of the machine the runs ran on: what makes
// two recordings comparable, or one less trustworthy. Fields that could not
// be read are empty.
type Environment struct {
	OS          string    `json:"os"`
	Arch        string    `json:"arch"`
	Kernel      string    `json:"kernel,omitempty"`
	CPUModel    string    `json:"cpu_model,omitempty"`
	LogicalCPUs int       `json:"logical_cpus"`
	Governor    string    `json:"cpu_governor,omitempty"`
	Turbo       string    `json:"turbo,omitempty"` // on or off, where readable
	LoadAverage []float64 `json:"load_average,omitempty"`
	// BusyCPUsBefore is how many CPUs the machine kept busy, on average,
	// in a short window just before the first run (/proc/stat; absent
	// where unread): work the runs will compete with.
	BusyCPUsBefore float64   `json:"busy_cpus_before,omitempty"`
	Hostname       string    `json:"hostname,omitempty"`
	Started        time.Time `json:"started"`
	// Versions are, per side, what the sides' programs print for their
	// version (node --version, go version), run in the side's folder (a
	// version manager may pick another per checkout).
	Versions map[string]map[string]string `json:"versions,omitempty"`
}

// fingerprint reads the machine's environment, and the versions of the
// sides' programs where profdiff knows how to ask.
func fingerprint(ctx context.Context, sides []Side, env []string, now time.Time) Environment {
	e := Environment{OS: runtime.GOOS, Arch: runtime.GOARCH, LogicalCPUs: runtime.NumCPU(), Started: now}
	e.Kernel = readLine("/proc/sys/kernel/osrelease")
	e.Governor = readLine("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
	switch {
	case readLine("/sys/devices/system/cpu/intel_pstate/no_turbo") == "1":
		e.Turbo = "off"
	case readLine("/sys/devices/system/cpu/intel_pstate/no_turbo") == "0":
		e.Turbo = "on"
	case readLine("/sys/devices/system/cpu/cpufreq/boost") == "1":
		e.Turbo = "on"
	case readLine("/sys/devices/system/cpu/cpufreq/boost") == "0":
		e.Turbo = "off"
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				e.CPUModel = strings.TrimSpace(v)
				break
			}
		}
	}
	e.LoadAverage = loadAverage()
	e.Hostname, _ = os.Hostname()
	for _, s := range sides {
		v := versions(ctx, s, env)
		if len(v) == 0 {
			continue
		}
		if e.Versions == nil {
			e.Versions = map[string]map[string]string{}
		}
		e.Versions[s.Name] = v
	}
	return e
}

// loadAverage is the 1, 5 and 15 minute load averages, or nil.
func loadAverage() []float64 {
	f := strings.Fields(readLine("/proc/loadavg"))
	if len(f) < 3 {
		return nil
	}
	var out []float64
	for _, s := range f[:3] {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// readLine returns the first line of a small file, trimmed, or "".
func readLine(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(line)
}

// versions asks the side's program for its version: node --version for
// node and the package managers (and their own --version), go version for
// go. Each asks with a short timeout; what fails is left out.
func versions(ctx context.Context, s Side, env []string) map[string]string {
	var asks [][]string
	switch p := program(s.Args); {
	case p == "go":
		asks = [][]string{{s.Args[0], "version"}}
	case isNode(s.Args):
		asks = [][]string{{"node", "--version"}}
		if p != "node" && p != "nodejs" {
			asks = append(asks, []string{s.Args[0], "--version"})
		}
	}
	out := map[string]string{}
	for _, a := range asks {
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		cmd := exec.CommandContext(c, a[0], a[1:]...)
		cmd.Dir, cmd.Env = s.Dir, env
		b, err := cmd.Output()
		cancel()
		if err == nil {
			line, _, _ := bytes.Cut(bytes.TrimSpace(b), []byte("\n"))
			out[program(a)] = string(line)
		}
	}
	return out
}

// warnings names what makes the runs less trustworthy: a machine already
// busy (load average above the idle CPUs), a powersave governor, sides
// whose programs differ in version (names are the sides', the first the
// one the others are held against).
func (e Environment) warnings(names []string) []string {
	var ws []string
	if len(e.LoadAverage) > 0 && e.LogicalCPUs > 0 {
		if load := e.LoadAverage[0]; load > float64(e.LogicalCPUs)-load {
			ws = append(ws, fmt.Sprintf("the load average is %.2f on %d logical CPUs, above the CPUs left idle: other work competes with the runs", load, e.LogicalCPUs))
		}
	}
	if e.BusyCPUsBefore >= othersThreshold {
		ws = append(ws, fmt.Sprintf("before the first run, other work kept %.1f of %d logical CPUs busy: it competes with the runs", e.BusyCPUsBefore, e.LogicalCPUs))
	}
	if e.Governor == "powersave" {
		ws = append(ws, "the CPU frequency governor is powersave: the clock moves with the load, and times with it (the performance governor holds it)")
	}
	base := e.Versions[names[0]]
	for _, side := range names[1:] {
		v := e.Versions[side]
		for _, prog := range []string{"node", "go", "npm", "npx", "pnpm", "yarn"} {
			if a, b := base[prog], v[prog]; a != "" && b != "" && a != b {
				ws = append(ws, fmt.Sprintf("the sides run different %s versions (%s: %s, %s: %s)", prog, names[0], a, side, b))
			}
		}
	}
	return ws
}
