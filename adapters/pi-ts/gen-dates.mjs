// Writes date strings and what this Node's Date.parse makes of each, one JSON line per string:
// [string, milliseconds or null for an Invalid Date]. The strings are a seeded random mix of
// the forms session files meet (ISO date-times, JavaScript's own Date.toString, RFC 2822,
// slashed and dotted dates, month names, two-digit years, zone names and offsets, am/pm,
// comments in parentheses) and of their fragments shuffled, cut and padded with odd
// characters. reference/jsdate's TestParseAgainstNode reads such a file
// (reference/jsdate/testdata/node.jsonl); run it with TZ=UTC, the suite's time zone:
//
//   TZ=UTC adapters/pi-ts/node_modules/node/bin/node adapters/pi-ts/gen-dates.mjs COUNT [SEED] \
//     > reference/jsdate/testdata/node.jsonl

import { seeded } from "./seeded.mjs";

if (new Date(2000, 0, 1).getTimezoneOffset() !== 0) {
  console.error("gen-dates.mjs: run with TZ=UTC");
  process.exit(2);
}

const count = Number(process.argv[2] ?? 1000);
const random = seeded(Number(process.argv[3] ?? 1));
const pick = (xs) => xs[Math.floor(random() * xs.length)];
const chance = (p) => random() < p;

// A run of digits: mostly of the lengths dates have, sometimes with a leading zero, sometimes
// long enough to pass the nine digits V8 keeps.
function digits(lengths = [1, 1, 2, 2, 2, 2, 3, 4, 4, 6]) {
  const len = pick(lengths);
  let s = "";
  for (let i = 0; i < len; i++) s += String(Math.floor(random() * (i === 0 && len === 2 ? 4 : 10)));
  return chance(0.1) ? "0" + s : s;
}
const anyDigits = () => digits([1, 2, 3, 4, 5, 6, 7, 9, 10, 12]);
const small = (hi) => String(Math.floor(random() * (hi + 1))).padStart(chance(0.7) ? 2 : 1, "0");

const months = ["Jan", "feb", "MAR", "April", "May", "June", "jul", "August", "Sept", "Oct", "November", "dec", "Marzipan", "Ju"];
const days = ["Tue", "Tuesday", "sun,", "Mon", "Fri", "xyz"];
const zones = ["GMT", "UTC", "UT", "Z", "z", "EST", "edt", "CST", "CDT", "MST", "MDT", "PST", "pdt", "CET", "BST"];
const fragments = [
  "-", "/", ":", ".", " ", "  ", ",", "+", "T", "t", "Z", "(", ")", "(x)", "((a) b)", "\t", "\n", "\u00a0",
  "\u2028", "\u3000", "\ufeff", "\u0085", "é", "#", "@", "[", "_", "\u0000", "\ud83d\ude00", "\ud800",
  "am", "PM", "24", "12", "00", "60", "59", "999", "1000", "+0100", "GMT+01:00", "UTC-5", ".123", ".1234567890",
  ...months, ...days, ...zones,
];
const offset = () => pick(["", "+", "-"]) + pick([small(23) + ":" + small(59), small(23) + small(59), small(14), anyDigits()]);

// Forms as programs and people write them, each then perhaps damaged.
const forms = [
  () => `${digits([4])}-${small(13)}-${small(32)}T${small(25)}:${small(60)}${pick(["", ":" + small(60), ":" + small(60) + "." + anyDigits()])}${pick(["Z", "z", "", "+" + small(24) + ":" + small(60), "-" + small(23) + small(59)])}`,
  () => `${pick(["", "+", "-"])}${pick([digits([4]), digits([6]), anyDigits()])}${pick(["", "-" + small(13), "-" + small(13) + "-" + small(32)])}`,
  () => `${digits([4])}-${small(13)}-${small(32)}${pick([" ", "T", "t", "  "])}${small(25)}:${small(60)}${pick(["", ":" + small(60)])}${pick(["", " ", "Z", " GMT", " " + offset(), " UTC" + offset(), " pm", " am"])}`,
  () => `${pick(days)} ${pick(months)} ${small(32)} ${digits([4, 2])} ${small(24)}:${small(60)}:${small(60)} ${pick(zones)}${offset()}${pick(["", " (Coordinated Universal Time)", " (x", ""])}`,
  () => `${pick(["", pick(days) + ", "])}${small(32)} ${pick(months)} ${digits([4, 2])} ${small(24)}:${small(60)}${pick(["", ":" + small(60)])} ${pick([...zones, offset(), ""])}`,
  () => `${pick(months)} ${small(32)}${pick(["", ",", "th"])} ${digits([4, 2, 1])}${pick(["", " " + small(13) + ":" + small(60) + pick(["", " am", " PM", "pm"])])}`,
  () => `${small(13)}/${small(32)}/${digits([4, 2])}${pick(["", " " + small(24) + ":" + small(60), " " + small(24) + ":" + small(60) + ":" + small(60) + "." + anyDigits()])}${pick(["", " AM", " pm"])}`,
  () => `${digits([4])}/${small(13)}/${small(32)} ${small(24)}:${small(60)}`,
  () => `${small(32)}.${small(13)}.${digits([4, 2])}`,
  () => `${small(24)}:${small(60)}${pick(["", "::", ":" + small(60)])} ${pick([digits([4]) + "-" + small(13) + "-" + small(32), pick(months) + " " + small(32)])}`,
  () => anyDigits(),
];

function damage(s) {
  if (chance(0.25)) {
    const at = Math.floor(random() * (s.length + 1));
    s = s.slice(0, at) + pick(fragments) + s.slice(at);
  }
  if (chance(0.15) && s.length > 0) {
    const at = Math.floor(random() * s.length);
    s = s.slice(0, at) + s.slice(at + 1);
  }
  return s;
}

for (let i = 0; i < count; i++) {
  let s;
  if (chance(0.3)) {
    s = "";
    for (let k = 1 + Math.floor(random() * 9); k > 0; k--) s += chance(0.45) ? anyDigits() : pick(fragments);
  } else {
    s = damage(pick(forms)());
  }
  const t = Date.parse(s);
  console.log(JSON.stringify([s, Number.isNaN(t) ? null : t]));
}
