package main

import (
	"github.com/profdiff/profdiff/side"
	"os"
	"strings"
)

// hugePagesFrom is the input size from which a run backs its heap with
// huge pages (see adviseHugePages): under it the advice costs more than it
// saves (2 ms and 2 MiB of peak memory on a 300 KB profile).
const hugePagesFrom = 16 << 20

// maxHugeReserve bounds the heap adviseHugePages prepares (address space
// only: the pages are never touched before they are given back).
const maxHugeReserve = 1 << 30

// inputBytes adds up the sizes of the sides' files (standard input and
// files that cannot be read count nothing: reading them says what is
// wrong).
func inputBytes(sides []side.Side) int64 {
	var n int64
	for _, s := range sides {
		for _, f := range s.Files {
			if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
				n += st.Size()
			}
		}
	}
	return n
}

// hugePagesWanted reports whether a run over input bytes advises huge
// pages: large inputs only, and never when GODEBUG asks the Go runtime
// to keep transparent huge pages off its heap (disablethp=1).
func hugePagesWanted(input int64, godebug string) bool {
	if input < hugePagesFrom {
		return false
	}
	for _, kv := range strings.Split(godebug, ",") {
		if strings.TrimSpace(kv) == "disablethp=1" {
			return false
		}
	}
	return true
}
