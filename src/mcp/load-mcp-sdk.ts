import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { ConfigurationError } from '../errors/configuration-error.js';
import { loadOnce } from '../lazy/load-once.js';

/** The parts of `@modelcontextprotocol/sdk` the client adapter uses. */
export interface McpSdk {
  Client: typeof Client;
  InMemoryTransport: typeof InMemoryTransport;
  /** The protocol's shape of a listed tool. */
  ToolSchema: typeof ToolSchema;
  /** The client's default validator of tool output schemas. */
  AjvJsonSchemaValidator: typeof AjvJsonSchemaValidator;
}

/** The streamable HTTP client transport and its error types. */
export interface McpHttpSdk {
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  StreamableHTTPError: new (...args: never[]) => Error & { code?: number };
  UnauthorizedError: new (...args: never[]) => Error;
}

function missing(cause: unknown): ConfigurationError {
  return new ConfigurationError(
    'MCP servers need the @modelcontextprotocol/sdk package, which could not be loaded. Install it next to agent-harness: npm install @modelcontextprotocol/sdk',
    { cause },
  );
}

/**
 * Loads the SDK's client on first use: hosts that configure no MCP server never load it (it is an
 * optional peer dependency), and the core bundle does not import it. A failed load is forgotten.
 * @throws ConfigurationError when the package is not installed.
 */
export const loadMcpSdk: () => Promise<McpSdk> = loadOnce(() =>
  Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/inMemory.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/validation/ajv'),
  ]).then(
    ([client, inMemory, types, ajv]) => ({
      Client: client.Client,
      InMemoryTransport: inMemory.InMemoryTransport,
      ToolSchema: types.ToolSchema,
      AjvJsonSchemaValidator: ajv.AjvJsonSchemaValidator,
    }),
    (cause: unknown) => {
      throw missing(cause);
    },
  ),
);

/**
 * Loads the streamable HTTP transport on first use of an `http` server. A failed load is forgotten.
 * @throws ConfigurationError when the package is not installed.
 */
export const loadMcpHttpSdk: () => Promise<McpHttpSdk> = loadOnce(() =>
  Promise.all([import('@modelcontextprotocol/sdk/client/streamableHttp.js'), import('@modelcontextprotocol/sdk/client/auth.js')]).then(
    ([http, auth]) => ({
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      StreamableHTTPError: http.StreamableHTTPError,
      UnauthorizedError: auth.UnauthorizedError,
    }),
    (cause: unknown) => {
      throw missing(cause);
    },
  ),
);
