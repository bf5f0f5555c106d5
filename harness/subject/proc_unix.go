//go:build unix

package subject

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the implementation in its own process group, so that
// killing it also kills whatever its shell started.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	killAll(descendants(cmd.Process.Pid)) // first, while the tree is whole
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
