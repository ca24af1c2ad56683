//go:build !linux

package record

import "time"

// machineCPU cannot read the machine's busy time here.
func machineCPU() (time.Duration, bool) { return 0, false }
