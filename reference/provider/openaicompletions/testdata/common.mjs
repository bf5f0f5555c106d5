// The model the capture cases (request-cases.mjs, stream-cases.mjs) are
// sent with. Written for piconform.
import { model as makeModel } from "../../casekit.mjs";
export const BASE = "http://127.0.0.1:47914/v1";
export const model = makeModel({
  id: "gpt-test", name: "GPT Test", api: "openai-completions", provider: "custom", baseUrl: BASE,
  reasoning: false, input: ["text", "image"], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  contextWindow: 128000, maxTokens: 16384,
});
// reasoningModel is the model with reasoning on.
export const reasoningModel = (over = {}) => model({ reasoning: true, ...over });
