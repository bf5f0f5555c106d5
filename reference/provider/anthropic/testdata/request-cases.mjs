// Inputs for testdata/requests.json: contexts and options to send through
// real Pi (see capture.mjs). Written for piconform; run with Node 22.
import { zeroUsage, assistant, user, toolResult, text, img, LONE_HI, LONE_LO } from "../../casekit.mjs";
import { BASE, model } from "./common.mjs";
const same = assistant(model());
const foreign = (content, over = {}) => ({ role: "assistant", content, api: "openai-responses", provider: "openai", model: "gpt-5", usage: zeroUsage, stopReason: "toolUse", timestamp: 2, ...over });
const result = toolResult("read_file");
const readTool = { name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string", description: "File path" } }, required: ["path"] } };
const bashTool = { name: "bash", description: "Run a command", parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"], additionalProperties: false } };

export default [
  {
    name: "example from the notes", model: model(),
    context: {
      systemPrompt: "You are helpful.", tools: [readTool],
      messages: [user("Read a.txt"),
        same([{ type: "thinking", thinking: "Need to read the file.", thinkingSignature: "c2lnMTIz" }, { type: "toolCall", id: "toolu_01", name: "read_file", arguments: { path: "a.txt" } }], { stopReason: "toolUse" }),
        result("toolu_01", [text("hello")])],
    },
    options: { apiKey: "sk-ant-api03-test" },
  },
  {
    name: "no cache keeps user strings; temperature and maxTokens; blank users dropped", model: model(),
    context: {
      systemPrompt: "sys " + LONE_HI + "x",
      messages: [user("   "), user("first"), user([text(""), text("a" + LONE_LO), text(" \n")]), user([text("\u00a0\u2028")]), user("second \uD83D\uDE48")],
    },
    options: { apiKey: "sk-ant-api03-test", cacheRetention: "none", temperature: 0.7, maxTokens: 1234 },
  },
  {
    name: "long retention from env; two tools; tool_choice string; metadata", model: model(),
    context: { tools: [readTool, bashTool], messages: [user([text("go"), img()])] },
    options: { apiKey: "k", env: { PI_CACHE_RETENTION: "long" }, toolChoice: "any", metadata: { user_id: "u-1", other: 1 } },
  },
  {
    name: "long retention without ttl support; numeric user_id dropped", model: model({ compat: { supportsLongCacheRetention: false } }),
    context: { systemPrompt: "s", messages: [user("q")] },
    options: { apiKey: "k", cacheRetention: "long", metadata: { user_id: 42 } },
  },
  {
    name: "budget thinking drops temperature", model: model(),
    context: { messages: [user("think")] },
    options: { apiKey: "k", thinkingEnabled: true, thinkingBudgetTokens: 5000, thinkingDisplay: "omitted", maxTokens: 8000, temperature: 0.5 },
  },
  {
    name: "adaptive thinking with effort, no interleaved beta", model: model({ compat: { forceAdaptiveThinking: true } }),
    context: { messages: [user("think")] },
    options: { apiKey: "k", thinkingEnabled: true, effort: "xhigh", thinkingBudgetTokens: 0 },
  },
  {
    name: "thinking disabled", model: model(),
    context: { messages: [user("no thinking")] },
    options: { apiKey: "k", thinkingEnabled: false, temperature: 1 },
  },
  {
    name: "thinking off is null in the level map", model: model({ thinkingLevelMap: { off: null, high: "max" } }),
    context: { messages: [user("x")] },
    options: { apiKey: "k", thinkingEnabled: false },
  },
  {
    name: "non-reasoning model ignores thinking but still drops temperature", model: model({ reasoning: false }),
    context: { messages: [user("x")] },
    options: { apiKey: "k", thinkingEnabled: true, temperature: 0.2 },
  },
  {
    name: "oauth token: Claude Code identity, tool names, bearer", model: model(),
    context: {
      systemPrompt: "Be brief.", tools: [readTool, bashTool, { ...readTool, name: "Read" }, { ...bashTool, name: "todowrite" }],
      messages: [user("list"), same([{ type: "toolCall", id: "t1", name: "bash", arguments: { command: "ls" } }], { stopReason: "toolUse" }), result("t1", [text("a\nb")], { toolName: "bash" })],
    },
    options: { apiKey: "sk-ant-oat01-secret", sessionId: "sess-1" },
  },
  {
    name: "oauth without system prompt and without cache", model: model(),
    context: { messages: [user("hi")] },
    options: { apiKey: "sk-ant-oat01-secret", cacheRetention: "none", interleavedThinking: false },
  },
  {
    name: "github copilot headers with prefill", model: model({ provider: "github-copilot", compat: { supportsEagerToolInputStreaming: false } }),
    context: { tools: [readTool], messages: [user([text("look"), img("AAAA", "image/jpeg")]), same([text("Sure,")], { provider: "github-copilot" })] },
    options: { apiKey: "ghu_token" },
  },
  {
    name: "header precedence, null removal, session affinity, timeout", model: model({ headers: { "anthropic-beta": "from-model", "X-Model": "m", "x-drop": "d" }, compat: { sendSessionAffinityHeaders: true } }),
    context: { messages: [user("h")] },
    options: {
      apiKey: "k", sessionId: "sess-9", timeoutMs: 30000,
      headers: { "anthropic-version": null, "x-custom": "  v  ", "X-MODEL": "o", "content-type": "text/plain", "x-stainless-os": "plan9", "X-DROP": null, "User-Agent": "mine" },
    },
  },
  {
    name: "session affinity is not sent without cache", model: model({ compat: { sendSessionAffinityHeaders: true } }),
    context: { messages: [user("h")] },
    options: { apiKey: "k", sessionId: "sess-9", cacheRetention: "none", timeoutMs: 1500 },
  },
  {
    name: "auth from an authorization header only", model: model(),
    context: { messages: [user("h")] },
    options: { headers: { authorization: "Bearer zzz" } },
  },
  {
    name: "no api key", model: model(),
    context: { messages: [user("h")] },
    options: { headers: { authorization: "   " } },
  },
  {
    name: "cf-aig-authorization alone passes Pi but not the SDK", model: model(),
    context: { messages: [user("h")] },
    options: { headers: { "cf-aig-authorization": "x" } },
  },
  {
    name: "api key removed by a null header is still sent without auth", model: model(),
    context: { messages: [user("h")] },
    options: { apiKey: "k", headers: { "X-Api-Key": null } },
  },
  {
    name: "fractional timeout", model: model(),
    context: { messages: [user("h")] },
    options: { apiKey: "k", timeoutMs: 1500.5 },
  },
  {
    name: "message conversion: blanks, images, tool results, thinking, ids, surrogates", model: model(),
    context: {
      systemPrompt: "S" + LONE_LO,
      tools: [{ name: "read_file", description: "Read" + LONE_HI, parameters: { $schema: "x", type: "object", anyOf: [{}], additionalProperties: false } }],
      messages: [
        user("q" + LONE_HI),
        same([text("  "), { type: "thinking", thinking: "t1", thinkingSignature: "" }, { type: "thinking", thinking: "  ", thinkingSignature: "sig" },
          { type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "ENC" + LONE_HI, redacted: true }, { type: "thinking", thinking: "t2" + LONE_HI, thinkingSignature: "  " },
          { type: "thinking", thinking: "t3", thinkingSignature: "S" + LONE_LO }, text("ans" + LONE_LO, ),
          { type: "toolCall", id: "a" + LONE_HI, name: "read_file" + LONE_HI, arguments: { p: "q" + LONE_HI, n: 1 } },
          { type: "toolCall", id: "b", name: "read_file", arguments: {} }, { type: "toolCall", id: "c", name: "read_file", arguments: {} },
          { type: "toolCall", id: "d", name: "read_file", arguments: {} }, { type: "toolCall", id: "e", name: "read_file", arguments: {} }], { stopReason: "toolUse" }),
        result("a" + LONE_HI, [text("l1" + LONE_HI), text("l2")]), result("b", [text("err")], { isError: true }), result("c", [img()]), result("d", []),
        result("e", [text(" "), img("BBBB", "image/gif")]),
        user("interrupt"),
        foreign([{ type: "thinking", thinking: "foreign thought", thinkingSignature: "rs_1" }, text("foreign text"),
          { type: "toolCall", id: "call_abc|fc_123+/=" + "x".repeat(70), name: "read_file", arguments: { path: "z" }, thoughtSignature: "ts" },
          { type: "toolCall", id: "emoji😀.id", name: "read_file", arguments: { path: "y" } }]),
        result("call_abc|fc_123+/=" + "x".repeat(70), [text("zz")]),
        foreign([text("broken")], { stopReason: "error" }),
        result("orphan", [text("o")]),
        same([], { stopReason: "stop" }),
        same([{ type: "thinking", thinking: "", thinkingSignature: "only-sig" }]),
        user([img(), text("after image")]),
      ],
    },
    options: { apiKey: "k" },
  },
  {
    name: "allow empty signature keeps unsigned thinking", model: model({ compat: { allowEmptySignature: true } }),
    context: { messages: [user("a"), same([{ type: "thinking", thinking: "t" }, text("x")]), user("b")] },
    options: { apiKey: "k" },
  },
  {
    name: "eager streaming off, no tool cache, no temperature, no interleaved", model: model({ compat: { supportsEagerToolInputStreaming: false, supportsCacheControlOnTools: false, supportsTemperature: false } }),
    context: { tools: [readTool, bashTool], messages: [user("x")] },
    options: { apiKey: "k", temperature: 0.3, interleavedThinking: false, toolChoice: { type: "tool", name: "bash" } },
  },
  {
    name: "numbers and keys as JavaScript holds them", model: model({ maxTokens: 6.4e4 }),
    context: {
      tools: [{ name: "n", description: "d", parameters: { type: "object", properties: { b: { minimum: 1.0, maximum: 1e2 }, "2": { type: "string" }, a: {}, "1": { default: 1.50 } }, required: ["b"] } }],
      messages: [user("x"), same([{ type: "toolCall", id: "t", name: "n", arguments: { z: 1, "10": 2, "9": 3, big: 12345678901234567890, small: 1e-7, neg: -0 } }], { stopReason: "toolUse" }), result("t", [text("ok")])],
    },
    options: { apiKey: "k", maxTokens: 1.5e3, temperature: 0.1, toolChoice: { type: "tool", name: "n", extra: 1.50, "5": true } },
  },
  {
    name: "model without vision gets placeholders", model: model({ input: ["text"] }),
    context: { tools: [readTool], messages: [user([img(), img(), text("x"), img()]), same([{ type: "toolCall", id: "t", name: "read_file", arguments: { path: "p" } }], { stopReason: "toolUse" }), result("t", [img()])] },
    options: { apiKey: "k" },
  },
  {
    name: "base url with a path and a trailing slash", model: model({ baseUrl: BASE + "/proxy/" }),
    context: { messages: [user("x")] },
    options: { apiKey: "k", toolChoice: "" },
  },
];
