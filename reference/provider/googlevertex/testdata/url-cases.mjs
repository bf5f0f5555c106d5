// Inputs for testdata/urls.json (see capture.mjs "urls"): base URLs that
// send Pi to Google's own host, which must not be called. Written for
// piconform; run with Node 22.
import { model as makeModel } from "../../casekit.mjs";
const model = makeModel({
  id: "gemini-2.5-pro", name: "Gemini 2.5 Pro", api: "google-vertex", provider: "google-vertex",
  baseUrl: "https://{location}-aiplatform.googleapis.com",
  reasoning: true, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.31, cacheWrite: 0 },
  contextWindow: 1048576, maxTokens: 65536,
});
const hi = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const KEY = { apiKey: "AIza-test" };

export default [
  { name: "catalog base URL with {location}", model: model(), context: hi, options: KEY },
  { name: "catalog base URL, key and project", model: model(), context: hi, options: { ...KEY, project: "p", location: "europe-west4" } },
  { name: "empty base URL", model: model({ baseUrl: "" }), context: hi, options: KEY },
  { name: "blank base URL", model: model({ baseUrl: "   " }), context: hi, options: KEY },
  { name: "publisher model id", model: model({ id: "anthropic/claude-x/extra" }), context: hi, options: KEY },
  { name: "custom Google host with version", model: model({ baseUrl: "https://us-central1-aiplatform.googleapis.com/v1beta1/" }), context: hi, options: KEY },
];
