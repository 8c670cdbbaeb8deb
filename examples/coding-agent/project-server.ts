/**
 * A small local MCP server, built with the official SDK, that the coding agent reaches over stdio
 * (`stdioMcpServer` in main.ts): it knows the project's conventions and keeps its change log.
 * Its tools reach the model as `mcp__project__conventions` (read-only: it runs in plan mode and
 * without asking) and `mcp__project__record_change` (it writes, so the host is asked).
 *
 *   node --import tsx examples/coding-agent/project-server.ts <project dir>
 */
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const projectDir = process.argv[2] ?? process.cwd();
const server = new McpServer({ name: 'project', version: '1.0.0' });

server.registerTool(
  'conventions',
  {
    title: 'Project conventions',
    description: "How this project is tested and how changes are recorded. Read it before planning a change.",
    annotations: { readOnlyHint: true },
  },
  async () => {
    const manifest = JSON.parse(await readFile(join(projectDir, 'package.json'), 'utf8')) as { name?: string; scripts?: Record<string, string> };
    const test = manifest.scripts?.test ?? 'node --test';
    return {
      content: [
        {
          type: 'text',
          text: [
            `Project: ${manifest.name ?? 'unnamed'}.`,
            `Tests: \`${test}\` (node:test, files in test/*.test.js, assertions from node:assert/strict).`,
            'Every bug fix comes with a regression test (the regression-test skill says how).',
            'Record each finished change with record_change, in one line.',
          ].join('\n'),
        },
      ],
    };
  },
);

server.registerTool(
  'record_change',
  {
    title: 'Record a change',
    description: 'Appends one line describing a finished change to CHANGES.md.',
    inputSchema: { summary: z.string().min(1).describe('One line: what changed and why.') },
    annotations: { readOnlyHint: false, destructiveHint: false },
  },
  async ({ summary }) => {
    await appendFile(join(projectDir, 'CHANGES.md'), `- ${summary}\n`);
    return { content: [{ type: 'text', text: `Recorded in CHANGES.md: ${summary}` }] };
  },
);

await server.connect(new StdioServerTransport());
