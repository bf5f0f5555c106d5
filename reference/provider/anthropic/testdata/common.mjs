// The model the capture cases (request-cases.mjs, stream-cases.mjs) are
// sent with. Written for piconform.
import { model as makeModel } from "../../casekit.mjs";
export const BASE = "http://127.0.0.1:47913";
export const model = makeModel({
  id: "claude-sonnet-4-5", name: "Claude Sonnet 4.5", api: "anthropic-messages", provider: "anthropic", baseUrl: BASE,
  reasoning: true, input: ["text", "image"], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  contextWindow: 200000, maxTokens: 64000,
});
