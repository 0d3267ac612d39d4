// Server-Sent Events on a hijacked fastify reply (document 2: `event: <name>`, `data: <json>`, a
// blank line). The head carries what the request's hooks set so far (CORS) and the rate-limit
// headers (document 1: the agent chat sets them on stream responses too). A comment line every
// KEEP_ALIVE_MS keeps proxies from closing a stream while a slow model thinks.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { meteringHeaders } from './plugins/metering.js';

const KEEP_ALIVE_MS = 15_000;

export interface EventStream {
  send(event: string, data: unknown): void;
  end(): void;
  /** The client went away before `end`. */
  readonly closed: boolean;
  onClose(listener: () => void): void;
}

export function openEventStream(request: FastifyRequest, reply: FastifyReply): EventStream {
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value as string | number | string[];
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...headers,
    ...meteringHeaders(request),
    'content-type': 'text/event-stream; charset=utf-8',
    // no-cache, not no-store: Chromium reports a no-store fetch stream read to its end as aborted
    // (microsoft/playwright#42742), a failed request to every page that watches them.
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    // Nginx and similar proxies would otherwise hold events back to fill a buffer.
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  raw.flushHeaders();
  let ended = false;
  let closed = false;
  const listeners: Array<() => void> = [];
  const keepAlive = setInterval(() => {
    if (!ended && !closed) raw.write(': keep-alive\n\n');
  }, KEEP_ALIVE_MS);
  keepAlive.unref();
  raw.on('close', () => {
    clearInterval(keepAlive);
    if (ended) return;
    closed = true;
    for (const listener of listeners) listener();
  });
  return {
    send(event, data) {
      if (ended || closed) return;
      raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (ended) return;
      ended = true;
      clearInterval(keepAlive);
      if (!closed) raw.end();
    },
    get closed() {
      return closed;
    },
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
  };
}
