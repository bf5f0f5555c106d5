// Inputs for testdata/requests.json (see capture.mjs). Written for
// piconform; run with Node 22.
//
// The google-generative-ai cases of ../../google/testdata are run again
// here as google-vertex cases: every "google-generative-ai" in them becomes
// "google-vertex" and the other way round (so same-model history stays
// same-model), and their server is this folder's. Vertex-only cases follow.
import googleCases from "../../google/testdata/request-cases.mjs";
import { user, hi, model as makeModel } from "../../casekit.mjs";

const PORT = 47931;
const BASE = `http://127.0.0.1:${PORT}`;

export function swap(v) {
  if (typeof v === "string") {
    if (v === "google-generative-ai") return "google-vertex";
    if (v === "google-vertex") return "google-generative-ai";
    if (v === "google") return "google-vertex";
    return v.replace("http://127.0.0.1:47914", BASE);
  }
  if (Array.isArray(v)) return v.map(swap);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]));
  return v;
}

const model = makeModel({
  id: "gemini-2.5-pro", name: "Gemini 2.5 Pro", api: "google-vertex", provider: "google-vertex", baseUrl: BASE,
  reasoning: true, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.31, cacheWrite: 0 },
  contextWindow: 1048576, maxTokens: 65536,
});
const KEY = { apiKey: "AIza-test" };
const m0 = model();

const vertex = [
  { name: "vertex: base URL without version gets /v1", model: m0, context: hi, options: KEY },
  { name: "vertex: base URL with v1beta1 segment", model: model({ baseUrl: BASE + "/v1beta1" }), context: hi, options: KEY },
  { name: "vertex: base URL with v2 deeper", model: model({ baseUrl: BASE + "/api/v2/x/" }), context: hi, options: KEY },
  { name: "vertex: base URL segment v1alpha is not a version", model: model({ baseUrl: BASE + "/v1alpha" }), context: hi, options: KEY },
  { name: "vertex: base URL padded with spaces", model: model({ baseUrl: "  " + BASE + "/proxy  " }), context: hi, options: KEY },
  { name: "vertex: model id with models/ prefix", model: model({ id: "models/gemini-2.5-pro" }), context: hi, options: KEY },
  { name: "vertex: model id with publishers path", model: model({ id: "publishers/google/models/gemini-2.5-flash" }), context: hi, options: KEY },
  { name: "vertex: model id with projects path", model: model({ id: "projects/p/locations/l/endpoints/123" }), context: hi, options: KEY },
  { name: "vertex: key trimmed", model: m0, context: hi, options: { apiKey: "  AIza-test \t" } },
  { name: "vertex: ephemeral-looking key", model: m0, context: hi, options: { apiKey: "auth_tokens/abc" } },
  { name: "vertex: thinking disabled gemma 4 uses a zero budget", model: model({ id: "gemma-4-27b-it" }), context: hi, options: { ...KEY, thinking: { enabled: false } } },
  { name: "vertex: unknown thinking level dropped", model: model({ id: "gemini-3-pro-preview" }), context: hi, options: { ...KEY, thinking: { enabled: true, level: "EXTREME", budgetTokens: 5 } } },
  { name: "vertex: thinking level MEDIUM", model: model({ id: "gemini-3-flash-preview" }), context: hi, options: { ...KEY, thinking: { enabled: true, level: "MEDIUM" } } },
  { name: "vertex: headers with key header from caller", model: m0, context: hi, options: { ...KEY, headers: { "x-goog-api-key": "other" } } },
  { name: "vertex: no key, no project", model: m0, context: hi, options: {} },
  { name: "vertex: empty key, no project", model: m0, context: hi, options: { apiKey: "" } },
  { name: "vertex: blank key, no project", model: m0, context: hi, options: { apiKey: "   " } },
  { name: "vertex: credentials marker, no project", model: m0, context: hi, options: { apiKey: "gcp-vertex-credentials" } },
  { name: "vertex: placeholder key, no project", model: m0, context: hi, options: { apiKey: "<authenticated>" } },
  { name: "vertex: no key, project, no location", model: m0, context: hi, options: { project: "p" } },
  { name: "vertex: no key, env project, no location", model: m0, context: hi, options: { env: { GOOGLE_CLOUD_PROJECT: "p" } } },
  { name: "vertex: no key, GCLOUD_PROJECT, empty location", model: m0, context: hi, options: { env: { GCLOUD_PROJECT: "p" }, location: "" } },
  { name: "vertex: no key, empty project option, empty env", model: m0, context: hi, options: { project: "", env: { GOOGLE_CLOUD_PROJECT: "", GOOGLE_CLOUD_LOCATION: "us" } } },
  { name: "vertex: key wins over project and location", model: m0, context: hi, options: { ...KEY, project: "p", location: "us-central1" } },
  { name: "vertex: invalid model id", model: model({ id: "gemini?x" }), context: hi, options: KEY },
  { name: "vertex: no contents", model: m0, context: { messages: [user([])] }, options: KEY },
];

export default [...googleCases.map(swap), ...vertex];
