// Models, messages and options shared by the bedrock capture cases.
// Written for piconform. The AWS credentials are obviously fake.
import { okResponse } from "./frames.mjs";

export const BASE = "http://127.0.0.1:47931";
export const zeroUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
export const CLAUDE = "anthropic.claude-sonnet-4-5-20250929-v1:0";
export const model = (over = {}) => ({
  id: CLAUDE, name: "Claude Sonnet 4.5", api: "bedrock-converse-stream", provider: "amazon-bedrock", baseUrl: BASE,
  reasoning: true, input: ["text", "image"], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  contextWindow: 200000, maxTokens: 64000, ...over,
});
export const nova = (over = {}) => model({ id: "amazon.nova-pro-v1:0", name: "Nova Pro", reasoning: false, cost: { input: 0.8, output: 3.2, cacheRead: 0.2, cacheWrite: 0 }, maxTokens: 10000, ...over });
export const ENV = { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret", AWS_BEDROCK_FORCE_HTTP1: "1" };
export const opts = (over = {}) => ({ apiKey: "ignored", region: "us-east-1", ...over, env: { ...ENV, ...(over.env ?? {}) } });
export const same = (content, over = {}) => ({ role: "assistant", content, api: "bedrock-converse-stream", provider: "amazon-bedrock", model: CLAUDE, usage: zeroUsage, stopReason: "stop", timestamp: 2, ...over });
export const foreign = (content, over = {}) => ({ role: "assistant", content, api: "openai-responses", provider: "openai", model: "gpt-5", usage: zeroUsage, stopReason: "toolUse", timestamp: 2, ...over });
export const user = (content) => ({ role: "user", content, timestamp: 1 });
export const result = (id, content, over = {}) => ({ role: "toolResult", toolCallId: id, toolName: "read_file", content, isError: false, timestamp: 3, ...over });
export const text = (t) => ({ type: "text", text: t });
export const img = (d = "iVBORw0KGgo=", m = "image/png") => ({ type: "image", data: d, mimeType: m });
export const readTool = { name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string", description: "File path" } }, required: ["path"] } };
export const bashTool = { name: "bash", description: "Run a command", parameters: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { command: { type: "string" } }, required: ["command"], additionalProperties: false } };
export const ok = okResponse;
