// Package conformance runs one conformance case against the Go reference:
// given a case kind and its input JSON, it returns the output JSON. It is the
// reference's whole face towards the harness, and it imports nothing of the
// harness. Answer says what the reference answers to a case (result, skip or
// error); the in-process subject and `piconform serve` (Serve, through
// adapterkit) both give that answer, so the reference has one face.
package conformance

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"time"

	"github.com/piconform/piconform/reference/agent"
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/codingagent"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// ErrUnsupported marks a case kind, or a provider API of a wire case, that
// this reference does not implement.
var ErrUnsupported = errors.New("unsupported")

// Options change how cases run.
type Options struct {
	// Dialect is the Pi release line the reference behaves as. The zero
	// value is the oldest, 0.80.
	Dialect dialect.Dialect
	// Now stamps values Pi takes from the clock. Nil means the real clock.
	Now transform.Clock
	// HTTPClient sends the requests of wire cases. Nil means
	// http.DefaultClient.
	HTTPClient *http.Client
	// Wait is the pause before a wire case's retry, d being what the API's
	// client waits (provider.Retry): it returns when the pause is over, or
	// ctx's error. The pause is not part of the answer, so nil does not wait
	// (the runner need not spend the seconds Pi does); Sleep waits for real.
	Wait func(ctx context.Context, d time.Duration) error
}

func (o Options) wait() func(context.Context, time.Duration) error {
	if o.Wait != nil {
		return o.Wait
	}
	return func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
}

func (o Options) now() transform.Clock {
	if o.Now != nil {
		return o.Now
	}
	return transform.SystemClock
}

type handler func(ctx context.Context, input jsonv.Value, opts Options) (jsonv.Value, error)

// pure adapts a handler that neither waits nor talks to the network.
func pure(h func(input jsonv.Value, opts Options) (jsonv.Value, error)) handler {
	return func(_ context.Context, input jsonv.Value, opts Options) (jsonv.Value, error) { return h(input, opts) }
}

var handlers = map[string]handler{
	"convert":   pure(convert),
	"normalize": pure(normalize),
	"cost":      pure(cost),
	"sanitize":  pure(sanitize),
	"pipeline":  pipeline,
	"session":   pure(sessionCase),
	"wire":      wire,
}

// Kinds lists the case kinds the reference implements.
func Kinds() []string {
	kinds := make([]string, 0, len(handlers))
	for k := range handlers {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}

// Handle runs one case. Errors in the input come back as *jsonv.PathError
// with a pointer relative to the input.
//
// Pi reads a case's input with JSON.parse and writes its output with
// JSON.stringify, so the reference does too: the input's numbers become
// the doubles JavaScript holds (a literal beyond a double's range is an
// infinity) and its objects keep one member per name (stream.JSValue), and
// a NaN or an infinity in the output is null.
func Handle(kind string, input jsonv.Value, opts Options) (jsonv.Value, error) {
	return HandleContext(context.Background(), kind, input, opts)
}

// HandleContext is Handle with a context that bounds the network calls of
// wire cases.
func HandleContext(ctx context.Context, kind string, input jsonv.Value, opts Options) (jsonv.Value, error) {
	h, ok := handlers[kind]
	if !ok {
		return jsonv.Value{}, fmt.Errorf("%w case kind %q", ErrUnsupported, kind)
	}
	out, err := h(ctx, stream.JSValue(input), opts)
	return out.Stringified(), err
}

func object(members ...jsonv.Member) jsonv.Value { return jsonv.ObjectValue(members...) }

func convert(input jsonv.Value, opts Options) (jsonv.Value, error) {
	f := jsonv.ReadFields(input, "")
	raw := f.Any("messages")
	if err := f.Err(); err != nil {
		return jsonv.Value{}, err
	}
	reg := codingagent.Registry().In(opts.Dialect)
	msgs, err := reg.DecodeAll(raw, "/messages")
	if err != nil {
		return jsonv.Value{}, err
	}
	llm, err := reg.ConvertToLLM(msgs)
	if ce, ok := errors.AsType[*agent.ConvertError](err); ok {
		return jsonv.Value{}, convertThrows(ce.Err, jsonv.Index("/messages", ce.Index))
	}
	return object(jsonv.Member{Key: "messages", Value: ai.MessagesJSON(llm)}), nil
}

func normalize(input jsonv.Value, opts Options) (jsonv.Value, error) {
	f := jsonv.ReadFields(input, "")
	raw := f.Any("messages")
	rawModel := f.Object("model")
	rawNorm := f.OptObject("toolCallIdNormalizer")
	if err := f.Err(); err != nil {
		return jsonv.Value{}, err
	}
	// Pi 1.6 first gives every message without content an empty one.
	raw, err := transform.FillContent(opts.Dialect, raw, "/messages")
	if err != nil {
		return jsonv.Value{}, err
	}
	msgs, err := ai.DecodeMessagesAllowForeignIn(opts.Dialect, raw, "/messages")
	if err != nil {
		return jsonv.Value{}, err
	}
	model, err := ai.DecodeTargetModel(rawModel, "/model")
	if err != nil {
		return jsonv.Value{}, err
	}
	var norm transform.IDNormalizer
	if !rawNorm.IsAbsent() {
		nf := jsonv.ReadFields(rawNorm, "/toolCallIdNormalizer")
		re, with := nf.String("replace"), nf.String("with")
		var maxLen *int
		if n := nf.OptNumber("maxLength"); !n.IsAbsent() {
			v, _ := n.Float64()
			// Clamp first: Go's conversion of an out-of-range float is
			// undefined (1e20 became a negative int), while slice(0, 1e20)
			// keeps the whole id.
			i := int(max(min(v, math.MaxInt32), math.MinInt32))
			maxLen = &i
		}
		if err := nf.Err(); err != nil {
			return jsonv.Value{}, err
		}
		if norm, err = transform.RegexNormalizer(re, with, maxLen); err != nil {
			return jsonv.Value{}, jsonv.Errorf("/toolCallIdNormalizer/replace", "%v", err)
		}
	}
	var idThrows func(jsonv.Value) bool
	if norm != nil {
		idThrows = transform.NotAString
	}
	if err := transform.CheckThrowsIn(opts.Dialect, msgs, model, idThrows, "/messages"); err != nil {
		return jsonv.Value{}, err
	}
	out := transform.MessagesIn(opts.Dialect, msgs, model, norm, opts.now())
	return object(jsonv.Member{Key: "messages", Value: ai.MessagesJSON(out)}), nil
}

func cost(input jsonv.Value, opts Options) (jsonv.Value, error) {
	f := jsonv.ReadFields(input, "")
	rawModel, rawUsage := f.Object("model"), f.Object("usage")
	if err := f.Err(); err != nil {
		return jsonv.Value{}, err
	}
	// calculateCost reads nothing of the model but its prices.
	prices, err := ai.DecodeModelCost(rawModel, "/model")
	if err != nil {
		return jsonv.Value{}, err
	}
	// Pi assigns the prices to usage.cost, which throws unless it is an
	// object or an array.
	if c, _ := rawUsage.Get("cost"); c.Kind() != jsonv.Object && c.Kind() != jsonv.Array {
		return jsonv.Value{}, jsonv.Errorf("/usage/cost", "want an object, got %s", c.Kind())
	}
	usage := ai.DecodeUsage(rawUsage, "/usage")
	if _, err := ai.CalculateCostIn(opts.Dialect, &ai.Model{Cost: prices}, &usage); err != nil {
		return jsonv.Value{}, err
	}
	return object(jsonv.Member{Key: "usage", Value: usage.JSON()}), nil
}

func sanitize(input jsonv.Value, _ Options) (jsonv.Value, error) {
	f := jsonv.ReadFields(input, "")
	text := f.String("text")
	if err := f.Err(); err != nil {
		return jsonv.Value{}, err
	}
	return object(jsonv.Member{Key: "text", Value: jsonv.StringValue(ai.SanitizeSurrogates(text))}), nil
}
