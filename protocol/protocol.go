// Package protocol is the subprocess protocol of spec/PROTOCOL.md in Go: its
// version, its frame types, and the encoding and decoding of frames. Both
// sides use it: the runner (harness/subject) and every Go adapter
// (adapterkit, and through it the reference's own `piconform serve`).
//
// Frames are read and written with reference/jsonv, never encoding/json, so
// lone UTF-16 surrogates and number literals cross the pipe unchanged.
package protocol

import (
	"math"
	"slices"
	"strconv"

	"github.com/piconform/piconform/reference/jsonv"
)

// Version is the protocol version this package speaks.
const Version = 1

// MaxFrameBytes bounds one line an adapter writes, newline included; a longer
// one is a protocol violation, so a flood cannot exhaust the runner's memory.
const MaxFrameBytes = 16 << 20

// Frame types. Hello goes both ways; run and bye go from the runner to the
// adapter; result, skip and error are the adapter's answers to a run.
const (
	TypeHello  = "hello"
	TypeRun    = "run"
	TypeBye    = "bye"
	TypeResult = "result"
	TypeSkip   = "skip"
	TypeError  = "error"
)

// Implementation is what an adapter says about itself in its hello.
type Implementation struct {
	Name     string   `json:"name"`
	Version  string   `json:"version"`
	Language string   `json:"language"`
	Homepage string   `json:"homepage,omitempty"`
	Kinds    []string `json:"kinds"`
	APIs     []string `json:"apis"`
	// Dialects are the Pi release lines ("0.80", "1.6") the implementation
	// says it follows; empty when it does not say. The runner uses them to
	// choose a dialect when none is asked for.
	Dialects []string `json:"dialects,omitempty"`
}

// Supports reports whether the implementation claims the case kind.
func (i Implementation) Supports(kind string) bool { return slices.Contains(i.Kinds, kind) }

// SupportsAPI reports whether the implementation claims the provider API.
func (i Implementation) SupportsAPI(api string) bool { return slices.Contains(i.APIs, api) }

// Case is the case a run frame carries.
type Case struct {
	ID    string
	Kind  string
	Input jsonv.Value
	// Dialect is the Pi release line whose behaviour the golden pins
	// ("1.6"); "" when the runner names none.
	Dialect string
}

// Answer is an adapter's answer to one case: a result, a skip or an error.
type Answer struct {
	// Type is TypeResult, TypeSkip or TypeError.
	Type    string
	Output  jsonv.Value // result
	Reason  string      // skip
	Link    string      // skip, optional
	Message string      // error
}

// Result is the answer of a case that ran.
func Result(output jsonv.Value) Answer { return Answer{Type: TypeResult, Output: output} }

// Skip is the answer of a case the adapter chose not to run.
func Skip(reason, link string) Answer { return Answer{Type: TypeSkip, Reason: reason, Link: link} }

// Error is the answer of a case whose implementation failed.
func Error(message string) Answer { return Answer{Type: TypeError, Message: message} }

// Frame is one line of the protocol. Type says which other fields count:
//
//	hello   Protocol, and Implementation in the adapter's answer
//	run     Seq, Case
//	result  Seq, Answer.Output
//	skip    Seq, Answer.Reason, Answer.Link
//	error   Seq, Answer.Message
//	bye     nothing
type Frame struct {
	Type           string
	Protocol       int
	Implementation *Implementation
	Seq            int64
	Case           Case
	Answer         Answer
}

// Hello is the runner's first frame.
func Hello() Frame { return Frame{Type: TypeHello, Protocol: Version} }

// HelloReply is the adapter's answer to hello.
func HelloReply(impl Implementation) Frame {
	return Frame{Type: TypeHello, Protocol: Version, Implementation: &impl}
}

// Run asks the adapter to run one case.
func Run(seq int64, c Case) Frame { return Frame{Type: TypeRun, Seq: seq, Case: c} }

// Bye is the runner's last frame.
func Bye() Frame { return Frame{Type: TypeBye} }

// Reply is the adapter's answer to the run frame numbered seq.
func Reply(seq int64, a Answer) Frame { return Frame{Type: a.Type, Seq: seq, Answer: a} }

// Value encodes the frame as a JSON object, members in the order
// spec/PROTOCOL.md shows them.
func (f Frame) Value() jsonv.Value {
	b := new(jsonv.ObjectBuilder).SetString("type", f.Type)
	seq := jsonv.NumberValue(strconv.FormatInt(f.Seq, 10))
	switch f.Type {
	case TypeHello:
		b.Set("protocol", jsonv.NumberValue(strconv.Itoa(f.Protocol)))
		if f.Implementation != nil {
			b.Set("implementation", f.Implementation.value())
		}
	case TypeRun:
		c := new(jsonv.ObjectBuilder).SetString("id", f.Case.ID).SetString("kind", f.Case.Kind)
		if f.Case.Dialect != "" {
			c.SetString("dialect", f.Case.Dialect)
		}
		b.Set("seq", seq).Set("case", c.Set("input", f.Case.Input).Value())
	case TypeResult:
		b.Set("seq", seq).Set("output", f.Answer.Output)
	case TypeSkip:
		b.Set("seq", seq).SetString("reason", f.Answer.Reason)
		if f.Answer.Link != "" {
			b.SetString("link", f.Answer.Link)
		}
	case TypeError:
		b.Set("seq", seq).SetString("message", f.Answer.Message)
	}
	return b.Value()
}

// Fits tells whether the frame, as one line, stays within MaxFrameBytes
// less headroom bytes (for what is added to it later, such as the base URL
// a wire case's input gets). Its seq counts at its longest.
func (f Frame) Fits(headroom int) bool {
	f.Seq = math.MaxInt64
	return len(f.AppendLine(nil))+headroom <= MaxFrameBytes
}

// AppendLine appends the frame as one line of NDJSON, newline included.
func (f Frame) AppendLine(dst []byte) []byte {
	return append(f.Value().AppendJSON(dst), '\n')
}

func (i Implementation) value() jsonv.Value {
	b := new(jsonv.ObjectBuilder).SetString("name", i.Name).SetString("version", i.Version).SetString("language", i.Language)
	if i.Homepage != "" {
		b.SetString("homepage", i.Homepage)
	}
	b.Set("kinds", stringArray(i.Kinds)).Set("apis", stringArray(i.APIs))
	if len(i.Dialects) > 0 {
		b.Set("dialects", stringArray(i.Dialects))
	}
	return b.Value()
}

func stringArray(ss []string) jsonv.Value {
	vs := make([]jsonv.Value, len(ss))
	for i, s := range ss {
		vs[i] = jsonv.StringValue(s)
	}
	return jsonv.ArrayValue(vs...)
}

// Decode reads one line as a frame and checks the shape its type requires.
// Problems come back as *jsonv.PathError with a pointer into the frame. On
// an error, the frame holds what was read before it: a run frame with a
// usable Seq can still be answered.
func Decode(line []byte) (Frame, error) {
	v, err := jsonv.Parse(line)
	if err != nil {
		return Frame{}, err
	}
	return DecodeValue(v)
}

// DecodeValue is Decode for a parsed value.
func DecodeValue(v jsonv.Value) (Frame, error) {
	f := jsonv.ReadFields(v, "")
	fr := Frame{Type: f.String("type")}
	if err := f.Err(); err != nil {
		return Frame{}, err
	}
	switch fr.Type {
	case TypeHello:
		fr.Protocol = version(f)
		if impl := f.OptObject("implementation"); !impl.IsAbsent() {
			i, err := decodeImplementation(impl)
			if err != nil {
				return fr, err
			}
			fr.Implementation = &i
		}
	case TypeBye:
	case TypeRun:
		fr.Seq = seqOf(f)
		c := jsonv.ReadFields(f.Object("case"), "/case")
		if err := f.Err(); err != nil {
			return fr, err
		}
		// The input's shape is the kind's to check, so an adapter reports it
		// as it would in process: at /input, not as a broken frame.
		fr.Case = Case{ID: c.String("id"), Kind: c.String("kind"), Input: c.Any("input")}
		if d := c.OptString("dialect"); d != nil {
			fr.Case.Dialect = *d
		}
		if err := c.Err(); err != nil {
			return fr, err
		}
	case TypeResult:
		fr.Seq = seqOf(f)
		fr.Answer = Answer{Type: fr.Type, Output: f.Object("output")}
	case TypeSkip:
		fr.Seq = seqOf(f)
		fr.Answer = Answer{Type: fr.Type, Reason: f.String("reason")}
		if l := f.OptString("link"); l != nil {
			fr.Answer.Link = *l
		}
	case TypeError:
		fr.Seq = seqOf(f)
		fr.Answer = Answer{Type: fr.Type, Message: f.String("message")}
	default:
		return fr, jsonv.Errorf("/type", "unknown frame type %q", fr.Type)
	}
	return fr, f.Err()
}

// version reads the member protocol: an integer of at least 1.
func version(f *jsonv.Fields) int {
	n := positiveInt(f, "protocol")
	if n > math.MaxInt32 {
		f.Fail("protocol", "want a protocol version, got %d", n)
		return 0
	}
	return int(n)
}

// seqOf reads the member seq: an integer of at least 1.
func seqOf(f *jsonv.Fields) int64 { return positiveInt(f, "seq") }

// positiveInt reads a required integer member of at least 1. Any literal
// of that value counts (1, 1.0, 1e0): a JSON library may write either.
func positiveInt(f *jsonv.Fields, key string) int64 {
	v := f.Number(key)
	if f.Err() != nil {
		return 0
	}
	n, ok := v.Float64()
	if !ok || n != math.Trunc(n) || n < 1 || n > 1<<53 {
		f.Fail(key, "want a positive integer, got %s", v.Literal())
		return 0
	}
	return int64(n)
}

func decodeImplementation(v jsonv.Value) (Implementation, error) {
	f := jsonv.ReadFields(v, "/implementation")
	impl := Implementation{Name: f.String("name"), Version: f.String("version")}
	if l := f.OptString("language"); l != nil {
		impl.Language = *l
	}
	if h := f.OptString("homepage"); h != nil {
		impl.Homepage = *h
	}
	kinds := f.Array("kinds")
	apis, _ := f.OptArray("apis")
	dialects, _ := f.OptArray("dialects")
	if err := f.Err(); err != nil {
		return Implementation{}, err
	}
	if impl.Name == "" {
		return Implementation{}, jsonv.Errorf("/implementation/name", "want a non-empty string")
	}
	var err error
	if impl.Kinds, err = stringList(kinds, "/implementation/kinds"); err != nil {
		return Implementation{}, err
	}
	if impl.APIs, err = stringList(apis, "/implementation/apis"); err != nil {
		return Implementation{}, err
	}
	if len(dialects) > 0 {
		if impl.Dialects, err = stringList(dialects, "/implementation/dialects"); err != nil {
			return Implementation{}, err
		}
	}
	return impl, nil
}

func stringList(vs []jsonv.Value, ptr string) ([]string, error) {
	out := []string{}
	for i, v := range vs {
		if v.Kind() != jsonv.String {
			return nil, jsonv.Errorf(jsonv.Index(ptr, i), "want a string, got %s", v.Kind())
		}
		out = append(out, v.Str())
	}
	return out, nil
}

// InputError names an error about a case's input by its place in the case
// file, where the input is the member "input": a *jsonv.PathError's pointer
// gains the prefix /input. Other errors keep their text.
func InputError(err error) string {
	return jsonv.Under("input", err).Error()
}

// The categories of an expected failure (spec/PROTOCOL.md, "Expected
// failures"), after JavaScript's error classes.
const (
	ThrowsTypeError   = "type-error"
	ThrowsRangeError  = "range-error"
	ThrowsSyntaxError = "syntax-error"
	ThrowsError       = "error"
)

// Throws is the output of a case on which the implementation failed where Pi
// throws: {"throws": {"category", "message"}}. It goes in a result, never an
// error frame; the category is compared, the message only as a string.
func Throws(category, message string) jsonv.Value {
	return jsonv.ObjectValue(jsonv.Member{Key: "throws", Value: jsonv.ObjectValue(
		jsonv.Member{Key: "category", Value: jsonv.StringValue(category)},
		jsonv.Member{Key: "message", Value: jsonv.StringValue(message)},
	)})
}
