// Captures pi-ai's thinking-level helpers for the shared streamSimple code
// (simple.go): getSupportedThinkingLevels and clampThinkingLevel over a grid
// of models and levels, adjustMaxTokensForThinking over a grid of caps,
// levels and custom budgets. Written for piconform.
//
//   node simple-capture.mjs > simple.json
//
// PI_AI points at pi-ai's dist folder (default: the pi-ts adapter's copy).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ADAPTER_PI_AI } from "../capturelib.mjs";

const PI_AI = process.env.PI_AI ?? ADAPTER_PI_AI;
const load = (file) => import(pathToFileURL(path.join(PI_AI, file)).href);
const { getSupportedThinkingLevels, clampThinkingLevel } = await load("models.js");
const { adjustMaxTokensForThinking } = await load("api/simple-options.js");

const levels = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];
const maps = [
  undefined,
  { xhigh: "xhigh" },
  { minimal: null },
  { off: null, minimal: null, low: null },
  { medium: null, high: null },
  { off: null, minimal: null, low: null, medium: null, high: null },
];
const clamp = [];
for (const reasoning of [false, true]) {
  for (const thinkingLevelMap of maps) {
    const model = { reasoning, ...(thinkingLevelMap ? { thinkingLevelMap } : {}) };
    for (const level of levels) {
      clamp.push({ model, level, supported: getSupportedThinkingLevels(model), clamped: clampThinkingLevel(model, level) });
    }
  }
}

const adjust = [];
for (const maxTokens of [undefined, 0, 1000, 60000]) {
  for (const modelMaxTokens of [64000, 8000, 900]) {
    for (const level of ["minimal", "low", "medium", "high", "xhigh"]) {
      for (const thinkingBudgets of [undefined, { medium: 5000 }, { low: 70000, high: 1 }]) {
        const out = adjustMaxTokensForThinking(maxTokens, modelMaxTokens, level, thinkingBudgets);
        adjust.push({ maxTokens, modelMaxTokens, level, thinkingBudgets, out });
      }
    }
  }
}
// One entry a line, so a change shows line by line.
const list = (entries) => `[\n${entries.map((e) => "  " + JSON.stringify(e)).join(",\n")}\n]`;
console.log(`{"clamp": ${list(clamp)},\n"adjust": ${list(adjust)}}`);
