package openairesponses

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/transform"
)

// ErrPiThrows marks a context with members of other types than Pi declares
// on which Pi's conversion throws a TypeError (it calls a string method on
// another type, or reads a member of null): Pi sends nothing and ends the
// stream in an error, so the reference refuses the input (input.lenient,
// wire.openai-responses.lenient).
var ErrPiThrows = transform.ErrThrows

// throws is an ErrPiThrows naming the JSON Pointer Pi trips on.
func throws(ptr, format string, args ...any) error { return transform.Throws(ptr, format, args...) }

func messagePointer(i int) string { return jsonv.Index("/context/messages", i) }

// checkTransform refuses what transformMessages throws on before the
// conversion sees the messages, with this API's normalizer, which calls
// string methods on every id of another model's tool call.
func checkTransform(msgs []ai.Message, model *ai.Model) error {
	return transform.CheckThrows(msgs, model, transform.NotAString, "/context/messages")
}

func isNull(b ai.Block) bool {
	f, ok := b.(*ai.ForeignBlock)
	return ok && f.Raw.Kind() == jsonv.Null
}
