package main

import (
	"fmt"
	"github.com/profdiff/profdiff/side"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/profdiff/profdiff/internal/confine"
)

// userFolders is what reads the files that profiles and maps name
// (scripts, maps, sources, package.json): below the folders the user gave
// only, since a profile is data that a pull request can write. Those are
// the current folder, every side's --root and --sourcemaps folders, the
// folders of --sourcemap maps, --path-map targets and --source-root, and
// the Go toolchain's own sources (goSources), which Go profiles name by
// absolute path and which hold nothing but Go's published code.
// Nothing a profile or a map says adds a folder, and under a ceiling
// (envConfine) only the folders below it are read.
func userFolders(o options, sides []side.Side) *confine.Reader {
	var dirs []string
	if wd, err := os.Getwd(); err == nil {
		dirs = append(dirs, wd)
	}
	if d := goSources(os.Getenv); d != "" {
		dirs = append(dirs, d)
	}
	return confine.New(append(dirs, givenFolders(o, sides)...)...).Within(o.ceilings...)
}

// goSources is the src folder of the Go toolchain (GOROOT, else the one
// profdiff was built with), where Go profiles' standard-library frames
// point; "" when neither is known (a -trimpath build without GOROOT set).
func goSources(getenv func(string) string) string {
	root := getenv("GOROOT")
	if root == "" {
		root = runtime.GOROOT() //nolint:staticcheck // the build's root is the best guess without GOROOT
	}
	if root == "" {
		return ""
	}
	return filepath.Join(root, "src")
}

// givenFolders are the folders the flags name for reading what profiles
// and maps name (see userFolders).
func givenFolders(o options, sides []side.Side) []string {
	dirs := slices.Clone(o.sourceRoots)
	for _, f := range sides {
		if f.Root != "" {
			dirs = append(dirs, f.Root)
		}
		dirs = append(dirs, f.MapDirs...)
		for _, m := range f.Maps {
			if _, mp, ok := strings.Cut(m, "="); ok {
				dirs = append(dirs, filepath.Dir(mp))
			}
		}
	}
	for _, pm := range o.pathMaps {
		if _, to, ok := strings.Cut(pm, "="); ok && !strings.Contains(to, "://") {
			dirs = append(dirs, to)
		}
	}
	return dirs
}

// envConfine names the environment variable that sets a ceiling on what
// profdiff reads: folders separated as in PATH. The Action sets it to the
// workspace and the runner's temporary folder, so that no flag a workflow
// passes lets a pull request's profile or checkout reach beyond them.
const envConfine = "PROFDIFF_CONFINE"

// ceilingsFromEnv reads envConfine (nil when unset or empty).
func ceilingsFromEnv(getenv func(string) string) []string {
	var out []string
	for _, d := range filepath.SplitList(getenv(envConfine)) {
		if d != "" {
			out = append(out, d)
		}
	}
	return out
}

// checkConfined, under a ceiling, refuses a folder given for reading or a
// profile that lies outside it (links followed), and a profile that is
// not a regular file: a pull request's checkout can hold a link to any
// file, and a file of "name count" lines reads as folded stacks.
func checkConfined(o options, sides []side.Side) error {
	if len(o.ceilings) == 0 {
		return nil
	}
	ceiling := confine.New(o.ceilings...)
	if len(ceiling.Roots()) == 0 {
		return fmt.Errorf("%s=%s: none of its folders exists", envConfine, strings.Join(o.ceilings, string(filepath.ListSeparator)))
	}
	for _, d := range givenFolders(o, sides) {
		if !ceiling.Holds(d) {
			return fmt.Errorf("%s is outside the folders this run may read (%s=%s)", d, envConfine, strings.Join(o.ceilings, string(filepath.ListSeparator)))
		}
	}
	for _, s := range sides {
		for _, f := range s.Files {
			if f == "-" {
				continue
			}
			if _, err := ceiling.Check(f, 0); err != nil {
				return fmt.Errorf("%s: %v (%s=%s)", f, err, envConfine, strings.Join(o.ceilings, string(filepath.ListSeparator)))
			}
		}
	}
	return nil
}

// checkSourceRoots refuses a --source-root that is not a folder, and one
// that confines nothing ("/") or is never read (/proc, /sys, /dev).
func checkSourceRoots(dirs []string) error {
	for _, d := range dirs {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return fmt.Errorf("--source-root %s: not a folder", d)
		}
		if len(confine.New(d).Roots()) == 0 {
			return fmt.Errorf("--source-root %s: give a project's folder; /, /proc, /sys and /dev are never read", d)
		}
	}
	return nil
}
