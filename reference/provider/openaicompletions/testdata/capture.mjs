// Runs real Pi (pi-ai 0.80.2, openai-completions stream()) against a
// loopback server and records what it sends and emits, to refresh the
// expectations in this folder (see ../../capturelib.mjs). Written for
// piconform.
//
//   node capture.mjs requests request-cases.mjs > requests.json
//   node capture.mjs streams stream-cases.mjs > streams.json
//
// PI_AI points at pi-ai's dist folder (default: the Pi adapter's install).
import { capture, STAINLESS } from "../../capturelib.mjs";

await capture({
  api: "openai-completions",
  port: 47914,
  clearEnv: (v) => /^(OPENAI|PI)_/.test(v),
  okStream: 'data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
  ...STAINLESS,
  // This SDK can send a header twice; fetch joins the values.
  joinRepeatedHeaders: true,
  checkPayload: true,
});
