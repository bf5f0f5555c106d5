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

	"github.com/piconform/piconform/protocol"
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

// convert runs the coding agent's convertToLlm on the case's messages.
// Where Pi throws, the output is {"throws": {category, message}}: it maps
// over messages (which must be an array) and reads each one's role (which
// a null has not), and a custom message's projection may meet a value with
// no string form; each is a TypeError.
func convert(input jsonv.Value, opts Options) (jsonv.Value, error) {
	f := jsonv.ReadFields(input, "")
	raw := f.Any("messages")
	if err := f.Err(); err != nil {
		return jsonv.Value{}, err
	}
	reg := codingagent.Registry().In(opts.Dialect)
	if thrown, ok := convertInputThrows(reg, raw); ok {
		return thrown, nil
	}
	msgs, err := reg.DecodeAll(raw, "/messages")
	if err != nil {
		return jsonv.Value{}, err
	}
	llm, err := reg.ConvertToLLM(msgs)
	if ce, ok := errors.AsType[*agent.ConvertError](err); ok {
		return typeErrorOutput(convertThrowText(ce.Err)), nil
	}
	return object(jsonv.Member{Key: "messages", Value: ai.MessagesJSON(llm)}), nil
}

// convertInputThrows is the expected failure of convertToLlm for messages
// that are no array or that hold null, which it meets before projecting
// any message after the null (a projection that fails before it is
// found by ConvertToLLM, as the one failure). The texts are V8's.
func convertInputThrows(reg *agent.Registry, raw jsonv.Value) (jsonv.Value, bool) {
	switch raw.Kind() {
	case jsonv.Array:
	case jsonv.Absent, jsonv.Null:
		return typeErrorOutput(jsonv.ReadPropertyText(raw, "map")), true
	default:
		return typeErrorOutput("messages.map is not a function"), true
	}
	for i, e := range raw.Elems() {
		if e.Kind() == jsonv.Null {
			// A message before it that fails to project throws first.
			before := jsonv.ArrayValue(raw.Elems()[:i]...)
			if msgs, err := reg.DecodeAll(before, ""); err == nil {
				if _, err := reg.ConvertToLLM(msgs); err != nil {
					return typeErrorOutput(convertThrowText(err)), true
				}
			}
			return typeErrorOutput(jsonv.ReadPropertyText(e, "role")), true
		}
	}
	return jsonv.Value{}, false
}

// convertThrowText is V8's text for a projection that throws.
func convertThrowText(err error) string {
	if errors.Is(err, jsonv.ErrNoPrimitive) {
		return jsonv.NoPrimitiveText
	}
	return err.Error()
}

// normalize runs transformMessages on the case's messages for its model,
// with the case's tool-call id normalizer. Where Pi throws, the output is
// {"throws": {category, message}}: every place the reference finds that it
// does (input.throws, item 4) is a TypeError, Pi reading a member of null
// or undefined or calling a method the value lacks. A normalizer the case
// describes wrongly is an input error: it is the case's, not Pi's.
func normalize(input jsonv.Value, opts Options) (jsonv.Value, error) {
	f := jsonv.ReadFields(input, "")
	raw := f.Any("messages")
	rawModel := f.Any("model")
	rawNorm := f.OptObject("toolCallIdNormalizer")
	if err := f.Err(); err != nil {
		return jsonv.Value{}, err
	}
	norm, err := decodeNormalizer(rawNorm)
	if err != nil {
		return jsonv.Value{}, err
	}
	out, err := transformMessages(opts, raw, rawModel, norm)
	if pe, ok := errors.AsType[*jsonv.PathError](err); ok {
		return typeErrorOutput(pe.Error()), nil
	}
	if err != nil {
		return jsonv.Value{}, err
	}
	return object(jsonv.Member{Key: "messages", Value: ai.MessagesJSON(out)}), nil
}

// transformMessages decodes what transformMessages reads and runs it; an
// error is where Pi throws.
func transformMessages(opts Options, raw, rawModel jsonv.Value, norm transform.IDNormalizer) ([]ai.Message, error) {
	// Pi reads the model's input first (model.input.includes).
	model, err := ai.DecodeTargetModel(rawModel, "/model")
	if err != nil {
		return nil, err
	}
	// Pi 1.6 first gives every message without content an empty one.
	raw, err = transform.FillContent(opts.Dialect, raw, "/messages")
	if err != nil {
		return nil, err
	}
	msgs, err := ai.DecodeMessagesAllowForeignIn(opts.Dialect, raw, "/messages")
	if err != nil {
		return nil, err
	}
	var idThrows func(jsonv.Value) bool
	if norm != nil {
		idThrows = transform.NotAString
	}
	if err := transform.CheckThrowsIn(opts.Dialect, msgs, model, idThrows, "/messages"); err != nil {
		return nil, err
	}
	return transform.MessagesIn(opts.Dialect, msgs, model, norm, opts.now()), nil
}

// decodeNormalizer reads the tool-call id normalizer a normalize case
// describes (nil when it has none).
func decodeNormalizer(rawNorm jsonv.Value) (transform.IDNormalizer, error) {
	if rawNorm.IsAbsent() {
		return nil, nil
	}
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
		return nil, err
	}
	norm, err := transform.RegexNormalizer(re, with, maxLen)
	if err != nil {
		return nil, jsonv.Errorf("/toolCallIdNormalizer/replace", "%v", err)
	}
	return norm, nil
}

// cost runs calculateCost on the case's model and usage. Where Pi throws,
// the output is {"throws": {category, message}}: every throw of
// calculateCost is a TypeError (thrownCost).
func cost(input jsonv.Value, opts Options) (jsonv.Value, error) {
	f := jsonv.ReadFields(input, "")
	rawModel, rawUsage := f.Any("model"), f.Any("usage")
	if err := f.Err(); err != nil {
		return jsonv.Value{}, err
	}
	// The first statement reads a member of usage.
	if rawUsage.IsNullish() {
		return typeErrorOutput(jsonv.ReadPropertyText(rawUsage, firstUsageRead.At(opts.Dialect))), nil
	}
	// calculateCost reads nothing of the model but its prices. A model
	// that is no object has no cost member.
	prices := ai.ModelCost{Missing: true}
	if rawModel.Kind() == jsonv.Object {
		var err error
		if prices, err = ai.DecodeModelCost(rawModel, "/model"); err != nil {
			return jsonv.Value{}, err
		}
	}
	usage := ai.DecodeUsage(rawUsage, "/usage")
	if _, err := ai.CalculateCostIn(opts.Dialect, &ai.Model{Cost: prices}, &usage); err != nil {
		ce, ok := errors.AsType[*ai.CostError](err)
		if !ok {
			return jsonv.Value{}, err
		}
		msg := ce.Msg
		if errors.Is(err, ai.ErrNoPrices) && rawModel.IsNullish() {
			msg = jsonv.ReadPropertyText(rawModel, "cost") // before the cost's own member
		}
		return typeErrorOutput(msg), nil
	}
	// The prices computed, Pi sets them on usage.cost, which throws unless
	// it is an object or an array.
	if c, _ := rawUsage.Get("cost"); c.Kind() != jsonv.Object && c.Kind() != jsonv.Array {
		return typeErrorOutput(jsonv.SetPropertyText(c, "input")), nil
	}
	return object(jsonv.Member{Key: "usage", Value: usage.JSON()}), nil
}

// typeErrorOutput is the expected failure of a TypeError with V8's text.
func typeErrorOutput(msg string) jsonv.Value { return protocol.Throws(protocol.ThrowsTypeError, msg) }

// sanitize runs sanitizeSurrogates on the case's text. It calls the text's
// replace method, which only a string has: anything else throws a
// TypeError.
func sanitize(input jsonv.Value, _ Options) (jsonv.Value, error) {
	f := jsonv.ReadFields(input, "")
	text := f.Any("text")
	if err := f.Err(); err != nil {
		return jsonv.Value{}, err
	}
	switch text.Kind() {
	case jsonv.String:
		return object(jsonv.Member{Key: "text", Value: jsonv.StringValue(ai.SanitizeSurrogates(text.Str()))}), nil
	case jsonv.Absent, jsonv.Null:
		return typeErrorOutput(jsonv.ReadPropertyText(text, "replace")), nil
	}
	return typeErrorOutput("text.replace is not a function"), nil
}
