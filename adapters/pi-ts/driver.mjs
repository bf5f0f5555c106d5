// piconform adapter "pi-ts": runs the real Pi packages from npm under the piconform
// subprocess protocol (spec/PROTOCOL.md). NDJSON frames on stdin/stdout, logs on stderr.
//
// PI_TS_ROOT names a folder whose node_modules/ holds one Pi release (see run.sh); without it
// the packages next to this file are used. Each Pi function is looked up in a list of places,
// because releases move them between modules and packages.
//
// Start-up is cheap on purpose: the hello is built from which module files exist, and a module is
// imported only when the first case that needs it comes (a provider's SDK, the coding agent and
// pi-ai's index each take seconds of CPU). With --jobs N, N of these start at once.

import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const PROTOCOL = 1;

// A wire case must see only what the case gives it. Provider SDKs and Pi read credentials,
// base URLs and cache settings from the environment, which would add headers the cassette does
// not expect; the case passes what it wants through input.options.env instead.
// The same holds for any provider's key (Pi looks one up by the model's provider when a case gives
// none: OPENROUTER_API_KEY, HF_TOKEN, ...) and for proxy settings, which Pi 1.6 reads itself to
// route its requests (they would take the loopback traffic elsewhere).
for (const name of Object.keys(process.env)) {
  if (name === "PI_TS_ROOT") continue;
  if (
    /^(ANTHROPIC|OPENAI|AZURE|GEMINI|GOOGLE|GCLOUD|AWS|MISTRAL|PI)_/.test(name) ||
    /_(API_KEY|TOKEN)$/.test(name) ||
    /^(http|https|all|no)_proxy$/i.test(name)
  ) {
    delete process.env[name];
  }
}

// stdout carries frames only: anything a library prints goes to stderr instead.
const writeFrameRaw = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => process.stderr.write(chunk, ...rest);
console.log = console.info = console.debug = console.warn = console.error;

const log = (...args) => console.error("pi-ts:", ...args);
const send = (frame) => writeFrameRaw(`${JSON.stringify(frame)}\n`);

// ---- finding the installed Pi --------------------------------------------------------------

const ROOT = process.env.PI_TS_ROOT || path.dirname(fileURLToPath(import.meta.url));
const SCOPES = ["@earendil-works", "@mariozechner"]; // newest first; Pi moved scopes at 0.74.0
const SCOPE = SCOPES.find((s) => existsSync(path.join(ROOT, "node_modules", s, "pi-ai", "package.json")));
if (!SCOPE) {
  log(`no Pi packages under ${ROOT}/node_modules (looked for ${SCOPES.join(", ")})`);
  process.exit(2);
}

const pkgDir = (name) => path.join(ROOT, "node_modules", SCOPE, name);
const pkgJson = (name) => JSON.parse(readFileSync(path.join(pkgDir(name), "package.json"), "utf8"));

// The file that `import "<pkg><subpath>"` loads, from the package's exports map ("import"
// condition), or null when the map does not offer that subpath.
function exportedFile(pkg, subpath) {
  const pickTarget = (t) => {
    if (typeof t === "string") return t;
    if (t && typeof t === "object") {
      for (const cond of ["import", "node", "default"]) {
        const found = cond in t ? pickTarget(t[cond]) : null;
        if (found) return found;
      }
    }
    return null;
  };
  let map = pkg.exports;
  if (map === undefined) return subpath === "." ? pkg.module || pkg.main || "index.js" : null;
  if (typeof map === "string" || !Object.keys(map).some((k) => k.startsWith("."))) map = { ".": map };
  for (const [key, target] of Object.entries(map)) {
    const star = key.indexOf("*");
    let fill = null;
    if (star < 0) {
      if (key === subpath) fill = "";
    } else {
      const [head, tail] = [key.slice(0, star), key.slice(star + 1)];
      if (subpath.length >= head.length + tail.length && subpath.startsWith(head) && subpath.endsWith(tail)) {
        fill = subpath.slice(head.length, subpath.length - tail.length);
      }
    }
    const file = fill === null ? null : pickTarget(target);
    if (file) return file.replaceAll("*", fill);
  }
  return null;
}

// Where each function may live, in the order tried. `sub` is a subpath of the package's exports
// map; `file` is a module file that the map does not expose (imported by its path).
const CANDIDATES = {
// The module that holds a function comes before a package index that re-exports it: importing a
// package's index loads everything it exports (for pi-ai every provider; for the coding agent its
// whole application), which costs seconds.
  convertToLlm: [
    { pkg: "pi-coding-agent", file: "dist/core/messages.js", name: "convertToLlm" },
    { pkg: "pi-coding-agent", sub: ".", name: "convertToLlm" },
  ],
  transformMessages: [
    { pkg: "pi-ai", sub: "./api/transform-messages", name: "transformMessages" }, // 0.74+
    { pkg: "pi-ai", file: "dist/api/transform-messages.js", name: "transformMessages" },
    { pkg: "pi-ai", file: "dist/providers/transform-messages.js", name: "transformMessages" }, // <= 0.73
    { pkg: "pi-ai", sub: ".", name: "transformMessages" },
  ],
  calculateCost: [
    { pkg: "pi-ai", sub: "./models", name: "calculateCost" },
    { pkg: "pi-ai", file: "dist/models.js", name: "calculateCost" },
    { pkg: "pi-ai", sub: ".", name: "calculateCost" },
  ],
  sanitizeSurrogates: [
    { pkg: "pi-ai", sub: "./utils/sanitize-unicode", name: "sanitizeSurrogates" }, // 1.x
    { pkg: "pi-ai", file: "dist/utils/sanitize-unicode.js", name: "sanitizeSurrogates" },
    { pkg: "pi-ai", sub: ".", name: "sanitizeSurrogates" },
  ],
  // The agent loop of pipeline cases, the Agent class (for its default convertToLlm) and the
  // event stream a stream function returns.
  runAgentLoopContinue: [{ pkg: "pi-agent-core", sub: ".", name: "runAgentLoopContinue" }],
  // The coding agent's package index, imported for what importing it sets up: pipeline cases run
  // the loop as the coding agent does, with it loaded (1.x sets the agent's default stream
  // function there, which an Agent built without one needs).
  codingAgent: [{ pkg: "pi-coding-agent", sub: ".", name: "convertToLlm" }],
  // What the coding agent does with a session file on load (session cases).
  parseSessionEntries: [
    { pkg: "pi-coding-agent", file: "dist/core/session-manager.js", name: "parseSessionEntries" },
    { pkg: "pi-coding-agent", sub: ".", name: "parseSessionEntries" },
  ],
  migrateSessionEntries: [
    { pkg: "pi-coding-agent", file: "dist/core/session-manager.js", name: "migrateSessionEntries" },
    { pkg: "pi-coding-agent", sub: ".", name: "migrateSessionEntries" },
  ],
  buildSessionContext: [
    { pkg: "pi-coding-agent", file: "dist/core/session-manager.js", name: "buildSessionContext" },
    { pkg: "pi-coding-agent", sub: ".", name: "buildSessionContext" },
  ],
  // Only for session cases that ask for the tree or the compaction check.
  SessionManager: [
    { pkg: "pi-coding-agent", file: "dist/core/session-manager.js", name: "SessionManager" },
    { pkg: "pi-coding-agent", sub: ".", name: "SessionManager" },
  ],
  AgentSession: [
    { pkg: "pi-coding-agent", file: "dist/core/agent-session.js", name: "AgentSession" },
    { pkg: "pi-coding-agent", sub: ".", name: "AgentSession" },
  ],
  Agent: [{ pkg: "pi-agent-core", sub: ".", name: "Agent" }],
  createAssistantMessageEventStream: [
    { pkg: "pi-ai", file: "dist/utils/event-stream.js", name: "createAssistantMessageEventStream" },
    { pkg: "pi-ai", sub: ".", name: "createAssistantMessageEventStream" },
  ],
  // Each wire API's own stream(model, context, options), which takes the provider options as
  // they are (not the registry, which may pick a catalog model or env keys). WIRE_APIS maps an
  // API name to its entry here.
  streamAnthropic: [
    { pkg: "pi-ai", sub: "./api/anthropic-messages", name: "stream" }, // 0.74+
    { pkg: "pi-ai", sub: "./anthropic", name: "streamAnthropic" }, // <= 0.73
    { pkg: "pi-ai", file: "dist/providers/anthropic.js", name: "streamAnthropic" },
  ],
  streamMistral: [
    { pkg: "pi-ai", sub: "./api/mistral-conversations", name: "stream" }, // 0.74+
    { pkg: "pi-ai", file: "dist/api/mistral-conversations.js", name: "stream" },
    { pkg: "pi-ai", sub: "./mistral", name: "streamMistral" }, // <= 0.73
  ],
  streamGoogle: [
    { pkg: "pi-ai", sub: "./api/google-generative-ai", name: "stream" }, // 0.74+
    { pkg: "pi-ai", sub: "./google", name: "streamGoogle" }, // <= 0.73
    { pkg: "pi-ai", file: "dist/providers/google.js", name: "streamGoogle" },
  ],
  streamGoogleVertex: [
    { pkg: "pi-ai", sub: "./api/google-vertex", name: "stream" }, // 0.74+
    { pkg: "pi-ai", sub: "./google-vertex", name: "streamGoogleVertex" }, // <= 0.73
    { pkg: "pi-ai", file: "dist/providers/google-vertex.js", name: "streamGoogleVertex" },
  ],
  streamBedrock: [
    { pkg: "pi-ai", sub: "./api/bedrock-converse-stream", name: "stream" }, // 0.74+
    { pkg: "pi-ai", file: "dist/api/bedrock-converse-stream.js", name: "stream" },
    { pkg: "pi-ai", file: "dist/providers/amazon-bedrock.js", name: "streamBedrock" }, // <= 0.73
  ],
  streamOpenAICodexResponses: [
    { pkg: "pi-ai", sub: "./api/openai-codex-responses", name: "stream" }, // 0.74+
    { pkg: "pi-ai", file: "dist/api/openai-codex-responses.js", name: "stream" },
    { pkg: "pi-ai", sub: "./openai-codex-responses", name: "streamOpenAICodexResponses" }, // <= 0.73
    { pkg: "pi-ai", file: "dist/providers/openai-codex-responses.js", name: "streamOpenAICodexResponses" },
  ],
  streamOpenAICompletions: [
    { pkg: "pi-ai", sub: "./api/openai-completions", name: "stream" }, // 0.74+
    { pkg: "pi-ai", sub: "./openai-completions", name: "streamOpenAICompletions" }, // <= 0.73
    { pkg: "pi-ai", file: "dist/providers/openai-completions.js", name: "streamOpenAICompletions" },
  ],
  streamOpenAIResponses: [
    { pkg: "pi-ai", sub: "./api/openai-responses", name: "stream" }, // 0.74+
    { pkg: "pi-ai", sub: "./openai-responses", name: "streamOpenAIResponses" }, // <= 0.73
    { pkg: "pi-ai", file: "dist/providers/openai-responses.js", name: "streamOpenAIResponses" },
  ],
  streamAzureOpenAIResponses: [
    { pkg: "pi-ai", sub: "./api/azure-openai-responses", name: "stream" }, // 0.74+
    { pkg: "pi-ai", sub: "./azure-openai-responses", name: "streamAzureOpenAIResponses" }, // <= 0.73
    { pkg: "pi-ai", file: "dist/providers/azure-openai-responses.js", name: "streamAzureOpenAIResponses" },
  ],
  // Codex remembers, per sessionId and for the life of the process, that a WebSocket failed, and
  // then goes straight to SSE. Every case starts without that memory.
  resetCodexWebSockets: [
    { pkg: "pi-ai", sub: "./api/openai-codex-responses", name: "resetOpenAICodexWebSocketDebugStats" },
    { pkg: "pi-ai", file: "dist/api/openai-codex-responses.js", name: "resetOpenAICodexWebSocketDebugStats" },
  ],
  // Releases whose API streams take a normalized transcript (1.x) fold Context.systemPrompt and
  // Context.tools into a leading system message first, as their public entry points do. Those
  // releases have the module; pi-ai's index is not tried, as importing it only to learn that an
  // older release lacks the function would cost every wire case's process seconds.
  normalizeContext: [
    { pkg: "pi-ai", sub: "./utils/transcript", name: "normalizeContext" },
    { pkg: "pi-ai", file: "dist/utils/transcript.js", name: "normalizeContext" },
  ],
};

// The module file a candidate names, if this release has it (no import: a file test).
const pkgJsons = {};
function candidateFile(c) {
  if (!existsSync(path.join(pkgDir(c.pkg), "package.json"))) return null;
  pkgJsons[c.pkg] ??= pkgJson(c.pkg);
  const rel = c.file ?? exportedFile(pkgJsons[c.pkg], c.sub);
  return rel && existsSync(path.join(pkgDir(c.pkg), rel)) ? rel : null;
}

async function locate(candidates) {
  for (const c of candidates) {
    const rel = candidateFile(c);
    if (!rel) continue;
    try {
      const mod = await import(pathToFileURL(path.join(pkgDir(c.pkg), rel)).href);
      if (typeof mod[c.name] === "function") {
        const where = c.file ? `${SCOPE}/${c.pkg}/${c.file} (not exported)` : `${SCOPE}/${c.pkg}${c.sub.slice(1)}`;
        return { fn: mod[c.name], where: `${where} :: ${c.name}` };
      }
    } catch (err) {
      log(`import of ${SCOPE}/${c.pkg} ${rel} failed: ${err?.stack ?? err}`);
    }
  }
  return null;
}

// ---- the cases -----------------------------------------------------------------------------

class Skip extends Error {}

function toolCallIdNormalizer(spec) {
  if (!spec) return undefined;
  const re = new RegExp(spec.replace, "g");
  return (id) => {
    const out = id.replace(re, spec.with);
    return spec.maxLength === undefined ? out : out.slice(0, spec.maxLength);
  };
}

// The provider APIs wire cases can drive: model.api → the CANDIDATES entry of its stream.
const WIRE_APIS = {
  "openai-responses": "streamOpenAIResponses",
  "azure-openai-responses": "streamAzureOpenAIResponses",
  "openai-codex-responses": "streamOpenAICodexResponses",
  "anthropic-messages": "streamAnthropic",
  "openai-completions": "streamOpenAICompletions",
  "google-generative-ai": "streamGoogle",
  "google-vertex": "streamGoogleVertex",
  "mistral-conversations": "streamMistral",
  "bedrock-converse-stream": "streamBedrock",
};

// Each wire API's streamSimple(model, context, options), for cases whose input has "call":
// "streamSimple" (options with a thinking level, which the API maps to its own): the CANDIDATES
// entry of its stream with "Simple" added. Only releases with the API modules (0.74+) have it.
for (const [api, entry] of Object.entries(WIRE_APIS)) {
  CANDIDATES[`${entry}Simple`] = [
    { pkg: "pi-ai", sub: `./api/${api}`, name: "streamSimple" },
    { pkg: "pi-ai", file: `dist/api/${api}.js`, name: "streamSimple" },
  ];
}

// A case with its own baseUrl names hosts that are not the runner's: every connection fetch
// opens goes to connectTo ("127.0.0.1:<port>") instead, in plain HTTP, while the request keeps
// its URL's host in its Host header. fetch reads its dispatcher from a global slot: Node's own
// fetch from slot 1, npm undici's (which the coding agent installs as fetch, with its own
// dispatcher, once it is loaded) from slot 2. During the case each slot that is in use holds an
// Agent of that undici whose connector dials connectTo. Node's Agent class is taken at start-up,
// before any library can replace the dispatcher in slot 1. The AWS SDK does not use fetch: its
// HTTP/1.1 handler (every Bedrock case sets AWS_BEDROCK_FORCE_HTTP1) asks a node:http or
// node:https Agent for each socket, so during the case both Agent classes hand out a plain TCP
// socket to connectTo; the request's own Host header is left as the SDK signed it.
const DISPATCHER_SLOTS = [Symbol.for("undici.globalDispatcher.1"), Symbol.for("undici.globalDispatcher.2")];
let bundledAgent;
async function connectEverythingTo(address) {
  const colon = address.lastIndexOf(":");
  const [host, port] = [address.slice(0, colon), Number(address.slice(colon + 1))];
  const connect = (_opts, callback) => {
    const socket = net.connect(port, host);
    socket.once("connect", () => callback(null, socket));
    socket.once("error", (err) => callback(err, null));
    return socket;
  };
  const agents = [new bundledAgent({ connect })];
  if (globalThis[DISPATCHER_SLOTS[1]]) {
    const npmUndici = createRequire(path.join(ROOT, "node_modules", "piconform.js")).resolve("undici");
    const { Agent } = await import(pathToFileURL(npmUndici).href);
    agents.push(new Agent({ connect }));
  }
  const agentClasses = [http.Agent, https.Agent];
  const connectors = agentClasses.map((cls) => Object.getOwnPropertyDescriptor(cls.prototype, "createConnection"));
  for (const cls of agentClasses) cls.prototype.createConnection = () => net.connect(port, host);
  const before = agents.map((agent, i) => {
    const old = globalThis[DISPATCHER_SLOTS[i]];
    globalThis[DISPATCHER_SLOTS[i]] = agent;
    return old;
  });
  return () => {
    agentClasses.forEach((cls, i) => Object.defineProperty(cls.prototype, "createConnection", connectors[i]));
    before.forEach((old, i) => {
      globalThis[DISPATCHER_SLOTS[i]] = old;
      agents[i].close().catch(() => {});
    });
  };
}

async function wire(pi, input) {
  const simple = input.call === "streamSimple";
  const entry = WIRE_APIS[input.model?.api];
  const fn = entry && (simple ? `${entry}Simple` : entry);
  const streamFn = fn && (await pi.need(fn));
  if (!streamFn) throw new Skip(`api ${input.model?.api}${simple ? " (streamSimple)" : ""} is not driven by this Pi release`);
  const normalizeContext = await pi.need("normalizeContext");
  if (input.model?.api === "openai-codex-responses") (await pi.need("resetCodexWebSockets"))?.();
  const model = { ...input.model, baseUrl: input.baseUrl };
  let context;
  try {
    context = normalizeContext ? normalizeContext(input.context) : input.context;
  } catch (err) {
    return thrown(err); // Pi's entry points normalize first: the caller gets the throw
  }
  const options = { ...input.options, apiKey: input.apiKey };
  // abort: {afterEvents: k}: the signal fires as the k-th event arrives; 0 fires it before the call.
  const controller = new AbortController();
  const abortAfter = input.abort?.afterEvents;
  if (input.abort) options.signal = controller.signal;
  if (abortAfter === 0) controller.abort();
  const restore = typeof input.connectTo === "string" ? await connectEverythingTo(input.connectTo) : () => {};
  const events = [];
  try {
    let stream;
    try {
      stream = streamFn(model, context, options);
    } catch (err) {
      return thrown(err); // no stream: the call itself throws
    }
    let message;
    for await (const event of stream) {
      const { partial, ...fields } = event;
      events.push(JSON.parse(JSON.stringify(fields))); // as the event was when it came
      if (event.type === "done") message = event.message;
      if (event.type === "error") message = event.error;
      if (events.length === abortAfter) controller.abort();
    }
    return { message: message ?? (await stream.result()), events };
  } finally {
    restore();
  }
}

// The transformContext a pipeline case describes: exactly one of append, keepLast or fail.
function transformOp(op) {
  if (op === undefined) return undefined;
  const keys = Object.keys(op ?? {});
  if (keys.length !== 1) throw new Error(`transform wants exactly one of append, keepLast, fail; got ${JSON.stringify(op)}`);
  if ("append" in op) return async (messages) => [...messages, ...structuredClone(op.append)];
  if ("keepLast" in op) return async (messages) => messages.slice(Math.max(0, messages.length - op.keepLast));
  if ("fail" in op) {
    return async () => {
      throw new Error(op.fail);
    };
  }
  throw new Error(`unknown transform ${keys[0]}`);
}

// The convertToLlm a pipeline case names. "default" is what an Agent built without one uses; the
// Agent keeps it as a public member, which is the only place Pi exposes it. Pi 1.6's Agent has no
// stream function of its own and throws when built without one unless a default was installed:
// importing the coding agent's index (the kind's "codingAgent", loaded first) installs pi-ai's.
function convertOp(pi, op) {
  if (op === undefined || op === "coding-agent") return pi.convertToLlm;
  if (op === "default") return new pi.Agent().convertToLlm;
  if (op && typeof op === "object" && typeof op.fail === "string") {
    return () => {
      throw new Error(op.fail); // thrown synchronously; the transform's failure is a rejection
    };
  }
  throw new Error(`unknown convert ${JSON.stringify(op)}`);
}

// A pipeline case runs Pi's own agent loop, continuing from the case's transcript, with a stream
// function that writes down the Context it is handed (and the transcript at that moment) and
// answers with an empty assistant message that stops the run. A hook that fails makes the loop
// reject before any request: that rejection is the output. The loop gets the case's context as it
// is: Pi 0.80 sends its systemPrompt and tools beside the messages; Pi 1.6 reads no systemPrompt,
// sends {messages} alone, and first appends to the case's transcript a system message declaring
// the tools, so the transcript written down holds it.
async function pipeline(pi, input) {
  const config = { convertToLlm: convertOp(pi, input.convert), transformContext: transformOp(input.transform) };
  const context = { systemPrompt: input.systemPrompt, messages: input.messages, tools: input.tools };
  const seen = [];
  const streamFn = (model, llmContext) => {
    seen.push(JSON.parse(JSON.stringify({ context: llmContext, transcript: context.messages })));
    const stream = pi.createAssistantMessageEventStream();
    const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    const message = {
      role: "assistant",
      content: [],
      api: "piconform",
      provider: "piconform",
      model: "recorder",
      usage: { ...zero, totalTokens: 0, cost: { ...zero, total: 0 } },
      stopReason: "stop",
      timestamp: 0,
    };
    stream.push({ type: "done", reason: "stop", message });
    stream.end(message);
    return stream;
  };
  try {
    await pi.runAgentLoopContinue(context, config, () => {}, undefined, streamFn);
  } catch (err) {
    if (seen.length > 0) throw err; // a failure after the request is not a pipeline result
    return { error: err instanceof Error ? err.message : String(err) };
  }
  if (seen.length !== 1) throw new Error(`the loop made ${seen.length} model requests, not one`);
  return seen[0];
}

// The portable category of what a Pi function threw (spec/PROTOCOL.md, "Expected failures").
const THROWN_CATEGORIES = { TypeError: "type-error", RangeError: "range-error", SyntaxError: "syntax-error" };
const thrown = (err) => ({
  throws: {
    category: (err instanceof Error && THROWN_CATEGORIES[err.name]) || "error",
    message: err instanceof Error ? err.message : String(err),
  },
});

// A session case loads a session file as the coding agent does: parse, migrate, rebuild from the
// leaf (absent from the input: undefined), then convertToLlm. Where Pi throws, that is the answer.
// A case may also ask what the coding agent makes of the entries' timestamps: "tree": true adds
// the SessionManager's tree (getTree, each entry's children sorted by time), each node named by
// its entry's index among the parsed entries; "assistantTimestamp" adds whether the agent
// session's automatic compaction takes an assistant message of that timestamp for one from
// before the latest compaction on the manager's branch (spec/session.md).
async function session(pi, input) {
  try {
    const entries = pi.parseSessionEntries(input.text);
    pi.migrateSessionEntries(entries);
    const ctx = pi.buildSessionContext(entries, "leaf" in input ? input.leaf : undefined);
    const llmMessages = pi.convertToLlm(ctx.messages);
    const out = { messages: ctx.messages, thinkingLevel: ctx.thinkingLevel, model: ctx.model, llmMessages };
    if (input.tree === true || "assistantTimestamp" in input) {
      const manager = await loadedManager(pi, entries);
      if (input.tree === true) {
        const nodes = (list) => list.map((n) => ({ entry: entries.indexOf(n.entry), children: nodes(n.children) }));
        out.tree = nodes(manager.getTree());
      }
      if ("assistantTimestamp" in input) {
        out.beforeLatestCompaction = await beforeLatestCompaction(pi, manager, input.assistantTimestamp);
      }
    }
    return out;
  } catch (err) {
    return thrown(err);
  }
}

// A SessionManager holding the loaded entries, as opening their file would leave it: an
// in-memory one whose entries are replaced and indexed again (its leaf is the last entry).
async function loadedManager(pi, entries) {
  const SessionManager = await pi.need("SessionManager");
  if (!SessionManager) throw new Skip("this Pi release has no SessionManager");
  const manager = SessionManager.inMemory("/work/project");
  manager.fileEntries = entries;
  manager._buildIndex();
  return manager;
}

// The first check of AgentSession's automatic compaction (_checkCompaction), run by Pi's own
// method on a stand-in session that holds the manager: it returns false at once when the
// assistant message is from before the latest compaction on the branch. Otherwise the method
// goes on to the message's usage (0.80) or the manager's projection (1.6), and the stand-ins
// of those stop it there: the check let the message through.
async function beforeLatestCompaction(pi, manager, timestamp) {
  const AgentSession = await pi.need("AgentSession");
  if (!AgentSession) throw new Skip("this Pi release has no AgentSession");
  const passed = new Error("passed the compaction boundary check");
  const stop = () => {
    throw passed;
  };
  const message = { role: "assistant", content: [], stopReason: "stop", timestamp };
  Object.defineProperty(message, "usage", { get: stop });
  const standIn = {
    settingsManager: { getCompactionSettings: () => ({ enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 }) },
    model: undefined,
    _modelForMessage: () => undefined,
    sessionManager: { getBranch: (id) => manager.getBranch(id), buildSessionProjection: stop },
    get agent() {
      return stop();
    },
  };
  try {
    const result = await AgentSession.prototype._checkCompaction.call(standIn, message);
    if (result !== false) throw new Error(`_checkCompaction gave ${result} before its boundary check`);
    return true;
  } catch (err) {
    if (err === passed) return false;
    throw err;
  }
}

// What a Pi function returns, or, where it throws, that failure as the answer (the kinds of
// spec/PROTOCOL.md's "Expected failures"). Only the call into Pi is guarded: a failure of the
// driver's own set-up stays an error frame.
function orThrown(call) {
  try {
    return call();
  } catch (err) {
    return thrown(err);
  }
}

// Each kind: the Pi functions it needs and how it turns an input into an output.
const KINDS = {
  convert: [["convertToLlm"], (pi, i) => orThrown(() => ({ messages: pi.convertToLlm(i.messages) }))],
  normalize: [
    ["transformMessages"],
    (pi, i) => {
      const normalizer = toolCallIdNormalizer(i.toolCallIdNormalizer);
      return orThrown(() => ({ messages: pi.transformMessages(i.messages, i.model, normalizer) }));
    },
  ],
  cost: [
    ["calculateCost"],
    (pi, i) =>
      orThrown(() => {
        pi.calculateCost(i.model, i.usage); // fills i.usage.cost in place
        return { usage: i.usage };
      }),
  ],
  sanitize: [["sanitizeSurrogates"], (pi, i) => orThrown(() => ({ text: pi.sanitizeSurrogates(i.text) }))],
  pipeline: [["codingAgent", "runAgentLoopContinue", "Agent", "convertToLlm", "createAssistantMessageEventStream"], pipeline],
  wire: [[], wire],
  session: [["parseSessionEntries", "migrateSessionEntries", "buildSessionContext", "convertToLlm"], session],
};

// One case in, one answer out: {type:"result", output} | {type:"skip", reason} | {type:"error", message}.
async function handle(pi, kase) {
  const kind = KINDS[kase?.kind];
  if (!kind) return { type: "skip", reason: `unknown case kind ${JSON.stringify(kase?.kind)}` };
  for (const f of kind[0]) await pi.need(f);
  const missing = kind[0].filter((f) => !pi[f]);
  if (missing.length) return { type: "skip", reason: `this Pi release has no ${missing.join(", ")}` };
  try {
    return { type: "result", output: await kind[1](pi, kase.input ?? {}) };
  } catch (err) {
    if (err instanceof Skip) return { type: "skip", reason: err.message };
    return { type: "error", message: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}

// ---- startup and the frame loop ------------------------------------------------------------

// pi[fn] is the function once need(fn) has imported it (null: not in this release). The hello
// claims a kind or API when a module file of each function it needs exists; should the module
// lack the function after all, its cases are skipped with a reason.
const present = (fn) => CANDIDATES[fn].some(candidateFile);
const loading = {};
const pi = {
  need(fn) {
    loading[fn] ??= locate(CANDIDATES[fn]).then((found) => {
      pi[fn] = found ? found.fn : null;
      log(`${fn}: ${found ? found.where : "not in this release"}`);
      return pi[fn];
    });
    return loading[fn];
  },
};

const ai = pkgJson("pi-ai");
const repo = ai.repository?.url?.replace(/^git\+/, "").replace(/\.git$/, "");
const implementation = {
  name: "pi-ts",
  version: `${SCOPE} ${ai.version}`,
  language: "typescript",
  ...(repo?.startsWith("https://") ? { homepage: repo } : {}),
  kinds: Object.keys(KINDS).filter((k) => KINDS[k][0].every(present)),
  apis: Object.keys(WIRE_APIS).filter((api) => present(WIRE_APIS[api])),
  // The release line of the loaded Pi ("0.80" for 0.80.2, "1.6" for 1.6.0):
  // the dialect whose goldens it should pass.
  dialects: [ai.version.split(".").slice(0, 2).join(".")],
};
log(`serving ${implementation.version} from ${ROOT}; kinds ${implementation.kinds.join(",")}`);

function finish() {
  writeFrameRaw("", () => process.exit(0));
}

await fetch("data:,"); // loads Node's fetch, which installs its default dispatcher; no connection
bundledAgent = globalThis[DISPATCHER_SLOTS[0]].constructor;

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let frame;
  try {
    frame = JSON.parse(line);
  } catch (err) {
    log(`ignoring a line that is not JSON: ${err.message}`);
    continue;
  }
  switch (frame?.type) {
    case "hello":
      if (frame.protocol !== PROTOCOL) log(`runner speaks protocol ${frame.protocol}, this adapter ${PROTOCOL}`);
      send({ type: "hello", protocol: PROTOCOL, implementation });
      break;
    case "run": {
      const answer = await handle(pi, frame.case);
      send({ type: answer.type, seq: frame.seq, ...answer });
      break;
    }
    case "bye":
      finish();
      break;
    default:
      log(`unknown frame type ${JSON.stringify(frame?.type)}`);
      if (frame && typeof frame === "object" && "seq" in frame) {
        send({ type: "error", seq: frame.seq, message: `unknown frame type ${JSON.stringify(frame.type)}` });
      }
  }
}
finish();
