/** Small helpers for Node's http server: JSON in and out, static files, server-sent events. */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';

const MAX_BODY_BYTES = 1_000_000;

/** A request body over 1 MB: the server answers 413 and closes the connection. */
export class BodyTooLargeError extends Error {
  constructor() {
    super(`The request body is over ${MAX_BODY_BYTES / 1_000_000} MB; send a shorter one.`);
    this.name = 'BodyTooLargeError';
  }
}

/** Reads a JSON request body; undefined when it is empty or not JSON. @throws BodyTooLargeError over 1 MB. */
export async function readJson(request: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError();
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Sends a JSON response. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** Sends a file of this folder (read on each request, so edits show on reload). */
export async function sendStatic(response: ServerResponse, name: string): Promise<void> {
  const body = await readFile(new URL(`./${name}`, import.meta.url));
  response.writeHead(200, { 'content-type': CONTENT_TYPES[name.split('.').pop()!] ?? 'application/octet-stream', 'cache-control': 'no-store' });
  response.end(body);
}

/** Opens a server-sent events stream; returns a function that sends one `data:` message. */
export function openEventStream(response: ServerResponse): (message: unknown) => void {
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
  // Reconnect quickly after a server restart.
  response.write('retry: 500\n\n');
  return (message) => response.write(`data: ${JSON.stringify(message, errorReplacer)}\n\n`);
}

/** Errors have no enumerable fields; send their name and message. */
function errorReplacer(_key: string, value: unknown): unknown {
  return value instanceof Error ? { name: value.name, message: value.message } : value;
}
