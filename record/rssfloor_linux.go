package record

import (
	"os"
	"strconv"
	"strings"
)

// rssFloor lowers this process's peak resident set to its current one
// (writing 5 to /proc/self/clear_refs, Linux 4.0 and later) and returns
// that peak (VmHWM), in bytes, 0 where unread.
//
// It is the least max RSS the kernel can report for a command this
// process starts next: Go starts commands with clone(CLONE_VM|CLONE_VFORK),
// the child running in this process's memory until it executes the
// command, and at exec the kernel charges the child the peak of the
// memory it leaves (fs/exec.c, setmax_mm_hiwater_rss). /bin/true started
// by a Go program holding 300 MiB reports a max RSS of 303 MiB;
// /usr/bin/time, which forks, reports 1 MiB.
func rssFloor() int64 {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			f := strings.Fields(v)
			if len(f) >= 1 {
				kib, err := strconv.ParseInt(f[0], 10, 64)
				if err == nil {
					return kib << 10
				}
			}
		}
	}
	return 0
}
