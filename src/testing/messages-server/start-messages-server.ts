import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScriptMismatchError } from '../../errors/script-mismatch-error.js';
import type {
  MessagesRequestBody,
  MessagesServer,
  MessagesServerOptions,
  MessagesServerResponse,
  StaticMessagesResponse,
} from './messages-server-types.js';
import { sendApiError, sendMessagesResponse, type RecordedResponse } from './send-messages-response.js';
import { validateMessagesRequestBody } from './validate-messages-request-body.js';
import { countTokensProblem } from './count-tokens-problem.js';
import { createRequestAccounting } from './request-accounting.js';
import { emulateToolSearch } from './tool-search-emulation.js';
import { arrayOf, checkOptions, either, isBoolean, isFunction, isPlainObject, isPositiveInteger, type OptionsSpec } from '../../options/index.js';

const OPTIONS: OptionsSpec<MessagesServerOptions> = {
  // A response is an object (a turn, a recording, a fault) or a function of the request that returns one.
  responses: arrayOf(either('a response object or a function returning one', isPlainObject, isFunction), 'an array of responses'),
  validate: isBoolean,
  promptCaching: either('true, false or prompt-caching options', isBoolean, isPlainObject),
  contextWindow: either('a number of tokens, or a function of the model id', isPositiveInteger, isFunction),
};

/**
 * Starts a loopback Messages API server on 127.0.0.1 (ephemeral port) that answers
 * `POST /v1/messages` from a queue of scripted turns, recordings and faults. Point the real
 * `@anthropic-ai/sdk` client at it with `baseURL: server.url`.
 *
 * Like the real API it rejects invalid conversations with HTTP 400 (see `validate`), and it runs
 * the tool search server tool: a scripted `server_tool_use` of `tool_search_tool_regex` or
 * `tool_search_tool_bm25` gets its `tool_search_tool_result`, searched over the request's deferred
 * tools (a regex pattern runs in a worker thread with a 2-second budget; past it, the result is the
 * `execution_time_exceeded` error block). When the queue
 * is empty it answers HTTP 500 saying "the script has no response for request #N" (with
 * `x-should-retry: false`, so the SDK does not retry) and records a `ScriptMismatchError` in
 * `server.errors`.
 *
 * @param options - the answers and validation switch; see {@link MessagesServerOptions}.
 * @example
 * const server = await startMessagesServer({ responses: [{ content: [{ type: 'text', text: 'Hi' }] }] });
 * const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test', baseURL: server.url });
 * // ... run, then inspect server.requests
 * await server.close();
 */
export async function startMessagesServer(options: MessagesServerOptions = {}): Promise<MessagesServer> {
  checkOptions<MessagesServerOptions>(options, OPTIONS, { owner: 'startMessagesServer', optional: true });
  const queue: Array<MessagesServerResponse | RecordedResponse> = [...(options.responses ?? [])];
  const requests: MessagesRequestBody[] = [];
  const countTokensRequests: MessagesRequestBody[] = [];
  const errors: ScriptMismatchError[] = [];
  const validate = options.validate ?? true;
  const accounting = createRequestAccounting(options);
  let answered = 0;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').split('?')[0];
    if (request.method === 'POST' && path === '/v1/messages/count_tokens') return countTokens(request, response);
    if (request.method !== 'POST' || path !== '/v1/messages') {
      const requestId = `req_loopback_unrouted`;
      return sendApiError(response, 404, 'not_found_error', `Not found: ${request.method} ${path}`, requestId);
    }
    const raw = await readBody(request);
    let body: MessagesRequestBody;
    try {
      body = JSON.parse(raw) as MessagesRequestBody;
    } catch (error) {
      const excerpt = raw.length > 120 ? `${raw.slice(0, 120)}…` : raw;
      errors.push(
        new ScriptMismatchError(
          `A request to /v1/messages had a body that is not JSON (answered HTTP 400): ${error instanceof Error ? error.message : String(error)}. Body: ${JSON.stringify(excerpt)}`,
        ),
      );
      return sendApiError(response, 400, 'invalid_request_error', 'There was an error parsing the body of your request as JSON.', 'req_loopback_unparsed');
    }
    requests.push(body);
    const number = requests.length;
    const requestId = `req_loopback_${String(number).padStart(4, '0')}`;
    if (validate) {
      const problem = validateMessagesRequestBody(body, { betas: betaHeader(request) });
      if (problem) return sendApiError(response, 400, 'invalid_request_error', problem, requestId);
    }
    const tooLong = accounting.tooLongProblem(body);
    if (tooLong) return sendApiError(response, 400, 'invalid_request_error', tooLong, requestId);
    const next = queue.shift();
    if (next === undefined) {
      const message = `The messages server script has no response for request #${number}: the script ran out after answering ${answered} requests. Add a response to \`responses\` (or \`server.enqueue()\`).`;
      errors.push(new ScriptMismatchError(message));
      return sendApiError(response, 500, 'api_error', message, requestId, { 'x-should-retry': 'false' });
    }
    answered++;
    // The cache is read as the request arrives; what it writes is readable once its answer begins.
    const cached = accounting.lookup(body);
    let item: StaticMessagesResponse | RecordedResponse;
    try {
      item = typeof next === 'function' ? await next({ body, number, headers: request.headers }) : next;
    } catch (error) {
      const message = `The response function for request #${number} threw: ${error instanceof Error ? error.message : String(error)}`;
      errors.push(new ScriptMismatchError(message));
      return sendApiError(response, 500, 'api_error', message, requestId, { 'x-should-retry': 'false' });
    }
    item = accounting.withCacheUsage(item, cached);
    // The provider's part of a scripted tool search: the search results follow the search calls.
    if ('content' in item) item = await emulateToolSearch(item, body);
    const rest = await sendMessagesResponse(response, item, { body, number, requestId });
    queue.unshift(...rest);
  }

  async function countTokens(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestId = `req_loopback_count_${String(countTokensRequests.length + 1).padStart(4, '0')}`;
    let body: MessagesRequestBody;
    try {
      body = JSON.parse(await readBody(request)) as MessagesRequestBody;
    } catch {
      return sendApiError(response, 400, 'invalid_request_error', 'There was an error parsing the body of your request as JSON.', requestId);
    }
    countTokensRequests.push(body);
    const problem = validate ? countTokensProblem(body, { betas: betaHeader(request) }) : undefined;
    if (problem) return sendApiError(response, 400, 'invalid_request_error', problem, requestId);
    response.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
    response.end(JSON.stringify({ input_tokens: accounting.countTokens(body) }));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        sendApiError(response, 500, 'api_error', `Messages server failure: ${String(error)}`, 'req_loopback_failure');
      } else {
        response.destroy();
      }
    });
  });
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    countTokensRequests,
    errors,
    get pendingResponses() {
      return queue.length;
    },
    get connections() {
      return connections;
    },
    enqueue(...responses) {
      queue.push(...responses);
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

function betaHeader(request: IncomingMessage): string[] {
  const value = request.headers['anthropic-beta'];
  return (Array.isArray(value) ? value : [value ?? ''])
    .flatMap((entry) => entry.split(','))
    .map((beta) => beta.trim())
    .filter((beta) => beta !== '');
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
