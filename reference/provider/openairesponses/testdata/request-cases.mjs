// Inputs for testdata/requests.json: contexts and options to send through
// real Pi (see capture.mjs). Written for piconform; run with Node 22.
import { user, text, img, LONE_HI, LONE_LO, assistant } from "../../casekit.mjs";
import { BASE, model } from "./common.mjs";
import { result, call, reasoning, readContext, claudeContext } from "./kit.mjs";
const same = assistant(model());
const readTool = { name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false } };
const c = (name, context, options = {}, over = {}) => ({ name, model: model(over), context, options: { apiKey: "sk-test", ...options } });

export default [
  c("example from the notes", readContext(same, "You are a helpful assistant.", readTool), { reasoningEffort: "medium", maxTokens: 1024, sessionId: "sess-1" }),
  c("non-reasoning model gets a system role; user forms; surrogates", {
    systemPrompt: "sys " + LONE_HI + "x",
    messages: [user(""), user("   "), user([]), user([text("a" + LONE_LO), img(), text("")]), user("pair \uD83D\uDE48")],
  }, { temperature: 0.5, maxTokens: 0 }, { reasoning: false, id: "gpt-4.1" }),
  c("developer role refused by compat", { systemPrompt: "S", messages: [user("hi")] }, {}, { compat: { supportsDeveloperRole: false } }),
  c("text signatures and fallback ids", {
    messages: [user("q"),
      same([text("A", JSON.stringify({ v: 1, id: "msg_a", phase: "commentary" })), text("B"), text("C", "legacy_id"), text("D", "x".repeat(70)), text("E", JSON.stringify({ v: 1, id: "msg_e", phase: "other" })), text("F", '{"v":2,"id":"z"}'), text("G", "{not json")]),
      user("next"), same([text(" "), text("H" + LONE_HI)]),
      same([]),
      same([{ type: "thinking", thinking: "no sig" }, { type: "thinking", thinking: "", thinkingSignature: reasoning("rs_9", "") }, text("I")])],
  }),
  c("tool calls: same model, different model of the same provider, foreign", {
    tools: [readTool],
    messages: [user("go"),
      same([call("call_a|fc_a"), call("call_b")], { stopReason: "toolUse" }),
      result("call_a|fc_a", [text("ra")]), result("call_b", [text("rb")]),
      same([call("call_c|fc_c", { p: LONE_HI }), call("call_d|rs_d+x")], { stopReason: "toolUse", model: "gpt-5-other" }),
      result("call_c|fc_c", [text("rc")]), result("call_d|rs_d+x", [text("rd")]),
      same([call("toolu_01A.b"), call("call_9|item+/=long")], { stopReason: "toolUse", api: "anthropic-messages", provider: "anthropic", model: "claude" }),
      result("toolu_01A.b", [text("r1")]), result("call_9|item+/=long", [text("r2")]),
      same([call("call_e|fc_e", undefined)], { stopReason: "toolUse", api: "openai-completions", model: "gpt-x" }),
      user("done")],
  }),
  c("copilot provider: ids normalized whole, headers, no reasoning default", claudeContext(same, user([text("look"), img()])), {}, { provider: "github-copilot" }),
  c("tool results: images, no text, orphans, errored assistants", {
    messages: [user("go"),
      same([call("c1|fc_1"), call("c2|fc_2"), call("c3|fc_3")], { stopReason: "toolUse" }),
      result("c1|fc_1", [img()]), result("c2|fc_2", [text("see"), img(), text(LONE_HI + "two")]), result("c3|fc_3", []),
      same([call("c4|fc_4")], { stopReason: "error" }), result("c4|fc_4", [text("kept")]),
      same([call("c5|fc_5")], { stopReason: "toolUse" }), user("interrupt")],
  }),
  c("tool result images for a text-only model", {
    messages: [user("go"), same([call("c1|fc_1")], { stopReason: "toolUse" }), result("c1|fc_1", [text("t"), img()])],
  }, {}, { input: ["text"] }),
  c("long session id, long retention", { messages: [user("hi")] }, { sessionId: "s".repeat(70) + "-tail", cacheRetention: "long" }),
  c("session id outside Latin-1 cannot be a header", { messages: [user("hi")] }, { sessionId: "s".repeat(63) + "\uD83D\uDE00" + "tail" }),
  c("long retention unsupported; no session header", { messages: [user("hi")] }, { sessionId: "sess", env: { PI_CACHE_RETENTION: "long" } }, { compat: { supportsLongCacheRetention: false, sendSessionIdHeader: false } }),
  c("retention none drops session", { messages: [user("hi")] }, { sessionId: "sess", cacheRetention: "none" }),
  c("empty session id", { messages: [user("hi")] }, { sessionId: "" }),
  c("reasoning effort through the level map, service tier", { messages: [user("hi")] }, { reasoningEffort: "high", serviceTier: "flex" }, { thinkingLevelMap: { high: "xhigh", low: null } }),
  c("reasoning effort mapped to null keeps the effort", { messages: [user("hi")] }, { reasoningEffort: "low", reasoningSummary: "concise" }, { thinkingLevelMap: { low: null } }),
  c("summary only", { messages: [user("hi")] }, { reasoningSummary: "detailed" }),
  c("level map off null sends no reasoning", { messages: [user("hi")] }, {}, { thinkingLevelMap: { off: null } }),
  c("level map off value", { messages: [user("hi")] }, {}, { thinkingLevelMap: { off: "minimal" } }),
  c("headers: model, options, null removes", { messages: [user("hi")] }, { headers: { "X-Model": "opt", "x-stainless-lang": null, Accept: null, "OpenAI-Project": "p1", "User-Agent": " custom " } }, { headers: { "X-Model": "model", "X-Num": 5, "x-gone": null } }),
  c("authorization header instead of a key", { messages: [user("hi")] }, { apiKey: undefined, headers: { authorization: "Bearer from-header" } }),
  c("cf-aig-authorization only", { messages: [user("hi")] }, { apiKey: "", headers: { "cf-aig-authorization": "Bearer gw" } }),
  c("no key", { messages: [user("hi")] }, { apiKey: undefined }),
  c("blank authorization header is no key", { messages: [user("hi")] }, { apiKey: undefined, headers: { authorization: "  " } }),
  c("thinking signature that is not JSON", { messages: [user("hi"), same([{ type: "thinking", thinking: "t", thinkingSignature: "reasoning_content" }, text("x")]), user("again")] }),
  c("timeout header", { messages: [user("hi")] }, { timeoutMs: 30500 }),
  c("timeout not an integer", { messages: [user("hi")] }, { timeoutMs: 1.5 }),
  c("base url with trailing slash; tool choice ignored", { tools: [readTool], messages: [user("hi")] }, { toolChoice: "required", maxTokens: 77 }, { baseUrl: BASE + "/" }),
];
