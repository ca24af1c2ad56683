//go:build !unix

package record

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// supported says why runs cannot be recorded here.
func supported() error {
	return errors.New("profdiff record runs commands in process groups of their own, which this system does not have: record on Linux or macOS")
}

func ownGroup(cmd *exec.Cmd) {}

func signalGroup(p *os.Process, sig syscall.Signal) { _ = p.Kill() }

const (
	interruptSignal = syscall.SIGINT
	terminateSignal = syscall.SIGTERM
	killSignal      = syscall.SIGKILL
)

func usage(st *os.ProcessState) (time.Duration, *Resources, string) {
	return st.UserTime() + st.SystemTime(), &Resources{UserNs: int64(st.UserTime()), SysNs: int64(st.SystemTime())}, ""
}
