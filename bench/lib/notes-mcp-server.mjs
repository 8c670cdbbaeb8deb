/**
 * A small MCP server for benchmarks: one read-only tool, `list_notes`, and `extraTools` more with
 * a few typed fields each (a server with many tools). `makeNotesServer()` gives an in-process
 * server object; run this file with Node to serve it over stdio (one process per connection, as
 * `stdioMcpServer` starts it).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export function makeNotesServer({ extraTools = 0 } = {}) {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('list_notes', { description: 'Lists the notes.', annotations: { readOnlyHint: true } }, async () => ({
    content: [{ type: 'text', text: 'milk, eggs' }],
  }));
  const inputSchema = {
    id: z.string().describe('The record id'),
    limit: z.number().int().min(1).max(100).optional(),
    filter: z.object({ field: z.string(), op: z.enum(['eq', 'ne', 'gt', 'lt']), value: z.union([z.string(), z.number()]) }).optional(),
  };
  for (let index = 0; index < extraTools; index++) {
    server.registerTool(`records_${index}`, { description: `Reads records of kind ${index}.`, inputSchema, annotations: { readOnlyHint: true } }, async () => ({
      content: [{ type: 'text', text: 'no records' }],
    }));
  }
  return server;
}

export const notesServerScript = fileURLToPath(import.meta.url);

if (process.argv[1] === notesServerScript) await makeNotesServer().connect(new StdioServerTransport());
