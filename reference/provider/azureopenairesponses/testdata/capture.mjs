// Runs real Pi (pi-ai 0.80.2, azure-openai-responses stream()) against a
// loopback server and records what it sends and emits, to refresh the
// expectations in this folder (see ../../capturelib.mjs). Written for
// piconform.
//
//   node capture.mjs requests request-cases.mjs > requests.json
//   node capture.mjs streams stream-cases.mjs > streams.json
//   node capture.mjs urls url-cases.mjs > urls.json
//
// The "urls" mode is for base URLs on Azure hosts, which must not be
// called (see capturelib.mjs).
//
// PI_AI points at pi-ai's dist folder (default: the pi-ts adapter's copy).
import { capture, STAINLESS } from "../../capturelib.mjs";

await capture({
  api: "azure-openai-responses",
  port: 47921,
  clearEnv: (v) => /^(OPENAI|AZURE|PI)_/.test(v),
  okStream: 'data: {"type":"response.completed","response":{"id":"resp_ok","status":"completed"}}\n\n',
  ...STAINLESS,
  checkPayload: true,
});
