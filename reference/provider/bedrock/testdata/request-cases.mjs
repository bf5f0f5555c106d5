// Inputs for testdata/requests.json: contexts and options to send through
// real Pi (see capture.mjs). Written for piconform; run with Node 22.
import { model, nova, opts, same, foreign, user, result, text, img, readTool, bashTool, ok, CLAUDE } from "./common.mjs";
import { LONE_HI, LONE_LO } from "../../casekit.mjs";

const c = (name, m, context, options, over = {}) => ({ name, model: m, context, options, response: ok, ...over });

export default [
  c("minimal with system prompt caches", model(), { systemPrompt: "You are helpful.", messages: [user("hello")] }, opts()),
  c("nova: no maxTokens, no cache points", nova(), { systemPrompt: "s", messages: [user("hello")] }, opts()),
  c("temperature and maxTokens; retention none", model(), { messages: [user("q")] }, opts({ temperature: 0.7, maxTokens: 1234, cacheRetention: "none" })),
  c("long retention from env", model(), { systemPrompt: "s", messages: [user("q")] }, opts({ env: { PI_CACHE_RETENTION: "long" } })),
  c("blank users get placeholders; surrogates sanitized", model(), {
    systemPrompt: "sys " + LONE_HI + "x",
    messages: [user(""), user([text(" ")]), user([text(""), text("a" + LONE_LO)]), user("second \uD83D\uDE48")],
  }, opts()),
  c("images and formats", model(), { messages: [user([text("look"), img(), img("/9j/4AAQ", "image/jpg"), img("R0lGOD", "image/gif"), img("UklGR g==", "image/webp")])] }, opts()),
  c("unknown image type", model(), { messages: [user([img("AAAA", "image/bmp")])] }, opts()),
  c("no vision model gets placeholders", nova({ input: ["text"] }), { messages: [user([text("x"), img(), img()]), result("t", [img()])] }, opts()),
  c("tools with auto", model(), { tools: [readTool, bashTool], messages: [user("go")] }, opts({ toolChoice: "auto" })),
  c("tools with any", model(), { tools: [readTool], messages: [user("go")] }, opts({ toolChoice: "any" })),
  c("tools with a named tool", model(), { tools: [readTool], messages: [user("go")] }, opts({ toolChoice: { type: "tool", name: "read_file" } })),
  c("tools with none", model(), { tools: [readTool], messages: [user("go")] }, opts({ toolChoice: "none" })),
  c("same-model history: thinking, signature, tool calls, grouped results", model(), {
    tools: [readTool],
    messages: [user("Read a and b"),
      same([{ type: "thinking", thinking: "Need files.", thinkingSignature: "c2ln" }, { type: "thinking", thinking: "unsigned" }, { type: "thinking", thinking: "  " }, text(""), text("ok"),
        { type: "toolCall", id: "call|1", name: "read_file", arguments: { path: "a" } }, { type: "toolCall", id: "t2", name: "read_file", arguments: { path: "b" } }], { stopReason: "toolUse" }),
      result("call|1", [text("A"), text(" "), text("A2")]), result("t2", [], { isError: true }), user("thanks")],
  }, opts()),
  c("foreign history: ids normalized, thinking as text, missing result", model(), {
    messages: [user("go"), foreign([{ type: "thinking", thinking: "hmm", thinkingSignature: "x" }, { type: "toolCall", id: "call_1|fc.2", name: "read_file", arguments: { path: "a" } }]),
      user("interrupt")],
  }, opts()),
  c("non-claude thinking drops the signature; empty assistant skipped", nova(), {
    messages: [user("q"), same([{ type: "thinking", thinking: "t", thinkingSignature: "s" }], { model: "amazon.nova-pro-v1:0" }), same([], { model: "amazon.nova-pro-v1:0" }), user("r")],
  }, opts()),
  c("redacted thinking is sent as text with its data", model(), {
    messages: [user("q"), same([{ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "ENCRYPTED", redacted: true }, text("a")]), user("r")],
  }, opts()),
  c("error assistant dropped, image-only tool result", model(), {
    messages: [user("q"), same([{ type: "toolCall", id: "a", name: "read_file", arguments: {} }], { stopReason: "error" }), result("a", [img()])],
  }, opts()),
  c("budget reasoning", model(), { messages: [user("q")] }, opts({ reasoning: "low", maxTokens: 6048 })),
  c("budget reasoning with custom budget and no interleaving", model(), { messages: [user("q")] }, opts({ reasoning: "xhigh", thinkingBudgets: { high: 20000 }, interleavedThinking: false, thinkingDisplay: "omitted" })),
  c("adaptive reasoning", model({ id: "anthropic.claude-opus-4-6-v1", name: "Claude Opus 4.6" }), { messages: [user("q")] }, opts({ reasoning: "xhigh" })),
  c("adaptive xhigh on opus 4.7", model({ id: "anthropic.claude-opus-4-7", name: "Claude Opus 4.7" }), { messages: [user("q")] }, opts({ reasoning: "xhigh" })),
  c("govcloud drops display", model(), { messages: [user("q")] }, opts({ region: "us-gov-west-1", reasoning: "medium" })),
  c("reasoning ignored for nova", nova({ reasoning: true }), { messages: [user("q")] }, opts({ reasoning: "high" })),
  c("request metadata", model(), { messages: [user("q")] }, opts({ requestMetadata: { team: "a", b: "2" } })),
  c("custom headers; reserved ones skipped", model(), { messages: [user("q")] }, opts({ headers: { "x-custom": "v", "X-Amz-Date": "19990101T000000Z", authorization: "nope", "x-null": null } })),
  c("bearer token", model(), { messages: [user("q")] }, opts({ bearerToken: "bedrock-api-key-fake" })),
  c("bearer token from env", model(), { messages: [user("q")] }, opts({ env: { AWS_BEARER_TOKEN_BEDROCK: "bedrock-api-key-env" } })),
  c("skip auth ignores the bearer token", model(), { messages: [user("q")] }, opts({ bearerToken: "b", env: { AWS_BEDROCK_SKIP_AUTH: "1" } })),
  c("session token", model(), { messages: [user("q")] }, opts({ env: { AWS_SESSION_TOKEN: "FAKE-SESSION-TOKEN" } })),
  c("region from env", model(), { messages: [user("q")] }, { apiKey: "k", env: { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret", AWS_BEDROCK_FORCE_HTTP1: "1", AWS_REGION: "eu-central-1" } }),
  c("default region", model(), { messages: [user("q")] }, { apiKey: "k", env: { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret", AWS_BEDROCK_FORCE_HTTP1: "1" } }),
  c("arn id: encoded path and its region", model({ id: "arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.anthropic.claude-sonnet-4-5" }), { messages: [user("q")] }, opts()),
  c("no credentials", model(), { messages: [user("q")] }, { region: "us-east-1", env: { AWS_BEDROCK_FORCE_HTTP1: "1" } }),
  c("force cache on a non-claude model", nova(), { systemPrompt: "s", messages: [user("q")] }, opts({ env: { AWS_BEDROCK_FORCE_CACHE: "1" }, cacheRetention: "long" })),
  c("tool result last keeps the cache point", model(), {
    messages: [user("q"), same([{ type: "toolCall", id: "a", name: "read_file", arguments: { path: "x" } }], { stopReason: "toolUse" }), result("a", [text("r" + LONE_HI)])],
  }, opts()),
  c("assistant last: only the system cache point", model(), { systemPrompt: "s", messages: [user("q"), same([text("a")])] }, opts()),
];
