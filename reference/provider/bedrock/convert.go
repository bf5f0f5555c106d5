package bedrock

import (
	"encoding/base64"
	"regexp"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/anthropic"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// NormalizeToolCallID is this API's tool-call id normalizer, the same as
// anthropic-messages': UTF-16 units outside [a-zA-Z0-9_-] become "_", cut
// to 64 units. transform applies it to calls made by other models only.
var NormalizeToolCallID = anthropic.NormalizeToolCallID

// candidates are the lower-cased model id and name, each also with runs
// of whitespace, "_", "." and ":" turned into "-".
func candidates(model *ai.Model) []string {
	values := []string{model.ID}
	if model.Name != "" {
		values = append(values, model.Name)
	}
	var out []string
	for _, v := range values {
		l := strings.ToLower(v)
		out = append(out, l, separators.ReplaceAllString(l, "-"))
	}
	return out
}

var separators = regexp.MustCompile(`[\s_.:]+`)

func anyContains(list []string, subs ...string) bool {
	for _, s := range list {
		for _, sub := range subs {
			if strings.Contains(s, sub) {
				return true
			}
		}
	}
	return false
}

// isClaude is Pi's isAnthropicClaudeModel.
func isClaude(model *ai.Model) bool {
	id, name := strings.ToLower(model.ID), strings.ToLower(model.Name)
	return strings.Contains(id, "anthropic.claude") || strings.Contains(id, "anthropic/claude") ||
		strings.Contains(name, "anthropic.claude") || strings.Contains(name, "anthropic/claude") || strings.Contains(name, "claude")
}

// supportsCaching is Pi's supportsPromptCaching.
func supportsCaching(model *ai.Model, opts Options) bool {
	c := candidates(model)
	if !anyContains(c, "claude") {
		return opts.EnvValue("AWS_BEDROCK_FORCE_CACHE") == "1"
	}
	return anyContains(c, "-4-", "claude-3-7-sonnet", "claude-3-5-haiku")
}

// supportsAdaptive tells the Claude models that think adaptively.
func supportsAdaptive(model *ai.Model) bool {
	return anyContains(candidates(model), "opus-4-6", "opus-4-7", "opus-4-8", "sonnet-4-6", "fable-5")
}

// cachePoint is the content block that marks a cache breakpoint.
func cachePoint(retention string) jsonv.Value {
	cp := new(jsonv.ObjectBuilder).SetString("type", "default")
	if retention == "long" {
		cp.SetString("ttl", "1h")
	}
	return new(jsonv.ObjectBuilder).Set("cachePoint", cp.Value()).Value()
}

func textBlock(text string) jsonv.Value {
	return new(jsonv.ObjectBuilder).SetString("text", text).Value()
}

// nonBlankText is a text block of the sanitized text, or Absent when that
// is blank.
func nonBlankText(text string) jsonv.Value {
	t := ai.SanitizeSurrogates(text)
	if stream.IsBlank(t) {
		return jsonv.Value{}
	}
	return textBlock(t)
}

// requiredText is nonBlankText, with the placeholder for blank text.
func requiredText(text string) jsonv.Value {
	if b := nonBlankText(text); !b.IsAbsent() {
		return b
	}
	return textBlock(EmptyTextPlaceholder)
}

// imageFormats maps the MIME types Pi knows to Converse image formats.
var imageFormats = map[string]string{"image/jpeg": "jpeg", "image/jpg": "jpeg", "image/png": "png", "image/gif": "gif", "image/webp": "webp"}

// imageBlock is {"image":{format, source:{bytes}}}. The SDK sends the
// decoded bytes again as base64, so the data comes out canonical.
func imageBlock(img *ai.ImageBlock) (jsonv.Value, error) {
	format, ok := imageFormats[img.MimeType]
	if !ok {
		return jsonv.Value{}, &stream.RequestError{Message: "Unknown image type: " + img.MimeType}
	}
	data, err := decodeBase64(img.Data)
	if err != nil {
		return jsonv.Value{}, &stream.RequestError{Message: "Invalid character"}
	}
	source := new(jsonv.ObjectBuilder).SetString("bytes", base64.StdEncoding.EncodeToString(data)).Value()
	image := new(jsonv.ObjectBuilder).SetString("format", format).Set("source", source).Value()
	return new(jsonv.ObjectBuilder).Set("image", image).Value(), nil
}

// decodeBase64 is atob: whitespace is ignored and padding is optional.
func decodeBase64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' {
			return -1
		}
		return r
	}, s)
	return base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
}

func toolResultContent(blocks []ai.Block) ([]jsonv.Value, error) {
	var out []jsonv.Value
	for _, b := range blocks {
		switch b := b.(type) {
		case *ai.ImageBlock:
			img, err := imageBlock(b)
			if err != nil {
				return nil, err
			}
			out = append(out, img)
		case *ai.TextBlock:
			if t := nonBlankText(b.Text); !t.IsAbsent() {
				out = append(out, t)
			}
		}
	}
	if len(out) == 0 {
		out = append(out, textBlock(EmptyTextPlaceholder))
	}
	return out, nil
}

func toolResult(m *ai.ToolResultMessage) (jsonv.Value, error) {
	content, err := toolResultContent(m.Content)
	if err != nil {
		return jsonv.Value{}, err
	}
	status := "success"
	if m.IsError.Truthy() {
		status = "error"
	}
	tr := new(jsonv.ObjectBuilder).SetString("toolUseId", m.ToolCallID).Set("content", jsonv.ArrayValue(content...)).SetString("status", status)
	return new(jsonv.ObjectBuilder).Set("toolResult", tr.Value()).Value(), nil
}

type wireMessage struct {
	role    string
	content []jsonv.Value
}

// convertMessages is Pi's convertMessages: transform for the target model,
// then one Converse message per Pi message (placeholders for empty user
// content, empty assistant messages skipped), consecutive tool results in
// one user message, and the cache point on a trailing user message.
func convertMessages(msgs []ai.Message, model *ai.Model, opts Options, retention string, now transform.Clock) (jsonv.Value, error) {
	msgs = transform.Messages(msgs, model, NormalizeToolCallID, now)
	var out []*wireMessage
	for i := 0; i < len(msgs); i++ {
		switch m := msgs[i].(type) {
		case *ai.UserMessage:
			var content []jsonv.Value
			if m.Content.IsString {
				content = append(content, requiredText(m.Content.Text))
			} else {
				for _, b := range m.Content.Blocks {
					switch b := b.(type) {
					case *ai.TextBlock:
						if t := nonBlankText(b.Text); !t.IsAbsent() {
							content = append(content, t)
						}
					case *ai.ImageBlock:
						img, err := imageBlock(b)
						if err != nil {
							return jsonv.Value{}, err
						}
						content = append(content, img)
					}
				}
				if len(content) == 0 {
					content = append(content, textBlock(EmptyTextPlaceholder))
				}
			}
			out = append(out, &wireMessage{role: "user", content: content})
		case *ai.AssistantMessage:
			var content []jsonv.Value
			for _, b := range m.Content {
				switch b := b.(type) {
				case *ai.TextBlock:
					if t := nonBlankText(b.Text); !t.IsAbsent() {
						content = append(content, t)
					}
				case *ai.ToolCallBlock:
					tu := new(jsonv.ObjectBuilder).SetString("toolUseId", b.ID).SetString("name", b.Name).Set("input", stream.JSValue(b.Arguments))
					content = append(content, new(jsonv.ObjectBuilder).Set("toolUse", tu.Value()).Value())
				case *ai.ThinkingBlock:
					thinking := ai.SanitizeSurrogates(b.Thinking)
					if stream.IsBlank(thinking) {
						continue
					}
					rt := new(jsonv.ObjectBuilder).SetString("text", thinking)
					if isClaude(model) {
						if b.ThinkingSignature == nil || stream.IsBlank(*b.ThinkingSignature) {
							content = append(content, textBlock(thinking))
							continue
						}
						rt.SetString("signature", *b.ThinkingSignature)
					}
					rc := new(jsonv.ObjectBuilder).Set("reasoningText", rt.Value()).Value()
					content = append(content, new(jsonv.ObjectBuilder).Set("reasoningContent", rc).Value())
				}
			}
			if len(content) > 0 {
				out = append(out, &wireMessage{role: "assistant", content: content})
			}
		case *ai.ToolResultMessage:
			var results []jsonv.Value
			for ; i < len(msgs); i++ {
				tr, ok := msgs[i].(*ai.ToolResultMessage)
				if !ok {
					break
				}
				r, err := toolResult(tr)
				if err != nil {
					return jsonv.Value{}, err
				}
				results = append(results, r)
			}
			i--
			out = append(out, &wireMessage{role: "user", content: results})
		}
	}
	if retention != "none" && supportsCaching(model, opts) && len(out) > 0 {
		if last := out[len(out)-1]; last.role == "user" {
			last.content = append(last.content, cachePoint(retention))
		}
	}
	wire := make([]jsonv.Value, len(out))
	for i, m := range out {
		wire[i] = new(jsonv.ObjectBuilder).SetString("role", m.role).Set("content", jsonv.ArrayValue(m.content...)).Value()
	}
	return jsonv.ArrayValue(wire...), nil
}

// defaultBudgets are the thinking budgets of budget-thinking Claude models.
var defaultBudgets = map[string]string{"minimal": "1024", "low": "2048", "medium": "8192", "high": "16384", "xhigh": "16384"}

// effort is Pi's mapThinkingLevelToEffort on Bedrock: the models that
// have xhigh keep it, the others map the level as anthropic-messages does.
func effort(model *ai.Model, level string) string {
	if level == "xhigh" && anyContains(candidates(model), "opus-4-7", "opus-4-8", "fable-5") {
		return "xhigh"
	}
	return provider.AdaptiveEffort(model, level)
}

// additionalFields is Pi's buildAdditionalModelRequestFields.
func additionalFields(model *ai.Model, opts Options) jsonv.Value {
	level := provider.OrEmpty(opts.Reasoning)
	if level == "" || !model.Reasoning || !isClaude(model) {
		return jsonv.Value{}
	}
	gov := strings.HasPrefix(strings.ToLower(opts.configuredRegion()), "us-gov-")
	id := strings.ToLower(model.ID)
	gov = gov || strings.HasPrefix(id, "us-gov.") || strings.HasPrefix(id, "arn:aws-us-gov:")
	display := ""
	if !gov {
		display = "summarized"
		if opts.ThinkingDisplay != nil {
			display = *opts.ThinkingDisplay
		}
	}
	thinking := new(jsonv.ObjectBuilder)
	out := new(jsonv.ObjectBuilder)
	if supportsAdaptive(model) {
		thinking.SetString("type", "adaptive")
		if display != "" {
			thinking.SetString("display", display)
		}
		out.Set("thinking", thinking.Value())
		out.Set("output_config", new(jsonv.ObjectBuilder).SetString("effort", effort(model, level)).Value())
		return out.Value()
	}
	budgetLevel := level
	if budgetLevel == "xhigh" {
		budgetLevel = "high"
	}
	budget, ok := opts.ThinkingBudgets.Get(budgetLevel)
	if !ok || budget.Kind() == jsonv.Null {
		// A level without a default budget ("off") sends no budget_tokens.
		budget = jsonv.Value{}
		if d, ok := defaultBudgets[level]; ok {
			budget = jsonv.NumberValue(d)
		}
	}
	thinking.SetString("type", "enabled").Set("budget_tokens", stream.JSValue(budget))
	if display != "" {
		thinking.SetString("display", display)
	}
	out.Set("thinking", thinking.Value())
	if opts.InterleavedThinking == nil || *opts.InterleavedThinking {
		out.Set("anthropic_beta", jsonv.ArrayValue(jsonv.StringValue(InterleavedThinkingBeta)))
	}
	return out.Value()
}

// toolConfig is Pi's convertToolConfig, Absent without tools or with
// toolChoice "none".
func toolConfig(tools []ai.Tool, choice jsonv.Value) jsonv.Value {
	if len(tools) == 0 || (choice.Kind() == jsonv.String && choice.Str() == "none") {
		return jsonv.Value{}
	}
	specs := make([]jsonv.Value, len(tools))
	for i, t := range tools {
		schema := new(jsonv.ObjectBuilder).Set("json", stream.JSValue(t.Parameters)).Value()
		// The SDK's serializer writes the members in its schema's order.
		spec := new(jsonv.ObjectBuilder).SetString("name", t.Name).Set("inputSchema", schema).SetString("description", t.Description)
		specs[i] = new(jsonv.ObjectBuilder).Set("toolSpec", spec.Value()).Value()
	}
	tc := new(jsonv.ObjectBuilder).Set("tools", jsonv.ArrayValue(specs...))
	switch {
	case choice.Kind() == jsonv.String && (choice.Str() == "auto" || choice.Str() == "any"):
		tc.Set("toolChoice", new(jsonv.ObjectBuilder).Set(choice.Str(), jsonv.ObjectValue()).Value())
	case choice.Kind() == jsonv.Object:
		if typ, _ := choice.Get("type"); typ.Kind() == jsonv.String && typ.Str() == "tool" {
			name, _ := choice.Get("name")
			tool := new(jsonv.ObjectBuilder).Set("name", stream.JSValue(name)).Value()
			tc.Set("toolChoice", new(jsonv.ObjectBuilder).Set("tool", tool).Value())
		}
	}
	return tc.Value()
}

// buildBody is the wire body: the SDK serializes Pi's command input
// without modelId (it goes in the path).
func buildBody(model *ai.Model, ctx *ai.Context, opts Options, now transform.Clock) (jsonv.Value, error) {
	retention := opts.Retention()
	msgs, err := convertMessages(ctx.Messages, model, opts, retention, now)
	if err != nil {
		return jsonv.Value{}, err
	}
	b := new(jsonv.ObjectBuilder).Set("messages", msgs)
	if ctx.SystemPrompt != nil && *ctx.SystemPrompt != "" {
		system := []jsonv.Value{textBlock(ai.SanitizeSurrogates(*ctx.SystemPrompt))}
		if retention != "none" && supportsCaching(model, opts) {
			system = append(system, cachePoint(retention))
		}
		b.Set("system", jsonv.ArrayValue(system...))
	}
	inference := new(jsonv.ObjectBuilder)
	maxTokens := opts.MaxTokens
	if maxTokens.IsAbsent() && isClaude(model) {
		maxTokens = model.MaxTokens
	}
	// The SDK's serializer leaves out members that are null.
	inference.Set("maxTokens", stream.JSValue(orAbsent(maxTokens))).Set("temperature", stream.JSValue(orAbsent(opts.Temperature)))
	b.Set("inferenceConfig", inference.Value())
	b.Set("toolConfig", toolConfig(ctx.Tools, opts.ToolChoice))
	b.Set("additionalModelRequestFields", additionalFields(model, opts))
	b.Set("requestMetadata", stream.JSValue(opts.RequestMetadata))
	return b.Value(), nil
}

// orAbsent is v, or Absent when v is null.
func orAbsent(v jsonv.Value) jsonv.Value {
	if v.Kind() == jsonv.Null {
		return jsonv.Value{}
	}
	return v
}
