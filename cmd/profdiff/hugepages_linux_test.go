package main

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

func TestWritableAnonymous(t *testing.T) {
	maps := []byte(`00400000-0074d000 r-xp 00000000 fe:00 10156651                           /tmp/pdh
00a9e000-00b31000 rw-p 00a9e000 fe:00 10156651                           /tmp/pdh
00b31000-02d8e000 rw-p 00000000 00:00 0 
1fde9c000000-1fde9fc00000 ---p 00000000 00:00 0 
1fde9fc00000-1fdea0400000 rw-p 00000000 00:00 0 
7ffeee770000-7ffeee791000 rw-p 00000000 00:00 0                          [stack]
`)
	got := writableAnonymous(maps)
	want := [][2]uintptr{{0xb31000, 0x2d8e000}, {0x1fde9fc00000, 0x1fdea0400000}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("writableAnonymous = %x, want %x", got, want)
	}
}

// TestAdviseHugePagesBacksTheHeap: after the advice, memory the run
// allocates and touches is held in huge pages, where the kernel gives them
// on request; without it, none (the kernel's default in madvise mode). It
// runs in a process of its own: the other tests' allocations, in this
// process, would take the advised address space first.
func TestAdviseHugePagesBacksTheHeap(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !bytes.Contains(mode, []byte("[madvise]")) {
		t.Skipf("transparent huge pages are not given on request here (%q, %v)", mode, err)
	}
	if os.Getenv("PROFDIFF_TEST_HUGEPAGES") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAdviseHugePagesBacksTheHeap$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "PROFDIFF_TEST_HUGEPAGES=1", "GODEBUG=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	adviseHugePages(64 << 20)
	before := anonHugeKiB(t)
	b := make([]byte, 32<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	after := anonHugeKiB(t)
	if after-before < 2048 {
		t.Errorf("32 MiB touched after the advice: %d KiB in huge pages before, %d after", before, after)
	}
}

// anonHugeKiB returns the process's anonymous memory held in huge pages.
func anonHugeKiB(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		t.Skipf("no smaps_rollup: %v", err)
	}
	for _, line := range bytes.Split(b, []byte{'\n'}) {
		if rest, ok := bytes.CutPrefix(line, []byte("AnonHugePages:")); ok {
			n, err := strconv.Atoi(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("smaps_rollup has no AnonHugePages")
	return 0
}
