// Inputs for testdata/urls.json: base URLs on Azure hosts, resolved by real
// Pi with fetch replaced (see capture.mjs), so nothing is sent anywhere.
// Written for piconform; run with Node 22.
import { model as makeModel } from "../../casekit.mjs";
const API = "azure-openai-responses";
const model = makeModel({
  id: "gpt-5-test", name: "GPT Test", api: API, provider: API, baseUrl: "https://model.openai.azure.com/openai/v1",
  reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 400000, maxTokens: 128000,
});
const hi = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const c = (name, options = {}, over = {}) => ({ name, model: model(over), context: hi, options: { apiKey: "azure-test-key", ...options } });

export default [
  c("model base url"),
  c("azure host without a path", { azureBaseUrl: "https://res.openai.azure.com" }),
  c("azure host with /", { azureBaseUrl: "https://res.openai.azure.com/" }),
  c("azure host with /openai/ and a query", { azureBaseUrl: "https://res.openai.azure.com/openai/?api-version=old&x=1" }),
  c("azure host with /openai//", { azureBaseUrl: "https://res.openai.azure.com/openai//" }),
  c("azure host with a custom path", { azureBaseUrl: "https://res.openai.azure.com/custom/path/" }),
  c("azure host with /openai/deployments path", { azureBaseUrl: "https://res.openai.azure.com/openai/deployments/d" }),
  c("cognitive services host", { azureBaseUrl: "https://res.cognitiveservices.azure.com" }),
  c("upper-case host and default port", { azureBaseUrl: "https://RES.OpenAI.Azure.com:443/" }),
  c("other port kept", { azureBaseUrl: "https://res.openai.azure.com:8443" }),
  c("host that only looks like azure", { azureBaseUrl: "https://openai.azure.com.example.org" }),
  c("resource name", { azureResourceName: "my-res" }),
  c("resource name from env", { env: { AZURE_OPENAI_RESOURCE_NAME: "env-res" } }),
  c("base url beats resource name", { azureBaseUrl: "https://a.openai.azure.com", azureResourceName: "b" }),
  c("env base url beats resource name option", { azureResourceName: "b", env: { AZURE_OPENAI_BASE_URL: " https://envbase.openai.azure.com/openai " } }),
  c("blank base url option falls through", { azureBaseUrl: "   ", azureResourceName: "r2" }),
  c("no base url at all", {}, { baseUrl: "" }),
  c("base url that is not a URL", { azureBaseUrl: "res.openai.azure.com" }),
  c("model base url with spaces is trimmed", {}, { baseUrl: "  https://m.openai.azure.com/openai  " }),
  c("api version with a resource name", { azureResourceName: "r", azureApiVersion: "2025-04-01-preview" }),
];
