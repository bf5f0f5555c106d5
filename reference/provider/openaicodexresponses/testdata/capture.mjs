// Runs real Pi (pi-ai 0.80.2, openai-codex-responses stream()) against a
// loopback server and records what it sends and emits, to refresh the
// expectations in this folder (see ../../capturelib.mjs). Written for
// piconform.
//
//   node capture.mjs requests request-cases.mjs > requests.json
//   node capture.mjs streams stream-cases.mjs > streams.json
//
// Every case sets transport "sse": the default ("auto") first tries a
// WebSocket, which is not part of what the reference models.
//
// PI_AI points at pi-ai's dist folder (default: the pi-ts adapter's copy).
import { capture } from "../../capturelib.mjs";

await capture({
  api: "openai-codex-responses",
  port: 47933,
  clearEnv: (v) => /^(OPENAI|CODEX|PI)_/.test(v) || /_PROXY$/i.test(v),
  okStream: 'data: {"type":"response.completed","response":{"id":"resp_ok","status":"completed"}}\n\n',
  // "pi (<platform> <release>; <arch>)" names the machine.
  machineHeaders: ["user-agent"],
  checkPayload: true,
});
