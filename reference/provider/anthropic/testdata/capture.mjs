// Runs real Pi (pi-ai 0.80.2, anthropic-messages stream()) against a loopback
// server and records what it sends and emits, to refresh the expectations in
// this folder (see ../../capturelib.mjs). Written for piconform.
//
//   node capture.mjs requests request-cases.mjs > requests.json
//   node capture.mjs streams stream-cases.mjs > streams.json
//
// PI_AI points at pi-ai's dist folder (default: the pi-ts adapter's copy).
import { capture, STAINLESS } from "../../capturelib.mjs";

const ENV = new Set(["PI_CACHE_RETENTION", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL"]);
await capture({
  api: "anthropic-messages",
  port: 47913,
  clearEnv: (v) => ENV.has(v),
  okStream: 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":1,"output_tokens":1}}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
  ...STAINLESS,
  checkPayload: true,
});
