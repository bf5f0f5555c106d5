// Command piconform runs Pi's message-system conformance suite. See
// 'piconform --help' and the README.
package main

import (
	"os"

	"github.com/piconform/piconform/harness/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}
