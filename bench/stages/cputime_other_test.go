//go:build !unix

package stages

import "time"

// cpuTime returns the time on the clock: where getrusage is missing, the
// guard measures time on the clock instead of CPU time.
func cpuTime() time.Duration { return time.Duration(time.Now().UnixNano()) }
