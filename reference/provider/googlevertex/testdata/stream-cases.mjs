// Inputs for testdata/streams.json (see capture.mjs). Written for
// piconform; run with Node 22.
//
// Vertex reads the answer with the same code as google-generative-ai, so
// the answers of ../../google/testdata/stream-cases.mjs are fed back again
// here, to a google-vertex model at this folder's server.
import googleCases from "../../google/testdata/stream-cases.mjs";

const BASE = "http://127.0.0.1:47931";
const vertexModel = (m) => ({ ...m, api: "google-vertex", provider: "google-vertex", baseUrl: BASE });

export default [
  ...googleCases.map((c) => ({ ...c, model: vertexModel(c.model) })),
  {
    name: "vertex: generated tool-call ids count on their own",
    model: vertexModel(googleCases[0].model), context: googleCases[0].context, options: googleCases[0].options,
    response: { status: 200, sse: 'data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"a","args":{}}},{"functionCall":{"name":"b"}}]},"finishReason":"STOP"}]}\n\n' },
  },
];
