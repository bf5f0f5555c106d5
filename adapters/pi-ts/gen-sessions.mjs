// Writes session files as the real coding agent writes them: each is built by
// Pi's own SessionManager from a seeded random walk of what a session sees
// (messages of every role, thinking-level and model changes, compactions,
// branches with and without summaries, labels, custom entries, session
// names; assistant turns of every API's own model, and the suite's wire
// answers). Prints one JSON line per session: {"seed", "text"}, text being the
// file's contents. harness/perturb's TestGeneratedSessions runs each through
// the reference and the real Pi.
//
// PI_SESSIONS_WRITER names the folder of an older Pi install (install.sh
// VERSION prints it), whose SessionManager then writes the files in its own
// format: before 0.31 a version 1 file (a list without ids, where a
// compaction names the index of the first entry it keeps), in 0.31 and 0.32
// version 2, from 0.37 version 3 as 0.80.2 writes it. Pi 0.80.2 migrates the
// older two when it loads them. A 1.6 writer (Pi 1.6.0) also writes system
// messages, context edits and usage entries, as the 1.6 coding agent does.
//
//   node gen-sessions.mjs COUNT [FIRST_SEED]     (PI_TS_ROOT as run.sh sets it)
import { readdirSync, readFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const root = process.env.PI_TS_ROOT ?? new URL(".", import.meta.url).pathname;
const writer = process.env.PI_SESSIONS_WRITER ?? root;
const codingAgent = ["@earendil-works", "@mariozechner"]
  .map((scope) => join(writer, "node_modules", scope, "pi-coding-agent"))
  .find(existsSync);
// Up to 0.13 the module sat at the top of dist/.
const managerFile = ["dist/core/session-manager.js", "dist/session-manager.js"]
  .map((f) => join(codingAgent ?? writer, f))
  .find(existsSync);
if (!managerFile) throw new Error(`no pi-coding-agent SessionManager under ${writer}`);
const { SessionManager } = await import(pathToFileURL(managerFile).href);

// Assistant messages as Pi's own stream parsers made them: the answers of
// the suite's wire cases (golden/wire, each checked against Pi in CI), with
// the signatures, ids, usage, stop reasons, response ids and error texts
// real servers give, and the odd member types of the lenient cases.
const goldenWire = join(root, "../../golden/wire");
const answers = existsSync(goldenWire)
  ? readdirSync(goldenWire).filter((f) => f.endsWith(".json")).sort()
      .map((f) => JSON.parse(readFileSync(join(goldenWire, f), "utf8")).message)
      .filter((m) => m?.role === "assistant" && Array.isArray(m.content))
  : [];

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
  const chars = (alphabet, n) => Array.from({ length: n }, () => alphabet[int(alphabet.length)]).join("");
  const alnum = (n) => chars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", n);
  const base64 = (n) => chars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 4 * n);
  // A tool-call id now and then that no API would send: characters outside
  // [A-Za-z0-9_-], or longer than the 64 some APIs allow.
  const oddId = () => pick(["call.with:odd chars", "x".repeat(70) + alnum(4), `call_${alnum(8)}|`, "ünïcode-id"]);
  // Where the assistant messages come from: every wire template's own model
  // (so same-model replay, signatures included, is exercised for each API),
  // each with the tool-call ids and signatures that API writes.
  const responsesFamily = {
    toolId: () => `call_${alnum(24)}|fc_${alnum(40)}`,
    thinkingSignature: (thinking) =>
      r() < 0.9
        ? JSON.stringify({ type: "reasoning", id: "rs_" + alnum(40), summary: thinking ? [{ type: "summary_text", text: thinking }] : [], ...(r() < 0.5 ? { encrypted_content: base64(12) } : {}) })
        : "not json " + int(100),
    textSignature: () => JSON.stringify({ v: 1, id: "msg_" + alnum(40), ...(r() < 0.4 ? { phase: pick(["commentary", "final_answer", "other"]) } : {}) }),
  };
  const geminiFamily = {
    toolId: (name) => `${name}_${now()}_${int(9)}`,
    thinkingSignature: () => (r() < 0.9 ? base64(10) : "not base64!"),
    textSignature: () => base64(6),
    thoughtSignature: () => base64(8),
  };
  const sources = [
    { provider: "anthropic", api: "anthropic-messages", model: "claude-sonnet-4-5", toolId: () => "toolu_" + alnum(24), thinkingSignature: () => base64(16), redacts: true },
    { provider: "amazon-bedrock", api: "bedrock-converse-stream", model: "anthropic.claude-sonnet-4-5-20250929-v1:0",
      toolId: () => "tooluse_" + chars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-", 22), thinkingSignature: () => base64(16), redacts: true },
    { provider: "openai", api: "openai-responses", model: "gpt-5", ...responsesFamily },
    { provider: "azure-openai-responses", api: "azure-openai-responses", model: "gpt-5", ...responsesFamily },
    { provider: "openai-codex", api: "openai-codex-responses", model: "gpt-5.1-codex", ...responsesFamily },
    { provider: "openai", api: "openai-completions", model: "gpt-4.1-mini", toolId: () => "call_" + alnum(24) },
    { provider: "google", api: "google-generative-ai", model: "gemini-2.5-pro", ...geminiFamily },
    { provider: "google-vertex", api: "google-vertex", model: "gemini-2.5-pro", ...geminiFamily },
    { provider: "mistral", api: "mistral-conversations", model: "mistral-large-latest", toolId: () => alnum(9) },
  ];
  const args = () =>
    pick([
      () => ({ path: text() }),
      () => ({}),
      () => ({ path: text(), lines: [1, int(500)], options: { recursive: r() < 0.5, depth: 1.5, pattern: null } }),
      () => ({ command: text(), timeout: int(120) }),
    ])();
  let toolIds = [];
  const usage = () => {
    const input = int(1000), output = int(500);
    return {
      input, output, cacheRead: int(3) * 100, cacheWrite: 0, totalTokens: input + output,
      cost: { input: input / 1e6, output: output / 1e6, cacheRead: 0, cacheWrite: 0, total: (input + output) / 1e6 },
    };
  };
  const image = (mimeType) => ({ type: "image", data: base64(3), mimeType });
  const messages = {
    user: () => ({
      role: "user",
      content: pick([
        () => text(),
        () => [{ type: "text", text: text() }, ...(r() < 0.3 ? [image("image/png")] : [])],
        () => [image("image/jpeg")],
        // Pi up to about 0.30 kept the files a prompt attached beside the
        // blocks it made of them, and marked a document's text block.
        () => [{ type: "text", text: text() }, { type: "text", text: "\n\n[Document: a.md]\n" + text(), isDocument: true }],
      ])(),
      ...(r() < 0.1
        ? { attachments: [{ id: alnum(8), type: pick(["image", "document"]), fileName: "a.md", mimeType: "text/markdown", size: int(900), content: base64(2), extractedText: text() }] }
        : {}),
      timestamp: now(),
    }),
    assistant: () => {
      if (answers.length && r() < 0.3) {
        const m = { ...structuredClone(pick(answers)), timestamp: now() };
        toolIds = m.content.filter((b) => b?.type === "toolCall").map((b) => b.id);
        return m;
      }
      const src = pick(sources);
      const content = [];
      if (r() < 0.4) {
        const thinking = text();
        content.push({ type: "thinking", thinking, ...(src.thinkingSignature && r() < 0.7 ? { thinkingSignature: src.thinkingSignature(thinking) } : {}) });
      }
      if (src.redacts && r() < 0.1) content.push({ type: "thinking", thinking: "", thinkingSignature: base64(16), redacted: true });
      if (r() < 0.8) content.push({ type: "text", text: text(), ...(src.textSignature && r() < 0.6 ? { textSignature: src.textSignature() } : {}) });
      toolIds = [];
      for (let i = int(3); i > 0; i--) {
        const name = pick(["read", "bash", "edit"]);
        const id = r() < 0.05 ? oddId() : src.toolId(name);
        toolIds.push(id);
        content.push({ type: "toolCall", id, name, arguments: args(), ...(src.thoughtSignature && r() < 0.5 ? { thoughtSignature: src.thoughtSignature() } : {}) });
      }
      const stopReason = toolIds.length ? "toolUse" : pick(["stop", "stop", "length", "error", "aborted"]);
      // An aborted or failed turn may have produced nothing.
      if ((stopReason === "error" || stopReason === "aborted") && r() < 0.3) content.length = 0;
      return {
        role: "assistant", content, api: src.api, provider: src.provider, model: src.model,
        ...(r() < 0.3 ? { responseId: "resp_" + alnum(16), responseModel: src.model + "-2025" } : {}),
        usage: usage(), stopReason,
        ...(stopReason === "error" ? { errorMessage: "boom" } : {}),
        ...(stopReason === "error" && r() < 0.5
          ? { diagnostics: [{ type: "stream-error", timestamp: now(), error: { name: "Error", message: "boom", code: pick(["ECONNRESET", 500]) }, details: { attempt: 1 } }] }
          : {}),
        timestamp: now(),
      };
    },
    toolResult: () => ({
      role: "toolResult",
      toolCallId: toolIds.shift() ?? "call_orphan_" + int(100),
      toolName: pick(["read", "bash"]),
      content: pick([
        () => [{ type: "text", text: text() }, ...(r() < 0.15 ? [image("image/jpeg")] : [])],
        () => [{ type: "text", text: text() }, { type: "text", text: text() }],
        () => [],
      ])(),
      ...(r() < 0.2 ? { details: { truncated: r() < 0.5, lines: int(100) } } : {}),
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

  // From Pi 1.6 the coding agent also writes system messages (the prompt
  // and tool changes) as message entries, and sessions hold context edits
  // and usage records. Older writers draw exactly as before.
  const v16 = typeof SessionManager.prototype.appendContextEdit === "function";
  messages.system = () => {
    const tool = () => ({ name: pick(["read", "bash", "edit", "write", "grep"]), description: text(), parameters: { type: "object" } });
    return {
      role: "system",
      content: r() < 0.7 ? text() : [{ type: "text", text: text() }],
      ...(r() < 0.5 ? { sections: { [pick(["preamble", "tools", "rules", "cwd"])]: r() < 0.8 ? text() : null } } : {}),
      ...(r() < 0.5 ? { toolsAdded: [tool(), ...(r() < 0.5 ? [tool()] : [])] } : {}),
      ...(r() < 0.2 ? { toolsRemoved: [{ name: pick(["read", "bash", "edit"]) }] } : {}),
      timestamp: now(),
    };
  };
  const roles = ["user", "assistant", "assistant", "toolResult", "bashExecution", "user", ...(v16 ? ["system"] : [])];
  const message = () => messages[pick(roles)]();
  const level = () => pick(["off", "minimal", "low", "medium", "high", "xhigh"]);
  return typeof SessionManager.prototype.appendMessage === "function" ? treeFile() : listFile();

  // Version 2 and 3: entries with ids and parents, branches, labels.
  function treeFile() {
    const sm = SessionManager.inMemory("/work/project");
    const ids = () => sm.getEntries().map((e) => e.id);
    for (let steps = 3 + int(40); steps > 0; steps--) {
      if (v16 && r() < 0.1 && sm.getBranch().length) {
        if (r() < 0.7) {
          // Pi refuses an edit of an entry off the active branch or without
          // model content, before it writes anything: such a draw adds nothing.
          const replacement = pick([() => null, () => ({ content: text() }), () => ({ content: [{ type: "text", text: text() }] })])();
          try {
            sm.appendContextEdit(pick(sm.getBranch().map((e) => e.id)), replacement);
          } catch {}
        } else {
          const { provider, model } = pick(sources);
          sm.appendUsage(pick(["compaction", "branch_summary", "title"]), provider, model, usage(), r() < 0.5 ? text() : undefined);
        }
        continue;
      }
      const x = r();
      if (x < 0.55) {
        sm.appendMessage(message());
      } else if (x < 0.6) {
        sm.appendThinkingLevelChange(level());
      } else if (x < 0.65) {
        const { provider, model } = pick(sources);
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
        sm.appendSessionInfo?.(text()); // from version 3
      } else if (x < 0.92 && ids().length) {
        sm.branch(pick(ids()));
      } else if (x < 0.97 && ids().length) {
        sm.branchWithSummary(pick(ids()), text(), r() < 0.5 ? { readFiles: [text()] } : undefined, r() < 0.3);
      } else {
        sm.resetLeaf();
      }
    }
    return lines([sm.getHeader(), ...sm.getEntries()]);
  }

  // Version 1: one list in file order, the header first.
  function listFile() {
    const dir = mkdtempSync(join(tmpdir(), "pi-sessions-"));
    try {
      let sm;
      if (SessionManager.length >= 3) {
        sm = new SessionManager("/work/project", dir, undefined, false);
      } else {
        // Up to 0.13: the agent folder comes from the environment, the
        // header (with the model and thinking level) is written by
        // startSession, and everything goes straight to the file.
        process.env.PI_CODING_AGENT_DIR = dir;
        sm = new SessionManager(false);
        const { provider, model } = pick(sources);
        sm.startSession({ model: { provider, id: model }, thinkingLevel: pick(["off", "low", "high"]) });
      }
      let count = 1; // the header
      for (let steps = 3 + int(40); steps > 0; steps--, count++) {
        const x = r();
        if (x < 0.7) {
          sm.saveMessage(message());
        } else if (x < 0.8) {
          sm.saveThinkingLevelChange(level());
        } else if (x < 0.9) {
          const { provider, model } = pick(sources);
          sm.saveModelChange(provider, model);
        } else {
          // As the coding agent wrote it; the index is now and then past
          // the last entry.
          sm.saveCompaction({ type: "compaction", timestamp: new Date().toISOString(), summary: text(), firstKeptEntryIndex: int(count + 2), tokensBefore: int(100000) });
        }
      }
      return sm.getEntries ? lines(sm.getEntries()) : readFileSync(sm.getSessionFile(), "utf8");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

function lines(entries) {
  return entries.map((e) => JSON.stringify(e) + "\n").join("");
}

const count = Number(process.argv[2] ?? 100);
const first = Number(process.argv[3] ?? 1);
for (let seed = first; seed < first + count; seed++) {
  process.stdout.write(JSON.stringify({ seed, text: session(seed) }) + "\n");
}
