// The loopback capture that each provider's testdata/capture.mjs runs: real
// Pi's stream() for one API against a local server, recording the request
// it sends (mode "requests") or the message and events it makes of a
// served response (mode "streams"), printed as JSON. Written for piconform.
//
//   node capture.mjs requests request-cases.mjs > requests.json
//   node capture.mjs streams stream-cases.mjs > streams.json
//
// PI_AI points at pi-ai's dist folder (default: opts.piAI).
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// The pi-ts adapter's copy of pi-ai.
export const ADAPTER_PI_AI = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../adapters/pi-ts/node_modules/@earendil-works/pi-ai/dist");

// The capture settings of the Stainless-generated SDKs (Anthropic's and
// OpenAI's): their x-stainless-os, -arch and -runtime-version headers name
// the machine, unless the caller set them.
export const STAINLESS = {
  machineHeaders: ["x-stainless-os", "x-stainless-arch", "x-stainless-runtime-version"],
  keepCallerMachineHeaders: true,
};

// Headers fetch adds by itself.
const IGNORED = new Set(["host", "connection", "content-length", "accept-language", "sec-fetch-mode", "accept-encoding"]);
const NOW = 1700000000000;

// A case's response may also carry extra response headers (headers).
//
// opts: api (file under dist/api), port, okStream (the body served when a
// case gives no response), clearEnv(name) (environment variables to drop
// before Pi loads), machineHeaders (request headers whose values name the
// machine), keepCallerMachineHeaders (keep those the case's options set),
// joinRepeatedHeaders (record a repeated header as fetch joins it, not the
// last value), checkPayload (the wire body must be onPayload's JSON),
// piAI (default dist folder), urlCase(c) (throws for a case the "urls"
// mode must not run).
//
// Mode "urls" is for base URLs that lead to the provider's real hosts,
// which must not be called: fetch is replaced before Pi loads, records the
// URL it is asked for and answers with okStream itself, so nothing leaves
// the process. Each case gets the URL Pi asked for, or the error it failed
// with before asking.
export async function capture(opts) {
  for (const v of Object.keys(process.env)) if (opts.clearEnv(v)) delete process.env[v];
  const PI_AI = process.env.PI_AI ?? opts.piAI ?? ADAPTER_PI_AI;
  if (process.argv[2] === "urls") return captureURLs(opts, PI_AI);
  const { stream } = await import(pathToFileURL(path.join(PI_AI, `api/${opts.api}.js`)).href);
  Date.now = () => NOW; // Pi stamps the message (and google's generated tool-call ids) with Date.now()

  const [mode, file] = process.argv.slice(2);
  const cases = (await import(pathToFileURL(path.resolve(file)).href)).default;
  const MACHINE = new Set(opts.machineHeaders);

  let current;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const headers = {};
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const k = req.rawHeaders[i].toLowerCase();
        headers[k] = opts.joinRepeatedHeaders && k in headers ? `${headers[k]}, ${req.rawHeaders[i + 1]}` : req.rawHeaders[i + 1];
      }
      current.requests.push({ method: req.method, url: req.url, headers, body: Buffer.concat(chunks).toString("utf8") });
      const r = current.response ?? { sse: opts.okStream };
      res.writeHead(r.status ?? 200, { "content-type": r.contentType ?? "text/event-stream", ...(r.headers ?? {}) });
      res.end(r.base64 !== undefined ? Buffer.from(r.base64, "base64") : Buffer.from(r.body ?? r.sse ?? "", "utf8"));
    });
  });
  await new Promise((r) => server.listen(opts.port, "127.0.0.1", r));

  async function run(c) {
    current = { requests: [], response: c.response };
    let payload;
    const events = [];
    let message;
    const s = stream(c.model, c.context, { ...c.options, onPayload: (p) => { payload = JSON.stringify(p); } });
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
        if (opts.checkPayload && got.payload !== req.body) throw new Error(`${c.name}: onPayload differs from the wire body`);
        const mine = new Set(Object.keys(c.options.headers ?? {}).map((k) => k.toLowerCase()));
        const headers = {};
        for (const [k, v] of Object.entries(req.headers)) {
          if (IGNORED.has(k) || (MACHINE.has(k) && !(opts.keepCallerMachineHeaders && mine.has(k)))) continue;
          headers[k] = v;
        }
        want = { method: req.method, url: `http://127.0.0.1:${opts.port}${req.url}`, headers, body: req.body };
      }
      out.push({ name: c.name, model: c.model, context: c.context, options: c.options, want });
    } else {
      const { name, model, context, options, response, ...rest } = c;
      out.push({ name, model, context, options, response, ...rest, want: { message: got.message, events: got.events } });
    }
  }
  server.close();
  process.stdout.write(JSON.stringify(out, null, 1) + "\n");
}

async function captureURLs(opts, PI_AI) {
  let seen = [];
  globalThis.fetch = async (url) => {
    seen.push(String(url));
    return new Response(opts.okStream, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
  const { stream } = await import(pathToFileURL(path.join(PI_AI, `api/${opts.api}.js`)).href);
  const cases = (await import(pathToFileURL(path.resolve(process.argv[3])).href)).default;
  const out = [];
  for (const c of cases) {
    opts.urlCase?.(c);
    seen = [];
    const s = stream(c.model, c.context, c.options);
    let message;
    for await (const event of s) if (event.type === "done" || event.type === "error") message = event.message ?? event.error;
    const want = seen.length ? { url: seen[0] } : { error: message.errorMessage };
    out.push({ name: c.name, model: c.model, context: c.context, options: c.options, want });
  }
  process.stdout.write(JSON.stringify(out, null, 1) + "\n");
}
