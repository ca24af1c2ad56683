//go:build !linux

package main

// adviseHugePages does nothing where Linux's transparent huge pages are
// not: see hugepages_linux.go.
func adviseHugePages(input int64) {}
