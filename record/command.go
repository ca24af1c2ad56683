package record

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Placeholder is the word, or part of a word, replaced by the run's profile
// path in a command that is not profiled through Node's flags.
const Placeholder = "{profile}"

// Profiler says how the runs of a command are profiled.
type Profiler int

// The ways a run is profiled.
const (
	// ProfilerNode adds --cpu-prof and its folder and name to node's
	// arguments, or for the package managers that start node (npm, npx,
	// pnpm, yarn) to NODE_OPTIONS.
	ProfilerNode Profiler = iota + 1
	// ProfilerPlaceholder replaces {profile} in the command's words by the
	// path the tool writes its profile to.
	ProfilerPlaceholder
)

// String names the profiler.
func (p Profiler) String() string {
	switch p {
	case ProfilerNode:
		return "--cpu-prof"
	case ProfilerPlaceholder:
		return Placeholder
	}
	return fmt.Sprintf("Profiler(%d)", int(p))
}

// nodePrograms are the programs that are node or start it (NODE_OPTIONS
// reaches the node processes they start).
var nodePrograms = []string{"node", "nodejs", "npm", "npx", "pnpm", "yarn"}

// program is the base name of a command's program, without .exe.
func program(args []string) string {
	return strings.TrimSuffix(filepath.Base(args[0]), ".exe")
}

// isNode reports whether the command's program is node or starts it.
func isNode(args []string) bool {
	p := program(args)
	for _, n := range nodePrograms {
		if p == n {
			return true
		}
	}
	return false
}

// Detect returns how the runs of a command are profiled: a {profile} word
// first (the user placed the profile), then node; any other command is
// refused with an error that shows both ways.
func Detect(args []string) (Profiler, error) {
	for _, w := range args {
		if strings.Contains(w, Placeholder) {
			return ProfilerPlaceholder, nil
		}
	}
	if isNode(args) {
		return ProfilerNode, nil
	}
	return 0, fmt.Errorf("%s: profdiff does not know how to profile %s: node (and npm, npx, pnpm, yarn) is profiled through NODE_OPTIONS=--cpu-prof; for any other tool, put %s where it writes its profile, e.g. 'go test -run ^$ -bench . -cpuprofile {profile}' or 'py-spy record --format raw -o {profile}.folded -- python app.py'",
		quoteCommand(args), program(args), Placeholder)
}

// quoteCommand writes a command's words back as one line, quoting the
// words that hold a space or a quote, for messages.
func quoteCommand(args []string) string {
	ws := make([]string, len(args))
	for i, a := range args {
		ws[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n'\"") {
			if strings.Contains(a, "'") {
				ws[i] = `"` + a + `"`
			} else {
				ws[i] = "'" + a + "'"
			}
		}
	}
	return strings.Join(ws, " ")
}

// invocation is one run's command: its words, its extra environment and
// where its profile is written.
type invocation struct {
	args    []string
	env     []string // NAME=VALUE added to the run's environment
	profile string   // the profile's path
	// stage, when set, is the folder node writes its profiles to under
	// their own names, one per process and thread (a package manager runs
	// several node processes, and a program its worker threads, which one
	// name would make overwrite each other: node then kept one thread's);
	// see pickProfiles.
	stage string
}

// prepare returns the command of one run whose profile is written at base
// (a path without extension): node's as base.cpuprofile, through node's
// arguments, or for a package manager through NODE_OPTIONS (after the
// NODE_OPTIONS given, if any) first in a hidden folder beside it (see
// invocation.stage); others' by
// replacing {profile}, as base.pprof unless the word gives the extension
// right after it ({profile}.folded).
func prepare(p Profiler, args []string, base string, interval time.Duration, nodeOptions string) invocation {
	switch p {
	case ProfilerNode:
		path := base + ".cpuprofile"
		// node names each thread's profile itself (CPU.date.time.pid.tid.seq),
		// in a hidden folder beside the run's: --cpu-prof-name would give
		// every thread one name, and only one thread's profile would stay.
		inv := invocation{args: args, profile: path, stage: filepath.Join(filepath.Dir(base), "."+filepath.Base(base))}
		flags := []string{"--cpu-prof", "--cpu-prof-dir=" + inv.stage}
		manager := false
		if p := program(args); p != "node" && p != "nodejs" {
			// A package manager: only NODE_OPTIONS reaches the node it
			// starts, and its own node writes a profile too.
			manager = true
			flags = []string{"--cpu-prof", "--cpu-prof-dir=" + nodeQuote(inv.stage)}
		}
		if interval > 0 {
			flags = append(flags, fmt.Sprintf("--cpu-prof-interval=%d", max(interval.Microseconds(), 1)))
		}
		if !manager {
			// node itself takes the flags before its script: every
			// node version does (NODE_OPTIONS refused --cpu-prof
			// before nodejs/node#57018, Node 23 and late 22.x).
			inv.args = slices.Concat(args[:1], flags, args[1:])
			return inv
		}
		opts := strings.Join(flags, " ")
		if nodeOptions != "" {
			opts = nodeOptions + " " + opts
		}
		inv.env = []string{"NODE_OPTIONS=" + opts}
		return inv
	default:
		path := ""
		out := make([]string, len(args))
		for i, w := range args {
			for {
				before, after, ok := strings.Cut(w, Placeholder)
				if !ok {
					break
				}
				ext := ".pprof"
				if strings.HasPrefix(after, ".") {
					ext = ""
				}
				if path == "" {
					path = base + ext
					if ext == "" {
						path = base + extension(after)
					}
				}
				w = before + base + ext + after
			}
			out[i] = w
		}
		return invocation{args: out, profile: path}
	}
}

// extension returns the extension at the start of s (".folded" of
// ".folded,foo"), dots and letters and digits only.
func extension(s string) string {
	end := len(s)
	for i, r := range s {
		if !(r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			end = i
			break
		}
	}
	return s[:end]
}

// nodeQuote quotes a path for NODE_OPTIONS, which splits at spaces and
// reads double quotes with backslash escapes.
func nodeQuote(s string) string {
	if !strings.ContainsAny(s, " \t\"\\") {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
