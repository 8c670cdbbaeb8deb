// What only a running subagent needs (its core's set-up, its start and its run), in one module
// that load-subagent-code.ts loads by dynamic import: an agent whose model never starts a
// subagent does not load it, and a browser host does not download it up front. Named exports read
// the same from the ES module build and the CommonJS one.
export { beginSubagent } from './begin-subagent.js';
export { buildSubagentCore } from './build-subagent-core.js';
export { runSubagent } from './run-subagent.js';
