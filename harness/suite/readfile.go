package suite

import (
	"fmt"
	"io"
	"io/fs"
)

// MaxFileBytes bounds every file a suite holds (case, golden, cassette,
// presets): far above any real one, it keeps a mistaken or hostile file
// (a symlink to /dev/zero, a huge log) from exhausting the runner.
const MaxFileBytes = 64 << 20

// ReadFile reads name from fsys if it is a regular file (after symlinks) of
// at most MaxFileBytes. Anything else (a folder, a device, a FIFO, which
// would block, or a bigger file) is an error at once.
func ReadFile(fsys fs.FS, name string) ([]byte, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", DescribeMode(st.Mode()))
	}
	if st.Size() > MaxFileBytes {
		return nil, fmt.Errorf("%d bytes, over the limit of %d MiB", st.Size(), MaxFileBytes>>20)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The size may change after the check: read one byte past the limit.
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("over the limit of %d MiB", MaxFileBytes>>20)
	}
	return data, nil
}

// DescribeMode names the type of a file that is not a regular file, for
// an error that refuses it: "a folder", "a named pipe", "a device", ….
func DescribeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	}
	return m.Type().String()
}
