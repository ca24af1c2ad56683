package tui

import (
	"path/filepath"
	"strings"
	"testing"
)

// loaderInput is the recorded catalog loader pair, one run a side: a
// 437 ms stall before, sliced into short ones after.
func loaderInput(t *testing.T) Input {
	return input(t, "responsiveness/before-r1.cpuprofile.gz", "responsiveness/after-r1.cpuprofile.gz")
}

// TestStallsView: r shows the responsiveness figures, a timeline of each
// run with its long stretch marked, and the longest stall with what ran
// in it; r or esc closes it.
func TestStallsView(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m := sized(New(loaderInput(t)), size[0], size[1])
		m, _ = press(t, m, "r")
		sc := m.Render()
		for _, want := range []string{"responsiveness (per run, from samples)", "longest stall", "better", "before |", "after  |", string(markLong), "1. 4"} {
			if !strings.Contains(sc, want) {
				t.Errorf("%dx%d: the view lacks %q:\n%s", size[0], size[1], want, sc)
			}
		}
		for i, l := range strings.Split(sc, "\n") {
			if w := len([]rune(l)); w > size[0] || i >= size[1] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i+1, w, l)
			}
		}
		// The before run's strip has its long stall, the after run's none.
		for _, l := range strings.Split(sc, "\n") {
			if strings.HasPrefix(l, "after  |") && strings.ContainsRune(l, markLong) {
				t.Errorf("the after run shows a stall over 50 ms: %q", l)
			}
		}
		m, _ = press(t, m, "r")
		if strings.Contains(m.Render(), "responsiveness (per run") {
			t.Errorf("r does not close the view")
		}
	}
}

// TestStallsViewWithoutTimes: a pprof profile has no stall figures; r says
// so in the footer.
func TestStallsViewWithoutTimes(t *testing.T) {
	m := sized(New(input(t, "go-router-before.pprof")), 100, 30)
	m, _ = press(t, m, "r")
	if sc := m.Render(); !strings.Contains(sc, "no stalls: the profiles record no sample times") {
		t.Errorf("r on a pprof profile:\n%s", sc)
	}
}

// TestTmuxStalls checks the responsiveness view in a real terminal at
// 80x24 and 120x40.
func TestTmuxStalls(t *testing.T) {
	s := newTmux(t)
	before := filepath.Join("..", "testdata", "responsiveness", "before-r1.cpuprofile.gz")
	after := filepath.Join("..", "testdata", "responsiveness", "after-r1.cpuprofile.gz")
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		name := "stalls" + string(rune('0'+size[0]/40))
		s.start(name, size[0], size[1], "packages", "--format", "tui", before, after)
		s.keys(name, "r")
		sc := s.wait(name, `responsiveness \(per run`)
		for _, want := range []string{"longest stall", "before |", string(markLong), "Timeline"} {
			if !strings.Contains(sc, want) {
				t.Errorf("%dx%d: the view lacks %q:\n%s", size[0], size[1], want, sc)
			}
		}
		s.keys(name, "Escape")
		s.wait(name, "packages")
		s.keys(name, "q")
		s.wait(name, "EXIT=0")
	}
}
