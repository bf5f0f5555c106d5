// Writes arrays of numbers, some of them NaN, and the order this Node's Array.prototype.sort
// puts them in with the comparator (a, b) => a - b, one JSON line per array: [values, order],
// NaN written null and order the indices of the values as sorted. The comparator is Pi's for a
// session tree's children (the difference of two times, NaN for an Invalid Date); with NaN
// it orders nothing consistently, so the result is what V8's TimSort makes of its comparisons.
// reference/jssort's TestSortAgainstNode reads such a file (reference/jssort/testdata/node.jsonl):
//
//   adapters/pi-ts/node_modules/node/bin/node adapters/pi-ts/gen-sorts.mjs COUNT [SEED] \
//     > reference/jssort/testdata/node.jsonl

import { seeded } from "./seeded.mjs";

const count = Number(process.argv[2] ?? 100);
const random = seeded(Number(process.argv[3] ?? 1));
const pick = (xs) => xs[Math.floor(random() * xs.length)];

for (let k = 0; k < count; k++) {
  // Mostly short arrays (a session's branches), some long enough for TimSort to merge runs.
  const length = Math.floor(random() ** 2 * 400);
  const nanShare = pick([0, 0.01, 0.05, 0.2, 0.5, 0.9]);
  const range = pick([3, 20, 1000]);
  const shape = pick(["random", "ascending", "descending", "runs"]);
  const values = [];
  for (let i = 0; i < length; i++) {
    let v;
    if (shape === "ascending") v = i + Math.floor(random() * 3);
    else if (shape === "descending") v = length - i + Math.floor(random() * 3);
    else if (shape === "runs") v = (i % 50) * (Math.floor(i / 50) % 2 ? -1 : 1);
    else v = Math.floor(random() * range);
    values.push(random() < nanShare ? NaN : v);
  }
  const tagged = values.map((v, index) => ({ v, index }));
  tagged.sort((a, b) => a.v - b.v);
  console.log(JSON.stringify([values.map((v) => (Number.isNaN(v) ? null : v)), tagged.map((t) => t.index)]));
}
