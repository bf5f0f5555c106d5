// Builders the capture cases (each provider's testdata/*-cases.mjs) share:
// Pi messages and content blocks as the cases write them. Written for
// piconform; run with Node 22.
export const zeroUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
export const user = (content) => ({ role: "user", content, timestamp: 1 });
export const text = (t, sig) => (sig === undefined ? { type: "text", text: t } : { type: "text", text: t, textSignature: sig });
export const img = (d = "iVBORw0KGgo=", m = "image/png") => ({ type: "image", data: d, mimeType: m });
// A lone surrogate each way, which JSON.stringify escapes.
export const LONE_HI = "\uD83D", LONE_LO = "\uDE00";
// The context of a case that only says hi.
export const hi = { messages: [user("hi")] };
// model returns a model maker: the fields given, overridden by over.
export const model = (fields) => (over = {}) => ({ ...fields, ...over });
// toolResult returns a maker of tool results for one tool name.
export const toolResult = (toolName) => (id, content, over = {}) => ({ role: "toolResult", toolCallId: id, toolName, content, isError: false, timestamp: 3, ...over });
// assistant returns a maker of assistant messages answered by model m.
export const assistant = (m) => (content, over = {}) => ({ role: "assistant", content, api: m.api, provider: m.provider, model: m.id, usage: zeroUsage, stopReason: "stop", timestamp: 2, ...over });
