//go:build !unix

package confine

// openNonBlocking is 0 where there are no FIFOs to wait on.
const openNonBlocking = 0
