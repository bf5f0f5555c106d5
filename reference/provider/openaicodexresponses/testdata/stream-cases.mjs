// Inputs for testdata/streams.json: answers fed back to real Pi (see
// capture.mjs). Written for piconform; run with Node 22.
import { model, KEY } from "./common.mjs";
import { hi as ctx } from "../../casekit.mjs";
import { events } from "../../openairesponses/testdata/kit.mjs";

const { ev, created, completed, ot, msg, fc, textItem, toolCall } = events("resp_2");
const reasoningItem = () => {
  const item = (summary) => ({ type: "reasoning", id: "rs_1", summary, encrypted_content: "gAAAAenc" });
  return ev({ type: "response.output_item.added", output_index: 0, item: item([]) }) +
    ev({ type: "response.reasoning_summary_part.added", item_id: "rs_1", output_index: 0, summary_index: 0, part: { type: "summary_text", text: "" } }) +
    ev({ type: "response.reasoning_summary_text.delta", item_id: "rs_1", output_index: 0, summary_index: 0, delta: "Plan" }) +
    ev({ type: "response.reasoning_summary_part.done", item_id: "rs_1", output_index: 0, summary_index: 0, part: { type: "summary_text", text: "Plan" } }) +
    ev({ type: "response.output_item.done", output_index: 0, item: item([{ type: "summary_text", text: "Plan" }]) });
};
const c = (name, response, options = {}, over = {}) => ({ name, model: model(over), context: ctx, options: { apiKey: KEY, transport: "sse", ...options }, response });

export default [
  c("example: text with usage", { sse: created() + textItem("Hel", "lo ", "🌍") + completed() }),
  c("tool call", { sse: created() + toolCall() + completed() }),
  c("reasoning then text", { sse: created() + reasoningItem() + textItem("ok") + completed() }),
  c("response.done is terminal", { sse: created() + textItem("x") + completed({}, "response.done") }),
  c("response.incomplete with status incomplete", { sse: created() + textItem("x") + completed({ status: "incomplete" }, "response.incomplete") }),
  c("unknown status becomes a stop", { sse: created() + textItem("x") + completed({ status: "weird" }) }),
  c("numeric status becomes a stop", { sse: created() + textItem("x") + completed({ status: 7 }) }),
  c("status failed ends with done and reason error", { sse: created() + textItem("x") + completed({ status: "failed" }) }),
  c("status cancelled with a tool call", { sse: created() + toolCall() + completed({ status: "cancelled" }) }),
  c("tool call with incomplete status stays length", { sse: created() + toolCall() + completed({ status: "incomplete" }) }),
  c("terminal without response", { sse: created() + textItem("x") + 'data: {"type":"response.completed"}\n\n' }),
  c("events after the terminal one are not read", { sse: created() + textItem("x") + completed() + "data: {not json\n\n" + ev({ type: "error", message: "late" }) }),
  c("[DONE] before the terminal event is skipped", { sse: created() + "data: [DONE]\n\n" + textItem("x") + completed() }),
  c("default tier answer priced at the requested flex", { sse: created() + textItem("x") + completed({ service_tier: "default" }) }, { serviceTier: "flex" }),
  c("default tier answer priced at the requested priority for gpt-5.5", { sse: created() + textItem("x") + completed({ service_tier: "default" }) }, { serviceTier: "priority" }, { id: "gpt-5.5" }),
  c("answer tier flex wins over requested priority", { sse: created() + textItem("x") + completed({ service_tier: "flex" }) }, { serviceTier: "priority" }),
  c("no answer tier: requested priority", { sse: created() + textItem("x") + completed() }, { serviceTier: "priority" }),
  c("null answer tier: requested flex", { sse: created() + textItem("x") + completed({ service_tier: null }) }, { serviceTier: "flex" }),
  c("default tier without a request is not priced", { sse: created() + textItem("x") + completed({ service_tier: "default" }) }),
  c("error event with message", { sse: created() + textItem("partial") + ev({ type: "error", code: "server_error", message: "boom" }) }),
  c("error event with only a code", { sse: created() + ev({ type: "error", code: "rate_limit_exceeded" }) }),
  c("error event with a nested error", { sse: created() + ev({ type: "error", error: { code: "c", message: "nested boom" } }) }),
  c("error event with empty message and a nested code", { sse: created() + ev({ type: "error", message: "", error: { code: "nested_code" } }) }),
  c("error event without details", { sse: created() + 'data: {"type":"error","code":5,"x":1.50,"y":[1e21]}\n\n' }),
  c("response.failed with a message", { sse: created() + textItem("x") + ev({ type: "response.failed", response: { id: "resp_1", status: "failed", error: { code: "server_error", message: "it failed" } } }) }),
  c("response.failed without a message", { sse: created() + ev({ type: "response.failed", response: { id: "resp_1", status: "failed", error: null, incomplete_details: { reason: "max_output_tokens" } } }) }),
  c("response.failed with a numeric message", { sse: created() + 'data: {"type":"response.failed","response":{"error":{"message":42}}}\n\n' }),
  c("invalid JSON", { sse: created() + "data: {nope}\n\n" + completed() }),
  c("ended before a terminal event", { sse: created() + textItem("partial") }),
  c("terminal event without its blank line is never read", { sse: created() + textItem("x") + completed().slice(0, -2) }),
  c("CRLF framing is never cut", { sse: (created() + textItem("x") + completed()).replace(/\n/g, "\r\n") }),
  c("framing: comments, no space, multi-line data, event lines, BOM", {
    sse: "\uFEFF: comment\n" + created() +
      'event: response.output_item.added\ndata:{"type":"response.output_item.added","output_index":0,\ndata: "item":{"type":"message","id":"msg_1","role":"assistant","status":"in_progress","content":[]}}\n\n' +
      'id: 7\nretry: 10\ndata: {"type":"response.content_part.added","part":{"type":"output_text","text":""}}   \n\n' +
      'data: {"type":"response.output_text.delta","delta":"a\\r"}\r\n\n' +
      "event: only\n\n" +
      'data: {"type":"response.output_text.delta","delta":"b"}\n\n' +
      ev({ type: "response.output_item.done", output_index: 0, item: msg("completed", [ot("ab")]) }) + completed(),
  }),
  c("events without a type, empty type, other types", { sse: created() + 'data: {"x":1}\n\ndata: {"type":""}\n\ndata: {"type":5}\n\ndata: "str"\n\ndata: [1]\n\ndata: 3\n\n' + textItem("x") + 'data: {"type":"response.in_progress","response":{}}\n\n' + completed() }),
  c("null event", { sse: created() + "data: null\n\n" + completed() }),
  c("event with a top-level error member is handled normally", { sse: created() + textItem("x") + 'data: {"type":"response.completed","error":{"message":"ignored"},"response":{"id":"r9","status":"completed"}}\n\n' }),
  c("response.created without response", { sse: 'data: {"type":"response.created"}\n\n' + completed() }),
  c("tool call left open at completion leaks partialJson", { sse: created() + ev({ type: "response.output_item.added", output_index: 0, item: fc("in_progress", "") }) + ev({ type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 0, delta: '{"pa' }) + completed() }),
  c("tool call left open at an error drops partialJson", { sse: created() + ev({ type: "response.output_item.added", output_index: 0, item: fc("in_progress", "") }) + ev({ type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 0, delta: '{"pa' }) + ev({ type: "error", message: "cut" }) }),
  c("invalid UTF-8 becomes replacement characters", {
    base64: Buffer.concat([
      Buffer.from(created() + ev({ type: "response.output_item.added", output_index: 0, item: msg("in_progress", []) }) +
        ev({ type: "response.content_part.added", item_id: "msg_1", output_index: 0, content_index: 0, part: ot("") }) +
        'data: {"type":"response.output_text.delta","delta":"A'),
      Buffer.from([0xff, 0xe2, 0x82]),
      Buffer.from('B"}\n\n' + completed()),
    ]).toString("base64"),
  }),
  c("http 400 with an error message", { status: 400, contentType: "application/json", body: '{"error":{"message":"bad req","type":"invalid_request_error"}}' }),
  c("http 500 text body", { status: 500, contentType: "text/plain", body: "upstream down" }),
  c("http 500 empty body uses the status text", { status: 500, body: "" }),
  c("http 429 with plan", { status: 429, contentType: "application/json", body: '{"error":{"type":"usage_limit_reached","message":"limit","plan_type":"PLUS"}}' }),
  c("http 429 without details", { status: 429, contentType: "application/json", body: '{"error":{"message":"slow down"}}' }),
  c("http 429 with resets_at", { status: 429, contentType: "application/json", body: '{"error":{"code":"usage_limit_reached","plan_type":"Pro","resets_at":1700000600}}' }),
  c("http 400 usage_not_included code", { status: 400, contentType: "application/json", body: '{"error":{"code":"usage_not_included","message":"no"}}' }),
  c("http 403 error without message", { status: 403, contentType: "application/json", body: '{"error":{"code":"forbidden"}}' }),
  c("http 429 with a numeric plan gives up", { status: 429, contentType: "application/json", body: '{"error":{"message":"m","plan_type":3}}' }),
  c("http 404 JSON without error", { status: 404, contentType: "application/json", body: '{"detail":"Not Found"}' }),
  c("http 401 with BOM", { status: 401, contentType: "application/json", body: '\uFEFF{"error":{"message":"expired token"}}' }),
];
