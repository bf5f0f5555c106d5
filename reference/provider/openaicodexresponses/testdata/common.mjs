// Shared pieces of the capture inputs. Written for piconform.
export const API = "openai-codex-responses";
export const BASE = "http://127.0.0.1:47933/backend-api";
export const zeroUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
export const model = (over = {}) => ({
  id: "gpt-5.1-codex", name: "GPT Codex Test", api: API, provider: "openai-codex", baseUrl: BASE,
  reasoning: true, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  contextWindow: 400000, maxTokens: 128000, ...over,
});
// A fake, unsigned ChatGPT-style token: header.payload.signature, the
// payload carrying the account id claim Pi reads. Not a real credential.
const b64url = (s) => Buffer.from(s, "utf8").toString("base64").replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
export const fakeJWT = (payload, sig = "fake-signature") =>
  `${b64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${typeof payload === "string" ? payload : b64url(JSON.stringify(payload))}.${sig}`;
export const claim = (id) => ({ "https://api.openai.com/auth": { chatgpt_account_id: id } });
export const KEY = fakeJWT(claim("acct-fake-0001"));
