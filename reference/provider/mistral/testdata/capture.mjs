// Runs real Pi (pi-ai 0.80.2, mistral-conversations stream(), with
// @mistralai/mistralai 2.2.6 underneath) against a loopback server and
// records what it sends and emits, to refresh the expectations in this
// folder (see ../../capturelib.mjs). Written for piconform.
//
//   node capture.mjs requests request-cases.mjs > requests.json
//   node capture.mjs streams stream-cases.mjs > streams.json
//
// PI_AI points at pi-ai's dist folder (default: the pi-ts adapter's copy).
import { capture } from "../../capturelib.mjs";

await capture({
  api: "mistral-conversations",
  port: 47915,
  clearEnv: (v) => /^MISTRAL_/.test(v),
  okStream:
    'data: {"id":"cmpl-ok","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
  machineHeaders: [],
  joinRepeatedHeaders: true,
});
