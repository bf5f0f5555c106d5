// Inputs for testdata/requests.json: contexts and options to send through
// real Pi (see capture.mjs). Written for piconform; run with Node 22.
import { zeroUsage, user, toolResult, text, img, LONE_HI, LONE_LO, hi } from "../../casekit.mjs";
import { BASE, model } from "./common.mjs";
const asst = (m, content, over = {}) => ({ role: "assistant", content, api: m.api, provider: m.provider, model: m.id, usage: zeroUsage, stopReason: "stop", timestamp: 2, ...over });
const foreign = (content, over = {}) => ({ role: "assistant", content, api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage: zeroUsage, stopReason: "toolUse", timestamp: 2, ...over });
const result = toolResult("read_file");
const call = (id, args = { path: "a.txt" }, over = {}) => ({ type: "toolCall", id, name: "read_file", arguments: args, ...over });
const readTool = { name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string", description: "File path" } }, required: ["path"] } };
const bashTool = { name: "bash", description: "Run a command", parameters: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { command: { type: "string" } }, required: ["command"], additionalProperties: false } };
const KEY = { apiKey: "AIza-test" };
const m0 = model();

export default [
  {
    name: "example from the notes", model: m0,
    context: {
      systemPrompt: "You are helpful.", tools: [readTool],
      messages: [user("Read a.txt"),
        asst(m0, [{ type: "thinking", thinking: "Need to read the file.", thinkingSignature: "c2lnMTIz" }, call("toolu_01")], { stopReason: "toolUse" }),
        result("toolu_01", [text("hello")])],
    },
    options: KEY,
  },
  {
    name: "user content: blank strings kept, empty arrays dropped, images, surrogates", model: m0,
    context: { systemPrompt: "sys " + LONE_HI + "x", messages: [user(""), user("   "), user([]), user([text(""), text("a" + LONE_LO), img()]), user("b \uD83D\uDE48 " + LONE_HI)] },
    options: KEY,
  },
  {
    name: "temperature, maxTokens, tools with toolChoice any", model: m0,
    context: { tools: [readTool, bashTool], messages: [user("go")] },
    options: { ...KEY, temperature: 0.7, maxTokens: 1234, toolChoice: "any" },
  },
  { name: "toolChoice none", model: m0, context: { tools: [readTool], messages: [user("go")] }, options: { ...KEY, toolChoice: "none" } },
  { name: "toolChoice unknown is AUTO", model: m0, context: { tools: [readTool], messages: [user("go")] }, options: { ...KEY, toolChoice: "required" } },
  { name: "toolChoice without tools is dropped", model: m0, context: hi, options: { ...KEY, toolChoice: "any" } },
  { name: "thinking enabled with budget", model: m0, context: hi, options: { ...KEY, thinking: { enabled: true, budgetTokens: 8192 } } },
  { name: "thinking enabled with level wins over budget", model: model({ id: "gemini-3-pro-preview" }), context: hi, options: { ...KEY, thinking: { enabled: true, level: "HIGH", budgetTokens: 1 } } },
  { name: "thinking enabled bare", model: m0, context: hi, options: { ...KEY, thinking: { enabled: true } } },
  { name: "thinking disabled 2.5", model: m0, context: hi, options: { ...KEY, thinking: { enabled: false } } },
  { name: "thinking disabled gemini 3 pro", model: model({ id: "gemini-3.1-pro-preview" }), context: hi, options: { ...KEY, thinking: { enabled: false } } },
  { name: "thinking disabled gemini 3 flash", model: model({ id: "gemini-3-flash-preview" }), context: hi, options: { ...KEY, thinking: { enabled: false } } },
  { name: "thinking disabled flash latest", model: model({ id: "gemini-flash-latest" }), context: hi, options: { ...KEY, thinking: { enabled: false } } },
  { name: "thinking disabled gemma 4", model: model({ id: "gemma-4-27b-it" }), context: hi, options: { ...KEY, thinking: { enabled: false } } },
  { name: "thinking object without enabled is disabled", model: m0, context: hi, options: { ...KEY, thinking: {} } },
  { name: "thinking ignored for non-reasoning model", model: model({ reasoning: false }), context: hi, options: { ...KEY, thinking: { enabled: true, budgetTokens: 100 } } },
  {
    name: "same-model history: signatures kept when base64, blank blocks dropped", model: m0,
    context: {
      messages: [user("q"),
        asst(m0, [{ type: "thinking", thinking: "th1", thinkingSignature: "not base64!" }, { type: "thinking", thinking: "th2", thinkingSignature: "QUJD" },
          { type: "thinking", thinking: "  " }, { type: "text", text: "", textSignature: "QUJD" }, { type: "text", text: "ans " + LONE_HI, textSignature: "QUJDRA==" },
          { type: "text", text: "t2", textSignature: "QUJ" }, call("c1", { p: "q" + LONE_HI }, { thoughtSignature: "RnVuYw==" })], { stopReason: "toolUse" }),
        result("c1", [text("r1")], { isError: true }), user("next")],
    },
    options: KEY,
  },
  {
    name: "provider and id match but api differs: thinking becomes text", model: m0,
    context: { messages: [user("q"), asst(m0, [{ type: "thinking", thinking: "th", thinkingSignature: "QUJD" }, { type: "text", text: "x", textSignature: "QUJD" }], { api: "google-vertex" }), user("n")] },
    options: KEY,
  },
  {
    name: "foreign history: thinking as text, no signatures, ids not sent", model: m0,
    context: {
      messages: [user("q"), foreign([{ type: "thinking", thinking: "hmm", thinkingSignature: "QUJD" }, call("toolu|1", { path: "x" }, { thoughtSignature: "QUJD" })]),
        result("toolu|1", [text("ok")])],
    },
    options: KEY,
  },
  {
    name: "claude model through google: ids sent and normalized for foreign calls", model: model({ id: "claude-sonnet-4-5", reasoning: false }),
    context: {
      messages: [user("q"), foreign([call("toolu|1", { path: "x" }), call("toolu.2\uD83D\uDE00", { path: "y" })]), result("toolu|1", [text("ok")]), result("toolu.2\uD83D\uDE00", [text("ok2")])],
    },
    options: KEY,
  },
  {
    name: "gpt-oss same-model ids kept as they are", model: model({ id: "gpt-oss-120b", reasoning: false }),
    context: { messages: [user("q"), asst(model({ id: "gpt-oss-120b" }), [call("a|b")], { stopReason: "toolUse" }), result("a|b", [text("ok")])] },
    options: KEY,
  },
  {
    name: "tool results grouped; gemini 2.5 images in an extra turn", model: m0,
    context: {
      messages: [user("q"), asst(m0, [call("a"), call("b"), call("c"), call("d")], { stopReason: "toolUse" }),
        result("a", [text("ra")]), result("b", [text("rb1"), text("rb2 " + LONE_LO)]), result("c", [img("QUFB", "image/jpeg")]), result("d", [text("rd"), img()])],
    },
    options: KEY,
  },
  {
    name: "gemini 3: images nested in functionResponse.parts", model: model({ id: "gemini-3-pro-preview" }),
    context: { messages: [user("q"), asst(model({ id: "gemini-3-pro-preview" }), [call("a"), call("b")], { stopReason: "toolUse" }), result("a", [img()]), result("b", [text("t"), img("QkJC", "image/webp")], { isError: true })] },
    options: KEY,
  },
  {
    name: "non-vision model: images become placeholders", model: model({ input: ["text"] }),
    context: { messages: [user([text("see"), img()]), asst(model(), [call("a")], { stopReason: "toolUse" }), result("a", [img()])] },
    options: KEY,
  },
  {
    name: "missing tool result gets a synthetic error; errored assistant dropped", model: m0,
    context: { messages: [user("q"), asst(m0, [call("a"), call("b")], { stopReason: "toolUse" }), result("a", [text("ra")]), user("interrupt"), asst(m0, [text("partial")], { stopReason: "error" }), user("again")] },
    options: KEY,
  },
  {
    name: "headers: model and option headers merged, null drops, case variants append", model: model({ headers: { "X-Model": "m", "X-Drop": "d", "content-type": "text/plain" } }),
    context: hi, options: { ...KEY, headers: { "X-Drop": null, "X-Opt": "  o  ", "Content-Type": "application/x-ndjson" } },
  },
  { name: "headers: caller x-goog-api-key wins", model: m0, context: hi, options: { ...KEY, headers: { "X-Goog-Api-Key": "other-key", Accept: "application/json" } } },
  { name: "baseUrl trailing slash", model: model({ baseUrl: BASE + "/v1beta/" }), context: hi, options: KEY },
  { name: "baseUrl without version", model: model({ baseUrl: BASE }), context: hi, options: KEY },
  { name: "tuned model name kept", model: model({ id: "tunedModels/my-model" }), context: hi, options: KEY },
  { name: "no api key", model: m0, context: hi, options: {} },
  { name: "empty api key", model: m0, context: hi, options: { apiKey: "" } },
  { name: "no contents", model: m0, context: { messages: [user([])] }, options: KEY },
  { name: "ephemeral token", model: m0, context: hi, options: { apiKey: "auth_tokens/abc" } },
  { name: "invalid model id", model: model({ id: "gemini?x" }), context: hi, options: KEY },
  { name: "redacted thinking from the same model", model: m0, context: { messages: [user("q"), asst(m0, [{ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "QUJD", redacted: true }, text("a")]), user("n")] }, options: KEY },
  { name: "tool with no description and odd schema keys", model: m0, context: { tools: [{ name: "t", description: "", parameters: { type: "object", properties: { "2": { type: "string" }, a: { type: "number" }, "1": { type: "string" } } } }], messages: [user("q")] }, options: { ...KEY, temperature: 1.50, maxTokens: 0 } },
];
