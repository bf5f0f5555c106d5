package main

import (
	"bytes"
	"os"
	"strconv"
)

// highWaterMark is this process's peak resident set size in bytes, the
// VmHWM line of /proc/self/status; 0 where there is none (not Linux).
func highWaterMark() int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(status) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			kb, err := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))), 10, 64)
			if err != nil {
				return 0
			}
			return kb * 1024
		}
	}
	return 0
}
