// Inputs for testdata/lenient.json (see capture.mjs): the cases of
// ../../google/testdata/lenient-cases.mjs, run again as google-vertex cases
// the way request-cases.mjs runs google's. Written for piconform; run with
// Node 22.
import googleCases from "../../google/testdata/lenient-cases.mjs";
import { swap } from "./request-cases.mjs";

export default googleCases.map(swap);
