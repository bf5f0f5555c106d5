// The model the capture cases (request-cases.mjs, stream-cases.mjs) are
// sent with. Written for piconform.
import { model as makeModel } from "../../casekit.mjs";
export const BASE = "http://127.0.0.1:47914";
export const model = makeModel({
  id: "gemini-2.5-pro", name: "Gemini 2.5 Pro", api: "google-generative-ai", provider: "google", baseUrl: BASE + "/v1beta",
  reasoning: true, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.31, cacheWrite: 0 },
  contextWindow: 1048576, maxTokens: 65536,
});
