// Inputs for testdata/lenient.json (see capture.mjs): contexts and options
// whose members have other types than Pi declares (spec input.lenient),
// sent through real Pi. Pi either sends a request or fails with a
// TypeError. Written for piconform; run with Node 22.
import { zeroUsage, user, toolResult, text, img, hi } from "../../casekit.mjs";
import { model } from "./common.mjs";

const m0 = model();
const claude = model({ id: "claude-sonnet-4-5" });
const asst = (m, content, over = {}) => ({ role: "assistant", content, api: m.api, provider: m.provider, model: m.id, usage: zeroUsage, stopReason: "toolUse", timestamp: 2, ...over });
const result = toolResult("read_file");
const call = (over = {}) => ({ type: "toolCall", id: "c1", name: "read_file", arguments: { path: "a" }, ...over });
const readTool = { name: "read_file", description: "Read a file", parameters: { type: "object" } };
const other = { api: "anthropic-messages", provider: "anthropic", id: "claude-sonnet-4-5" };
const KEY = { apiKey: "AIza-test" };
// A model whose id is not a string: Pi reads it as one for each tool call
// (the id normalizer, then the call's conversion), each tool result and
// turning thinking off, all before it checks the signal.
const numbered = model({ id: 7 });
// A same-model turn with one tool call, its result and a question.
const round = (m, callOver, resultOver = {}, content = [text("ok")]) => [user("q"), asst(m, [call(callOver)]), result("c1", content, resultOver), user("n")];

export default [
  { name: "user content number", model: m0, context: { messages: [user(7)] }, options: KEY },
  { name: "user content null", model: m0, context: { messages: [user(null)] }, options: KEY },
  { name: "user content object", model: m0, context: { messages: [user({ text: "x" })] }, options: KEY },
  { name: "user content missing", model: m0, context: { messages: [{ role: "user", timestamp: 1 }] }, options: KEY },
  { name: "user null element", model: m0, context: { messages: [user([text("a"), null])] }, options: KEY },
  {
    name: "user elements of no image type are empty images", model: m0,
    context: { messages: [user([5, "str", [1], true, { type: "video", mimeType: "v/x", data: null }, { type: "thinking", thinking: "t" }, { mimeType: 3, data: { a: 1 } }])] },
    options: KEY,
  },
  { name: "user image of other member types", model: m0, context: { messages: [user([{ type: "image", data: 7, mimeType: null }, { type: "image", data: "ZA==" }])] }, options: KEY },
  { name: "user text number", model: m0, context: { messages: [user([{ type: "text", text: 5 }])] }, options: KEY },
  { name: "user text null", model: m0, context: { messages: [user([{ type: "text", text: null }])] }, options: KEY },
  { name: "user text with signature of another type", model: m0, context: { messages: [user([{ type: "text", text: "a", textSignature: 5 }])] }, options: KEY },
  {
    name: "assistant falsy texts skipped, unknown elements skipped", model: m0,
    context: { messages: [user("q"), asst(m0, [{ type: "text", text: null }, { type: "text", text: 0 }, { type: "text", text: false }, { type: "text" }, 5, "s", [1], img(), { type: "x" }, { type: "thinking", thinking: null }, { type: "thinking", thinking: 0 }, text("kept")]), user("n")] },
    options: KEY,
  },
  { name: "assistant text number", model: m0, context: { messages: [user("q"), asst(m0, [{ type: "text", text: 5 }]), user("n")] }, options: KEY },
  { name: "assistant text empty array", model: m0, context: { messages: [user("q"), asst(m0, [{ type: "text", text: [] }]), user("n")] }, options: KEY },
  { name: "assistant thinking object", model: m0, context: { messages: [user("q"), asst(m0, [{ type: "thinking", thinking: {} }]), user("n")] }, options: KEY },
  { name: "assistant null element", model: m0, context: { messages: [user("q"), asst(m0, [text("a"), null]), user("n")] }, options: KEY },
  {
    name: "assistant signatures of other types are dropped", model: m0,
    context: { messages: [user("q"), asst(m0, [{ type: "thinking", thinking: "th", thinkingSignature: 1234 }, { type: "text", text: "t", textSignature: ["QUJD"] }, call({ thoughtSignature: 5678 })]), result("c1", [text("ok")]), user("n")] },
    options: KEY,
  },
  { name: "assistant provider of another type is another model", model: m0, context: { messages: [user("q"), asst(m0, [{ type: "thinking", thinking: "th", thinkingSignature: "QUJD" }], { provider: 5 }), user("n")] }, options: KEY },
  { name: "tool call name number", model: m0, context: { messages: round(m0, { name: 5 }) }, options: KEY },
  { name: "tool call name null", model: m0, context: { messages: round(m0, { name: null }) }, options: KEY },
  { name: "tool call name missing", model: m0, context: { messages: round(m0, { name: undefined }) }, options: KEY },
  { name: "tool call arguments null", model: m0, context: { messages: round(m0, { arguments: null }) }, options: KEY },
  { name: "tool call arguments of other types", model: m0, context: { messages: [user("q"), asst(m0, [call({ arguments: 5 }), call({ id: "c2", arguments: "s" }), call({ id: "c3", arguments: [1, { b: 2, 1: 0 }] }), call({ id: "c4", arguments: undefined })]), result("c1", [text("1")]), result("c2", [text("2")]), result("c3", [text("3")]), result("c4", [text("4")]), user("n")] }, options: KEY },
  { name: "claude tool call and result ids of other types", model: claude, context: { messages: [user("q"), asst(claude, [call({ id: 7 })]), result(7, [text("ok")]), asst(claude, [call({ id: null })]), result(null, [text("ok")]), user("n")] }, options: KEY },
  { name: "tool result content string", model: m0, context: { messages: round(m0, {}, { content: "ok" }) }, options: KEY },
  { name: "tool result content null", model: m0, context: { messages: round(m0, {}, { content: null }) }, options: KEY },
  { name: "tool result content object", model: m0, context: { messages: round(m0, {}, { content: {} }) }, options: KEY },
  { name: "tool result null element", model: m0, context: { messages: round(m0, {}, {}, [text("a"), null]) }, options: KEY },
  {
    name: "tool result texts of other types joined", model: m0,
    context: { messages: round(m0, {}, {}, [{ type: "text", text: null }, { type: "text", text: 5 }, { type: "text", text: {} }, { type: "text", text: [1, null, "x"] }, { type: "text" }, { type: "text", text: true }, 9, { type: "thinking", thinking: "t" }]) },
    options: KEY,
  },
  { name: "tool result only null texts", model: m0, context: { messages: round(m0, {}, {}, [{ type: "text", text: null }]) }, options: KEY },
  { name: "tool result images of other member types, Gemini 2.5", model: m0, context: { messages: round(m0, {}, {}, [{ type: "image", data: 7, mimeType: null }, { type: "image" }]) }, options: KEY },
  { name: "tool result images of other member types, Gemini 3", model: model({ id: "gemini-3-pro-preview" }), context: { messages: round(model({ id: "gemini-3-pro-preview" }), {}, {}, [{ type: "image", data: 7, mimeType: null }, text("t")]) }, options: KEY },
  { name: "tool result name and isError of other types", model: m0, context: { messages: [user("q"), asst(m0, [call(), call({ id: "c2" }), call({ id: "c3" })]), result("c1", [text("a")], { toolName: 5, isError: "yes" }), result("c2", [text("b")], { toolName: null, isError: 0 }), result("c3", [text("c")], { toolName: undefined, isError: [] }), user("n")] }, options: KEY },
  {
    name: "tools of other member types", model: m0,
    context: { tools: [{ name: 5, description: null, parameters: null }, { description: ["d"] }, { name: "t", description: {}, parameters: 3 }], messages: [user("q")] },
    options: KEY,
  },
  { name: "toolChoice number is AUTO", model: m0, context: { tools: [readTool], messages: [user("q")] }, options: { ...KEY, toolChoice: 1 } },
  { name: "toolChoice array is AUTO", model: m0, context: { tools: [readTool], messages: [user("q")] }, options: { ...KEY, toolChoice: ["none"] } },
  { name: "toolChoice falsy is none", model: m0, context: { tools: [readTool], messages: [user("q")] }, options: { ...KEY, toolChoice: 0 } },
  { name: "thinking level null", model: m0, context: hi, options: { ...KEY, thinking: { enabled: true, level: null, budgetTokens: 5 } } },
  { name: "thinking level number", model: m0, context: hi, options: { ...KEY, thinking: { enabled: true, level: 5 } } },
  { name: "thinking level array", model: m0, context: hi, options: { ...KEY, thinking: { enabled: true, level: ["LOW"] } } },
  { name: "thinking level __proto__", model: m0, context: hi, options: { ...KEY, thinking: { enabled: true, level: "__proto__" } } },
  { name: "thinking level toString", model: m0, context: hi, options: { ...KEY, thinking: { enabled: true, level: "toString", budgetTokens: 9 } } },
  { name: "thinking number of another model", model: m0, context: { messages: [user("q"), asst(other, [{ type: "thinking", thinking: 5 }]), user("n")] }, options: KEY },
  { name: "thinking 0 and null of another model", model: m0, context: { messages: [user("q"), asst(other, [{ type: "thinking", thinking: 0 }, { type: "thinking", thinking: null }, { type: "thinking", thinking: false }, text("a")]), user("n")] }, options: KEY },
  { name: "signed thinking number of the same model", model: m0, context: { messages: [user("q"), asst(m0, [{ type: "thinking", thinking: 5, thinkingSignature: "QUJD" }]), user("n")] }, options: KEY },
  { name: "redacted thinking object of another model", model: m0, context: { messages: [user("q"), asst(other, [{ type: "thinking", thinking: {}, redacted: true }, text("a")]), user("n")] }, options: KEY },
  { name: "errored assistant with a null element", model: m0, context: { messages: [user("q"), asst(m0, [null], { stopReason: "error" }), user("n")] }, options: KEY },
  { name: "errored assistant with thinking object", model: m0, context: { messages: [user("q"), asst(m0, [{ type: "thinking", thinking: {} }], { stopReason: "error" }), user("n")] }, options: KEY },
  { name: "claude: tool call id number of another model", model: claude, context: { messages: [user("q"), asst(other, [call({ id: 7 })]), result(7, [text("ok")]), user("n")] }, options: KEY },
  { name: "gemini: tool call id number of another model", model: m0, context: { messages: [user("q"), asst(other, [call({ id: 7 })]), result(7, [text("ok")]), user("n")] }, options: KEY },
  { name: "model id number: tool call of another model", model: numbered, context: { messages: [user("q"), asst(other, [call()]), result("c1", [text("ok")]), user("n")] }, options: KEY },
  { name: "model id number: tool call of the same model", model: numbered, context: { messages: round(numbered, {}) }, options: KEY },
  { name: "model id number: tool result", model: numbered, context: { messages: [user("q"), result("c1", [text("ok")]), user("n")] }, options: KEY },
  { name: "model id number: thinking off", model: numbered, context: hi, options: { ...KEY, thinking: { enabled: false } } },
  { name: "text-only model: tool result content string", model: model({ input: ["text"] }), context: { messages: round(model({ input: ["text"] }), {}, { content: "ok" }) }, options: KEY },
  { name: "text-only model: tool result content number", model: model({ input: ["text"] }), context: { messages: round(model({ input: ["text"] }), {}, { content: 5 }) }, options: KEY },
  { name: "text-only model: user null element", model: model({ input: ["text"] }), context: { messages: [user([img(), null])] }, options: KEY },
];
