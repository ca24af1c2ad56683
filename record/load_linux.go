package record

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of /proc/stat's times: USER_HZ, 100 on every Linux
// architecture Go runs on (the kernel converts to it whatever its own HZ).
const userHZ = 100

// machineCPU returns the CPU time all the machine's CPUs spent busy since
// boot (/proc/stat's cpu line: user, nice, system, irq, softirq and steal), and
// false where it cannot be read.
func machineCPU() (time.Duration, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return 0, false
	}
	var busy int64
	for i, s := range f[1:] {
		// idle and iowait are not busy; guest and guest_nice are in user
		// already; steal (the hypervisor gave the CPU to another machine)
		// counts, as work that took the CPU from the runs.
		if i == 3 || i == 4 || i >= 8 {
			continue
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, false
		}
		busy += v
	}
	return time.Duration(busy) * time.Second / userHZ, true
}
