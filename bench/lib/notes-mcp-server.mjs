/**
 * A small MCP server for benchmarks: one read-only tool, `list_notes`. `makeNotesServer()` gives
 * an in-process server object; run this file with Node to serve it over stdio (one process per
 * connection, as `stdioMcpServer` starts it).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { fileURLToPath } from 'node:url';

export function makeNotesServer() {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('list_notes', { description: 'Lists the notes.', annotations: { readOnlyHint: true } }, async () => ({
    content: [{ type: 'text', text: 'milk, eggs' }],
  }));
  return server;
}

export const notesServerScript = fileURLToPath(import.meta.url);

if (process.argv[1] === notesServerScript) await makeNotesServer().connect(new StdioServerTransport());
