// Runs real Pi (pi-ai 0.80.2, google-generative-ai stream()) against a
// loopback server and records what it sends and emits, to refresh the
// expectations in this folder. Written for piconform.
//
//   node capture.mjs requests request-cases.mjs > requests.json
//   node capture.mjs streams stream-cases.mjs > streams.json
//
// PI_AI points at pi-ai's dist folder (default: the pi-ts adapter's copy).
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const PI_AI = process.env.PI_AI ?? path.join(here, "../../../../adapters/pi-ts/node_modules/@earendil-works/pi-ai/dist");
for (const v of Object.keys(process.env)) if (/^(GOOGLE|GEMINI)_/.test(v)) delete process.env[v];
const { stream } = await import(pathToFileURL(path.join(PI_AI, "api/google-generative-ai.js")).href);
const NOW = 1700000000000;
Date.now = () => NOW; // Pi stamps the message and generated tool-call ids with Date.now()

const [mode, file] = process.argv.slice(2);
const cases = (await import(pathToFileURL(path.resolve(file)).href)).default;
const PORT = 47914;
// Headers fetch adds by itself, and the two whose value names the Node build.
const IGNORED = new Set(["host", "connection", "content-length", "accept-language", "sec-fetch-mode", "accept-encoding"]);
const MACHINE = new Set(["user-agent", "x-goog-api-client"]);
const OK_STREAM = 'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP","index":0}]}\r\n\r\n';

let current;
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", async () => {
    const headers = {};
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers[req.rawHeaders[i].toLowerCase()] = req.rawHeaders[i + 1];
    current.requests.push({ method: req.method, url: req.url, headers, body: Buffer.concat(chunks).toString("utf8") });
    const r = current.response ?? { sse: OK_STREAM };
    res.writeHead(r.status ?? 200, { "content-type": r.contentType ?? "text/event-stream" });
    const body = r.base64 !== undefined ? Buffer.from(r.base64, "base64") : Buffer.from(r.body ?? r.sse ?? "", "utf8");
    res.end(body);
  });
});
await new Promise((r) => server.listen(PORT, "127.0.0.1", r));

async function run(c) {
  current = { requests: [], response: c.response };
  let payload;
  const events = [];
  let message;
  const s = stream(c.model, c.context, { ...c.options, onPayload: (p) => { payload = p; } });
  for await (const event of s) {
    const { partial, ...fields } = event;
    events.push(JSON.parse(JSON.stringify(fields)));
    if (event.type === "done") message = event.message;
    if (event.type === "error") message = event.error;
  }
  return { payload, events, message: JSON.parse(JSON.stringify(message)) };
}

const out = [];
for (const c of cases) {
  const got = await run(c);
  if (mode === "requests") {
    const req = current.requests[0];
    let want;
    if (!req) {
      want = { error: got.message.errorMessage };
    } else {
      const headers = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (IGNORED.has(k) || MACHINE.has(k)) continue;
        headers[k] = v;
      }
      want = { method: req.method, url: `http://127.0.0.1:${PORT}${req.url}`, headers, body: req.body };
    }
    out.push({ name: c.name, model: c.model, context: c.context, options: c.options, want });
  } else {
    const { name, model, context, options, response, ...rest } = c;
    out.push({ name, model, context, options, response, ...rest, want: { message: got.message, events: got.events } });
  }
}
server.close();
process.stdout.write(JSON.stringify(out, null, 1) + "\n");
