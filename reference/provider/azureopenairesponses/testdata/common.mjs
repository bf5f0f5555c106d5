// The model the capture cases (request-cases.mjs, stream-cases.mjs) are
// sent with. Written for piconform.
import { model as makeModel } from "../../casekit.mjs";
export const BASE = "http://127.0.0.1:47921/openai/v1";
export const API = "azure-openai-responses";
export const model = makeModel({
  id: "gpt-5-test", name: "GPT Test", api: API, provider: API, baseUrl: BASE,
  reasoning: true, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  contextWindow: 400000, maxTokens: 128000,
});
