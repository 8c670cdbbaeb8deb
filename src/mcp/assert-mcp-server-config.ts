import { ConfigurationError } from '../errors/configuration-error.js';
import { MAX_TIMER_MS } from '../types/max-timer-ms.js';
import type { McpServerConfig } from './mcp-server-config.js';
import { assertMcpServerName } from './mcp-tool-name.js';

const TYPES = ['http', 'sdk', 'stdio', 'transport'];

function positive(path: string, field: string, value: unknown): void {
  if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_TIMER_MS)) {
    throw new ConfigurationError(
      `${path}.${field} must be a positive number of milliseconds, at most ${MAX_TIMER_MS} (about 24.8 days: a timer fires at once past it), got ${JSON.stringify(value)}.`,
    );
  }
}

/**
 * Checks one MCP server configuration before anything connects.
 * @param path - names the configuration in the messages: the `mcpServers` entry by default.
 * @throws ConfigurationError naming the server, the bad field and the fix.
 */
export function assertMcpServerConfig(name: string, config: McpServerConfig, path = `createAgent: mcpServers.${name}`): void {
  assertMcpServerName(name);
  const type = (config as { type?: unknown } | undefined)?.type;
  if (typeof config !== 'object' || config === null || !TYPES.includes(type as string)) {
    throw new ConfigurationError(
      `${path} needs a type of 'http' ({ type: 'http', url }), 'sdk' ({ type: 'sdk', server }), 'stdio' (stdioMcpServer({ command }) from agent-harness/node), 'transport' ({ type: 'transport', transport: () => ... })${path.startsWith('createAgent') ? ', or be a shared server (sharedMcpServer())' : ''}; got ${JSON.stringify(type)}.`,
    );
  }
  positive(path, 'toolTimeoutMs', config.toolTimeoutMs);
  positive(path, 'maxTotalTimeoutMs', config.maxTotalTimeoutMs);
  positive(path, 'connectTimeoutMs', config.connectTimeoutMs);
  positive(path, 'reconnect.initialDelayMs', config.reconnect?.initialDelayMs);
  positive(path, 'reconnect.maxDelayMs', config.reconnect?.maxDelayMs);
  const attempts = config.reconnect?.maxAttempts;
  if (attempts !== undefined && !(Number.isInteger(attempts) && attempts >= 0)) {
    throw new ConfigurationError(`${path}.reconnect.maxAttempts must be an integer of 0 or more, got ${JSON.stringify(attempts)}.`);
  }
  switch (config.type) {
    case 'http': {
      let url: URL | undefined;
      try {
        url = new URL(config.url);
      } catch {
        url = undefined;
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        throw new ConfigurationError(`${path}.url must be an http(s) URL of the server's MCP endpoint, got ${JSON.stringify(config.url)}.`);
      }
      return;
    }
    case 'sdk': {
      const server = config.server as unknown;
      if (typeof server !== 'function' && typeof (server as { connect?: unknown } | null)?.connect !== 'function') {
        throw new ConfigurationError(`${path}.server must be an MCP server object (new McpServer(...) from @modelcontextprotocol/sdk) or a function that makes one.`);
      }
      return;
    }
    case 'stdio':
      if (typeof config.command !== 'string' || config.command === '') {
        throw new ConfigurationError(`${path}.command must name the program to start, e.g. 'node'.`);
      }
      if (typeof config.transport !== 'function') {
        throw new ConfigurationError(
          `${path} is a stdio server, which needs Node's child processes: create it with stdioMcpServer({ command: ${JSON.stringify(config.command)}, args }) from agent-harness/node.`,
        );
      }
      return;
    case 'transport':
      if (typeof config.transport !== 'function') {
        throw new ConfigurationError(`${path}.transport must be a function that makes a new MCP transport.`);
      }
      return;
  }
}
