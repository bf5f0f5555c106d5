// Runs real Pi (pi-ai 0.80.2, google-vertex stream()) against a loopback
// server and records what it sends and emits, to refresh the expectations
// in this folder (see ../../capturelib.mjs). Written for piconform.
//
//   node capture.mjs requests request-cases.mjs > requests.json
//   node capture.mjs streams stream-cases.mjs > streams.json
//   node capture.mjs urls url-cases.mjs > urls.json
//
// Only the API-key mode reaches the server. Without a usable key Pi wants
// a project and a location and then Google credentials (ADC); the cases
// stop at the checks that fail before any credential lookup.
//
// The "urls" mode is for base URLs that lead to Google's hosts, which must
// not be called (see capturelib.mjs). Its cases all have a key (no
// credentials lookup).
//
// PI_AI points at pi-ai's dist folder (default: the pi-ts adapter's copy).
import { capture } from "../../capturelib.mjs";

await capture({
  api: "google-vertex",
  port: 47931,
  clearEnv: (v) => /^(GOOGLE|GEMINI|GCLOUD|CLOUDSDK)_/.test(v),
  okStream: 'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP","index":0}]}\r\n\r\n',
  // The two whose value names the Node build, dropped even when set.
  machineHeaders: ["user-agent", "x-goog-api-client"],
  urlCase: (c) => {
    if (!c.options.apiKey) throw new Error(`${c.name}: urls cases need a key`);
  },
});
