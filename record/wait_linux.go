package record

import "golang.org/x/sys/unix"

// waitExited blocks until the process pid has exited, without reaping it:
// while the exited leader is not reaped, its process group's number cannot
// be given to another process, so that what it left running in its group
// can be stopped without the risk of signalling a stranger. It reports
// false where it cannot wait so.
func waitExited(pid int) bool {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return err == nil
		}
	}
}
