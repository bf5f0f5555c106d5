// Inputs for testdata/streams.json: answers fed back to real Pi (see
// capture.mjs). Written for piconform; run with Node 22.
import { hi as ctx } from "../../casekit.mjs";
import { model } from "./common.mjs";
const opts = { apiKey: "k" };
const ev = (name, data) => `event: ${name}\ndata: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
const start = (usage = { input_tokens: 100, output_tokens: 1 }, id = "msg_01") => ev("message_start", { type: "message_start", message: { id, type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, usage } });
const bstart = (index, content_block) => ev("content_block_start", { type: "content_block_start", index, content_block });
const delta = (index, d) => ev("content_block_delta", { type: "content_block_delta", index, delta: d });
const bstop = (index) => ev("content_block_stop", { type: "content_block_stop", index });
const mdelta = (stop_reason, usage = { output_tokens: 50 }, extra = {}) => ev("message_delta", { type: "message_delta", delta: { stop_reason, stop_sequence: null, ...extra }, usage });
const stop = ev("message_stop", { type: "message_stop" });
const text = (i, ...parts) => bstart(i, { type: "text", text: "" }) + parts.map((t) => delta(i, { type: "text_delta", text: t })).join("") + bstop(i);
const sse = (...parts) => ({ status: 200, sse: parts.join("") });
const c = (name, response, over = {}) => ({ name, model: model(), context: ctx, options: opts, response, ...over });

export default [
  c("example from the notes", sse(
    start({ input_tokens: 100, output_tokens: 1, cache_read_input_tokens: 20, cache_creation_input_tokens: 10 }),
    bstart(0, { type: "thinking", thinking: "", signature: "" }), delta(0, { type: "thinking_delta", thinking: "The file says hello." }),
    delta(0, { type: "signature_delta", signature: "RXF1YWw=" }), bstop(0),
    text(1, "It says ", "hello."),
    bstart(2, { type: "tool_use", id: "toolu_02", name: "read_file", input: {} }),
    delta(2, { type: "input_json_delta", partial_json: '{"path":' }), delta(2, { type: "input_json_delta", partial_json: '"b.txt"}' }), bstop(2),
    mdelta("tool_use"), stop)),
  c("redacted thinking, 1h cache write, usage kept when delta sends null", sse(
    start({ input_tokens: 1000, output_tokens: 1, cache_read_input_tokens: 200, cache_creation_input_tokens: 300, cache_creation: { ephemeral_1h_input_tokens: 100 } }),
    bstart(0, { type: "redacted_thinking", data: "ENCRYPTED" }), bstop(0),
    bstart(1, { type: "text", text: "ignored initial text" }), delta(1, { type: "text_delta", text: "Hi" }), bstop(1),
    mdelta("end_turn", { input_tokens: null, output_tokens: 40, cache_read_input_tokens: 250 }), stop)),
  c("max_tokens is length", sse(start(), text(0, "cut"), mdelta("max_tokens"), stop)),
  c("pause_turn and stop_sequence are stop", sse(start(), text(0, "a"), mdelta("pause_turn"), mdelta("stop_sequence"), stop)),
  c("refusal with an explanation", sse(start(), text(0, "no"), mdelta("refusal", { output_tokens: 3 }, { stop_details: { explanation: "Not allowed." } }), stop)),
  c("refusal without an explanation", sse(start(), mdelta("refusal", { output_tokens: 3 }), stop)),
  c("sensitive", sse(start(), mdelta("sensitive"), stop)),
  c("unknown stop reason throws before usage", sse(start(), text(0, "x"), mdelta("model_context_window_exceeded", { output_tokens: 999 }), stop)),
  c("error event mid-stream", sse(start(), bstart(0, { type: "text", text: "" }), delta(0, { type: "text_delta", text: "part" }),
    ev("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }), stop)),
  c("ended before message_stop", sse(start(), text(0, "a"), mdelta("end_turn"))),
  c("refusal then no message_stop", sse(start(), mdelta("refusal", { output_tokens: 3 }))),
  c("no message_start and no message_stop is done", sse(text(0, "loose"))),
  c("empty body", sse()),
  c("bad JSON in an event", sse(start(), "event: content_block_start\ndata: {bad\n\n")),
  c("bad JSON after comments keeps raw lines", sse(start(), ": ping\n\n: again\nevent: message_delta\ndata: {\"type\":\"message_delta\",\n\n")),
  c("repairable JSON with a raw tab", sse(start(), bstart(0, { type: "text", text: "" }), 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\tb\\q"}}\n\n', bstop(0), mdelta("end_turn"), stop)),
  c("null data", sse(start(), "event: message_delta\ndata: null\n\n", stop)),
  c("message_delta without usage", sse(start(), ev("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" } }), stop)),
  c("message_start without usage", sse(ev("message_start", { type: "message_start", message: { id: "m2" } }), stop)),
  c("content_block_start without content_block", sse(start(), ev("content_block_start", { type: "content_block_start", index: 0 }), stop)),
  c("blocks never stopped leak index and partialJson", sse(start(),
    bstart(0, { type: "text", text: "" }), delta(0, { type: "text_delta", text: "A" }),
    bstart(1, { type: "tool_use", id: "t1", name: "f", input: {} }), delta(1, { type: "input_json_delta", partial_json: '{"a":1}' }),
    bstart(2, { type: "thinking", thinking: "" }), mdelta("end_turn"), stop)),
  c("blocks never stopped are cleaned on error", sse(start(),
    bstart(0, { type: "tool_use", id: "t1", name: "f", input: { x: 1 } }), delta(0, { type: "input_json_delta", partial_json: '{"path":"a.t' }))),
  c("tool arguments: partial, invalid, repaired, numbers, initial input", sse(start(),
    bstart(0, { type: "tool_use", id: "a", name: "f", input: {} }), delta(0, { type: "input_json_delta", partial_json: '{"path":"a.t' }), bstop(0),
    bstart(1, { type: "tool_use", id: "b", name: "f", input: {} }), delta(1, { type: "input_json_delta", partial_json: "not json" }), bstop(1),
    bstart(2, { type: "tool_use", id: "c", name: "f", input: {} }), delta(2, { type: "input_json_delta", partial_json: '{"p":"C:\\x\\q"}' }), bstop(2),
    bstart(3, { type: "tool_use", id: "d", name: "f", input: {} }), delta(3, { type: "input_json_delta", partial_json: '{"n":1.50,"b":12345678901234567890,"n":2,"1":0}' }), bstop(3),
    bstart(4, { type: "tool_use", id: "e", name: "f", input: { pre: "filled" } }), bstop(4),
    bstart(5, { type: "tool_use", id: "f", name: "f" }), delta(5, { type: "input_json_delta", partial_json: "" }), bstop(5),
    bstart(6, { type: "tool_use", id: "g", name: "f", input: {} }), delta(6, { type: "input_json_delta", partial_json: "null" }), bstop(6),
    mdelta("tool_use"), stop)),
  c("SSE framing: CRLF, CR, comments, ping, unknown and nameless events, multi-line data", {
    status: 200,
    sse: ": hello\r\n\r\nevent: message_start\r\ndata: " + JSON.stringify({ type: "message_start", message: { id: "m", usage: { input_tokens: 5 } } }) + "\r\n\r\n"
      + "event: ping\ndata: {\"type\":\"ping\"}\n\n"
      + "data: " + JSON.stringify({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }) + "\n\n"
      + "event: content_block_start\rdata: " + JSON.stringify({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }) + "\r\r"
      + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\ndata: \"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"multi\"}}\nid: 7\nretry: 100\n\n"
      + "event:content_block_delta\ndata:" + JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: " nospace" } }) + "\n\n"
      + "event: something_else\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"skipped\"}}\n\n"
      + "event: message_delta\ndata: " + JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "!" } }) + "\n\n"
      + bstop(0) + "event: message_stop\ndata: {\"type\":\"message_stop\"}",
  }),
  c("bytes: BOM, invalid UTF-8, surrogate escapes split across deltas", { status: 200, base64: Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(start()), Buffer.from(bstart(0, { type: "text", text: "" })),
    Buffer.from('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"bad '),
    Buffer.from([0xe2, 0x82, 0x41, 0xff, 0xc3]), Buffer.from(' \\ud83d"}}\n\n'),
    Buffer.from('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\\ude48 lone \\udc00"}}\n\n'),
    Buffer.from(bstop(0)), Buffer.from(mdelta("end_turn")), Buffer.from(stop),
  ]).toString("base64") }),
  c("deltas for unknown or stopped indexes and other block types are ignored", sse(start(),
    bstart(0, { type: "server_tool_use", id: "s", name: "web_search", input: {} }), delta(0, { type: "input_json_delta", partial_json: "{}" }), bstop(0),
    bstart(1, { type: "text", text: "" }), delta(1, { type: "text_delta", text: "x" }), delta(9, { type: "text_delta", text: "lost" }), bstop(1),
    delta(1, { type: "text_delta", text: "late" }), delta(1, { type: "citations_delta", citation: {} }),
    bstart(2, { type: "thinking", thinking: "" }), delta(2, { type: "text_delta", text: "wrong kind" }), delta(2, { type: "signature_delta", signature: "s1" }), delta(2, { type: "signature_delta", signature: "s2" }), bstop(2),
    mdelta("end_turn"), stop)),
  c("oauth maps tool names back", sse(start(),
    bstart(0, { type: "tool_use", id: "t1", name: "Read", input: {} }), delta(0, { type: "input_json_delta", partial_json: "{}" }), bstop(0),
    bstart(1, { type: "tool_use", id: "t2", name: "Grep", input: {} }), bstop(1), mdelta("tool_use"), stop),
    { options: { apiKey: "sk-ant-oat01-x" }, context: { ...ctx, tools: [{ name: "read", description: "r", parameters: { type: "object", properties: {} } }] } }),
  c("cost with a model without cache prices", sse(start({ input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 11 }), mdelta("end_turn", { output_tokens: 13, input_tokens: 9, cache_creation_input_tokens: 4 }), stop),
    { model: model({ cost: { input: 0.8, output: 4, cacheRead: 0, cacheWrite: 0 } }) }),
  c("HTTP 400 with a JSON error", { status: 400, contentType: "application/json", body: '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}' }),
  c("HTTP 500 with text", { status: 500, contentType: "text/plain", body: "boom" }),
  c("HTTP 401 with an empty body", { status: 401, body: "" }),
  c("HTTP 403 with a top-level message", { status: 403, contentType: "application/json", body: '{"message":"forbidden","b":1}' }),
  c("HTTP 404 with a non-string message", { status: 404, contentType: "application/json", body: '{"message":{"z":1.50,"1":2}}' }),
  c("HTTP 422 with a JSON null body", { status: 422, body: "null" }),
  c("HTTP 429 with a JSON string body", { status: 429, body: '"slow down"' }),
  c("HTTP 400 with spaces only", { status: 400, body: "   " }),
];
