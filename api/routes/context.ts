// What routes may use: commands write through the event store, queries read the read models,
// `waitFor` gives read-your-writes. Routes never see the adapters behind these.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { CommandMeta } from '../../domain/metadata.js';
import type { EventStore, Position } from '../../infra/eventstore/port.js';
import type { Caller } from '../caller.js';

export interface RouteContext {
  eventStore: EventStore;
  db: Kysely<any>;
  /** Resolves once the named read models have applied the event at `position`. */
  waitFor(position: Position, projections: readonly string[]): Promise<void>;
}

/** The caller of a keyed route (authentication has run, so it is always there). */
export const callerOf = (request: FastifyRequest): Caller => {
  if (!request.caller) throw new Error(`${request.method} ${request.url}: route has no auth config`);
  return request.caller;
};

/** Metadata of the commands a request runs: its caller as actor, its correlation id (Idempotency-Key). */
export const commandMeta = (request: FastifyRequest): CommandMeta => ({
  now: new Date().toISOString(),
  actor: callerOf(request).actor,
  correlationId: request.correlationId,
});
