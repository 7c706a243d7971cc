package main

import (
	"os/exec"
	"syscall"
)

// setDeathSignal has the kernel kill the child when the runner dies.
func setDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
