package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// workflow is the part of an example workflow the test reads.
type workflow struct {
	Jobs map[string]struct {
		Steps []struct {
			Name string            `yaml:"name"`
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			Env  map[string]string `yaml:"env"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestExampleWorkflows runs the profiling step of each example workflow as
// written, on checkouts of base and head made from examples/ (head with the
// router's compiled routes cached), then the action on the profiles with
// the example's inputs: the comparison must find head better.
func TestExampleWorkflows(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles the example programs")
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	files, _ := filepath.Glob(filepath.Join(root, "examples", "github", "*.yml"))
	if len(files) < 4 {
		t.Fatalf("examples/github holds %d workflows, want the Node, Go and fork-safe pair", len(files))
	}
	ran := 0
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var wf workflow
		if err := yaml.Unmarshal(b, &wf); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, job := range wf.Jobs {
			var profile, compare int = -1, -1
			for i, st := range job.Steps {
				if st.Name == "Profile base and head" {
					profile = i
				}
				if strings.HasSuffix(strings.SplitN(st.Uses, "@", 2)[0], "/profdiff") {
					compare = i
				}
			}
			if profile < 0 {
				continue
			}
			if compare < profile {
				t.Fatalf("%s: no profdiff step after the profiling step", path)
			}
			name := filepath.Base(path)
			t.Run(name, func(t *testing.T) {
				st := job.Steps[profile]
				if strings.Contains(st.Run, "node ") {
					for _, tool := range []string{"node", "npm"} {
						if _, err := exec.LookPath(tool); err != nil {
							t.Skipf("%s is not installed", tool)
						}
					}
				}
				ws := t.TempDir()
				for _, side := range []string{"base", "head"} {
					copyDir(t, filepath.Join(root, "examples"), filepath.Join(ws, side, "examples"))
				}
				speedUp(t, filepath.Join(ws, "head", "examples"))
				cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", st.Run)
				cmd.Dir = ws
				cmd.Env = append(os.Environ(), "GITHUB_WORKSPACE="+ws, "GOFLAGS=-buildvcs=false")
				for k, v := range st.Env {
					if strings.Contains(v, "${{") {
						t.Fatalf("env %s uses an expression the test cannot evaluate", k)
					}
					cmd.Env = append(cmd.Env, k+"="+v)
				}
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s: %v\n%s", st.Name, err, out)
				}
				for _, side := range []string{"base", "head"} {
					runs, _ := os.ReadDir(filepath.Join(ws, "profiles", side))
					if len(runs) != 5 {
						t.Errorf("%s: %d profiles, want 5", side, len(runs))
					}
				}
				r := newRunner(t)
				r.cwd = ws
				in := job.Steps[compare].With
				res := r.run("pull_request", prEvent("o/r"), in)
				if res.status == 2 || res.outputs["verdict"] != "better" {
					t.Errorf("the action on the example's profiles: status %d, outputs %v\n%s", res.status, res.outputs, res.stderr)
				}
				if cs := r.comments(); len(cs) != 1 || !strings.Contains(cs[0].Body, "(base, 5 runs)") {
					t.Errorf("comments: %+v", cs)
				}
				if strings.Contains(st.Run, "node ") {
					js, _ := os.ReadFile(res.outputs["report"])
					if !strings.Contains(string(js), "router.js") {
						t.Errorf("the report does not name the original source router.js: the maps were not applied\n%.1500s", js)
					}
				}
			})
			ran++
		}
	}
	if ran < 2 {
		t.Errorf("%d example workflows with a profiling step, want the Node and the Go one", ran)
	}
}

// speedUp makes the head's routers compile each route once, the change
// the examples' pull request would make.
func speedUp(t *testing.T, dir string) {
	t.Helper()
	edit := func(path, old, new string) {
		b, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(b), old) {
			t.Fatalf("%s: cannot apply the head's change (%v)", path, err)
		}
		os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644)
	}
	edit(filepath.Join(dir, "node-app", "src", "router.js"), "const { re, names } = compile(route.pattern);",
		"const { re, names } = (route.compiled ??= compile(route.pattern));")
	edit(filepath.Join(dir, "go-pkg", "router.go"), `		re := regexp.MustCompile("^" + strings.Join(parts, "/") + "$")`,
		`		re := compiled("^" + strings.Join(parts, "/") + "$")`)
	b, _ := os.ReadFile(filepath.Join(dir, "go-pkg", "router.go"))
	os.WriteFile(filepath.Join(dir, "go-pkg", "router.go"), append(b, []byte(`
var cache = map[string]*regexp.Regexp{}

func compiled(s string) *regexp.Regexp {
	if re, ok := cache[s]; ok {
		return re
	}
	re := regexp.MustCompile(s)
	cache[s] = re
	return re
}
`)...), 0o644)
}

// copyDir copies the example sources (not node_modules or dist).
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "dist") {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
