// Work a request started on the client's behalf (a look drawn, a photo read, an agent turn) is
// pointless once the client has closed its connection before the answer went out: this signal
// says so, so the work can stop and its place in a queue go to someone still waiting.
import type { FastifyReply } from 'fastify';

/** Aborted (with `reason`) when the connection closes before the answer was written. */
export function clientGone(reply: FastifyReply, reason?: unknown): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded) gone.abort(reason);
  });
  return gone.signal;
}
