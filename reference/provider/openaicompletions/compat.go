package openaicompletions

import (
	"errors"
	"slices"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// compat is Pi's resolved compatibility settings: each member is
// `model.compat.<name> ?? detected.<name>`, kept as the JSON value so that
// Pi's own tests (truthiness, `=== false`, `=== "max_tokens"`) read it the
// way JavaScript does.
type compat struct{ v map[string]jsonv.Value }

// resolveCompat is Pi's getCompat (openRouterRouting and
// vercelGatewayRouting are read from model.compat directly where used).
func resolveCompat(model *ai.Model, dl dialect.Dialect) (compat, error) {
	d, err := detectCompat(model, dl)
	if err != nil || model.Compat.Kind() != jsonv.Object {
		return d, err
	}
	for _, name := range compatMembers.At(dl) {
		// `model.compat.<name> ?? detected.<name>` passes a null over; a
		// member taken from model.compat alone keeps it.
		if v, ok := model.Compat.Get(name); ok && (v.Kind() != jsonv.Null || slices.Contains(compatAlone, name)) {
			d.v[name] = v
		}
	}
	return d, nil
}

// ErrOpenRouterModelNotString is Pi's TypeError for an OpenRouter model
// whose id is not a string: it calls the id's startsWith.
var ErrOpenRouterModelNotString = errors.New("openaicompletions: an OpenRouter model's id is not a string, and Pi throws reading it as one")

// detectCompat is what Pi derives from the provider name and from
// substrings of the whole baseUrl (case-sensitive, but for 1.6's
// deepseek.com). Pi 1.6 changed it (dialects.go).
func detectCompat(model *ai.Model, dl dialect.Dialect) (compat, error) {
	p, url := model.Provider, model.BaseURL
	has := func(s ...string) bool {
		for _, x := range s {
			if strings.Contains(url, x) {
				return true
			}
		}
		return false
	}
	zai := p == "zai" || p == "zai-coding-cn" || has("api.z.ai", "open.bigmodel.cn")
	together := p == "together" || has("api.together.ai", "api.together.xyz")
	moonshot := p == "moonshotai" || p == "moonshotai-cn" || has("api.moonshot.")
	openRouter := p == "openrouter" || has("openrouter.ai")
	cfWorkers := p == "cloudflare-workers-ai" || has("api.cloudflare.com")
	cfGateway := p == "cloudflare-ai-gateway" || has("gateway.ai.cloudflare.com")
	nvidia := p == "nvidia" || has("integrate.api.nvidia.com")
	antLing := p == "ant-ling" || has("api.ant-ling.com")
	grok := p == "xai" || has("api.x.ai")
	deepSeek := p == "deepseek" || has("deepseek.com")
	deepSeekURL := has("deepseek.com")
	if caselessDeepSeek.At(dl) {
		deepSeek = p == "deepseek" || strings.Contains(strings.ToLower(url), "deepseek.com")
		deepSeekURL = deepSeek
	}
	nonStandard := nvidia || p == "cerebras" || has("cerebras.ai") || grok || together || has("chutes.ai") ||
		deepSeekURL || zai || moonshot || p == "opencode" || has("opencode.ai") || cfWorkers || cfGateway || antLing
	maxTokens := "max_completion_tokens"
	if has("chutes.ai") || moonshot || cfGateway || together || nvidia || antLing || maxTokensForDeepSeekAndZai.At(dl) && (deepSeek || zai) {
		maxTokens = "max_tokens"
	}
	// Pi reads the id with startsWith: 1.6 only for provider "openrouter".
	if (openRouter && idReadForOpenRouterURL.At(dl) || p == "openrouter") && model.Loose.Has("id") {
		return compat{}, ErrOpenRouterModelNotString
	}
	devModel := openRouter && (strings.HasPrefix(model.ID, "anthropic/") || strings.HasPrefix(model.ID, "openai/"))
	format := "openai"
	switch {
	case deepSeek:
		format = "deepseek"
	case zai:
		format = "zai"
	case together:
		format = "together"
	case antLing:
		format = "ant-ling"
	case openRouter:
		format = "openrouter"
	}
	b := jsonv.BoolValue
	v := map[string]jsonv.Value{
		"supportsStore":            b(!nonStandard),
		"supportsDeveloperRole":    b(devModel || (!nonStandard && !openRouter)),
		"supportsReasoningEffort":  b(!grok && !zai && !moonshot && !together && !cfGateway && !nvidia && !antLing),
		"supportsUsageInStreaming": b(true),
		"maxTokensField":           jsonv.StringValue(maxTokens),
		"requiresToolResultName":   b(false), "requiresAssistantAfterToolResult": b(false), "requiresThinkingAsText": b(false),
		"requiresReasoningContentOnAssistantMessages": b(deepSeek),
		"thinkingFormat":             jsonv.StringValue(format),
		"chatTemplateKwargs":         jsonv.ObjectValue(),
		"zaiToolStream":              b(false),
		"supportsStrictMode":         b(!moonshot && !together && !cfGateway && !nvidia),
		"sendSessionAffinityHeaders": b(false),
		"supportsLongCacheRetention": b(!(together || cfWorkers || cfGateway || nvidia || antLing)),
	}
	if detectsSettings16.At(dl) {
		affinity := "openai"
		if openRouter {
			affinity = "openrouter"
		}
		// Only OpenAI's own API gets the developer role; no tool is strict
		// unless the model says so; OpenRouter sends its session header.
		v["supportsDeveloperRole"] = b(p == "openai" || has("api.openai.com"))
		v["supportsStrictMode"] = b(false)
		v["sendSessionAffinityHeaders"] = b(openRouter)
		v["sessionAffinityFormat"] = jsonv.StringValue(affinity)
		for _, name := range []string{"requiresNonNullAssistantContent", "requiresToolsWithToolHistory",
			"supportsThinkingTokenBudget", "supportsOpenAIGrammarTools", "supportsMidConvoSystemMessages", "supportsMidConvoToolAdditions"} {
			v[name] = b(false)
		}
		v["supportsFinishReason"] = b(true)
		v["chatTemplateArgs"] = jsonv.ObjectValue()
	}
	if p == "openrouter" && strings.HasPrefix(model.ID, "anthropic/") {
		v["cacheControlFormat"] = jsonv.StringValue("anthropic")
	}
	return compat{v}, nil
}

func (c compat) get(name string) jsonv.Value { return c.v[name] }

// truthy is the setting read as a condition.
func (c compat) truthy(name string) bool { return c.v[name].Truthy() }

// isFalse is `setting === false`.
func (c compat) isFalse(name string) bool {
	v := c.v[name]
	return v.Kind() == jsonv.Bool && !v.Bool()
}

// is is `setting === s`.
func (c compat) is(name, s string) bool { return strictString(c.v[name], s) }
