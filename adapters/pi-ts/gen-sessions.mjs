// Writes session files as the real coding agent writes them: each is built by
// Pi's own SessionManager from a seeded random walk of what a session sees
// (messages of every role, thinking-level and model changes, compactions,
// branches with and without summaries, labels, custom entries, session
// names). Prints one JSON line per session: {"seed", "text"}, text being the
// file's contents. harness/perturb's TestGeneratedSessions runs each through
// the reference and the real Pi.
//
//   node gen-sessions.mjs COUNT [FIRST_SEED]     (PI_TS_ROOT as run.sh sets it)
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const root = process.env.PI_TS_ROOT ?? new URL(".", import.meta.url).pathname;
const { SessionManager } = await import(
  pathToFileURL(join(root, "node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js")).href
);

// mulberry32: small, seeded, the same sequence on every machine.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function session(seed) {
  const r = rng(seed);
  const int = (n) => Math.floor(r() * n);
  const pick = (xs) => xs[int(xs.length)];
  const words = ["alpha", "beta", "read the file", "naïve café", "日本語", "emoji 😀", "line\nbreak", "tab\there", "", "lone \ud800 half", "  spaced  "];
  const text = () => pick(words) + (r() < 0.5 ? " " + pick(words) : "");
  let clock = 1735689600000 + int(1e6);
  const now = () => (clock += 1 + int(5000));
  const models = [
    ["anthropic", "anthropic-messages", "claude-sonnet-4-5"],
    ["openai", "openai-responses", "gpt-5"],
    ["google", "google-generative-ai", "gemini-2.5-pro"],
  ];
  let toolIds = [];
  const usage = () => {
    const input = int(1000), output = int(500);
    return {
      input, output, cacheRead: int(3) * 100, cacheWrite: 0, totalTokens: input + output,
      cost: { input: input / 1e6, output: output / 1e6, cacheRead: 0, cacheWrite: 0, total: (input + output) / 1e6 },
    };
  };
  const messages = {
    user: () => ({
      role: "user",
      content: r() < 0.5 ? text() : [{ type: "text", text: text() }, ...(r() < 0.3 ? [{ type: "image", data: "aGVsbG8=", mimeType: "image/png" }] : [])],
      timestamp: now(),
    }),
    assistant: () => {
      const [provider, api, model] = pick(models);
      const content = [];
      if (r() < 0.4) content.push({ type: "thinking", thinking: text(), thinkingSignature: r() < 0.5 ? "sig" + int(100) : undefined });
      if (r() < 0.05) content.push({ type: "thinking", thinking: "", thinkingSignature: "opaque" + int(100), redacted: true });
      if (r() < 0.8) content.push({ type: "text", text: text(), ...(api === "openai-responses" && r() < 0.5 ? { textSignature: JSON.stringify({ v: 1, id: "msg_" + int(1e6) }) } : {}) });
      toolIds = [];
      for (let i = int(3); i > 0; i--) {
        const id = api === "openai-responses" ? `call_${int(1e6)}|fc_${int(1e6)}` : "call_" + seed + "_" + int(1e6);
        toolIds.push(id);
        content.push({ type: "toolCall", id, name: pick(["read", "bash", "edit"]), arguments: { path: text() } });
      }
      const stopReason = toolIds.length ? "toolUse" : pick(["stop", "stop", "length", "error", "aborted"]);
      return {
        role: "assistant", content, api, provider, model, usage: usage(), stopReason,
        ...(stopReason === "error" ? { errorMessage: "boom" } : {}), timestamp: now(),
      };
    },
    toolResult: () => ({
      role: "toolResult",
      toolCallId: toolIds.shift() ?? "call_orphan_" + int(100),
      toolName: pick(["read", "bash"]),
      content: [{ type: "text", text: text() }, ...(r() < 0.15 ? [{ type: "image", data: "aGVsbG8=", mimeType: "image/jpeg" }] : [])],
      isError: r() < 0.2,
      timestamp: now(),
    }),
    bashExecution: () => ({
      role: "bashExecution",
      command: pick(["ls", "git status", "make"]),
      output: text(),
      exitCode: pick([0, 0, 1, null, undefined]),
      cancelled: r() < 0.1,
      truncated: r() < 0.2,
      ...(r() < 0.5 ? { fullOutputPath: "/tmp/out.txt" } : {}),
      ...(r() < 0.2 ? { excludeFromContext: true } : {}),
      timestamp: now(),
    }),
  };

  const sm = SessionManager.inMemory("/work/project");
  const ids = () => sm.getEntries().map((e) => e.id);
  for (let steps = 3 + int(40); steps > 0; steps--) {
    const x = r();
    if (x < 0.55) {
      const role = pick(["user", "assistant", "assistant", "toolResult", "bashExecution", "user"]);
      sm.appendMessage(messages[role]());
    } else if (x < 0.6) {
      sm.appendThinkingLevelChange(pick(["off", "minimal", "low", "medium", "high", "xhigh"]));
    } else if (x < 0.65) {
      const [provider, , model] = pick(models);
      sm.appendModelChange(provider, model);
    } else if (x < 0.71 && ids().length) {
      const path = sm.getBranch().filter((e) => e.type === "message").map((e) => e.id);
      sm.appendCompaction(text(), path.length ? pick(path) : pick(ids()), int(100000), r() < 0.5 ? { files: [text()] } : undefined, r() < 0.3);
    } else if (x < 0.76) {
      sm.appendCustomMessageEntry(pick(["note", "hook"]), r() < 0.5 ? text() : [{ type: "text", text: text() }], r() < 0.5, r() < 0.5 ? { n: int(9) } : undefined);
    } else if (x < 0.8) {
      sm.appendCustomEntry(pick(["state", "todo"]), { v: int(100) });
    } else if (x < 0.83 && ids().length) {
      sm.appendLabelChange(pick(ids()), r() < 0.8 ? text() || "label" : undefined);
    } else if (x < 0.85) {
      sm.appendSessionInfo(text());
    } else if (x < 0.92 && ids().length) {
      sm.branch(pick(ids()));
    } else if (x < 0.97 && ids().length) {
      sm.branchWithSummary(pick(ids()), text(), r() < 0.5 ? { readFiles: [text()] } : undefined, r() < 0.3);
    } else {
      sm.resetLeaf();
    }
  }
  const entries = [sm.getHeader(), ...sm.getEntries()];
  return entries.map((e) => JSON.stringify(e) + "\n").join("");
}

const count = Number(process.argv[2] ?? 100);
const first = Number(process.argv[3] ?? 1);
for (let seed = first; seed < first + count; seed++) {
  process.stdout.write(JSON.stringify({ seed, text: session(seed) }) + "\n");
}
