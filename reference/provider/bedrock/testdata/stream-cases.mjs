// Inputs for testdata/streams.json: answers fed back to real Pi (see
// capture.mjs). The event streams are built by hand (frames.mjs). Written
// for piconform; run with Node 22.
import { model, nova, opts, user } from "./common.mjs";
import { event as ev, exception, frames } from "./frames.mjs";

const ctx = { messages: [user("hi")] };
const start = ev("messageStart", { role: "assistant" });
const text = (i, t) => ev("contentBlockDelta", { contentBlockIndex: i, delta: { text: t } });
const stop = (i) => ev("contentBlockStop", { contentBlockIndex: i });
const tool = (i, toolUseId, name) => ev("contentBlockStart", { contentBlockIndex: i, start: { toolUse: { toolUseId, name } } });
const args = (i, input) => ev("contentBlockDelta", { contentBlockIndex: i, delta: { toolUse: { input } } });
const think = (i, r) => ev("contentBlockDelta", { contentBlockIndex: i, delta: { reasoningContent: r } });
const mstop = (stopReason) => ev("messageStop", { stopReason });
const meta = (usage) => ev("metadata", { usage, metrics: { latencyMs: 12 } });
const c = (name, response, over = {}) => ({ name, model: model(), context: ctx, options: opts(), response, ...over });
const httpError = (status, type, body) => ({ status, contentType: "application/json", headers: type ? { "x-amzn-errortype": type } : {}, body });

export default [
  c("text, thinking and a tool call", frames(start,
    think(0, { text: "Let me " }), think(0, { text: "look." }), think(0, { signature: "c2ln" }), think(0, { signature: "MTIz" }), stop(0),
    text(1, "Reading "), text(1, "it."), stop(1),
    tool(2, "tooluse_1", "read_file"), args(2, '{"path":'), args(2, '"a.txt"}'), stop(2),
    mstop("tool_use"), meta({ inputTokens: 100, outputTokens: 50, cacheReadInputTokens: 20, cacheWriteInputTokens: 10, totalTokens: 180 }))),
  c("stop sequence", frames(start, text(0, "a"), stop(0), mstop("stop_sequence"))),
  c("max tokens", frames(start, text(0, "a"), stop(0), mstop("max_tokens"), meta({ inputTokens: 5, outputTokens: 7 }))),
  c("context window exceeded", frames(start, mstop("model_context_window_exceeded"))),
  c("guardrail intervened", frames(start, text(0, "partial"), stop(0), mstop("guardrail_intervened"), meta({ inputTokens: 5, outputTokens: 1 }))),
  c("content filtered", frames(start, mstop("content_filtered"))),
  c("unknown stop reason", frames(start, mstop("something_new"))),
  c("no messageStop is stop; no messageStart, no start", frames(text(0, "x"), stop(0))),
  c("user message start", frames(ev("messageStart", { role: "user" }), text(0, "x"))),
  c("throttling exception mid-stream", frames(start, text(0, "half"), exception("throttlingException", { message: "Too many tokens" }))),
  c("internal server exception", frames(start, exception("internalServerException", { message: "boom" }))),
  c("model stream error exception", frames(start, exception("modelStreamErrorException", { message: "bad stream", originalStatusCode: 500, originalMessage: "x" }))),
  c("validation exception", frames(start, exception("validationException", { message: "data retention mode 'default' is not available" }))),
  c("service unavailable exception", frames(exception("serviceUnavailableException", { message: "later" }))),
  c("metadata twice resets usage", frames(start, text(0, "a"), stop(0), mstop("end_turn"),
    meta({ inputTokens: 10, outputTokens: 5, cacheReadInputTokens: 100, cacheWriteInputTokens: 50 }), meta({ outputTokens: 6 }))),
  c("blocks never stopped leak index and partialJson", frames(start, text(0, "t"), tool(1, "tu", "bash"), args(1, '{"command":"l'), mstop("tool_use"))),
  c("blocks never stopped, then an exception", frames(start, text(0, "t"), tool(1, "tu", "bash"), args(1, '{"command":"l'), exception("throttlingException", { message: "slow" }))),
  c("redacted reasoning is an empty thinking block", frames(start, think(0, { redactedContent: "AAAA" }), stop(0), text(1, "a"), stop(1), mstop("end_turn"))),
  c("tool call without deltas; invalid arguments", frames(start, tool(0, "t0", "read_file"), stop(0), tool(1, "t1", "bash"), args(1, "not json"), stop(1), tool(2, "", ""), args(2, '{"a":[1,'), stop(2), mstop("tool_use"))),
  c("unknown event ignored; delta after stop starts a new block", frames(start, ev("somethingNew", { x: 1 }), text(0, "a"), stop(0), text(0, "b"), stop(0), mstop("end_turn"))),
  c("nova usage cost", frames(start, text(0, "hi"), stop(0), mstop("end_turn"), meta({ inputTokens: 1000, outputTokens: 200, totalTokens: 1200 })), { model: nova() }),
  c("http 400 validation", httpError(400, "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/", '{"message":"Malformed input request"}')),
  c("http 403 access denied", httpError(403, "AccessDeniedException", '{"message":"You don\'t have access to the model with the specified model ID."}')),
  c("http 404 not found", httpError(404, "ResourceNotFoundException", '{"Message":"Model not found"}')),
  c("http 400 data retention", httpError(400, "ValidationException", '{"message":"data retention mode \'default\' is not available for this model"}')),
];
