// Runs real Pi (pi-ai 0.80.2, openai-responses stream()) against a loopback
// server and records what it sends and emits, to refresh the expectations in
// this folder (see ../../capturelib.mjs). Written for piconform.
//
//   node capture.mjs requests request-cases.mjs > requests.json
//   node capture.mjs streams stream-cases.mjs > streams.json
//
// PI_AI points at pi-ai's dist folder (default: the pi-ts adapter's copy).
import { capture, STAINLESS } from "../../capturelib.mjs";

await capture({
  api: "openai-responses",
  port: 47914,
  clearEnv: (v) => /^(OPENAI|PI)_/.test(v),
  okStream: 'data: {"type":"response.completed","response":{"id":"resp_ok","status":"completed"}}\n\n',
  ...STAINLESS,
  checkPayload: true,
});
