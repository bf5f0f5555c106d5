//go:build !unix

package subject_test

// faultEnv makes this test binary a misbehaving adapter; the faults are
// Unix ones (fault_test.go).
const faultEnv = "PICONFORM_TEST_FAULT"

func fault(string) int { return 2 }
