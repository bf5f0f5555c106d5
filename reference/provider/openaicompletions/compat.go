package openaicompletions

import (
	"errors"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
)

// compat is Pi's resolved compatibility settings: each member is
// `model.compat.<name> ?? detected.<name>`, kept as the JSON value so that
// Pi's own tests (truthiness, `=== false`, `=== "max_tokens"`) read it the
// way JavaScript does.
type compat struct{ v map[string]jsonv.Value }

// compatMembers are the settings Pi resolves, in its order.
var compatMembers = []string{
	"supportsStore", "supportsDeveloperRole", "supportsReasoningEffort", "supportsUsageInStreaming",
	"maxTokensField", "requiresToolResultName", "requiresAssistantAfterToolResult", "requiresThinkingAsText",
	"requiresReasoningContentOnAssistantMessages", "thinkingFormat", "chatTemplateKwargs", "zaiToolStream",
	"supportsStrictMode", "cacheControlFormat", "sendSessionAffinityHeaders", "supportsLongCacheRetention",
}

// resolveCompat is Pi's getCompat (openRouterRouting and
// vercelGatewayRouting are read from model.compat directly where used).
func resolveCompat(model *ai.Model) (compat, error) {
	d, err := detectCompat(model)
	if err != nil || model.Compat.Kind() != jsonv.Object {
		return d, err
	}
	for _, name := range compatMembers {
		if v, ok := model.Compat.Get(name); ok && v.Kind() != jsonv.Null {
			d.v[name] = v
		}
	}
	return d, nil
}

// ErrOpenRouterModelNotString is Pi's TypeError for an OpenRouter model
// whose id is not a string: it calls the id's startsWith.
var ErrOpenRouterModelNotString = errors.New("openaicompletions: an OpenRouter model's id is not a string, and Pi throws reading it as one")

// detectCompat is what Pi derives from the provider name and from
// substrings of the whole baseUrl (case-sensitive).
func detectCompat(model *ai.Model) (compat, error) {
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
	nonStandard := nvidia || p == "cerebras" || has("cerebras.ai") || grok || together || has("chutes.ai") ||
		has("deepseek.com") || zai || moonshot || p == "opencode" || has("opencode.ai") || cfWorkers || cfGateway || antLing
	maxTokens := "max_completion_tokens"
	if has("chutes.ai") || moonshot || cfGateway || together || nvidia || antLing {
		maxTokens = "max_tokens"
	}
	if openRouter && model.Loose.Has("id") {
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
