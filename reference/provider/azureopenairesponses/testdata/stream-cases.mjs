// Inputs for testdata/streams.json: answers fed back to real Pi (see
// capture.mjs). Written for piconform; run with Node 22.
import { hi as ctx } from "../../casekit.mjs";
import { model } from "./common.mjs";
import { events } from "../../openairesponses/testdata/kit.mjs";
const { ev, created, completed, textItem, toolCall } = events("resp_1");
const c = (name, response, options = {}, over = {}) => ({ name, model: model(over), context: ctx, options: { apiKey: "azure-test-key", ...options }, response });

export default [
  c("text with usage", { sse: created() + textItem("Hel", "lo ", "🌍") + completed() }),
  c("flex tier in the answer is not priced", { sse: created() + textItem("x") + completed({ service_tier: "flex" }) }),
  c("priority tier for gpt-5.5 is not priced", { sse: created() + textItem("x") + completed({ service_tier: "priority" }) }, {}, { id: "gpt-5.5" }),
  c("service tier option is not priced", { sse: created() + textItem("x") + completed() }, { serviceTier: "flex" }),
  c("tool call", { sse: created() + toolCall() + completed() }),
  c("error event", { sse: created() + ev({ type: "error", code: "server_error", message: "boom" }) }),
  c("ended before a terminal event", { sse: created() + textItem("partial") }),
  c("incomplete", { sse: created() + textItem("cut") + completed({ status: "incomplete" }) }),
  c("http 404 json", { status: 404, contentType: "application/json", body: '{"error":{"code":"DeploymentNotFound","message":"The API deployment for this resource does not exist."}}' }),
  c("http 401 detail only", { status: 401, contentType: "application/json", body: '{"statusCode":401,"detail":"nope"}' }),
  c("http 500 text", { status: 500, contentType: "text/plain", body: "upstream failure" }),
  c("http 429 empty", { status: 429, contentType: "text/plain", body: "" }),
];
