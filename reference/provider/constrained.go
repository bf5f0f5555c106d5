package provider

import (
	"fmt"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
)

// JSONSchemaSampling is Pi 1.6's choice for a tool that asks for
// JSON-schema constrained sampling (constrainedSampling {type:
// "json_schema", strict: "prefer" | "require"}) on a model that does or
// does not support strict tools. A tool that asks for none, or for another
// kind, is sent as before. On a model without strict tools "prefer" is
// dropped silently and "require" fails the stream before anything is sent
// (a *stream.RequestError naming the tool). On a model with strict tools
// the tool would be sent strict, with its schema rewritten, which the
// reference does not model (stream.ErrOutsideModel).
func JSONSchemaSampling(t ai.Tool, supported bool) error {
	cs, _ := jsonv.ObjectValue(t.Extra...).Get("constrainedSampling")
	if !cs.Truthy() || !jsonv.StrictEqual(stream.Member(cs, "type"), jsonv.StringValue("json_schema")) {
		return nil
	}
	if supported {
		return fmt.Errorf("%w: a strict tool (JSON-schema constrained sampling)", stream.ErrOutsideModel)
	}
	if jsonv.StrictEqual(stream.Member(cs, "strict"), jsonv.StringValue("require")) {
		return &stream.RequestError{Message: `Tool "` + stream.ToString(t.NameValue()) + `" requires JSON-schema constrained sampling, but strict tools are unsupported.`}
	}
	return nil
}
