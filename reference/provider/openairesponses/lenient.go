package openairesponses

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/transform"
)

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
