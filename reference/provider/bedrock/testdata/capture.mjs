// Runs real Pi (pi-ai 0.80.2, bedrock-converse-stream stream()) against a
// loopback server and records what it sends and emits, to refresh the
// expectations in this folder (see ../../capturelib.mjs). Written for
// piconform.
//
//   node capture.mjs requests request-cases.mjs > requests.json
//   node capture.mjs streams stream-cases.mjs > streams.json
//
// The cases pass fake AWS credentials and AWS_BEDROCK_FORCE_HTTP1 in
// options.env; the process's own AWS_* variables are dropped first.
import { capture } from "../../capturelib.mjs";

// The SDK names each call with a random UUID, which the SigV4 signature
// covers; a fixed one makes the signature reproducible.
export const INVOCATION_ID = "00000000-0000-4000-8000-000000000000";
globalThis.crypto.randomUUID = () => INVOCATION_ID;

await capture({
  api: "bedrock-converse-stream",
  port: 47931,
  clearEnv: (v) => v.startsWith("AWS_") || v === "PI_CACHE_RETENTION" || /^(https?|all|no)_proxy$/i.test(v),
  okStream: undefined,
  machineHeaders: ["user-agent"],
  keepCallerMachineHeaders: false,
  checkPayload: false,
});
