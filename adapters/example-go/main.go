// Command example-go is a whole piconform adapter built on adapterkit: one
// function per case kind. These call the Go reference; a port calls its own.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/piconform/piconform/adapterkit"
	"github.com/piconform/piconform/protocol"
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

func main() {
	if err := adapterkit.Serve(os.Stdin, os.Stdout, adapter()); err != nil {
		fmt.Fprintln(os.Stderr, "example-go:", err) // stdout belongs to the protocol
		os.Exit(1)
	}
}

func adapter() adapterkit.Adapter {
	// The other kinds are the reference's own, which answer as the Pi
	// release line each case names (adapterkit.Dialect); a port has its own.
	ref := conformance.Adapter("", conformance.Options{})
	kinds := map[string]adapterkit.KindFunc{"sanitize": sanitize}
	for _, kind := range []string{"convert", "normalize", "cost", "pipeline", "session", "wire"} {
		kinds[kind] = ref.Kinds[kind]
	}
	return adapterkit.Adapter{
		Name: "example-go", Version: "0.1.0", Language: "go", Kinds: kinds,
		APIs:     conformance.APIs(), // the provider APIs the wire function drives
		Dialects: dialect.Names(),    // the Pi release lines it follows: 0.80 and 1.6
	}
}

// sanitize is one kind written out: read the input, compute, build the output.
func sanitize(_ context.Context, input jsonv.Value) (jsonv.Value, error) {
	text, _ := input.Get("text")
	if text.Kind() != jsonv.String { // Pi calls text.replace: a TypeError
		return protocol.Throws(protocol.ThrowsTypeError, "text is "+text.Kind().String()), nil
	}
	out := ai.SanitizeSurrogates(text.Str()) // lone surrogates arrive intact
	return jsonv.ObjectValue(jsonv.Member{Key: "text", Value: jsonv.StringValue(out)}), nil
}
