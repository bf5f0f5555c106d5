// Contexts and options for capture.mjs requests (see capture.mjs).
const model = { id: "mistral-large-latest", name: "Mistral Large", api: "mistral-conversations", provider: "mistral", baseUrl: "http://127.0.0.1:47915/ignored/path?q=1", reasoning: false, input: ["text", "image"], cost: { input: 2, output: 6, cacheRead: 0.2, cacheWrite: 0 }, contextWindow: 128000, maxTokens: 32000 };
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const foreign = (content) => ({ role: "assistant", content, api: "openai-responses", provider: "openai", model: "gpt-5", usage, stopReason: "toolUse", timestamp: 2 });
const result = (id, text) => ({ role: "toolResult", toolCallId: id, toolName: "read", content: [{ type: "text", text }], isError: false, timestamp: 3 });
const tools = [{ name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }];
const hi = [{ role: "user", content: "Hi", timestamp: 1 }];
export default [
  { name: "base url path ignored", model, context: { messages: hi }, options: { apiKey: "k", maxTokens: 10, temperature: 0.5 } },
  { name: "no key", model, context: { messages: hi }, options: {} },
  { name: "normalizer collisions in one request", model, context: { messages: [...hi, foreign([
    { type: "toolCall", id: "abc+", name: "read", arguments: {} }, { type: "toolCall", id: "a|b|c", name: "read", arguments: {} },
    { type: "toolCall", id: "ABCDEFGHI", name: "read", arguments: {} }, { type: "toolCall", id: "call_abc", name: "read", arguments: {} },
    { type: "toolCall", id: "!!!", name: "read", arguments: {} }]),
    result("abc+", "1"), result("a|b|c", "2"), result("ABCDEFGHI", "3"), result("call_abc", "4"), result("!!!", "5")], tools }, options: { apiKey: "k" } },
  { name: "headers and affinity", model: { ...model, headers: { "x-affinity": "" } }, context: { messages: hi }, options: { apiKey: "k", sessionId: "s1", headers: { Cookie: "c=1", Authorization: "Bearer other" } } },
  { name: "tool choice object without function", model, context: { messages: hi, tools }, options: { apiKey: "k", toolChoice: { type: "function" } } },
];
