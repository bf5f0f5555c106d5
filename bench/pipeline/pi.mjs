// The real Pi's side of bench/pipeline: the same pipeline as pipeline.Build, run by Pi 0.80.2 on
// Node with the pi-ts adapter's packages, or by the Pi whose node_modules PI_TS_MODULES names
// (compare -dialect 1.6: Pi 1.6.0). compare starts it as
//
//   node pi.mjs <transcript.json> <request.json> <warm-up runs> <timed runs>
//
// Each run starts from the transcript's bytes: JSON.parse, the coding agent's convertToLlm, in
// Pi 1.6 normalizeContext, then the API's stream function, which runs transformMessages and
// builds the body its SDK hands to
// fetch. fetch is replaced: it stops the clock, keeps the body and answers 400, so nothing leaves
// the process. Prints one JSON line: the timed runs in nanoseconds, the CPU time of one (every
// thread, nanoseconds) and the body's SHA-256.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { zstdDecompressSync } from "node:zlib";

const here = path.dirname(fileURLToPath(import.meta.url));
const scope = process.env.PI_TS_MODULES
  ? path.join(process.env.PI_TS_MODULES, "@earendil-works")
  : path.join(here, "../../adapters/pi-ts/node_modules/@earendil-works");
const load = (pkg, file) => import(pathToFileURL(path.join(scope, pkg, file)).href);

const streams = {
  "anthropic-messages": "dist/api/anthropic-messages.js",
  "openai-completions": "dist/api/openai-completions.js",
  "openai-responses": "dist/api/openai-responses.js",
  "google-generative-ai": "dist/api/google-generative-ai.js",
  "mistral-conversations": "dist/api/mistral-conversations.js",
  "azure-openai-responses": "dist/api/azure-openai-responses.js",
  "openai-codex-responses": "dist/api/openai-codex-responses.js",
  "google-vertex": "dist/api/google-vertex.js",
};

const [transcriptFile, requestFile, warm, timed, bodyOut] = process.argv.slice(2);
const request = JSON.parse(readFileSync(requestFile, "utf8"));
const { convertToLlm } = await load("pi-coding-agent", "dist/core/messages.js");
const { stream } = await load("pi-ai", streams[request.model.api]);
// Pi 1.6's stream functions take the transcript its normalizeContext makes of a Context (as pi-ai's
// own stream does first); Pi 0.80 has none and takes the Context.
const normalizeContext = await load("pi-ai", "dist/utils/transcript.js").then(
  (m) => m.normalizeContext,
  () => undefined,
);
const bytes = readFileSync(transcriptFile);

let body, stoppedAt;
globalThis.fetch = async (input, init) => {
  stoppedAt = process.hrtime.bigint();
  // Most SDKs pass the body in init; Mistral's passes a Request.
  body = init?.body ?? (input instanceof Request ? await input.text() : undefined);
  return new Response('{"error":{"type":"invalid_request_error","message":"bench"}}', {
    status: 400,
    headers: { "content-type": "application/json" },
  });
};

async function once() {
  body = undefined;
  const start = process.hrtime.bigint();
  const messages = convertToLlm(JSON.parse(bytes.toString("utf8")));
  const context = { systemPrompt: request.systemPrompt, messages, tools: request.tools };
  const transcript = normalizeContext ? normalizeContext(context) : context;
  for await (const _ of stream(request.model, transcript, request.options));
  if (body instanceof Uint8Array && body[0] === 0x28 && body[1] === 0xb5 && body[2] === 0x2f && body[3] === 0xfd) {
    // Pi 1.6's codex sends its body zstd-compressed; the reference's body is the JSON inside.
    body = zstdDecompressSync(body).toString("utf8");
  }
  if (typeof body !== "string") throw new Error(`fetch got no string body (${typeof body})`);
  return Number(stoppedAt - start);
}

for (let i = 0; i < Number(warm); i++) await once();
const samples = [];
const cpu = process.cpuUsage();
for (let i = 0; i < Number(timed); i++) samples.push(await once());
const used = process.cpuUsage(cpu);
const cpuPerOp = Math.round(((used.user + used.system) * 1000) / Number(timed));
if (bodyOut) writeFileSync(bodyOut, body);
const sha256 = createHash("sha256").update(body, "utf8").digest("hex");
// The process's own peak RSS (see compare's result.PeakRSS), 0 off Linux.
let peakRSS = 0;
try {
  const hwm = /^VmHWM:\s*(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
  if (hwm) peakRSS = Number(hwm[1]) * 1024;
} catch {}
console.log(JSON.stringify({ samples, cpuPerOp, sha256, bodyBytes: Buffer.byteLength(body, "utf8"), peakRSS }));
