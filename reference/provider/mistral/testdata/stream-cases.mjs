// Response bodies for capture.mjs streams (see capture.mjs).
const model = { id: "magistral-medium-latest", name: "Magistral", api: "mistral-conversations", provider: "mistral", baseUrl: "http://127.0.0.1:47915", reasoning: true, input: ["text"], cost: { input: 2, output: 5, cacheRead: 0.2, cacheWrite: 0 }, contextWindow: 128000, maxTokens: 40000 };
const context = { messages: [{ role: "user", content: "Hi", timestamp: 1 }] };
const options = { apiKey: "k" };
const chunk = (delta, finish = null, usage) => "data: " + JSON.stringify({ id: "cmpl-42", object: "chat.completion.chunk", created: 1700000000, model: "m", choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) }) + "\n\n";
export default [
  { name: "example from the notes", model, context, options, response: { sse:
    chunk({ role: "assistant", content: [{ type: "thinking", thinking: [{ type: "text", text: "The file says " }] }] }) +
    chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: "hello world." }] }] }) +
    chunk({ content: "It contains: " }) + chunk({ content: "hello world" }) +
    chunk({ content: "" }, "stop", { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 }) + "data: [DONE]\n\n" } },
  { name: "tool calls then trailing empty text", model, context, options, response: { sse:
    chunk({ tool_calls: [{ id: "abcDEF123", function: { name: "read", arguments: "{\"a\"" }, index: 0 }] }) +
    chunk({ tool_calls: [{ id: "null", function: { name: "read", arguments: ":1}" }, index: 0 }] }) +
    chunk({ tool_calls: [{ function: { name: "ls", arguments: { z: 1, 2: "x" } }, index: 12 }] }) +
    chunk({ content: "" }, "tool_calls", { prompt_tokens: 9, completion_tokens: 3, total_tokens: 0, promptTokensDetails: { cachedTokens: 4 } }) } },
  { name: "bad json mid-stream", model, context, options, response: { sse: chunk({ content: "a" }) + "data: {\"x\":\n\n" } },
  { name: "finish error", model, context, options, response: { sse: chunk({ content: "a" }, "error") } },
  { name: "crlf framing", model, context, options, response: { sse: chunk({ content: "a" }).replace("\n\n", "\r\n\r\n") + ": c\r\r" + chunk({ content: "b" }, "stop").replace("\n\n", "\n\r\n") + "data: [DONE]\r\n\r\n" } },
  { name: "http 404", model, context, options, response: { status: 404, contentType: "text/plain", body: "" } },
];
