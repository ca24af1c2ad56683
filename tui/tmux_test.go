package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tmuxServer drives the built command in a real terminal: a private tmux
// server (its own socket, killed at the end), one session per run.
type tmuxServer struct {
	t      *testing.T
	socket string
	bin    string
}

func newTmux(t *testing.T) *tmuxServer {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the tmux tests build the command and run it in a terminal")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (apt-get install -y tmux): the explorer is checked in a real terminal only where it is")
	}
	bin := filepath.Join(t.TempDir(), "profdiff")
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if out, err := exec.Command(gobin, "build", "-o", bin, "github.com/profdiff/profdiff/cmd/profdiff").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	s := &tmuxServer{t: t, socket: "profdiff-tui-test-" + strconv.Itoa(os.Getpid()), bin: bin}
	t.Cleanup(func() { exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	return s
}

func (s *tmuxServer) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// start runs profdiff with args in a w x h terminal and waits for want.
func (s *tmuxServer) start(name string, w, h int, want string, args ...string) {
	s.t.Helper()
	cmd := "NO_COLOR=1 " + s.bin
	for _, a := range args {
		cmd += " '" + a + "'"
	}
	s.tmux("new-session", "-d", "-s", name, "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), cmd+"; echo EXIT=$?; sleep 30")
	s.wait(name, want)
}

func (s *tmuxServer) keys(name string, keys ...string) {
	s.t.Helper()
	for _, k := range keys {
		s.tmux("send-keys", "-t", name, k)
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *tmuxServer) screen(name string) string {
	s.t.Helper()
	return s.tmux("capture-pane", "-p", "-t", name)
}

// wait returns the screen once it shows want (a regular expression).
func (s *tmuxServer) wait(name, want string) string {
	s.t.Helper()
	re := regexp.MustCompile(want)
	var sc string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if sc = s.screen(name); re.MatchString(sc) {
			return sc
		}
	}
	s.t.Fatalf("%s: the screen never showed %q:\n%s", name, want, sc)
	return ""
}

// cursorLine is the selected row of a screen.
func cursorLine(sc string) string {
	for _, l := range strings.Split(sc, "\n") {
		if strings.HasPrefix(l, "›") {
			return l
		}
	}
	return ""
}

// TestTmux checks the explorer's items in a real terminal.
func TestTmux(t *testing.T) {
	s := newTmux(t)
	before := filepath.Join("..", "testdata", "node-router-unbundled-before.cpuprofile")
	after := filepath.Join("..", "testdata", "node-router-unbundled-after.cpuprofile")

	t.Run("esc keeps the filter and the row", func(t *testing.T) {
		s.t = t
		// Maps asked for that cover none of the scripts: a warning for
		// each run, said once for both.
		s.start("esc", 120, 40, "path-to-regexp", "--format", "tui", "--sourcemaps", filepath.Join("..", "testdata", "bundles", "inline"), before, after)
		s.keys("esc", "Tab", "/", "b", "a", "s", "e")
		s.wait("esc", "filter: base")
		s.keys("esc", "Enter", "Down", "Down")
		sel := cursorLine(s.wait("esc", `(^|\D)3/\d+`)) // both Downs taken: the third row
		s.keys("esc", "Enter")
		s.wait("esc", "callers of")
		s.keys("esc", "Escape")
		sc := s.wait("esc", "filter: base")
		if got := cursorLine(sc); got != sel || sel == "" {
			t.Errorf("back on %q, was on %q:\n%s", got, sel, sc)
		}
		// The sort indicator, and its reverse.
		s.keys("esc", "s")
		s.wait("esc", "before▼")
		s.keys("esc", "S")
		s.wait("esc", "before▲")
		// Every warning, whole.
		s.keys("esc", "w")
		sc = s.wait("esc", `profdiff: \d+ warnings?`)
		// The two runs' missing-map warnings, said once for both.
		if !strings.Contains(sc, "all 2 runs:") || !strings.Contains(sc, "no source map for") {
			t.Errorf("the warnings overlay lacks a warning:\n%s", sc)
		}
		// Escape and q sent at once read as alt+q: one, then the other.
		s.keys("esc", "Escape")
		s.wait("esc", "tab view")
		s.keys("esc", "q")
		s.wait("esc", "EXIT=0")
	})

	t.Run("files open their functions", func(t *testing.T) {
		s.t = t
		s.start("files", 120, 40, "path-to-regexp", "--format", "tui", before, after)
		s.keys("files", "Tab", "Tab", "Enter")
		s.wait("files", `files › \S+`)
		s.keys("files", "q")
	})

	t.Run("help fits 60x20", func(t *testing.T) {
		s.t = t
		s.start("help", 60, 20, "packages", "--format", "tui", before, after)
		s.keys("help", "?")
		sc := s.wait("help", "profdiff: keys")
		for _, b := range newKeyMap().all() {
			if !strings.Contains(sc, b.Help().Desc) {
				t.Errorf("help at 60x20 lacks %q:\n%s", b.Help().Desc, sc)
			}
		}
		s.keys("help", "Escape")
		sc = s.wait("help", "packages")
		if first := strings.SplitN(sc, "\n", 2)[0]; !regexp.MustCompile(`p=\d\.\d{3}$`).MatchString(strings.TrimSpace(first)) {
			t.Errorf("the one-line headline cuts its p-value: %q", first)
		}
		s.keys("help", "q")
	})

	t.Run("source pane reaches the hottest line", func(t *testing.T) {
		s.t = t
		// The profile records Go's own sources, where this machine's Go
		// keeps them or not.
		const file = "/usr/local/go/src/regexp/exec.go"
		if _, err := os.Stat(file); err != nil {
			t.Skipf("%s is not here: the source pane has nothing to show", file)
		}
		s.start("go", 120, 40, "functions", "--format", "tui", filepath.Join("..", "testdata", "go-router-before.pprof"))
		s.keys("go", "Tab", "/", "doOnePass", "Enter", "Enter")
		sc := s.wait("go", `callers of regexp\.\(\*Regexp\)\.doOnePass`)
		if !regexp.MustCompile(`432\s+490 ms │`).MatchString(sc) {
			t.Errorf("the pane does not open at line 432 (490 ms):\n%s", sc)
		}
		s.keys("go", "Tab", "]")
		s.wait("go", `source line 433`)
		s.keys("go", "q")
	})
}
