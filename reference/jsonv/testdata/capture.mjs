// Captures JavaScript's Number#toString and JSON.stringify for jsonv's tests.
// Run with Node 22: node capture.mjs > js.json
// The doubles are given by their IEEE 754 bits (hex), so no parser sits
// between the value Node formatted and the value Go formats.

let seed = 0x9e3779b97f4a7c15n;
function next() { // xorshift64*
  seed ^= seed >> 12n; seed ^= (seed << 25n) & 0xffffffffffffffffn; seed ^= seed >> 27n;
  return (seed * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn;
}
const buf = new DataView(new ArrayBuffer(8));
const fromBits = (b) => { buf.setBigUint64(0, b); return buf.getFloat64(0); };
const toBits = (f) => { buf.setFloat64(0, f); return buf.getBigUint64(0); };

const values = [
  0, -0, 1, -1, 0.5, 1.5, -1.5, 0.1, 0.2, 0.1 + 0.2, 1 / 3, 2 / 3, 100, 137, 4.35, 1234.5678,
  1e20, 1e21, 1e22, 123456789012345680000, 12345678901234567890, 2 ** 53, 2 ** 53 + 2, 2 ** 64,
  1e-6, 1e-7, 1.5e-7, 0.000001234, 123e-20, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
  1e100, -1e-7, 0.007500000000000001, 0.003, 0.0006, 0.001725, 0.012825, 0.0126, 0.0015,
  999999999999999900000, 999999999999999999999, 1e21 - 65536, 0.000009999999999999999,
];
for (let e = -30; e <= 30; e++) {
  const p = Number(`1e${e}`);
  values.push(p, fromBits(toBits(p) + 1n), fromBits(toBits(p) - 1n), 7 * p, 1.25 * p);
}
for (let i = 0; i < 600; i++) {
  const b = next();
  const f = fromBits(b);
  if (Number.isFinite(f)) values.push(f);
}
for (let i = 0; i < 200; i++) values.push(Number(next() % 100000000n) / 1000, -Number(next() % 10000n) * 1e-9);
for (let i = 0; i < 100; i++) values.push(Number(next() >> 11n)); // integers near 2^53

const numbers = values.map((f) => [toBits(f).toString(16).padStart(16, "0"), String(f)]);

// Strings as JSON.stringify escapes them, keyed by their UTF-16 code units.
const strings = [
  "", "a", "\ud83d", "\udc00", "\ud83d\ude00", "\ude48\ud83d", "\ud83d\ud83d\ude48", "x\udbff",
  "\u0000\u0001\u001f\u007f\u0080", "\b\f\n\r\t\"\\/", "\u2028\u2029", "\ufeff\ufffd\ufffe\uffff",
  "e\u0301", "\u{10ffff}", "<script>&'", "tab\there", "\r\n", "\u0085",
].map((s) => [Array.from({ length: s.length }, (_, i) => s.charCodeAt(i)), JSON.stringify(s)]);

// Values with their compact and indented JSON.stringify forms.
const docs = [
  { a: [1, { b: [] }, {}], c: {}, d: "x", e: [[]], f: null, g: true, h: false, i: -1.5 },
  [], {}, [[[]]], [{}], "s", 0, null,
  { role: "user", content: [{ type: "text", text: "\ud83d lone" }], timestamp: 1767225600000 },
  { "": 1, "a b": { "\n": [1, 2, 3] } },
].map((v) => [JSON.stringify(v), JSON.stringify(v, null, 2)]);

const list = (xs) => "[\n" + xs.map((x) => "  " + JSON.stringify(x)).join(",\n") + "\n ]";
console.log(`{"node": ${JSON.stringify(process.version)},\n "numbers": ${list(numbers)},\n "strings": ${list(strings)},\n "docs": ${list(docs)}\n}`);
