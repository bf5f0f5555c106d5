// Inputs for testdata/requests.json: contexts and options to send through
// real Pi (see capture.mjs). Written for piconform; run with Node 22.
const BASE = "http://127.0.0.1:47914/v1";
const zeroUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const model = (over = {}) => ({
  id: "gpt-test", name: "GPT Test", api: "openai-completions", provider: "custom", baseUrl: BASE,
  reasoning: false, input: ["text", "image"], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  contextWindow: 128000, maxTokens: 16384, ...over,
});
const rmodel = (over = {}) => model({ reasoning: true, ...over });
const same = (content, over = {}) => ({ role: "assistant", content, api: "openai-completions", provider: "custom", model: "gpt-test", usage: zeroUsage, stopReason: "stop", timestamp: 2, ...over });
const foreign = (content, over = {}) => ({ role: "assistant", content, api: "openai-responses", provider: "openai", model: "gpt-5", usage: zeroUsage, stopReason: "toolUse", timestamp: 2, ...over });
const user = (content) => ({ role: "user", content, timestamp: 1 });
const result = (id, content, over = {}) => ({ role: "toolResult", toolCallId: id, toolName: "read_file", content, isError: false, timestamp: 3, ...over });
const text = (t) => ({ type: "text", text: t });
const img = (d = "iVBORw0KGgo=", m = "image/png") => ({ type: "image", data: d, mimeType: m });
const call = (id, args = { path: "a.txt" }, over = {}) => ({ type: "toolCall", id, name: "read_file", arguments: args, ...over });
const think = (t, sig) => ({ type: "thinking", thinking: t, ...(sig === undefined ? {} : { thinkingSignature: sig }) });
const readTool = { name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } };
const lsTool = { name: "ls", description: "List", parameters: { type: "object", properties: {} } };
const hi = { messages: [user("hi")] };
const k = { apiKey: "k" };
const E = (reasoningEffort) => ({ apiKey: "k", reasoningEffort });

export default [
  { name: "minimal", model: model(), context: { systemPrompt: "sys", messages: [user("hi")] }, options: k },
  { name: "developer role for reasoning model", model: rmodel(), context: { systemPrompt: "sys", messages: [user("hi")] }, options: k },
  { name: "empty system prompt", model: rmodel(), context: { systemPrompt: "", messages: [user("hi")] }, options: k },
  { name: "no key", model: model(), context: hi, options: {} },
  { name: "no key but authorization header", model: model(), context: hi, options: { headers: { Authorization: "Bearer mine" } } },
  { name: "no key but cf-aig-authorization", model: model(), context: hi, options: { headers: { "cf-aig-authorization": "Bearer gw" } } },
  { name: "blank authorization header is no key", model: model(), context: hi, options: { headers: { authorization: "  " } } },
  { name: "header precedence", model: model({ headers: { "X-Model": "m", "X-Both": "model" } }), context: hi,
    options: { apiKey: "k", headers: { "X-Both": "options", "x-stainless-os": null, "X-Extra": " padded " } } },
  { name: "copilot headers", model: model({ provider: "github-copilot" }), context: { messages: [user([text("see"), img()]), same([text("ok")])] }, options: k },
  { name: "copilot user last", model: model({ provider: "github-copilot" }), context: hi, options: k },
  { name: "session affinity", model: model({ compat: { sendSessionAffinityHeaders: true } }), context: hi, options: { apiKey: "k", sessionId: "sess-1" } },
  { name: "session affinity off with none", model: model({ compat: { sendSessionAffinityHeaders: true } }), context: hi, options: { apiKey: "k", sessionId: "sess-1", cacheRetention: "none" } },
  { name: "openai host cache key", model: model({ baseUrl: "http://127.0.0.1:47914/api.openai.com/v1" }), context: hi, options: { apiKey: "k", sessionId: "s".repeat(70) + "é" } },
  { name: "openai host cache key none", model: model({ baseUrl: "http://127.0.0.1:47914/api.openai.com/v1" }), context: hi, options: { apiKey: "k", sessionId: "s1", cacheRetention: "none" } },
  { name: "long retention", model: model(), context: hi, options: { apiKey: "k", sessionId: "😀".repeat(66), cacheRetention: "long" } },
  { name: "long retention from env no session", model: model(), context: hi, options: { apiKey: "k", env: { PI_CACHE_RETENTION: "long" } } },
  { name: "long retention unsupported", model: model({ compat: { supportsLongCacheRetention: false } }), context: hi, options: { apiKey: "k", sessionId: "s1", cacheRetention: "long" } },
  { name: "short retention custom host", model: model(), context: hi, options: { apiKey: "k", sessionId: "s1" } },
  { name: "max tokens and temperature", model: model(), context: hi, options: { apiKey: "k", maxTokens: 555, temperature: 0 } },
  { name: "max tokens zero omitted", model: model(), context: hi, options: { apiKey: "k", maxTokens: 0, temperature: 0.7 } },
  { name: "max_tokens field", model: model({ compat: { maxTokensField: "max_tokens" } }), context: hi, options: { apiKey: "k", maxTokens: 77 } },
  { name: "no usage in streaming, no store", model: model({ compat: { supportsUsageInStreaming: false, supportsStore: false } }), context: hi, options: k },
  { name: "tools", model: model(), context: { messages: [user("hi")], tools: [readTool, lsTool] }, options: { apiKey: "k", toolChoice: "required" } },
  { name: "tools no strict, zai tool stream", model: model({ compat: { supportsStrictMode: false, zaiToolStream: true } }), context: { messages: [user("hi")], tools: [readTool] }, options: { apiKey: "k", toolChoice: { type: "function", function: { name: "read_file" } } } },
  { name: "empty tools for tool history", model: model(), context: { messages: [user("hi"), same([call("c1")], { stopReason: "toolUse" }), result("c1", [text("R")])] }, options: k },
  { name: "empty tools from dropped error turn", model: model(), context: { messages: [user("q"), same([call("c9")], { stopReason: "aborted" }), result("c9", [text("R")]), user("q2")] }, options: k },
  { name: "user parts and images", model: model(), context: { messages: [user([text("a\uD800b"), img(), text("c")]), user([]), user(""), user("x\uDC00")] }, options: k },
  { name: "non vision model", model: model({ input: ["text"] }), context: { messages: [user([text("a"), img(), img(), text("b")]), same([call("c1")], { stopReason: "toolUse" }), result("c1", [img()])] }, options: k },
  { name: "assistant text join", model: model(), context: { messages: [user("q"), same([text("A"), text("   "), text("B\uD800")]), user("next")] }, options: k },
  { name: "assistant thinking signature", model: model(), context: { messages: [user("q"), same([think("T1", "reasoning_content"), think("T2", "reasoning"), think("  ", "x"), text("A"), call("c1", { s: "\uD800" })], { stopReason: "toolUse" }), result("c1", [text("R")])] }, options: k },
  { name: "assistant thinking no signature dropped", model: model(), context: { messages: [user("q"), same([think("T\uD800")]), same([think("T", "reasoning_text"), text("A")]), user("n")] }, options: k },
  { name: "thinking as text", model: model({ compat: { requiresThinkingAsText: true } }), context: { messages: [user("q"), same([think("T1\uD800", "reasoning"), think("T2"), text("A"), text("B")]), user("n")] }, options: k },
  { name: "opencode-go reasoning", model: model({ provider: "opencode-go" }), context: { messages: [user("q"), { ...same([think("T", "reasoning"), text("A")]), provider: "opencode-go" }, user("n")] }, options: k },
  { name: "reasoning details", model: model(), context: { messages: [user("q"), same([call("c1", {}, { thoughtSignature: JSON.stringify({ type: "reasoning.encrypted", id: "c1", data: "ENC" }) }), call("c2", {}, { thoughtSignature: "not json" })], { stopReason: "toolUse" }), result("c1", [text("1")]), result("c2", [text("2")])] }, options: k },
  { name: "reasoning content required", model: rmodel({ compat: { requiresReasoningContentOnAssistantMessages: true } }), context: { messages: [user("q"), same([text("A")]), same([think("T", "reasoning"), text("B")]), user("n")] }, options: k },
  { name: "empty assistant skipped", model: model(), context: { messages: [user("q"), same([text("  ")]), same([]), user("n")] }, options: k },
  { name: "foreign tool ids normalized", model: model(), context: { messages: [user("q"), foreign([think("I think", "sig"), text("Answer"), call("call_abc|fc_very+long/id==", {}, { thoughtSignature: "x" }), call("tool.x|y")]), result("call_abc|fc_very+long/id==", [text("R1")]), result("tool.x|y", [text("R2")])] }, options: k },
  { name: "openai provider truncates long ids", model: model({ provider: "openai" }), context: { messages: [user("q"), foreign([call("x".repeat(45))], { provider: "azure" }), result("x".repeat(45), [text("R")])] }, options: k },
  { name: "orphan tool call", model: model(), context: { messages: [user("q"), same([call("c1"), call("c2")], { stopReason: "toolUse" }), result("c2", [text("R2")]), user("next")] }, options: k },
  { name: "tool result variants", model: model({ compat: { requiresToolResultName: true } }), context: { messages: [user("q"), same([call("c1"), call("c2"), call("c3")], { stopReason: "toolUse" }), result("c1", [text("a"), text("b\uD800")]), result("c2", [img()]), result("c3", [], { toolName: "" }), user("n")] }, options: k },
  { name: "tool result images with bridge", model: model({ compat: { requiresAssistantAfterToolResult: true } }), context: { messages: [user("q"), same([call("c1")], { stopReason: "toolUse" }), result("c1", [text("t"), img("AAAA", "image/jpeg")]), user("n")] }, options: k },
  { name: "bridge after tool result", model: model({ compat: { requiresAssistantAfterToolResult: true } }), context: { messages: [user("q"), same([call("c1")], { stopReason: "toolUse" }), result("c1", [text("t")]), same([]), user("n")] }, options: k },
  { name: "openrouter routing", model: model({ compat: { openRouterRouting: {} , vercelGatewayRouting: { only: ["a"], order: [] } } }), context: hi, options: k },
  { name: "vercel routing order", model: model({ compat: { vercelGatewayRouting: { order: ["x", "y"] } } }), context: hi, options: k },
  { name: "anthropic cache control", model: model({ provider: "openrouter", id: "anthropic/claude" }), context: { systemPrompt: "S", messages: [user("q"), same([call("c1")], { provider: "openrouter", model: "anthropic/claude", stopReason: "toolUse" }), result("c1", [text("R")])], tools: [readTool, lsTool] }, options: { apiKey: "k", cacheRetention: "long" } },
  { name: "anthropic cache control array user", model: model({ compat: { cacheControlFormat: "anthropic" } }), context: { systemPrompt: "S", messages: [user([text("a"), img()])] }, options: k },
  { name: "anthropic cache control none", model: model({ compat: { cacheControlFormat: "anthropic" } }), context: { systemPrompt: "S", messages: [user("q")] }, options: { apiKey: "k", cacheRetention: "none" } },
  // thinking formats
  { name: "openai effort", model: rmodel(), context: hi, options: E("high") },
  { name: "openai effort mapped", model: rmodel({ thinkingLevelMap: { xhigh: "max", off: "none" } }), context: hi, options: E("xhigh") },
  { name: "openai off mapped", model: rmodel({ thinkingLevelMap: { off: "minimal" } }), context: hi, options: k },
  { name: "openai effort unsupported", model: rmodel({ compat: { supportsReasoningEffort: false } }), context: hi, options: E("low") },
  { name: "non reasoning model sends nothing", model: model({ compat: { thinkingFormat: "zai" } }), context: hi, options: E("high") },
  { name: "zai on", model: rmodel({ provider: "zai" }), context: hi, options: E("high") },
  { name: "zai off", model: rmodel({ baseUrl: "http://127.0.0.1:47914/api.z.ai/v1" }), context: hi, options: k },
  { name: "zai with effort support", model: rmodel({ compat: { thinkingFormat: "zai", supportsReasoningEffort: true }, thinkingLevelMap: { low: null, high: 5 } }), context: hi, options: E("medium") },
  { name: "zai with null mapped effort", model: rmodel({ compat: { thinkingFormat: "zai", supportsReasoningEffort: true }, thinkingLevelMap: { low: null } }), context: hi, options: E("low") },
  { name: "qwen on", model: rmodel({ compat: { thinkingFormat: "qwen" } }), context: hi, options: E("high") },
  { name: "qwen off", model: rmodel({ compat: { thinkingFormat: "qwen" } }), context: hi, options: k },
  { name: "qwen chat template", model: rmodel({ compat: { thinkingFormat: "qwen-chat-template" } }), context: hi, options: E("low") },
  { name: "chat template on", model: rmodel({ thinkingLevelMap: { high: "H", off: "OFF" }, compat: { thinkingFormat: "chat-template", chatTemplateKwargs: { enable_thinking: { $var: "thinking.enabled" }, effort: { $var: "thinking.effort" }, eff2: { $var: "thinking.effort", omitWhenOff: true }, fixed: 1, nil: null } } }), context: hi, options: E("high") },
  { name: "chat template off", model: rmodel({ thinkingLevelMap: { high: "H", off: "OFF" }, compat: { thinkingFormat: "chat-template", chatTemplateKwargs: { enable_thinking: { $var: "thinking.enabled" }, effort: { $var: "thinking.effort" }, eff2: { $var: "thinking.effort", omitWhenOff: true }, fixed: 1 } } }), context: hi, options: k },
  { name: "chat template unmapped", model: rmodel({ thinkingLevelMap: { low: null }, compat: { thinkingFormat: "chat-template", chatTemplateKwargs: { effort: { $var: "thinking.effort" }, n: { $var: "thinking.effort" } } } }), context: hi, options: E("low") },
  { name: "chat template empty", model: rmodel({ compat: { thinkingFormat: "chat-template", chatTemplateKwargs: { effort: { $var: "thinking.effort" } } } }), context: hi, options: k },
  { name: "deepseek on", model: rmodel({ provider: "deepseek" }), context: { messages: [user("q"), same([text("A")], { provider: "deepseek" }), user("n")] }, options: E("high") },
  { name: "deepseek off", model: rmodel({ provider: "deepseek" }), context: hi, options: k },
  { name: "deepseek off null", model: rmodel({ provider: "deepseek", thinkingLevelMap: { off: null } }), context: hi, options: k },
  { name: "openrouter on", model: rmodel({ provider: "openrouter" }), context: hi, options: E("medium") },
  { name: "openrouter off", model: rmodel({ provider: "openrouter", thinkingLevelMap: { off: "minimal" } }), context: hi, options: k },
  { name: "openrouter off default", model: rmodel({ baseUrl: "http://127.0.0.1:47914/openrouter.ai/api/v1" }), context: hi, options: k },
  { name: "openrouter off null", model: rmodel({ provider: "openrouter", thinkingLevelMap: { off: null } }), context: hi, options: k },
  { name: "ant-ling mapped", model: rmodel({ provider: "ant-ling", thinkingLevelMap: { high: "deep" } }), context: hi, options: E("high") },
  { name: "ant-ling unmapped", model: rmodel({ provider: "ant-ling" }), context: hi, options: E("high") },
  { name: "ant-ling off quirk", model: rmodel({ provider: "ant-ling", thinkingLevelMap: { off: "OFF" }, compat: { supportsReasoningEffort: true } }), context: hi, options: k },
  { name: "together on", model: rmodel({ provider: "together" }), context: hi, options: E("high") },
  { name: "together off", model: rmodel({ baseUrl: "http://127.0.0.1:47914/api.together.xyz/v1" }), context: hi, options: k },
  { name: "together effort", model: rmodel({ provider: "together", compat: { supportsReasoningEffort: true } }), context: hi, options: E("low") },
  { name: "string thinking on", model: rmodel({ compat: { thinkingFormat: "string-thinking" }, thinkingLevelMap: { high: "hard" } }), context: hi, options: E("high") },
  { name: "string thinking off", model: rmodel({ compat: { thinkingFormat: "string-thinking" } }), context: hi, options: k },
  { name: "string thinking off null", model: rmodel({ compat: { thinkingFormat: "string-thinking" }, thinkingLevelMap: { off: null } }), context: hi, options: k },
  // detection by provider and URL
  { name: "moonshot", model: rmodel({ provider: "moonshotai" }), context: { systemPrompt: "S", messages: [user("hi")], tools: [readTool] }, options: { apiKey: "k", maxTokens: 10, reasoningEffort: "high" } },
  { name: "cloudflare gateway url", model: rmodel({ baseUrl: "http://127.0.0.1:47914/gateway.ai.cloudflare.com/v1" }), context: { systemPrompt: "S", messages: [user("hi")], tools: [readTool] }, options: { apiKey: "k", maxTokens: 10, sessionId: "s", cacheRetention: "long" } },
  { name: "cloudflare workers", model: rmodel({ provider: "cloudflare-workers-ai" }), context: { systemPrompt: "S", messages: [user("hi")] }, options: { apiKey: "k", sessionId: "s", cacheRetention: "long", reasoningEffort: "low" } },
  { name: "nvidia", model: rmodel({ provider: "nvidia" }), context: { systemPrompt: "S", messages: [user("hi")], tools: [readTool] }, options: { apiKey: "k", maxTokens: 10, reasoningEffort: "high" } },
  { name: "xai", model: rmodel({ provider: "xai" }), context: { systemPrompt: "S", messages: [user("hi")] }, options: { apiKey: "k", maxTokens: 10, reasoningEffort: "high" } },
  { name: "cerebras url", model: rmodel({ baseUrl: "http://127.0.0.1:47914/cerebras.ai/v1" }), context: { systemPrompt: "S", messages: [user("hi")] }, options: { apiKey: "k", reasoningEffort: "high" } },
  { name: "chutes url", model: rmodel({ baseUrl: "http://127.0.0.1:47914/chutes.ai/v1" }), context: { systemPrompt: "S", messages: [user("hi")] }, options: { apiKey: "k", maxTokens: 9 } },
  { name: "deepseek url", model: rmodel({ baseUrl: "http://127.0.0.1:47914/api.deepseek.com/v1" }), context: { systemPrompt: "S", messages: [user("hi")] }, options: E("high") },
  { name: "opencode", model: rmodel({ provider: "opencode" }), context: { systemPrompt: "S", messages: [user("hi")] }, options: E("high") },
  { name: "openrouter openai model developer", model: rmodel({ provider: "openrouter", id: "openai/gpt-5" }), context: { systemPrompt: "S", messages: [user("hi")] }, options: E("high") },
  { name: "compat null falls back", model: rmodel({ compat: { supportsStore: null, supportsDeveloperRole: null } }), context: { systemPrompt: "S", messages: [user("hi")] }, options: k },
  { name: "timeout", model: model(), context: hi, options: { apiKey: "k", timeoutMs: 12345 } },
  { name: "base url trailing slash", model: model({ baseUrl: BASE + "/" }), context: hi, options: k },
];
