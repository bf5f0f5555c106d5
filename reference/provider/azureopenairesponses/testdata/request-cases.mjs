// Inputs for testdata/requests.json: contexts and options to send through
// real Pi (see capture.mjs). Written for piconform; run with Node 22.
import { user, text, img, hi, assistant } from "../../casekit.mjs";
import { BASE, model } from "./common.mjs";
import { call, readTool, readContext, claudeContext, toolIDContext } from "../../openairesponses/testdata/kit.mjs";
const same = assistant(model());
const c = (name, context, options = {}, over = {}) => ({ name, model: model(over), context, options: { apiKey: "azure-test-key", ...options } });

export default [
  c("example: reasoning history, tool call and result, session id", readContext(same, "You are a helpful assistant."), { reasoningEffort: "medium", maxTokens: 1024, sessionId: "sess-1" }),
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
  c("github-copilot provider: no copilot headers, off effort sent, ids whole", claudeContext(same, user([text("look"), img()])), {}, { provider: "github-copilot" }),
  c("tool ids: azure provider keeps pairs, foreign items hashed", toolIDContext(same, user("done"))),
  c("other provider on this API: ids normalized whole", claudeContext(same), {}, { provider: "my-azure" }),
  c("openai provider on this API keeps pairs", claudeContext(same), {}, { provider: "openai" }),
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
