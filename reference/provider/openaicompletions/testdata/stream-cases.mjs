// Inputs for testdata/streams.json: answers fed back to real Pi (see
// capture.mjs). Written for piconform; run with Node 22.
import { hi as ctx } from "../../casekit.mjs";
import { reasoningModel as model } from "./common.mjs";
const opts = { apiKey: "k" };
const data = (d) => `data: ${typeof d === "string" ? d : JSON.stringify(d)}\n\n`;
const chunk = (delta, finish_reason = null, extra = {}) => data({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-test", choices: [{ index: 0, delta, finish_reason }], ...extra });
const usage = (u) => data({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-test", choices: [], usage: u });
const DONE = "data: [DONE]\n\n";
const sse = (...parts) => ({ sse: parts.join("") });
const tc = (index, id, name, args) => ({ index, ...(id ? { id, type: "function" } : {}), function: { ...(name ? { name } : {}), ...(args !== undefined ? { arguments: args } : {}) } });

export default [
  { name: "text", model: model(), context: ctx, options: opts, response: sse(chunk({ role: "assistant", content: "" }), chunk({ content: "Hel" }), chunk({ content: "lo ☃" }), chunk({}, "stop"), usage({ prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_tokens_details: { cached_tokens: 30 } }), DONE) },
  { name: "reasoning then text then reasoning", model: model(), context: ctx, options: opts, response: sse(chunk({ reasoning: "R1", reasoning_content: "RC1" }), chunk({ reasoning: "R2" }), chunk({ content: "A" }), chunk({ reasoning_text: "RT" }), chunk({ content: "B" }, "stop"), DONE) },
  { name: "opencode-go reasoning", model: model({ provider: "opencode-go" }), context: ctx, options: opts, response: sse(chunk({ reasoning: "R" }), chunk({ content: "A" }, "stop"), DONE) },
  { name: "tool calls", model: model(), context: ctx, options: opts, response: sse(chunk({ content: "pre" }), chunk({ tool_calls: [tc(0, "call_1", "read_file", "")] }), chunk({ tool_calls: [tc(0, null, null, '{"pa')] }), chunk({ tool_calls: [tc(0, null, null, 'th":"a.txt"}')] }), chunk({ tool_calls: [tc(1, "call_2", "ls")] }), chunk({ content: "post" }), chunk({}, "tool_calls"), usage({ prompt_tokens: 10, completion_tokens: 7, total_tokens: 999, prompt_tokens_details: { cached_tokens: 2, cache_write_tokens: 3 } }), DONE) },
  { name: "tool calls without index", model: model(), context: ctx, options: opts, response: sse(chunk({ tool_calls: [{ id: "a", function: { name: "f", arguments: "{" } }] }), chunk({ tool_calls: [{ id: "a", function: { arguments: "}" } }] }), chunk({ tool_calls: [{ function: { arguments: "{}" } }] }), chunk({ tool_calls: [{ index: 5, function: { name: "late" } }] }), chunk({ tool_calls: [{ index: 5, id: "late-id" }] }), chunk({}, "function_call"), DONE) },
  { name: "bad json args", model: model(), context: ctx, options: opts, response: sse(chunk({ tool_calls: [tc(0, "c", "f", '{"a": [1, 2')] }), chunk({ tool_calls: [tc(1, "d", "g", '{"a"')] }), chunk({ tool_calls: [tc(2, "e", "h", "  ")] }), chunk({}, "tool_calls"), DONE) },
  { name: "reasoning details", model: model(), context: ctx, options: opts, response: sse(chunk({ reasoning_details: [{ type: "reasoning.encrypted", id: "call_2", data: "ENC2", format: "x" }, { type: "reasoning.text", id: "call_1", text: "t" }] }), chunk({ tool_calls: [tc(0, "call_1", "f", "{}")], reasoning_details: [{ type: "reasoning.encrypted", id: "call_1", data: "ENC1" }, { type: "reasoning.encrypted", id: "", data: "x" }] }), chunk({ tool_calls: [tc(1, "call_2", "g", "{}")] }), chunk({}, "tool_calls"), DONE) },
  { name: "usage in choice", model: model(), context: ctx, options: opts, response: sse(chunk({ content: "x" }), data({ id: "c", choices: [{ index: 0, delta: {}, finish_reason: "stop", usage: { prompt_tokens: 50, completion_tokens: 5, prompt_cache_hit_tokens: 60 } }] }), DONE) },
  { name: "usage chunk wins over choice", model: model(), context: ctx, options: opts, response: sse(data({ id: "c", choices: [{ index: 0, delta: { content: "x" }, finish_reason: "stop", usage: { prompt_tokens: 1 } }], usage: { prompt_tokens: 100, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 20, cache_write_tokens: 30 } } }), DONE) },
  { name: "usage cached over prompt", model: model(), context: ctx, options: opts, response: sse(chunk({ content: "x" }, "stop"), usage({ prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 20 } }), DONE) },
  { name: "usage null cached falls back", model: model(), context: ctx, options: opts, response: sse(chunk({ content: "x" }, "stop"), usage({ prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: { cached_tokens: null }, prompt_cache_hit_tokens: 4 }), DONE) },
  { name: "finish length", model: model(), context: ctx, options: opts, response: sse(chunk({ content: "x" }, "length"), DONE) },
  { name: "finish end", model: model(), context: ctx, options: opts, response: sse(chunk({ content: "x" }, "end"), DONE) },
  { name: "finish content_filter", model: model(), context: ctx, options: opts, response: sse(chunk({ content: "x" }), chunk({ reasoning: "r" }), chunk({}, "content_filter"), DONE) },
  { name: "finish network_error", model: model(), context: ctx, options: opts, response: sse(chunk({}, "network_error"), DONE) },
  { name: "finish unknown", model: model(), context: ctx, options: opts, response: sse(chunk({ content: "x" }, "weird"), DONE) },
  { name: "finish error then stop keeps message", model: model(), context: ctx, options: opts, response: sse(chunk({}, "content_filter"), chunk({ content: "x" }, "stop"), DONE) },
  { name: "no finish reason", model: model(), context: ctx, options: opts, response: sse(chunk({ content: "x" }), DONE) },
  { name: "empty body", model: model(), context: ctx, options: opts, response: { sse: "" } },
  { name: "no done marker", model: model(), context: ctx, options: opts, response: sse(chunk({ content: "x" }, "stop")) },
  { name: "after done ignored", model: model(), context: ctx, options: opts, response: sse(chunk({ content: "x" }, "stop"), DONE, "data: not json\n\n") },
  { name: "in-stream error", model: model(), context: ctx, options: opts, response: sse(chunk({ content: "x" }), data({ error: { message: "overloaded", metadata: { raw: "RAW" } } })) },
  { name: "in-stream error without message", model: model(), context: ctx, options: opts, response: sse(data({ error: { code: 500, type: "server" } })) },
  { name: "in-stream error string", model: model(), context: ctx, options: opts, response: sse(data({ error: "boom" })) },
  { name: "bad json", model: model(), context: ctx, options: opts, response: sse(chunk({ content: "x" }), "data: {not json}\n\n") },
  { name: "bad json mid tool call", model: model(), context: ctx, options: opts, response: sse(chunk({ tool_calls: [tc(0, "c", "f", '{"a":')] }), "data: {\"id\":\n\n") },
  { name: "empty data line is bad json", model: model(), context: ctx, options: opts, response: { sse: "data\n\n" } },
  { name: "framing", model: model(), context: ctx, options: opts, response: { sse: ": comment\r\n\r\nevent: \r\n\r\nid: 7\nretry: 1\ndata:" + JSON.stringify({ id: "x1", model: "gpt-test-2025", choices: [{ index: 0, delta: { content: "a" } }] }) + "\r\r" + "data: {\"choices\":[{\"delta\":\n" + "data: {\"content\":\"b\"},\"finish_reason\":\"stop\"}]}\n\n" + "data: {\"choices\":[]}\n\ndata: null\n\ndata: [1]\n\ndata: \"s\"\n\n" } },
  { name: "unterminated last event dropped", model: model(), context: ctx, options: opts, response: { sse: chunk({ content: "x" }) + 'data: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n' } },
  { name: "response id and model", model: model(), context: ctx, options: opts, response: sse(data({ id: "", model: "", choices: [{ delta: { content: "a" } }] }), data({ id: "r2", model: "other-model", choices: [{ delta: {} }] }), data({ id: "r3", model: "third", choices: [{ delta: {}, finish_reason: "stop" }] }), DONE) },
  { name: "thread event ignored", model: model(), context: ctx, options: opts, response: sse("event: thread.run\ndata: {\"id\":\"t\",\"choices\":[{\"delta\":{\"content\":\"no\"}}]}\n\n", chunk({ content: "y" }, "stop")) },
  { name: "bom and bad utf8", model: model(), context: ctx, options: opts, response: { base64: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('data: {"choices":[{"delta":{"content":"a'), Buffer.from([0xff, 0xe2, 0x98]), Buffer.from('b"},"finish_reason":"stop"}]}\n\n')]).toString("base64") } },
  { name: "null entry in tool_calls", model: model(), context: ctx, options: opts, response: sse(chunk({ content: "a" }), chunk({ tool_calls: [null] }), chunk({}, "stop")) },
  { name: "zero cost model", model: model({ cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }), context: ctx, options: opts, response: sse(chunk({ content: "x" }, "stop"), usage({ prompt_tokens: 3, completion_tokens: 4 })) },
  { name: "http 400 json", model: model(), context: ctx, options: opts, response: { status: 400, contentType: "application/json", body: JSON.stringify({ error: { message: "bad thing", type: "invalid_request_error" } }) } },
  { name: "http 500 text", model: model(), context: ctx, options: opts, response: { status: 500, contentType: "text/plain", body: "boom" } },
  { name: "http 429 openrouter raw", model: model(), context: ctx, options: opts, response: { status: 429, contentType: "application/json", body: JSON.stringify({ error: { message: "Provider returned error", code: 429, metadata: { raw: "upstream rate limited" } } }) } },
  { name: "http 401 empty", model: model(), context: ctx, options: opts, response: { status: 401, contentType: "text/plain", body: "" } },
  { name: "http 403 json without error", model: model(), context: ctx, options: opts, response: { status: 403, contentType: "application/json", body: JSON.stringify({ message: "nope" }) } },
  { name: "http 404 error without message", model: model(), context: ctx, options: opts, response: { status: 404, contentType: "application/json", body: JSON.stringify({ error: { code: "model_not_found" } }) } },
  { name: "http 502 json null", model: model(), context: ctx, options: opts, response: { status: 502, contentType: "application/json", body: "null" } },
  { name: "http 400 error message object", model: model(), context: ctx, options: opts, response: { status: 400, contentType: "application/json", body: JSON.stringify({ error: { message: { detail: "x" } } }) } },
];
