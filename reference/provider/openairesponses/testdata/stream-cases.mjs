// Inputs for testdata/streams.json: answers fed back to real Pi (see
// capture.mjs). Written for piconform; run with Node 22.
import { hi as ctx } from "../../casekit.mjs";
import { model } from "./common.mjs";
const opts = { apiKey: "k" };
let seq = 0;
const ev = (data, name = typeof data === "object" ? data.type : undefined) =>
  (name === undefined ? "" : `event: ${name}\n`) + `data: ${typeof data === "string" ? data : JSON.stringify({ ...data, sequence_number: seq++ })}\n\n`;
const created = (id = "resp_1") => ev({ type: "response.created", response: { id, object: "response", status: "in_progress", output: [] } });
const added = (i, item) => ev({ type: "response.output_item.added", output_index: i, item });
const done = (i, item) => ev({ type: "response.output_item.done", output_index: i, item });
const part = (i, p) => ev({ type: "response.content_part.added", item_id: "msg_1", output_index: i, content_index: 0, part: p });
const tdelta = (i, d) => ev({ type: "response.output_text.delta", item_id: "msg_1", output_index: i, content_index: 0, delta: d });
const rdelta = (i, d) => ev({ type: "response.refusal.delta", item_id: "msg_1", output_index: i, content_index: 0, delta: d });
const spart = (i, n) => ev({ type: "response.reasoning_summary_part.added", item_id: "rs_1", output_index: i, summary_index: n, part: { type: "summary_text", text: "" } });
const sdelta = (i, n, d) => ev({ type: "response.reasoning_summary_text.delta", item_id: "rs_1", output_index: i, summary_index: n, delta: d });
const sdone = (i, n, t) => ev({ type: "response.reasoning_summary_part.done", item_id: "rs_1", output_index: i, summary_index: n, part: { type: "summary_text", text: t } });
const rtext = (i, d) => ev({ type: "response.reasoning_text.delta", item_id: "rs_1", output_index: i, content_index: 0, delta: d });
const adelta = (i, d) => ev({ type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: i, delta: d });
const adone = (i, a) => ev({ type: "response.function_call_arguments.done", item_id: "fc_1", output_index: i, arguments: a });
const usage = { input_tokens: 120, input_tokens_details: { cached_tokens: 100 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 12 }, total_tokens: 150 };
const completed = (over = {}, type = "response.completed") => ev({ type, response: { id: "resp_1", object: "response", status: "completed", usage, ...over } });
const msgItem = (id, status, content, extra = {}) => ({ type: "message", id, role: "assistant", status, content, ...extra });
const ot = (t) => ({ type: "output_text", text: t, annotations: [] });
const text = (i, id, ...parts) => added(i, msgItem(id, "in_progress", [])) + part(i, ot("")) + parts.map((p) => tdelta(i, p)).join("") + done(i, msgItem(id, "completed", [ot(parts.join(""))]));
const fc = (i, callId, id, name, args, extra = "") => added(i, { type: "function_call", id, call_id: callId, name, arguments: "", status: "in_progress" }) + adelta(i, args) + extra + adone(i, args) + done(i, { type: "function_call", id, call_id: callId, name, arguments: args, status: "completed" });
const sse = (...parts) => ({ status: 200, sse: parts.join("") });
const c = (name, response, over = {}) => ({ name, model: model(over.model), context: ctx, options: over.options ?? opts, response });

const reasoningFull = (i) => added(i, { type: "reasoning", id: "rs_1", summary: [] }) + spart(i, 0) + sdelta(i, 0, "Plan") + sdone(i, 0, "Plan") + spart(i, 1) + sdelta(i, 1, "More") + sdone(i, 1, "More") +
  done(i, { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Plan" }, { type: "summary_text", text: "More" }], encrypted_content: "gAAAAENC" });

export default [
  c("example from the notes", sse(created("resp_42"), reasoningFull(0),
    added(1, msgItem("msg_2", "in_progress", [], { phase: "final_answer" })), part(1, ot("")), tdelta(1, "It contains: "), tdelta(1, "hello world"),
    done(1, msgItem("msg_2", "completed", [ot("It contains: hello world")], { phase: "final_answer" })), completed({ id: "resp_42" }))),
  c("text, tool call, toolUse, usage", sse(created(), text(0, "msg_1", "Let me ", "look."), fc(1, "call_1", "fc_1", "read", '{"path":"a.txt"}'), completed())),
  c("arguments streamed in pieces then done adds the rest", sse(created(),
    added(0, { type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: "", status: "in_progress" }),
    adelta(0, '{"pa'), adelta(0, 'th":"a'), adone(0, '{"path":"a.txt"}'),
    done(0, { type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: '{"path":"a.txt"}' }), completed())),
  c("arguments done that does not extend the buffer", sse(created(),
    added(0, { type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: "" }),
    adelta(0, '{"x":'), adone(0, '{"y":2}'), done(0, { type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: '{"z":3}' }), completed())),
  c("arguments only on the items", sse(created(),
    added(0, { type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: '{"a":1}' }),
    done(0, { type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: '{"a":2}' }),
    added(1, { type: "function_call", id: "fc_2", call_id: "call_2", name: "read" }),
    done(1, { type: "function_call", id: "fc_2", call_id: "call_2", name: "read", arguments: '{"b":' }), completed())),
  c("refusal and done text override", sse(created(),
    added(0, msgItem("msg_1", "in_progress", [])), tdelta(0, "dropped before any part"), part(0, { type: "refusal", refusal: "" }), rdelta(0, "I can't"), tdelta(0, "ignored: last part is a refusal"),
    done(0, msgItem("msg_1", "completed", [{ type: "refusal", refusal: "I can't help." }])),
    added(1, msgItem("msg_3", "in_progress", [])), part(1, { type: "reasoning_text", text: "" }), part(1, ot("")), tdelta(1, "streamed"),
    done(1, msgItem("msg_3", "completed", [ot("FIN"), { type: "refusal", refusal: "AL" }], { phase: null })), completed())),
  c("message item that already has a part; commentary phase; missing id", sse(created(),
    added(0, msgItem("msg_1", "in_progress", [ot("")])), tdelta(0, "a"), tdelta(0, "b"),
    done(0, { type: "message", role: "assistant", content: [ot("ab")], phase: "commentary" }), completed())),
  c("reasoning text without summary; summary delta without part", sse(created(),
    added(0, { type: "reasoning", id: "rs_1" }), sdelta(0, 0, "lost"), rtext(0, "raw "), rtext(0, "thoughts"),
    done(0, { type: "reasoning", id: "rs_1", summary: [], content: [{ type: "reasoning_text", text: "raw thoughts" }, { type: "reasoning_text", text: "second" }] }),
    added(1, { type: "reasoning", id: "rs_2", summary: [] }), rtext(1, "kept"), done(1, { type: "reasoning", id: "rs_2", summary: [] }), completed())),
  c("incomplete is length even with tool calls", sse(created(), fc(0, "call_1", "fc_1", "read", '{"path":"a"}'),
    completed({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } }, "response.incomplete"))),
  c("status failed in completed", sse(created(), text(0, "msg_1", "x"), completed({ status: "failed" }))),
  c("status cancelled", sse(created(), completed({ status: "cancelled" }))),
  c("status queued and in_progress are stop", sse(created(), completed({ status: "queued" }), completed({ status: "in_progress", id: "resp_2" }))),
  c("unknown status", sse(created(), text(0, "msg_1", "x"), completed({ status: "weird" }))),
  c("response.failed with an error", sse(created(), text(0, "msg_1", "x"), ev({ type: "response.failed", response: { id: "resp_1", status: "failed", error: { code: "server_error", message: "boom" } } }))),
  c("response.failed with incomplete details", sse(created(), ev({ type: "response.failed", response: { status: "failed", error: null, incomplete_details: { reason: "content_filter" } } }))),
  c("response.failed with nothing", sse(created(), ev({ type: "response.failed", response: { error: { message: "" } } }))),
  c("response.failed bare", sse(created(), ev({ type: "response.failed" }))),
  c("error event", sse(created(), text(0, "msg_1", "x"), ev({ type: "error", code: "rate_limit_exceeded", message: "slow down", param: null }))),
  c("error event without fields", sse(created(), ev({ type: "error" }))),
  c("data with an error member", sse(created(), ev({ type: "response.output_text.delta", error: { message: "nested err" } }))),
  c("data with an error member without message", sse(created(), ev({ type: "x", error: { code: 5 } }))),
  c("no terminal event", sse(created(), text(0, "msg_1", "partial"), added(1, { type: "function_call", id: "fc_1", call_id: "c", name: "read", arguments: "" }), adelta(1, '{"p'))),
  c("empty body", { status: 200, sse: "" }),
  c("done marker stops reading", sse(created(), ev("[DONE]", "done"), completed())),
  c("done marker after completion", sse(created(), completed(), "data: [DONE]\n\n", "data: not json\n\n")),
  c("bad json", sse(created(), "data: {\"type\":\"response.output_text.delta\",\"delta\":\"a\n\n")),
  c("null data", sse(created(), "data: null\n\n", completed())),
  c("named event without data", sse(created(), "event: response.in_progress\n\n", completed())),
  c("thread events and non-object data are ignored", sse(created(), "event: thread.message\ndata: {\"type\":\"response.failed\"}\n\n", "data: 5\n\n", 'data: "str"\n\n', completed())),
  c("framing: comments, CRLF, lone CR, multi-line data, BOM, no event lines",
    { status: 200, base64: Buffer.from("\uFEFF: hello\r\ndata: {\"type\":\"response.created\",\r\ndata: \"response\":{\"id\":\"r\"}}\r\n\r\n" +
      "id: 7\rretry: 10\rdata:{\"type\":\"response.output_item.added\",\"item\":{\"type\":\"message\",\"id\":\"m\",\"content\":[{\"type\":\"output_text\",\"text\":\"\"}]}}\r\r" +
      "data: {\"type\":\"response.output_text.delta\",\"delta\":\"h\u00e9\u{1F600}\"}\n\n" +
      "data: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\"}}\n\n", "utf8").toString("base64") }),
  c("last event without a blank line is lost", { status: 200, sse: created() + 'data: {"type":"response.completed","response":{}}\n' }),
  c("last event without a line end is lost", { status: 200, sse: created() + completed() + 'data: {"type":"error"}' }),
  c("invalid UTF-8 becomes replacement characters", { status: 200, base64: Buffer.concat([Buffer.from(created() + text(0, "m", "x").split("\n\n")[0] + "\n\n" + text(0, "m", "x").split("\n\n")[1] + "\n\n" + 'data: {"type":"response.output_text.delta","delta":"a'), Buffer.from([0xff, 0xe2, 0x82]), Buffer.from('b"}\n\n' + completed())]).toString("base64") }),
  c("tool call left open at completion leaks partialJson", sse(created(), text(0, "msg_1", "hi"),
    added(1, { type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: "" }), adelta(1, '{"path":"a'), completed())),
  c("blocks left open when the next item starts", sse(created(), added(0, msgItem("m", "in_progress", [])), part(0, ot("")), tdelta(0, "abandoned"),
    added(1, { type: "reasoning", id: "rs_1", summary: [] }), rtext(1, "t"), done(0, msgItem("m", "completed", [ot("late")])), done(1, { type: "reasoning", id: "rs_1", summary: [] }), completed())),
  c("function_call done without an open call", sse(created(), text(0, "msg_1", "x"), done(1, { type: "function_call", id: "fc_9", call_id: "call_9", name: "read", arguments: '{"q":1}' }), completed())),
  c("unknown items and events are ignored", sse(created(), added(0, { type: "web_search_call", id: "ws_1", status: "in_progress" }), ev({ type: "response.web_search_call.searching", item_id: "ws_1" }), done(0, { type: "web_search_call", id: "ws_1" }), ev({ type: "response.in_progress", response: {} }), text(1, "msg_1", "ok"), completed())),
  c("created without response", sse(ev({ type: "response.created" }), completed())),
  c("item added without item", sse(created(), ev({ type: "response.output_item.added" }), completed())),
  c("content part without part", sse(created(), added(0, msgItem("m", "in_progress", [])), ev({ type: "response.content_part.added" }), completed())),
  c("summary entry null", sse(created(), added(0, { type: "reasoning", id: "rs_1" }), done(0, { type: "reasoning", id: "rs_1", summary: [null] }), completed())),
  c("usage without details and without usage", sse(created(), completed({ usage: { input_tokens: 7, output_tokens: 3 } }), completed({ usage: null, id: "" }))),
  c("response id from terminal; cost with flex tier from response", sse(created("resp_A"), completed({ id: "resp_B", service_tier: "flex" }))),
  c("priority tier from options", sse(created(), completed({ service_tier: null })), { options: { apiKey: "k", serviceTier: "priority" } }),
  c("priority tier for gpt-5.5", sse(created(), completed({ service_tier: "priority" })), { model: { id: "gpt-5.5" } }),
  c("default tier from response overrides options", sse(created(), completed({ service_tier: "default" })), { options: { apiKey: "k", serviceTier: "flex" } }),
  c("surrogates in deltas", sse(created(), added(0, msgItem("m", "in_progress", [])), part(0, ot("")), tdelta(0, "a\uD83D"), tdelta(0, "\uDE00b"), done(0, msgItem("m", "completed", [ot("a\uD83D\uDE00b\uDC00")])),
    added(1, { type: "function_call", id: "fc_1", call_id: "c1", name: "read", arguments: "" }), adelta(1, '{"p":"\uD83D'), adone(1, '{"p":"\uD83D\uDE00"}'), done(1, { type: "function_call", id: "fc_1", call_id: "c1", name: "read", arguments: "" }), completed())),
  c("http 401 json error", { status: 401, contentType: "application/json", body: JSON.stringify({ error: { message: "Incorrect API key provided", type: "invalid_request_error", param: null, code: "invalid_api_key" } }) }),
  c("http 500 text", { status: 500, contentType: "text/plain", body: "upstream failure" }),
  c("http 429 empty", { status: 429, body: "" }),
  c("http 400 error without message", { status: 400, contentType: "application/json", body: JSON.stringify({ error: { code: "bad", message: "" } }) }),
  c("http 404 json without error", { status: 404, contentType: "application/json", body: '{"detail":"nope"}' }),
  c("http 503 json null", { status: 503, contentType: "application/json", body: "null" }),
  c("http 400 message not a string", { status: 400, contentType: "application/json", body: '{"error":{"message":{"a":1.50}}}' }),
  c("http 418 error is a string", { status: 418, contentType: "application/json", body: '{"error":"teapot"}' }),
];
