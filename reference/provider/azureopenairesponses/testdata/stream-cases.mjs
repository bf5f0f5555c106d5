// Inputs for testdata/streams.json: answers fed back to real Pi (see
// capture.mjs). Written for piconform; run with Node 22.
import { hi as ctx, model as makeModel } from "../../casekit.mjs";
const API = "azure-openai-responses";
const model = makeModel({
  id: "gpt-5-test", name: "GPT Test", api: API, provider: API, baseUrl: "http://127.0.0.1:47921/openai/v1",
  reasoning: true, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  contextWindow: 400000, maxTokens: 128000,
});
let seq = 0;
const ev = (data) => `event: ${data.type}\ndata: ${JSON.stringify({ ...data, sequence_number: seq++ })}\n\n`;
const created = () => ev({ type: "response.created", response: { id: "resp_1", object: "response", status: "in_progress", output: [] } });
const usage = { input_tokens: 120, input_tokens_details: { cached_tokens: 100 }, output_tokens: 30, total_tokens: 150 };
const completed = (over = {}) => ev({ type: "response.completed", response: { id: "resp_1", object: "response", status: "completed", usage, ...over } });
const ot = (t) => ({ type: "output_text", text: t, annotations: [] });
const msg = (status, content) => ({ type: "message", id: "msg_1", role: "assistant", status, content });
const textItem = (...parts) =>
  ev({ type: "response.output_item.added", output_index: 0, item: msg("in_progress", []) }) +
  ev({ type: "response.content_part.added", item_id: "msg_1", output_index: 0, content_index: 0, part: ot("") }) +
  parts.map((d) => ev({ type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: d })).join("") +
  ev({ type: "response.output_item.done", output_index: 0, item: msg("completed", [ot(parts.join(""))]) });
const fc = (status, args) => ({ type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: args, status });
const c = (name, response, options = {}, over = {}) => ({ name, model: model(over), context: ctx, options: { apiKey: "azure-test-key", ...options }, response });

export default [
  c("text with usage", { sse: created() + textItem("Hel", "lo ", "🌍") + completed() }),
  c("flex tier in the answer is not priced", { sse: created() + textItem("x") + completed({ service_tier: "flex" }) }),
  c("priority tier for gpt-5.5 is not priced", { sse: created() + textItem("x") + completed({ service_tier: "priority" }) }, {}, { id: "gpt-5.5" }),
  c("service tier option is not priced", { sse: created() + textItem("x") + completed() }, { serviceTier: "flex" }),
  c("tool call", {
    sse: created() +
      ev({ type: "response.output_item.added", output_index: 0, item: fc("in_progress", "") }) +
      ev({ type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 0, delta: '{"path":' }) +
      ev({ type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 0, delta: '"a.txt"}' }) +
      ev({ type: "response.function_call_arguments.done", item_id: "fc_1", output_index: 0, arguments: '{"path":"a.txt"}' }) +
      ev({ type: "response.output_item.done", output_index: 0, item: fc("completed", '{"path":"a.txt"}') }) +
      completed(),
  }),
  c("error event", { sse: created() + ev({ type: "error", code: "server_error", message: "boom" }) }),
  c("ended before a terminal event", { sse: created() + textItem("partial") }),
  c("incomplete", { sse: created() + textItem("cut") + completed({ status: "incomplete" }) }),
  c("http 404 json", { status: 404, contentType: "application/json", body: '{"error":{"code":"DeploymentNotFound","message":"The API deployment for this resource does not exist."}}' }),
  c("http 401 detail only", { status: 401, contentType: "application/json", body: '{"statusCode":401,"detail":"nope"}' }),
  c("http 500 text", { status: 500, contentType: "text/plain", body: "upstream failure" }),
  c("http 429 empty", { status: 429, contentType: "text/plain", body: "" }),
];
