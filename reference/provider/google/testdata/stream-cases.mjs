// Inputs for testdata/streams.json: answers fed back to real Pi (see
// capture.mjs). Written for piconform; run with Node 22.
import { hi as ctx } from "../../casekit.mjs";
import { model } from "./common.mjs";
const opts = { apiKey: "AIza-test" };
const data = (obj, end = "\r\n\r\n") => `data: ${typeof obj === "string" ? obj : JSON.stringify(obj)}${end}`;
const chunk = (parts, extra = {}, cand = {}) => ({ candidates: [{ content: { role: "model", parts }, index: 0, ...cand }], modelVersion: "gemini-2.5-pro", responseId: "resp_1", ...extra });
const usage = (u) => ({ usageMetadata: u });
const sse = (...parts) => ({ status: 200, sse: parts.join("") });
const c = (name, response, over = {}) => ({ name, model: model(), context: ctx, options: opts, response, ...over });

export default [
  c("example from the notes", sse(
    data(chunk([{ text: "The file says hello.", thought: true, thoughtSignature: "VGhvdWdodA==" }], usage({ promptTokenCount: 120, totalTokenCount: 120 }), {})),
    data(chunk([{ text: "It says " }])),
    data(chunk([{ text: "hello." }])),
    data(chunk([{ functionCall: { name: "read_file", args: { path: "b.txt" } }, thoughtSignature: "RnVuY1NpZw==" }],
      usage({ promptTokenCount: 120, candidatesTokenCount: 30, thoughtsTokenCount: 20, cachedContentTokenCount: 20, totalTokenCount: 170 }), { finishReason: "STOP" })),
  )),
  c("provided and duplicate tool-call ids", sse(
    data(chunk([{ functionCall: { id: "call_a", name: "read_file", args: { path: "a" } } }, { functionCall: { id: "call_a", name: "bash", args: { command: "ls" } } }, { functionCall: { id: "", name: "bash" } }])),
    data(chunk([], {}, { finishReason: "MAX_TOKENS" })),
  )),
  c("signatures retained, empty text opens a block, signature-only parts ignored", sse(
    data(chunk([{ text: "t1", thought: true, thoughtSignature: "AAAA" }, { text: "t2", thought: true }, { text: "t3", thought: true, thoughtSignature: "" }])),
    data(chunk([{ thoughtSignature: "SWdub3JlZA==" }, { text: "", thoughtSignature: "QkJCQg==" }, { text: "y" }, { text: "z", thought: false }])),
    data(chunk([{ text: "again", thought: true }, { text: "after" }], {}, { finishReason: "STOP" })),
  )),
  c("function call closes the open block; text after it opens a new one", sse(
    data(chunk([{ text: "before" }, { text: "both", functionCall: { name: "read_file", args: { path: "x", n: 1.50, big: 1e2, nested: { "2": 0, b: [1, "\ud83d"], "1": null } } } }, { text: "after" }], {}, { finishReason: "STOP" })),
  )),
  c("SAFETY is an unknown error", sse(data(chunk([{ text: "partial" }], {}, { finishReason: "SAFETY" })))),
  c("SAFETY after a tool call is toolUse", sse(data(chunk([{ functionCall: { id: "c1", name: "read_file", args: {} } }], {}, { finishReason: "SAFETY" })))),
  c("unknown finishReason throws and leaves the block open", sse(data(chunk([{ text: "x" }], {}, { finishReason: "TOO_MANY_TOOL_CALLS" })), data(chunk([{ text: "never" }])))),
  c("later finishReason overrides an earlier one", sse(data(chunk([{ text: "x" }], {}, { finishReason: "RECITATION" })), data(chunk([], {}, { finishReason: "STOP" })))),
  c("no finishReason is stop; prompt feedback only", sse(data({ promptFeedback: { blockReason: "SAFETY" }, usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 }, responseId: "r" }))),
  c("usage is replaced per chunk and totalTokens is not recomputed", sse(
    data(chunk([{ text: "a" }], usage({ promptTokenCount: 1000, cachedContentTokenCount: 600, candidatesTokenCount: 50, thoughtsTokenCount: 25, totalTokenCount: 1075 }))),
    data(chunk([{ text: "b" }], usage({ promptTokenCount: 10, candidatesTokenCount: 5, toolUsePromptTokenCount: 99 }))),
  )),
  c("responseId: first non-empty wins, empty and missing are overwritten", sse(
    data({ candidates: [{ content: { parts: [{ text: "a" }] } }], responseId: "" }),
    data({ candidates: [{ content: { parts: [{ text: "b" }] } }] }),
    data({ candidates: [{ content: { parts: [{ text: "c" }] } }], responseId: "second" }),
    data({ candidates: [{ content: { parts: [{ text: "d" }] } }], responseId: "third" }),
  )),
  c("only an empty responseId", sse(data({ candidates: [{ content: { parts: [{ text: "a" }] } }], responseId: "" }))),
  c("framing: event lines drop an event; \\n\\n, \\r\\r, no space, comments", sse(
    "event: message\ndata: " + JSON.stringify(chunk([{ text: "dropped" }])) + "\n\n",
    ": comment\n\n",
    "data:" + JSON.stringify(chunk([{ text: "one" }])) + "\n\n",
    "  data: " + JSON.stringify(chunk([{ text: " two" }])) + "  \r\r",
    "\n\n\n",
    "data: " + JSON.stringify(chunk([{ text: " three" }], {}, { finishReason: "STOP" })) + "\r\n\r\n   \n",
  )),
  c("leading BOM and bad UTF-8", { status: 200, base64: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('data: {"candidates":[{"content":{"parts":[{"text":"a'), Buffer.from([0xff, 0xe2, 0x82]), Buffer.from('b"}]}}]}\n\n'), Buffer.from([0xe2, 0x82])]).toString("base64") }),
  c("bad JSON in a data line", sse(data(chunk([{ text: "kept" }])), data("nope"))),
  c("empty data line", sse(data(chunk([{ text: "kept" }])), "data:\n\n")),
  c("unterminated tail", sse(data(chunk([{ text: "kept" }])), data(chunk([{ text: "lost" }]), ""))),
  c("whitespace tail is fine", sse(data(chunk([{ text: "ok" }])), " \n \t")),
  c("JSON error body in a 200 response", { status: 200, contentType: "application/json", body: JSON.stringify({ error: { code: 429, message: "Resource exhausted", status: "RESOURCE_EXHAUSTED" } }) }),
  c("JSON error body with a code outside 400-599 is an unterminated tail", { status: 200, body: JSON.stringify({ error: { code: 200, message: "odd" } }) }),
  c("error object framed as SSE is ignored", sse(data(chunk([{ text: "a" }])), data({ error: { code: 500, message: "boom", status: "INTERNAL" } }))),
  c("empty 200 body", sse()),
  c("lone surrogates in streamed text are kept", sse(data('{"candidates":[{"content":{"parts":[{"text":"x\\ud83dy"},{"text":"\\ude00z"}]},"finishReason":"STOP"}]}'))),
  c("only the first candidate counts", sse(data({ candidates: [{ content: { parts: [{ text: "first" }] } }, { content: { parts: [{ text: "second" }] }, finishReason: "SAFETY" }] }))),
  c("a null part throws", sse(data({ candidates: [{ content: { parts: [{ text: "a" }, null] } }] }))),
  c("non-object chunks are empty", sse(data("null"), data("[1]"), data("5"), data(chunk([{ text: "a" }])))),
  c("tool call without name or args", sse(data(chunk([{ functionCall: { id: "x" } }, { functionCall: { args: null, id: "y", name: "" } }])))),
  c("http 400 json", { status: 400, contentType: "application/json", body: '{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"n":1.0}]}}' }),
  c("http 500 text", { status: 500, contentType: "text/plain", body: "boom" }),
  c("http 503 empty body", { status: 503, contentType: "text/html", body: "" }),
  c("http 429 invalid json", { status: 429, contentType: "application/json; charset=utf-8", body: "rate limited" }),
  c("http 404 json null", { status: 404, contentType: "application/json", body: "null" }),
];
