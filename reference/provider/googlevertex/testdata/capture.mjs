// Runs real Pi (pi-ai 0.80.2, google-vertex stream()) against a loopback
// server and records what it sends and emits, to refresh the expectations
// in this folder (see ../../capturelib.mjs). Written for piconform.
//
//   node capture.mjs requests request-cases.mjs > requests.json
//   node capture.mjs streams stream-cases.mjs > streams.json
//
// Only the API-key mode reaches the server. Without a usable key Pi wants
// a project and a location and then Google credentials (ADC); the cases
// stop at the checks that fail before any credential lookup.
//
// PI_AI points at pi-ai's dist folder (default: the pi-ts adapter's copy).
//   node capture.mjs urls url-cases.mjs > urls.json
//
// The "urls" mode is for base URLs that lead to Google's hosts, which must
// not be called: fetch is replaced before Pi loads, records the URL it is
// asked for and answers with a finished stream itself, so nothing leaves
// the process. Its cases all have a key (no credentials lookup).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ADAPTER_PI_AI, capture } from "../../capturelib.mjs";

const clearEnv = (v) => /^(GOOGLE|GEMINI|GCLOUD|CLOUDSDK)_/.test(v);
const okStream = 'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP","index":0}]}\r\n\r\n';

if (process.argv[2] === "urls") {
  for (const v of Object.keys(process.env)) if (clearEnv(v)) delete process.env[v];
  let seen = [];
  globalThis.fetch = async (url) => {
    seen.push(String(url));
    return new Response(okStream, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
  const PI_AI = process.env.PI_AI ?? ADAPTER_PI_AI;
  const { stream } = await import(pathToFileURL(path.join(PI_AI, "api/google-vertex.js")).href);
  const cases = (await import(pathToFileURL(path.resolve(process.argv[3])).href)).default;
  const out = [];
  for (const c of cases) {
    if (!c.options.apiKey) throw new Error(`${c.name}: urls cases need a key`);
    seen = [];
    const s = stream(c.model, c.context, c.options);
    let message;
    for await (const event of s) if (event.type === "done" || event.type === "error") message = event.message ?? event.error;
    const want = seen.length ? { url: seen[0] } : { error: message.errorMessage };
    out.push({ name: c.name, model: c.model, context: c.context, options: c.options, want });
  }
  process.stdout.write(JSON.stringify(out, null, 1) + "\n");
} else {
  await capture({
    api: "google-vertex",
    port: 47931,
    clearEnv,
    okStream,
    // The two whose value names the Node build, dropped even when set.
    machineHeaders: ["user-agent", "x-goog-api-client"],
  });
}
