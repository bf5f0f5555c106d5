// Inputs for testdata/requests.json: contexts and options to send through
// real Pi (see capture.mjs). Written for piconform; run with Node 22.
import { zeroUsage, user, toolResult, text, img, hi, model as makeModel } from "../../casekit.mjs";
const BASE = "http://127.0.0.1:47921/openai/v1";
const API = "azure-openai-responses";
const model = makeModel({
  id: "gpt-5-test", name: "GPT Test", api: API, provider: API, baseUrl: BASE,
  reasoning: true, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  contextWindow: 400000, maxTokens: 128000,
});
const same = (content, over = {}) => ({ role: "assistant", content, api: API, provider: API, model: "gpt-5-test", usage: zeroUsage, stopReason: "stop", timestamp: 2, ...over });
const result = toolResult("read");
const call = (id, args = { path: "a.txt" }, name = "read") => ({ type: "toolCall", id, name, arguments: args });
const readTool = { name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } };
const reasoning = (id, t) => JSON.stringify({ type: "reasoning", id, summary: [{ type: "summary_text", text: t }], encrypted_content: "gAAAA" + id });
const c = (name, context, options = {}, over = {}) => ({ name, model: model(over), context, options: { apiKey: "azure-test-key", ...options } });

export default [
  c("example: reasoning history, tool call and result, session id", {
    systemPrompt: "You are a helpful assistant.", tools: [readTool],
    messages: [user("Read a.txt"),
      same([{ type: "thinking", thinking: "I should read the file.", thinkingSignature: reasoning("rs_1", "I should read the file.") }, call("call_1|fc_1")], { stopReason: "toolUse" }),
      result("call_1|fc_1", [text("hello world")])],
  }, { reasoningEffort: "medium", maxTokens: 1024, sessionId: "sess-1" }),
  c("defaults", hi),
  c("api version option", hi, { azureApiVersion: "2025-04-01-preview" }),
  c("api version from env", hi, { env: { AZURE_OPENAI_API_VERSION: "2024-10-21" } }),
  c("api version option beats env", hi, { azureApiVersion: "preview", env: { AZURE_OPENAI_API_VERSION: "2024-10-21" } }),
  c("api version needing encoding", hi, { azureApiVersion: "a b/c&d=é" }),
  c("deployment name option", hi, { azureDeploymentName: "my-deployment", env: { AZURE_OPENAI_DEPLOYMENT_NAME_MAP: "gpt-5-test=from-map" } }),
  c("deployment name from env map", hi, { env: { AZURE_OPENAI_DEPLOYMENT_NAME_MAP: " other=x, ,bad,=y,z=, gpt-5-test = dep-a ,gpt-5-test=dep-b=extra" } }),
  c("deployment map without the model", hi, { env: { AZURE_OPENAI_DEPLOYMENT_NAME_MAP: "other=x" } }),
  c("empty deployment option falls back", hi, { azureDeploymentName: "" }),
  c("session id with retention none, long retention env, service tier ignored", hi, { sessionId: "sess", cacheRetention: "none", serviceTier: "priority", env: { PI_CACHE_RETENTION: "long" } }),
  c("long retention still no prompt_cache_retention", hi, { sessionId: "s".repeat(70) + "-tail", cacheRetention: "long" }),
  c("empty session id", hi, { sessionId: "" }),
  c("session id outside Latin-1 is only a body member", hi, { sessionId: "s".repeat(63) + "\uD83D\uDE00" + "tail" }),
  c("headers: model, options, null removes, api-key replaced", hi, { headers: { "X-Model": "opt", "x-stainless-lang": null, Accept: null, "OpenAI-Project": "p1", "API-Key": "from-header", authorization: "Bearer extra" } }, { headers: { "X-Model": "model", "X-Num": 5, "x-gone": null } }),
  c("no key even with an authorization header", hi, { apiKey: undefined, headers: { authorization: "Bearer from-header", "api-key": "k" } }),
  c("empty key", hi, { apiKey: "" }),
  c("github-copilot provider: no copilot headers, off effort sent, ids whole", {
    messages: [user([text("look"), img()]),
      same([call("call_9|item+/=long")], { stopReason: "toolUse", api: "anthropic-messages", provider: "anthropic", model: "claude" }),
      result("call_9|item+/=long", [text("r")])],
  }, {}, { provider: "github-copilot" }),
  c("tool ids: azure provider keeps pairs, foreign items hashed", {
    tools: [readTool],
    messages: [user("go"),
      same([call("call_a|fc_a"), call("call_b")], { stopReason: "toolUse" }),
      result("call_a|fc_a", [text("ra")]), result("call_b", [text("rb")]),
      same([call("call_c|fc_c"), call("call_d|rs_d+x")], { stopReason: "toolUse", model: "gpt-5-other" }),
      result("call_c|fc_c", [text("rc")]), result("call_d|rs_d+x", [text("rd")]),
      same([call("toolu_01A.b"), call("call_9|item+/=long")], { stopReason: "toolUse", api: "anthropic-messages", provider: "anthropic", model: "claude" }),
      result("toolu_01A.b", [text("r1")]), result("call_9|item+/=long", [text("r2")]),
      same([call("call_e|fc_e")], { stopReason: "toolUse", api: "openai-responses", provider: "openai", model: "gpt-5" }),
      result("call_e|fc_e", [text("r3")]),
      user("done")],
  }),
  c("other provider on this API: ids normalized whole", {
    messages: [user("go"),
      same([call("call_9|item+/=long")], { stopReason: "toolUse", api: "anthropic-messages", provider: "anthropic", model: "claude" }),
      result("call_9|item+/=long", [text("r")])],
  }, {}, { provider: "my-azure" }),
  c("openai provider on this API keeps pairs", {
    messages: [user("go"),
      same([call("call_9|item+/=long")], { stopReason: "toolUse", api: "anthropic-messages", provider: "anthropic", model: "claude" }),
      result("call_9|item+/=long", [text("r")])],
  }, {}, { provider: "openai" }),
  c("reasoning effort mapped, summary", hi, { reasoningEffort: "high", reasoningSummary: "concise" }, { thinkingLevelMap: { high: "xhigh" } }),
  c("level map off null sends no reasoning", hi, {}, { thinkingLevelMap: { off: null } }),
  c("non-reasoning model, temperature, max tokens 0, system role", { systemPrompt: "S", messages: [user("hi")] }, { temperature: 0.5, maxTokens: 0 }, { reasoning: false, id: "gpt-4.1" }),
  c("thinking signature that is not JSON", { messages: [user("hi"), same([{ type: "thinking", thinking: "t", thinkingSignature: "reasoning_content" }, text("x")]), user("again")] }),
  c("timeout header", hi, { timeoutMs: 30500 }),
  c("timeout not an integer", hi, { timeoutMs: 1.5 }),
  c("invalid base url option", hi, { azureBaseUrl: "not a url" }),
  c("invalid base url beats a bad signature", { messages: [user("hi"), same([{ type: "thinking", thinking: "t", thinkingSignature: "nope" }])] }, { azureBaseUrl: "::" }),
  c("base url option, trimmed, trailing slashes dropped", hi, { azureBaseUrl: "  http://127.0.0.1:47921/custom/path//  " }),
  c("base url from env", hi, { env: { AZURE_OPENAI_BASE_URL: "http://127.0.0.1:47921/from-env/" } }),
  c("model base url with trailing slash and a query", hi, {}, { baseUrl: BASE + "/?x=1" }),
  c("model base url with no path", hi, {}, { baseUrl: "http://127.0.0.1:47921" }),
  c("tool choice and unknown members ignored", { tools: [readTool], messages: [user("hi")] }, { toolChoice: "required", maxTokens: 77, metadata: { a: 1 } }),
];
