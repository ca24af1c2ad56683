package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/profdiff/profdiff/record"
)

// stepFlags adds record's flags for steps and unprofiled runs to rf.
func stepFlags(rf *pflag.FlagSet, r *recordOptions) {
	rf.StringArrayVar(&r.steps, "step", nil, "a step of every run, given as `NAME='CMD'` (repeatable, run in order in each side's folder, e.g. a cold install then a resolve): each step is measured and profiled apart, and compared apart; the sides then have folders (--before-dir/--after-dir, --side-dir) and no command")
	rf.IntVar(&r.unprofiled, "unprofiled-runs", 0, "`N` runs per side without the profiler, among the measured runs, reported as their own row: what profiling costs (node and the package managers only)")
}

// parseSteps reads the --step values, NAME=CMD, in order.
func parseSteps(values []string) ([]record.Step, error) {
	var out []record.Step
	for _, v := range values {
		name, cmd, ok := strings.Cut(v, "=")
		if !ok || name == "" || strings.TrimSpace(cmd) == "" {
			return nil, fmt.Errorf("--step %q: give NAME='CMD'", v)
		}
		args, err := record.Split(cmd)
		if err != nil {
			return nil, fmt.Errorf("--step %s: %v", name, err)
		}
		out = append(out, record.Step{Name: name, Args: args})
	}
	return out, nil
}

// compareRecording compares the recorded runs as profdiff would their
// folders (args), and returns the exit status: once, or with steps once
// per step, the step's folders in place of the sides' (each comparison's
// report after the one before, on stdout, the step named on stderr), the
// worst status of them.
func compareRecording(plan recordPlan, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(plan.opts.Steps) == 0 {
		return run(args, stdin, stdout, stderr)
	}
	code := exitOK
	for _, st := range plan.opts.Steps {
		fmt.Fprintf(stderr, "profdiff record: step %s\n", st.Name)
		c := run(stepArgs(args, plan.opts.Out, st.Name, plan.opts.Sides), stdin, stdout, stderr)
		code = max(code, c)
	}
	return code
}

// stepArgs are the comparison's arguments with each side's folder (OUT/SIDE,
// alone or in --side=NAME=OUT/SIDE) replaced by its step's folder.
func stepArgs(args []string, out, step string, sides []record.Side) []string {
	res := make([]string, len(args))
	for i, a := range args {
		res[i] = a
		for _, s := range sides {
			folder := filepath.Join(out, s.Name)
			stepFolder := filepath.Join(out, record.StepFolder(step, s.Name))
			switch {
			case a == folder:
				res[i] = stepFolder
			case a == "--side="+s.Name+"="+folder:
				res[i] = "--side=" + s.Name + "=" + stepFolder
			}
		}
	}
	return res
}

// replaySteps compares a recording made with steps again (profdiff DIR):
// each step apart, as record did (see compareRecording), args being the
// comparison of the sides' folders that replayArgs gives.
func replaySteps(dir string, rec *record.Recording, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	sides := make([]record.Side, len(rec.Sides))
	for i, s := range rec.Sides {
		sides[i] = record.Side{Name: s.Folder}
	}
	code := exitOK
	for _, st := range rec.Steps {
		fmt.Fprintf(stderr, "profdiff: step %s\n", st)
		code = max(code, run(stepArgs(args, dir, st, sides), stdin, stdout, stderr))
	}
	return code
}
