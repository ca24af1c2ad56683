package symbolicate

import (
	"syscall"
	"unsafe"
)

// adviseHugePages asks Linux to back the 2 MiB-aligned middle of a large,
// not yet touched buffer with transparent huge pages (where the system
// allows them on request): a map of tens of megabytes then costs a few
// dozen page faults rather than thousands, and each fault of fresh memory
// is dear on virtual machines. It is only a hint: errors are ignored.
func adviseHugePages(b []byte) {
	const huge = 2 << 20
	if len(b) < 2*huge {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start := (p + huge - 1) &^ (huge - 1)
	end := (p + uintptr(len(b))) &^ (huge - 1)
	if end > start {
		off := int(start - p)
		_ = syscall.Madvise(b[off:off+int(end-start)], 14) // MADV_HUGEPAGE
	}
}
