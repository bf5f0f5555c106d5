// Inputs for testdata/requests.json: contexts and options to send through
// real Pi (see capture.mjs). Written for piconform; run with Node 22.
import { model, fakeJWT, claim, KEY } from "./common.mjs";
import { user, text, img, hi, assistant } from "../../casekit.mjs";
import { call, readTool, readContext, claudeContext, toolIDContext } from "../../openairesponses/testdata/kit.mjs";

const same = assistant(model());
const c = (name, context, options = {}, over = {}) => ({ name, model: model(over), context, options: { apiKey: KEY, transport: "sse", ...options } });

export default [
  c("example: system prompt, reasoning history, tool call and result, session id", readContext(same, "You are Codex.", readTool, text("Reading.", JSON.stringify({ v: 1, id: "msg_1", phase: "commentary" }))), { reasoningEffort: "medium", sessionId: "sess-1" }),
  c("defaults: no system prompt", hi),
  c("empty system prompt gets the default instructions", { systemPrompt: "", messages: [user("hi")] }),
  c("system prompt with a lone surrogate is sent as given", { systemPrompt: "S\uD800X", messages: [user("hi")] }),
  c("session id: clamped key, hyphenated headers, retention ignored", hi, { sessionId: "s".repeat(70) + "-tail", cacheRetention: "none", env: { PI_CACHE_RETENTION: "long" } }),
  c("session id with an emoji at the cut", hi, { sessionId: "s".repeat(63) + "\uD83D\uDE00" + "tail" }),
  c("empty session id: key sent, no headers", hi, { sessionId: "" }),
  c("long retention sends no prompt_cache_retention", hi, { cacheRetention: "long" }),
  c("verbosity, temperature 0, service tier; maxTokens and toolChoice ignored", { tools: [readTool], messages: [user("hi")] }, { textVerbosity: "high", temperature: 0, serviceTier: "priority", maxTokens: 1024, toolChoice: "required" }),
  c("empty text verbosity falls back to low", hi, { textVerbosity: "" }),
  c("reasoning model without effort sends no reasoning", hi),
  c("effort on a non-reasoning model", hi, { reasoningEffort: "high" }, { reasoning: false }),
  c("effort through the thinking level map, summary given", hi, { reasoningEffort: "high", reasoningSummary: "detailed" }, { thinkingLevelMap: { high: "xhigh", off: "minimal" } }),
  c("effort mapped to null falls back to the effort", hi, { reasoningEffort: "low" }, { thinkingLevelMap: { low: null } }),
  c("effort none uses the off entry", hi, { reasoningEffort: "none" }, { thinkingLevelMap: { off: "minimal" } }),
  c("effort none with off null", hi, { reasoningEffort: "none" }, { thinkingLevelMap: { off: null } }),
  c("effort none without a map", hi, { reasoningEffort: "none" }),
  c("empty effort and empty summary are sent", hi, { reasoningEffort: "", reasoningSummary: "" }),
  c("summary without effort sends nothing", hi, { reasoningSummary: "concise" }),
  c("headers: model, options, null removes, forced ones win", hi, {
    headers: { "X-Model": "opt", "x-gone": null, originator: "caller", Authorization: "Bearer caller", "chatgpt-account-id": "caller", Accept: "application/json", "OpenAI-Beta": "x", "Content-Type": "text/plain", "x-client-request-id": "caller-req", "X-Extra": "  padded  " },
  }, { headers: { "X-Model": "model", "X-Num": 5, "x-null": null, "x-gone": "model" } }),
  c("session id replaces the caller's request id", hi, { sessionId: "sess-2", headers: { "x-client-request-id": "caller-req", "session-id": "caller" } }),
  c("base URL ending in /codex", hi, {}, { baseUrl: "http://127.0.0.1:47933/backend-api/codex" }),
  c("base URL ending in /codex/responses with slashes", hi, {}, { baseUrl: "http://127.0.0.1:47933/x/codex/responses//" }),
  c("base URL with a trailing slash", hi, {}, { baseUrl: "http://127.0.0.1:47933/" }),
  c("github-copilot provider: no copilot headers, ids whole", claudeContext(same, user([text("look"), img()])), {}, { provider: "github-copilot" }),
  c("tool ids: codex provider keeps pairs, foreign items hashed", toolIDContext(same, user("next"))),
  c("azure provider is not paired here", claudeContext(same), {}, { provider: "azure-openai-responses" }),
  c("image to a text-only model; orphan tool call", {
    messages: [user([text("see"), img()]), same([call("call_x|fc_x")], { stopReason: "toolUse" }), user("go on")],
  }, {}, { input: ["text"] }),
  c("timeoutMs and maxRetries change nothing on the wire", hi, { timeoutMs: 1500.7, maxRetries: 0 }),
  c("no key", hi, { apiKey: undefined }),
  c("empty key", hi, { apiKey: "" }),
  c("key that is not a token", hi, { apiKey: "sk-not-a-jwt" }),
  c("token without the account claim", hi, { apiKey: fakeJWT({ sub: "user" }) }),
  c("token whose account id is empty", hi, { apiKey: fakeJWT(claim("")) }),
  c("token with four parts", hi, { apiKey: KEY + ".x" }),
  c("token payload in base64url with - and _", hi, { apiKey: fakeJWT("eyJ-_") }),
  c("token payload padded and with whitespace", hi, { apiKey: fakeJWT(Buffer.from(JSON.stringify(claim("acct-pad"))).toString("base64").replace(/(.{8})/, "$1 ")) }),
  c("token payload not JSON", hi, { apiKey: fakeJWT(Buffer.from("nope").toString("base64")) }),
  c("numeric account id", hi, { apiKey: fakeJWT({ "https://api.openai.com/auth": { chatgpt_account_id: 42 } }) }),
  c("latin-1 account id", hi, { apiKey: fakeJWT(Buffer.from(JSON.stringify(claim("acct-é")), "utf8").toString("base64").replace(/=+$/, "")) }),
  c("invalid thinking signature fails before sending", {
    messages: [user("a"), same([{ type: "thinking", thinking: "t", thinkingSignature: "reasoning_content" }]), user("b")],
  }),
  c("negative timeoutMs fails before sending", hi, { timeoutMs: -1 }),
  c("header value outside Latin-1 fails before sending", hi, { headers: { "x-note": "caf\u00e9 \u2603" } }),
  c("session id outside Latin-1 fails before sending", hi, { sessionId: "sess-\u2603" }),
  c("model header value outside Latin-1 fails before sending", hi, {}, { headers: { "x-m": "\u2603" } }),
];
