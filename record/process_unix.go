//go:build unix

package record

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// supported returns nil where runs can be recorded.
func supported() error { return nil }

// ownGroup makes the command start in a process group of its own, so that
// a timeout or an interrupt can stop it with everything it started, and
// nothing else is ever signalled.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to the process group the run leads.
func signalGroup(p *os.Process, sig syscall.Signal) {
	_ = syscall.Kill(-p.Pid, sig) // ESRCH: the group is already gone
}

// interruptSignal is what an interrupt (Ctrl-C) forwards to the run's
// group, which, in a group of its own, does not get the terminal's.
const interruptSignal = syscall.SIGINT

// terminateSignal is what a timeout sends first.
const terminateSignal = syscall.SIGTERM

// killSignal is what is sent when the grace period is over.
const killSignal = syscall.SIGKILL

// usage returns the CPU time (user and system) of the reaped child and of
// the descendants it waited for, the rest of the rusage wait4 returned for
// it (see Resources), and the signal that ended it, if any.
func usage(st *os.ProcessState) (cpu time.Duration, res *Resources, signal string) {
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		rss := int64(ru.Maxrss) * 1024 // Linux and the BSDs: KiB
		if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
			rss = int64(ru.Maxrss) // bytes
		}
		res = &Resources{UserNs: ru.Utime.Nano(), SysNs: ru.Stime.Nano(), MaxRSSBytes: rss,
			MinorFaults: int64(ru.Minflt), MajorFaults: int64(ru.Majflt),
			VoluntaryCtx: int64(ru.Nvcsw), InvoluntaryCtx: int64(ru.Nivcsw)}
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		if signal = unix.SignalName(ws.Signal()); signal == "" {
			signal = ws.Signal().String()
		}
	}
	return cpu, res, signal
}
