//go:build !linux

package record

// rssFloor is not known here (see the Linux version).
func rssFloor() int64 { return 0 }
