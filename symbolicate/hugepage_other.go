//go:build !linux

package symbolicate

// adviseHugePages is a no-op outside Linux.
func adviseHugePages([]byte) {}
