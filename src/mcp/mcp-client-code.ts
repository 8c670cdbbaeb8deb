// What a connection needs only once it connects (the connection's setup, the tool listing, the
// reading of a failed call), in one module that mcp-connection.ts loads by dynamic import: an
// agent whose servers have not connected yet (or that has none) does not load it, and a browser
// host does not download it up front. Named exports read the same from the ES module build and
// the CommonJS one.
export { connectMcpClient } from './connect-mcp-client.js';
export { listMcpTools } from './list-mcp-tools.js';
export { classifyCallError, totalTimeoutError } from './mcp-call-error.js';
