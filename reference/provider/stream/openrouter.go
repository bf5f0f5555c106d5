package stream

import (
	"math"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
)

// IsOpenRouter is Pi 1.6's isOpenRouterModel: provider "openrouter" or a
// base URL holding openrouter.ai.
func IsOpenRouter(model *ai.Model) bool {
	return model.Provider == "openrouter" || strings.Contains(model.BaseURL, "openrouter.ai")
}

// ApplyOpenRouterCost is Pi 1.6's applyOpenRouterReportedCost: the cost
// OpenRouter billed, as its usage object reported reports it, replaces the
// priced total, and totalFromProvider becomes true. It needs a valid cost
// (a finite number, 0 or more); is_byok false takes it alone, is_byok true
// adds cost_details.upstream_inference_cost (when that is null, the sum of
// the upstream prompt and completions costs, both valid), which must be
// valid. Anything else leaves usage as it is.
func ApplyOpenRouterCost(usage *ai.Usage, reported jsonv.Value) {
	valid := func(v jsonv.Value) (float64, bool) {
		if v.Kind() != jsonv.Number {
			return 0, false
		}
		f, _ := v.Float64()
		return f, !math.IsInf(f, 0) && !math.IsNaN(f) && f >= 0
	}
	cost, ok := valid(Member(reported, "cost"))
	if !ok {
		return
	}
	byok := Member(reported, "is_byok")
	switch {
	case byok.Kind() == jsonv.Bool && !byok.Bool():
		usage.Cost.Total = jsonv.JSNumberValue(cost)
	case byok.Kind() == jsonv.Bool && byok.Bool():
		details := Member(reported, "cost_details")
		if !details.Truthy() {
			return
		}
		upstream := Member(details, "upstream_inference_cost")
		var up float64
		if upstream.Kind() == jsonv.Null {
			p, okP := valid(Member(details, "upstream_inference_prompt_cost"))
			c, okC := valid(Member(details, "upstream_inference_completions_cost"))
			if !okP || !okC {
				return
			}
			up = p + c
		} else if up, ok = valid(upstream); !ok {
			return
		}
		if math.IsInf(up, 0) {
			return
		}
		usage.Cost.Total = jsonv.JSNumberValue(cost + up)
	default:
		return
	}
	usage.Cost.SetTotalFromProvider(true)
}
