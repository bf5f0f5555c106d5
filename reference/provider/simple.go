package provider

import (
	"math"
	"slices"
	"strconv"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/wtf8"
)

// SimpleOptions are pi-ai's SimpleStreamOptions, what streamSimple takes:
// the shared StreamOptions, a thinking level and custom thinking budgets.
// Each API's Driver.FromSimple maps them to the API's own options, as the
// API's streamSimple does before it calls stream.
type SimpleOptions struct {
	StreamOptions
	// Reasoning is the thinking level ("minimal" … "xhigh") as written; a
	// falsy value asks for no thinking. Pi also takes a truthy value of
	// another type (input.lenient): it equals no level, and as a property
	// key it is what String() makes of it (Level).
	Reasoning jsonv.Value
	// ThinkingBudgets overrides the token budget of some levels, as an
	// object of numbers ({"low": 3000}) as Pi declares it; Absent when not
	// given. It is kept as written: Pi spreads it or reads its members
	// with ?.[level] (Budget), and computes with what it finds.
	ThinkingBudgets jsonv.Value
	// Transcript is the messages of the call's context as streamSimple
	// gets them (in 1.6 the transcript normalizeContext made, system
	// messages included), as written; Pi 1.6 estimates the input from
	// them to fit the output cap in the context window (ClampToContext).
	// The caller sets it; nil estimates an empty input.
	Transcript []jsonv.Value
}

// DecodeSimpleOptions reads SimpleOptions from the object v at ptr. Members
// neither StreamOptions nor SimpleOptions name stay in Extra (an API's
// streamSimple may read one, as openai-completions reads toolChoice).
func DecodeSimpleOptions(v jsonv.Value, ptr string) (SimpleOptions, error) {
	var o SimpleOptions
	shared, err := DecodeOptions(v, ptr, func(f *jsonv.Fields) {
		o.Reasoning = f.Any("reasoning")
		o.ThinkingBudgets = f.Any("thinkingBudgets")
	})
	if err != nil {
		return SimpleOptions{}, err
	}
	o.StreamOptions = shared
	return o, nil
}

// Base is Pi's buildBaseOptions: the shared members streamSimple hands on
// to stream. Everything else the caller gave is dropped.
func (o SimpleOptions) Base() StreamOptions {
	base := o.StreamOptions
	base.Extra = nil
	return base
}

// BaseFor is Pi's buildBaseOptions of the options' dialect for model:
// Base, and from 1.6 on an output cap always, the caller's maxTokens or
// else the model's, fitted in the context window (ClampToContext). Use
// it, not Base, where Pi 1.6 calls buildBaseOptions.
func (o SimpleOptions) BaseFor(model *ai.Model) StreamOptions {
	base := o.Base()
	if capsOutput.At(o.Dialect) {
		base.MaxTokens = o.ClampToContext(model, stream.Nullish(o.MaxTokens, model.MaxTokens))
	}
	return base
}

// KeyedBase is BaseFor for an API whose streamSimple throws without a key:
// the error is that throw, which comes first, before Pi reads anything
// else of the model, the context or the options (no base then). With
// authHeaders, a caller's header that authenticates in place of a key will
// do.
func (o SimpleOptions) KeyedBase(model *ai.Model, authHeaders ...string) (StreamOptions, error) {
	if _, err := o.APIKeyOr(model, "", authHeaders...); err != nil {
		return StreamOptions{}, err
	}
	return o.BaseFor(model), nil
}

// ToolChoice is the caller's toolChoice as the API's streamSimple hands it
// to stream: from 1.6 on every API keeps it; in 0.80 only some do (they
// read ExtraMember("toolChoice") themselves), so it is Absent here.
func (o SimpleOptions) ToolChoice() jsonv.Value {
	if !keepsToolChoice.At(o.Dialect) {
		return jsonv.Value{}
	}
	return o.ExtraMember("toolChoice")
}

// Thinking reports whether a level was asked for: Pi's `if (!reasoning)`.
func (o SimpleOptions) Thinking() bool { return o.Reasoning.Truthy() }

// Level is the thinking level, "" when none was asked for. A level of
// another type is the property key JavaScript makes of it (String()), which
// is what Pi's lookups in budget and level maps use, and which throws where
// String() does: a caller asks for it where Pi looks the level up.
// LevelIsName tells it from a level given as a string, which alone can
// equal a level's name.
func (o SimpleOptions) Level() string {
	if !o.Thinking() {
		return ""
	}
	return stream.ToString(o.Reasoning)
}

// LevelIsName reports whether the level was given as a string.
func (o SimpleOptions) LevelIsName() bool { return o.Reasoning.Kind() == jsonv.String }

// Clamped is Pi's clampThinkingLevel of the level, in the options'
// dialect: a level of another type is in no list of levels, so it clamps
// to the model's first supported level.
func (o SimpleOptions) Clamped(model *ai.Model) string {
	if !o.LevelIsName() {
		return ClampThinkingLevelIn(o.Dialect, model, "")
	}
	return ClampThinkingLevelIn(o.Dialect, model, o.Level())
}

// Effort is the reasoning effort the OpenAI-style APIs hand to stream: the
// level clamped to the model (Clamped), nil when none was asked for or the
// clamp gives "off".
func (o SimpleOptions) Effort(model *ai.Model) *string {
	if !o.Thinking() {
		return nil
	}
	level := o.Clamped(model)
	if level == "off" {
		return nil
	}
	return &level
}

// LevelEntry is Pi's model.thinkingLevelMap?.[level]: Absent when the map
// is nullish or has no such member. The level is looked up by its property
// key, String(level), which throws where String() does; a nullish map
// makes no key.
func LevelEntry(model *ai.Model, level jsonv.Value) jsonv.Value {
	if model.ThinkingLevelMap.IsNullish() {
		return jsonv.Value{}
	}
	v, _ := model.ThinkingLevelMap.Get(stream.ToString(level))
	return v
}

// ExtraMember is the member key of Extra (the last of duplicates), Absent
// when there is none.
func (o SimpleOptions) ExtraMember(key string) jsonv.Value {
	v, _ := jsonv.ObjectValue(o.Extra...).Get(key)
	return v
}

// SupportedThinkingLevels is SupportedThinkingLevelsIn for Pi 0.80.
func SupportedThinkingLevels(model *ai.Model) []string {
	return SupportedThinkingLevelsIn(dialect.V0_80, model)
}

// SupportedThinkingLevelsIn is Pi's getSupportedThinkingLevels of dialect
// d: only "off" for a model without reasoning; else every level the
// model's thinkingLevelMap does not map to null, the opt-in ones (xhigh,
// in 1.6 also max) only when the map names them with another value.
func SupportedThinkingLevelsIn(d dialect.Dialect, model *ai.Model) []string {
	if !model.Reasoning {
		return []string{"off"}
	}
	var out []string
	for _, level := range thinkingLevels.At(d) {
		mapped, ok := model.ThinkingLevelMap.Get(level)
		if ok && mapped.Kind() == jsonv.Null || slices.Contains(optInLevels.At(d), level) && !ok {
			continue
		}
		out = append(out, level)
	}
	return out
}

// ClampThinkingLevel is ClampThinkingLevelIn for Pi 0.80.
func ClampThinkingLevel(model *ai.Model, level string) string {
	return ClampThinkingLevelIn(dialect.V0_80, model, level)
}

// ClampThinkingLevelIn is Pi's clampThinkingLevel of dialect d: the level
// itself when the model supports it, else the nearest supported level
// above it, else the nearest below; an unknown level becomes the first
// supported one.
func ClampThinkingLevelIn(d dialect.Dialect, model *ai.Model, level string) string {
	supported := SupportedThinkingLevelsIn(d, model)
	levels := thinkingLevels.At(d)
	first := "off"
	if len(supported) > 0 {
		first = supported[0]
	}
	at := slices.Index(levels, level)
	switch {
	case slices.Contains(supported, level):
		return level
	case at < 0:
		return first
	}
	for _, l := range levels[at+1:] {
		if slices.Contains(supported, l) {
			return l
		}
	}
	for i := at - 1; i >= 0; i-- {
		if slices.Contains(supported, levels[i]) {
			return levels[i]
		}
	}
	return first
}

// ClampReasoning is ClampReasoningIn for Pi 0.80.
func ClampReasoning(level string) string { return ClampReasoningIn(dialect.V0_80, level) }

// ClampReasoningIn is Pi's clampReasoning of dialect d: the opt-in levels
// (xhigh, in 1.6 also max) are high, for the APIs that have no budget of
// their own for them.
func ClampReasoningIn(d dialect.Dialect, level string) string {
	if slices.Contains(optInLevels.At(d), level) {
		return "high"
	}
	return level
}

// AdaptiveEffort is Pi's mapThinkingLevelToEffort for an adaptive-thinking
// Claude model: the model's thinkingLevelMap entry for the level when it is
// a string (LevelEntry), else low for minimal and low, medium for medium,
// and high for anything else, a level of another type included.
func AdaptiveEffort(model *ai.Model, level jsonv.Value) string {
	if v := LevelEntry(model, level); v.Kind() == jsonv.String {
		return v.Str()
	}
	switch {
	case level.Kind() != jsonv.String:
	case level.Str() == "minimal" || level.Str() == "low":
		return "low"
	case level.Str() == "medium":
		return "medium"
	}
	return "high"
}

// defaultThinkingBudgets are the token budgets of budget-thinking Claude
// models under streamSimple.
var defaultThinkingBudgets = map[string]float64{"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384}

// minOutputTokens is what a budget leaves for the answer when the budget
// would take all of maxTokens.
const minOutputTokens = 1024

// AdjustMaxTokensForThinking is Pi's adjustMaxTokensForThinking: the
// thinking budget of level (xhigh counts as high; a custom budget before
// the default one) is added to maxTokens, capped at the model's maxTokens
// (maxTokens Absent: the model's maxTokens). When the cap leaves no room
// beyond the budget, the budget shrinks to leave minOutputTokens, never
// below 0. A level with neither a custom nor a default budget ("off") has
// no budget (Absent): maxTokens is then the model's when the caller gave
// none, and otherwise NaN (Pi adds undefined), which max_tokens carries as
// null.
func AdjustMaxTokensForThinking(maxTokens jsonv.Value, model *ai.Model, level string, custom jsonv.Value) (outMax, budget jsonv.Value) {
	return AdjustMaxTokensForThinkingIn(dialect.V0_80, maxTokens, model, level, custom)
}

// AdjustMaxTokensForThinkingIn is AdjustMaxTokensForThinking of dialect d,
// whose opt-in levels count as high (ClampReasoningIn). (1.6 caps a
// budget that takes all of maxTokens as min(budget, max(0, maxTokens −
// 1024)), which is the same number.)
func AdjustMaxTokensForThinkingIn(d dialect.Dialect, maxTokens jsonv.Value, model *ai.Model, level string, custom jsonv.Value) (outMax, budget jsonv.Value) {
	level = ClampReasoningIn(d, level)
	// {...defaults, ...custom}[level]: a member of custom, whatever it
	// holds, before the default; neither is undefined (Absent).
	b, ok := Budget(custom, level)
	if d, has := defaultThinkingBudgets[level]; !ok && has {
		b = jsonv.FloatValue(d)
	}
	// Values of other types are computed with as JavaScript computes
	// (input.lenient): the model's maxTokens is passed on as it is when the
	// caller gave none, else added to and compared after Number(). NaN
	// stays a number, so ?? keeps it and max_tokens is null.
	outMax = model.MaxTokens
	if !maxTokens.IsAbsent() {
		outMax = jsonv.JSNumberValue(math.Min(stream.Plus(maxTokens, b).JSNumber(), stream.ToNumber(model.MaxTokens)))
	}
	if jsLessOrEqual(outMax, b) {
		b = jsonv.JSNumberValue(math.Max(0, outMax.JSNumber()-minOutputTokens))
	}
	return outMax, b
}

// Budget is Pi's budgets?.[level] of a thinkingBudgets value of any type:
// an object's member, an array's element or a string's UTF-16 unit under
// an index key; nothing on anything else.
func Budget(budgets jsonv.Value, key string) (jsonv.Value, bool) {
	switch budgets.Kind() {
	case jsonv.Object:
		return budgets.Get(key)
	case jsonv.Array, jsonv.String:
		i, err := strconv.Atoi(key)
		if err != nil || i < 0 || strconv.Itoa(i) != key {
			return jsonv.Value{}, false
		}
		if budgets.Kind() == jsonv.Array {
			if i < len(budgets.Elems()) {
				return budgets.Elems()[i], true
			}
			return jsonv.Value{}, false
		}
		if units := wtf8.ToUTF16(budgets.Str()); i < len(units) {
			return jsonv.StringValue(wtf8.FromUTF16(units[i : i+1])), true
		}
	}
	return jsonv.Value{}, false
}

// jsLessOrEqual is JavaScript's a <= b: two strings compare by UTF-16
// units, anything else by Number(), where NaN is never less or equal.
func jsLessOrEqual(a, b jsonv.Value) bool {
	if a.Kind() == jsonv.String && b.Kind() == jsonv.String {
		return slices.Compare(wtf8.ToUTF16(a.Str()), wtf8.ToUTF16(b.Str())) <= 0
	}
	return stream.ToNumber(a) <= stream.ToNumber(b)
}

// FitThinkingBudget is Pi 1.6's last step of a thinking budget for a
// request whose output cap is maxTokens (after every clamp): the budget,
// cut so minOutputTokens stay for the answer, never below 0, computed as
// JavaScript's Math.min and Math.max compute (a missing budget or a cap
// that is not a number gives NaN).
func FitThinkingBudget(budget, maxTokens jsonv.Value) jsonv.Value {
	return jsonv.JSNumberValue(math.Min(stream.ToNumber(budget), math.Max(0, stream.ToNumber(maxTokens)-minOutputTokens)))
}
