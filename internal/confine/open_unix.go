//go:build unix

package confine

import "syscall"

// openNonBlocking keeps open from waiting for a writer when the file is a
// FIFO; it changes nothing for a regular file.
const openNonBlocking = syscall.O_NONBLOCK
