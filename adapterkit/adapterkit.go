// Package adapterkit turns a Go implementation of Pi's message system into a
// piconform adapter (spec/PROTOCOL.md). The kit does the protocol: framing,
// hello, seq, and JSON that keeps lone UTF-16 surrogates and number literals
// (reference/jsonv; encoding/json would turn a lone surrogate into U+FFFD).
// A port writes one function per case kind:
//
//	func main() {
//		err := adapterkit.Serve(os.Stdin, os.Stdout, adapterkit.Adapter{
//			Name: "my-port", Version: "0.1.0", Language: "go",
//			Kinds: map[string]adapterkit.KindFunc{"sanitize": sanitize},
//		})
//		if err != nil {
//			log.Fatal(err)
//		}
//	}
//
// Kinds the map does not name are skipped by the runner without being sent.
// Stdout belongs to the protocol: log to stderr.
//
// # Bridging to encoding/json
//
// A port whose types are Go structs with json tags can decode a case's
// input into them and encode its output from them with DecodeInput and
// EncodeOutput. Most cases pass through the bridge unharmed: key order and
// spacing do not matter to the runner, numbers are compared by value, and
// HTML escapes (\u003c) are the same string. Two things do not survive
// encoding/json, and the suite tests both:
//
//   - Lone UTF-16 surrogates. A JavaScript string may hold half of a
//     surrogate pair ("\ud83d"), and Pi passes it through until a provider
//     sanitizes it (spec/SPEC.md, the san.* rules and the sanitize kind).
//     encoding/json decodes such an escape as U+FFFD, and encodes a Go
//     string that is not valid UTF-8 with U+FFFD too, so the cases that
//     carry one fail. Keep those strings as jsonv values (WTF-8, see
//     reference/wtf8), or read them with jsonv and hand your type a
//     wtf8-aware string.
//   - Numbers beyond a float64. A token count or a price is a JSON number
//     of any size and precision; decoded into a float64 it loses digits
//     (12345678901234567890 becomes 12345678901234567000) and 1e400 is an
//     error. DecodeInput uses json.Number for interface values; give your
//     struct fields the type json.Number (or a big type of your own) where a
//     case may carry such a number, as the cost cases with large counts do.
//
// Values that change from run to run (a message's timestamp, 1.6's
// durationMs, the stack of a diagnostic) need not match: each kind declares
// them as redactions (harness/kinds, compare.Redaction; a case file adds its
// own under "redact"), and the runner only checks that they are there with
// the declared type (docs/cases.md, "Default redactions").
package adapterkit

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/piconform/piconform/protocol"
	"github.com/piconform/piconform/reference/jsonv"
)

// KindFunc runs one case of a kind: input is the case's input, the returned
// value its output, a JSON object (see spec/PROTOCOL.md for each kind's
// shapes). An error makes the answer an error frame, unless it is a
// *SkipError (see Skip). A *jsonv.PathError, whose pointer is relative to
// the input, is reported at /input/… so it names the place in the case file.
type KindFunc func(ctx context.Context, input jsonv.Value) (jsonv.Value, error)

// Adapter describes an implementation and runs its cases.
type Adapter struct {
	Name     string
	Version  string
	Language string
	Homepage string // optional
	// Kinds maps each case kind the implementation supports to its function.
	Kinds map[string]KindFunc
	// APIs lists the provider APIs the wire function can drive, such as
	// anthropic-messages; wire cases of other APIs are skipped.
	APIs []string
	// Dialects lists the Pi release lines the implementation follows
	// ("0.80", "1.6"), optional. A KindFunc reads the dialect a case asks
	// for with Dialect(ctx).
	Dialects []string
}

type dialectKey struct{}

// Dialect is the Pi release line the running case's golden pins ("1.6"),
// from its run frame; "" when the runner named none. Only a KindFunc's ctx
// holds it.
func Dialect(ctx context.Context) string {
	d, _ := ctx.Value(dialectKey{}).(string)
	return d
}

// SkipError is an error a KindFunc returns to skip a case it chose not to
// run, such as a feature the port lacks.
type SkipError struct {
	Reason string
	Link   string // optional: where to read more, such as an issue
}

func (e *SkipError) Error() string { return "skip: " + e.Reason }

// Skip returns the error that skips the case, with an optional link.
func Skip(reason string, link ...string) error {
	e := &SkipError{Reason: reason}
	if len(link) > 0 {
		e.Link = link[0]
	}
	return e
}

// Implementation is what the adapter says in its hello: kinds sorted.
func (a Adapter) Implementation() protocol.Implementation {
	kinds := make([]string, 0, len(a.Kinds))
	for k, f := range a.Kinds {
		if f != nil {
			kinds = append(kinds, k)
		}
	}
	slices.Sort(kinds)
	apis := slices.Clone(a.APIs)
	if apis == nil {
		apis = []string{}
	}
	return protocol.Implementation{
		Name: a.Name, Version: a.Version, Language: a.Language, Homepage: a.Homepage,
		Kinds: kinds, APIs: apis, Dialects: slices.Clone(a.Dialects),
	}
}

// Answer runs one case and says what the adapter answers: a result, a skip
// or an error. Serve sends it; an in-process harness can call it directly
// and get the very same answer.
func (a Adapter) Answer(ctx context.Context, c protocol.Case) protocol.Answer {
	run := a.Kinds[c.Kind]
	if run == nil {
		return protocol.Skip(fmt.Sprintf("unsupported case kind %q", c.Kind), "")
	}
	out, err := run(context.WithValue(ctx, dialectKey{}, c.Dialect), c.Input)
	var skip *SkipError
	switch {
	case errors.As(err, &skip):
		return protocol.Skip(skip.Reason, skip.Link)
	case err != nil:
		return protocol.Error(protocol.InputError(err))
	case out.Kind() != jsonv.Object:
		return protocol.Error(fmt.Sprintf("adapterkit: the %s function returned %s, not a JSON object", c.Kind, describe(out)))
	}
	// The result is what its JSON says, in process as over the protocol:
	// a NaN or an infinity the function computed is null.
	return protocol.Result(out.Stringified())
}

func describe(v jsonv.Value) string {
	if v.IsAbsent() {
		return "nothing"
	}
	return v.Kind().String()
}

// maxInputFrame bounds one line from the runner. Cases are far smaller; the
// bound only keeps a broken runner from exhausting memory.
const maxInputFrame = 64 << 20

// Serve speaks the adapter side of the protocol on r and w until r ends or
// the runner says bye. Each answer is flushed before the next frame is read.
// It returns an error only when the framing is broken (a line that is not a
// frame, an unexpected frame type, a run frame without a usable seq, a
// failed write), because the protocol cannot go on; a malformed case in a
// run frame with a usable seq is answered with an error frame.
func Serve(r io.Reader, w io.Writer, a Adapter) error {
	return ServeContext(context.Background(), r, w, a)
}

// ServeContext is Serve with a context handed to every KindFunc.
func ServeContext(ctx context.Context, r io.Reader, w io.Writer, a Adapter) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxInputFrame)
	var buf []byte
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		in, err := protocol.Decode(line)
		var out protocol.Frame
		switch {
		case err != nil && in.Type == protocol.TypeRun && in.Seq > 0:
			out = protocol.Reply(in.Seq, protocol.Error("adapterkit: malformed run frame: "+err.Error()))
		case err != nil:
			return fmt.Errorf("adapterkit: reading a frame: %w", err)
		case in.Type == protocol.TypeHello:
			out = protocol.HelloReply(a.Implementation())
		case in.Type == protocol.TypeRun:
			out = protocol.Reply(in.Seq, a.Answer(ctx, in.Case))
		case in.Type == protocol.TypeBye:
			return nil
		default:
			return fmt.Errorf("adapterkit: unexpected %s frame from the runner", in.Type)
		}
		buf = out.AppendLine(buf[:0])
		if _, err := w.Write(buf); err != nil {
			return fmt.Errorf("adapterkit: writing an answer: %w", err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("adapterkit: reading a frame: %w", err)
	}
	return nil
}
