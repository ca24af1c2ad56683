//go:build unix

package stages

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, in all its threads
// (the garbage collector's too): unlike the time on the clock, it does not
// grow while other processes hold the core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err) // cannot happen: RUSAGE_SELF is valid
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
