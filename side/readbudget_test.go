package side

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/profdiff/profdiff/analyze"
)

// TestReadBudget: runs whose estimated memory together exceeds the budget
// are read one after another, a run larger than the budget alone, and
// small runs together; two folded files of 2 M distinct stacks were read
// at once and two sides peaked at 1.73 GB of RSS, 1.15 GB one at a time.
func TestReadBudget(t *testing.T) {
	b := newReadBudget(100)
	var mu sync.Mutex
	running, most := 0, 0
	var wg sync.WaitGroup
	read := func(costs ...int64) int {
		running, most = 0, 0
		for _, c := range costs {
			b.acquire(c)
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer b.release(c)
				mu.Lock()
				running++
				most = max(most, running)
				mu.Unlock()
				time.Sleep(100 * time.Millisecond)
				mu.Lock()
				running--
				mu.Unlock()
			}()
		}
		wg.Wait()
		return most
	}
	if n := read(60, 60, 60); n != 1 {
		t.Errorf("runs of 60 in a budget of 100: %d at once, want 1", n)
	}
	if n := read(100, 100); n != 1 {
		t.Errorf("runs of the whole budget: %d at once, want 1", n)
	}
	if n := read(30, 30, 30); n != 3 {
		t.Errorf("runs of 30 in a budget of 100: %d at once, want 3", n)
	}
	dir := t.TempDir()
	big := filepath.Join(dir, "big.folded")
	if err := os.WriteFile(big, []byte(strings.Repeat("main;work 1\n", 10_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := newReadBudget(1000).cost(big, analyze.AggregateOptions{}); c != 1000 {
		t.Errorf("a folded file of 120,000 bytes costs %d of a budget of 1000, want all of it", c)
	}
	if c := b.cost("-", analyze.AggregateOptions{}); c != 0 {
		t.Errorf("standard input costs %d", c)
	}
}
