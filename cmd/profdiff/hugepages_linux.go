package main

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"
)

// adviseHugePages backs the heap of a run over input bytes with
// transparent huge pages, where Linux gives them on request only
// (/sys/kernel/mm/transparent_hugepage/enabled is "madvise", the default
// of Debian and Ubuntu). A run's heap is fresh memory, and every 4 KiB
// page of it costs a page fault when first touched: on a virtual machine
// a fault costs 15-20 µs, and reading the 57 MiB tsc profile took 6,000
// of them (9,500 for its flame graph), a third to a half of the run. A
// 2 MiB page costs one fault.
//
// The Go runtime advises huge pages for its own metadata only, and a
// mapping made after the advice does not inherit it, so the heap is first
// grown (an allocation of twice the input, at most maxHugeReserve, never
// touched, so it costs no memory), the heap's mappings are advised, and a
// collection frees the allocation at once (a forced one: else the heap's
// next goal would count it); the run's allocations then reuse that
// address space, in huge pages. Where the kernel has no huge pages, or
// /proc is not there, nothing changes.
func adviseHugePages(input int64) {
	if !hugePagesWanted(input, os.Getenv("GODEBUG")) {
		return
	}
	size := min(max(2*input, 64<<20), maxHugeReserve)
	reserve := make([]byte, size)
	maps, err := os.ReadFile("/proc/self/maps")
	if err == nil && len(maps) > 0 {
		// The heap: from the arena of an early allocation (maps') to the
		// end of the reserve.
		const arena = 64 << 20
		lo := min(uintptr(unsafe.Pointer(&maps[0])), uintptr(unsafe.Pointer(&reserve[0]))) &^ (arena - 1)
		hi := uintptr(unsafe.Pointer(&reserve[0])) + uintptr(size)
		for _, m := range writableAnonymous(maps) {
			a, z := max(m[0], lo), min(m[1], hi)
			if a < z {
				// Best effort: an error leaves the pages as they were.
				_, _, _ = unix.Syscall(unix.SYS_MADVISE, a, z-a, unix.MADV_HUGEPAGE)
			}
		}
	}
	runtime.KeepAlive(reserve) // its last use: the collection frees it
	runtime.GC()
}

// writableAnonymous returns the [start, end) of each private, writable
// mapping without a file in /proc/self/maps text.
func writableAnonymous(maps []byte) [][2]uintptr {
	var out [][2]uintptr
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) != 5 || string(f[1]) != "rw-p" {
			continue
		}
		lo, hi, ok := bytes.Cut(f[0], []byte{'-'})
		a, err1 := strconv.ParseUint(string(lo), 16, 64)
		z, err2 := strconv.ParseUint(string(hi), 16, 64)
		if !ok || err1 != nil || err2 != nil || z <= a {
			continue
		}
		out = append(out, [2]uintptr{uintptr(a), uintptr(z)})
	}
	return out
}
