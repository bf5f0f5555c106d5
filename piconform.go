// Package piconform ships the built-in conformance suite: the case files, their
// goldens and the spec whose rules they cite. The harness lives in harness/,
// the Go reference implementation of Pi's message system in reference/, and
// the command in cmd/piconform.
package piconform

import (
	"embed"
	"io/fs"
)

//go:embed fixtures golden spec/SPEC.md
var builtin embed.FS

// Builtin returns the built-in suite: fixtures/, golden/ and spec/SPEC.md.
func Builtin() fs.FS { return builtin }
