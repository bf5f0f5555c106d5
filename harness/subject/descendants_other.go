//go:build !linux

package subject

// killDescendants does nothing where processes cannot be listed portably:
// killing the process group is all (see spec/PROTOCOL.md).
func killDescendants(int) {}
