// AWS event-stream frames for the capture cases, written by hand (see
// package eventstream): prelude, string headers, JSON payload, CRC32s.
import zlib from "node:zlib";

function header(name, value) {
  const n = Buffer.from(name), v = Buffer.from(value);
  const b = Buffer.alloc(4 + n.length + v.length);
  b[0] = n.length;
  n.copy(b, 1);
  b[1 + n.length] = 7;
  b.writeUInt16BE(v.length, 2 + n.length);
  v.copy(b, 4 + n.length);
  return b;
}

export function frame(headers, payload) {
  const hs = Buffer.concat(Object.entries(headers).map(([k, v]) => header(k, v)));
  const p = Buffer.from(typeof payload === "string" ? payload : JSON.stringify(payload));
  const prelude = Buffer.alloc(8);
  prelude.writeUInt32BE(16 + hs.length + p.length, 0);
  prelude.writeUInt32BE(hs.length, 4);
  const pc = Buffer.alloc(4);
  pc.writeUInt32BE(zlib.crc32(prelude), 0);
  const body = Buffer.concat([prelude, pc, hs, p]);
  const mc = Buffer.alloc(4);
  mc.writeUInt32BE(zlib.crc32(body), 0);
  return Buffer.concat([body, mc]);
}

export const event = (type, payload) => frame({ ":event-type": type, ":content-type": "application/json", ":message-type": "event" }, payload);
export const exception = (type, payload) => frame({ ":exception-type": type, ":content-type": "application/json", ":message-type": "exception" }, payload);

// A response of frames, as the capture serves it.
export const frames = (...parts) => ({ status: 200, contentType: "application/vnd.amazon.eventstream", base64: Buffer.concat(parts).toString("base64") });

export const okResponse = frames(
  event("messageStart", { role: "assistant" }),
  event("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "ok" } }),
  event("contentBlockStop", { contentBlockIndex: 0 }),
  event("messageStop", { stopReason: "end_turn" }),
  event("metadata", { usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, metrics: { latencyMs: 1 } }),
);
