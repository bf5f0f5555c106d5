//go:build unix

package pipeline

import "syscall"

// processCPU is the CPU time this process has used, in nanoseconds: every
// thread's, so the garbage collector's too.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
