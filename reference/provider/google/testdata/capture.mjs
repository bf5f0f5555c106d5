// Runs real Pi (pi-ai 0.80.2, google-generative-ai stream()) against a
// loopback server and records what it sends and emits, to refresh the
// expectations in this folder (see ../../capturelib.mjs). Written for
// piconform.
//
//   node capture.mjs requests request-cases.mjs > requests.json
//   node capture.mjs streams stream-cases.mjs > streams.json
//
// PI_AI points at pi-ai's dist folder (default: the pi-ts adapter's copy).
import { capture } from "../../capturelib.mjs";

await capture({
  api: "google-generative-ai",
  port: 47914,
  clearEnv: (v) => /^(GOOGLE|GEMINI)_/.test(v),
  okStream: 'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP","index":0}]}\r\n\r\n',
  // The two whose value names the Node build, dropped even when set.
  machineHeaders: ["user-agent", "x-goog-api-client"],
});
