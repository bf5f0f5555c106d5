// Package piconform ships the built-in conformance suite: the case files,
// their goldens, the cassettes of the wire cases and the spec whose rules
// they cite. The harness lives in harness/, the Go reference implementation
// of Pi's message system in reference/, and the command in cmd/piconform.
package piconform

import (
	"embed"
	"io/fs"
)

//go:embed fixtures golden cassettes spec/*.md
var builtin embed.FS

// Builtin returns the built-in suite: fixtures/, golden/, cassettes/ and the
// spec's Markdown files (spec/*.md).
func Builtin() fs.FS { return builtin }
