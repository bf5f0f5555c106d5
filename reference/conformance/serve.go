package conformance

import (
	"context"
	"errors"
	"io"

	"github.com/piconform/piconform/adapterkit"
	"github.com/piconform/piconform/protocol"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// Name is the implementation name the reference gives in its hello.
const Name = "piconform-reference"

// Adapter is the reference as an adapter of the kit: one function per case
// kind, each a Handle of that kind. A case the reference does not implement
// (ErrUnsupported, such as a wire case of an API it lacks) is a skip.
func Adapter(version string, opts Options) adapterkit.Adapter {
	kinds := make(map[string]adapterkit.KindFunc, len(handlers))
	for kind := range handlers {
		kinds[kind] = func(ctx context.Context, input jsonv.Value) (jsonv.Value, error) {
			opts := opts
			if name := adapterkit.Dialect(ctx); name != "" {
				d, err := dialect.Parse(name)
				if err != nil {
					return jsonv.Value{}, adapterkit.Skip(err.Error())
				}
				opts.Dialect = d
			}
			out, err := HandleContext(ctx, kind, input, opts)
			if errors.Is(err, ErrUnsupported) {
				return jsonv.Value{}, adapterkit.Skip(err.Error())
			}
			return out, err
		}
	}
	return adapterkit.Adapter{Name: Name, Version: version, Language: "go", Kinds: kinds, APIs: APIs(), Dialects: dialect.Names()}
}

// Answer is the reference's answer to one case, the same in process and
// under `piconform serve`: a result, a skip (a kind or API the reference
// lacks) or an error (input errors name their place under /input).
func Answer(ctx context.Context, c protocol.Case, opts Options) protocol.Answer {
	return Adapter("", opts).Answer(ctx, c)
}

// Serve speaks the adapter side of the subprocess protocol (spec/PROTOCOL.md)
// for the reference, through adapterkit. It returns when r ends or a bye
// frame arrives; it returns an error only when the framing itself is broken,
// because then the protocol cannot go on.
func Serve(r io.Reader, w io.Writer, version string, opts Options) error {
	return adapterkit.Serve(r, w, Adapter(version, opts))
}
