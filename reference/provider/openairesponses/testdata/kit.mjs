// Case builders the capture cases of the three Responses APIs share
// (openai-responses, azure-openai-responses, openai-codex-responses): their
// requests carry the same items, and their answers are the same events.
// Written for piconform; run with Node 22.
import { user, text, toolResult } from "../../casekit.mjs";

export const result = toolResult("read");
export const call = (id, args = { path: "a.txt" }, name = "read") => ({ type: "toolCall", id, name, arguments: args });
export const readTool = { name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } };
// reasoning is the thinking signature of a reasoning item: the item's JSON.
export const reasoning = (id, t) => JSON.stringify({ type: "reasoning", id, summary: [{ type: "summary_text", text: t }], encrypted_content: "gAAAA" + id });

// readTurn is the example's turn, told by same (the API's own assistant
// maker): a thought with a reasoning signature, a read call (and more),
// and its result.
const readTurn = (same, ...more) => [user("Read a.txt"),
  same([{ type: "thinking", thinking: "I should read the file.", thinkingSignature: reasoning("rs_1", "I should read the file.") }, call("call_1|fc_1"), ...more], { stopReason: "toolUse" }),
  result("call_1|fc_1", [text("hello world")])];

// readContext is the example's conversation: systemPrompt, tool and a
// readTurn.
export const readContext = (same, systemPrompt, tool = readTool, ...more) => ({ systemPrompt, tools: [tool], messages: readTurn(same, ...more) });

// claudeTurn is a tool call made through anthropic-messages, whose id is
// not a Responses pair, and its result.
export const claudeTurn = (same) => [
  same([call("call_9|item+/=long")], { stopReason: "toolUse", api: "anthropic-messages", provider: "anthropic", model: "claude" }),
  result("call_9|item+/=long", [text("r")])];

// claudeContext is a conversation with a claudeTurn after first.
export const claudeContext = (same, first = user("go")) => ({ messages: [first, ...claudeTurn(same)] });

// toolIDTurns are calls of the same model, of another model of the
// provider, of anthropic-messages and of openai-responses, with their
// results: the ids Pi keeps as pairs and the ones it hashes.
export const toolIDTurns = (same) => [
  same([call("call_a|fc_a"), call("call_b")], { stopReason: "toolUse" }),
  result("call_a|fc_a", [text("ra")]), result("call_b", [text("rb")]),
  same([call("call_c|fc_c"), call("call_d|rs_d+x")], { stopReason: "toolUse", model: "gpt-5-other" }),
  result("call_c|fc_c", [text("rc")]), result("call_d|rs_d+x", [text("rd")]),
  same([call("toolu_01A.b"), call("call_9|item+/=long")], { stopReason: "toolUse", api: "anthropic-messages", provider: "anthropic", model: "claude" }),
  result("toolu_01A.b", [text("r1")]), result("call_9|item+/=long", [text("r2")]),
  same([call("call_e|fc_e")], { stopReason: "toolUse", api: "openai-responses", provider: "openai", model: "gpt-5" }),
  result("call_e|fc_e", [text("r3")])];

// toolIDContext is the conversation of toolIDTurns, ended by last.
export const toolIDContext = (same, last) => ({ tools: [readTool], messages: [user("go"), ...toolIDTurns(same), last] });

// events returns the answer builders of one capture file. Its events are
// numbered in order across all its cases; completed answers name the
// response completedID.
export function events(completedID) {
  let seq = 0;
  const data = (d) => `data: ${JSON.stringify({ ...d, sequence_number: seq++ })}\n\n`;
  const ev = (d) => `event: ${d.type}\n` + data(d);
  const created = () => ev({ type: "response.created", response: { id: "resp_1", object: "response", status: "in_progress", output: [] } });
  const usage = { input_tokens: 120, input_tokens_details: { cached_tokens: 100 }, output_tokens: 30, total_tokens: 150 };
  const completed = (over = {}, type = "response.completed") => ev({ type, response: { id: completedID, object: "response", status: "completed", usage, ...over } });
  const ot = (t) => ({ type: "output_text", text: t, annotations: [] });
  const msg = (status, content) => ({ type: "message", id: "msg_1", role: "assistant", status, content });
  const textItem = (...parts) =>
    ev({ type: "response.output_item.added", output_index: 0, item: msg("in_progress", []) }) +
    ev({ type: "response.content_part.added", item_id: "msg_1", output_index: 0, content_index: 0, part: ot("") }) +
    parts.map((d) => ev({ type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: d })).join("") +
    ev({ type: "response.output_item.done", output_index: 0, item: msg("completed", [ot(parts.join(""))]) });
  const fc = (status, args) => ({ type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: args, status });
  const toolCall = () =>
    ev({ type: "response.output_item.added", output_index: 0, item: fc("in_progress", "") }) +
    ev({ type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 0, delta: '{"path":' }) +
    ev({ type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 0, delta: '"a.txt"}' }) +
    ev({ type: "response.function_call_arguments.done", item_id: "fc_1", output_index: 0, arguments: '{"path":"a.txt"}' }) +
    ev({ type: "response.output_item.done", output_index: 0, item: fc("completed", '{"path":"a.txt"}') });
  return { ev, created, completed, ot, msg, fc, textItem, toolCall };
}
