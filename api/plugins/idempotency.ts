// Idempotent private writes. A POST, PUT, PATCH or DELETE route with `config.auth: 'private'`
// accepts `Idempotency-Key`; per organization, for 24 hours, the first request with a key runs
// and its status and JSON body are kept, and a retry of the same request gets them back without
// running again. The table is the first line of defence; the second is `request.correlationId`,
// derived from the key, from which the command handler derives event ids: a retry that slips
// past the table (its row expired, or the first response was a 5xx) appends nothing new.
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { v5 as uuidv5 } from 'uuid';
import type { Database } from '../../infra/db/database.js';
import { HttpError } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false: the route takes no Idempotency-Key (a streamed multipart upload, whose body is never
     * held whole to be hashed, and whose every run stores new files under new ids).
     */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /**
     * Ties together every event this request appends; pass it as the command's
     * `meta.correlationId`. Derived from the Idempotency-Key when one is sent, else random.
     */
    correlationId: string;
    /**
     * What the stored answer is about (`chat-<id>`), set by a route whose answer holds personal
     * data, so that deleting the subject deletes the answers kept for retries too.
     */
    idempotencySubject: string | null;
  }
}

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const KEY_INVALID = 'Idempotency-Key must be between 1 and 255 characters.';
export const KEY_REUSED = 'Idempotency-Key has already been used with a different request.';
export const KEY_IN_PROGRESS = 'A request with this Idempotency-Key is still in progress.';

const MAX_KEY_LENGTH = 255;
const DAY_MS = 24 * 60 * 60 * 1000;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Namespace of correlation ids derived from idempotency keys (uuid v5).
const CORRELATION_NAMESPACE = 'a4f1c0de-5b0e-4c55-8f6e-2d7b9e31c6a8';

export interface IdempotencyOptions {
  /** Where keys are kept. Without it a key still fixes the correlation id, and so the event ids. */
  database?: Database;
  now?: () => Date;
  /** How long a key is remembered. Default 24 hours. */
  ttlMs?: number;
  /**
   * A claim this old whose request never answered (its process died) may be taken over by a
   * retry. Default 5 minutes: longer than any write request should take.
   */
  staleClaimMs?: number;
  /** How often expired rows are deleted in bulk; 0 turns the sweep off. Default 15 minutes. */
  sweepIntervalMs?: number;
}

/** Whether a route takes an Idempotency-Key (also used to document the header). */
export const takesIdempotencyKey = (method: string | readonly string[], config: Partial<FastifyContextConfig> | undefined): boolean =>
  config?.auth === 'private' && config.idempotent !== false && [method].flat().some((m) => WRITE_METHODS.has(m.toUpperCase()));

export interface Claim {
  organizationId: string;
  key: string;
  claimId: string;
}

export type ClaimOutcome =
  | { kind: 'claimed'; claim: Claim }
  | { kind: 'replay'; statusCode: number; body: string }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

interface KeyRow {
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
}

/** The idempotency_keys table (migration 0005). */
export class IdempotencyStore {
  private readonly now: () => Date;
  private readonly ttlMs: number;
  private readonly staleClaimMs: number;

  private readonly db: Kysely<any>;
  constructor(
    db: Kysely<any>,
    options: Pick<IdempotencyOptions, 'now' | 'ttlMs' | 'staleClaimMs'> = {},
  ) {
    this.db = db;
    this.now = options.now ?? (() => new Date());
    this.ttlMs = options.ttlMs ?? DAY_MS;
    this.staleClaimMs = options.staleClaimMs ?? 5 * 60 * 1000;
  }

  /**
   * Claims the key for a request, or says why not. The claim is one statement: an insert that
   * only overwrites a row that has expired or whose claim went stale, so of two processes on one
   * Postgres racing for a key exactly one gets it (the other waits on the row lock, then sees
   * the winner's row fail the condition).
   */
  async claim(organizationId: string, key: string, requestHash: string): Promise<ClaimOutcome> {
    for (let attempt = 1; ; attempt++) {
      const now = this.now();
      const claimId = randomUUID();
      const taken = await this.db
        .insertInto('idempotency_keys')
        .values({
          organization_id: organizationId,
          idempotency_key: key,
          request_hash: requestHash,
          claim_id: claimId,
          status_code: null,
          response_body: null,
          created_at: now,
          expires_at: new Date(now.getTime() + this.ttlMs),
        })
        .onConflict((conflict) =>
          conflict
            .columns(['organization_id', 'idempotency_key'])
            .doUpdateSet((eb) => ({
              request_hash: eb.ref('excluded.request_hash'),
              claim_id: eb.ref('excluded.claim_id'),
              status_code: null,
              response_body: null,
              created_at: eb.ref('excluded.created_at'),
              expires_at: eb.ref('excluded.expires_at'),
            }))
            .where((eb) =>
              eb.or([
                eb('idempotency_keys.expires_at', '<=', now),
                eb.and([
                  eb('idempotency_keys.status_code', 'is', null),
                  eb('idempotency_keys.created_at', '<=', new Date(now.getTime() - this.staleClaimMs)),
                ]),
              ]),
            ),
        )
        .returning('claim_id')
        .executeTakeFirst();
      if (taken) return { kind: 'claimed', claim: { organizationId, key, claimId } };

      const row: KeyRow | undefined = await this.db
        .selectFrom('idempotency_keys')
        .select(['request_hash', 'status_code', 'response_body'])
        .where('organization_id', '=', organizationId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
      // Gone between the two statements (released after a 5xx, or swept): claim again.
      if (!row) {
        if (attempt >= 3) throw new Error(`idempotency key kept vanishing while being claimed (organization ${organizationId})`);
        continue;
      }
      if (row.request_hash !== requestHash) return { kind: 'mismatch' };
      if (row.status_code === null) return { kind: 'in_progress' };
      return { kind: 'replay', statusCode: row.status_code, body: row.response_body ?? '' };
    }
  }

  /** Keeps the response for retries; a claim taken over in the meantime is left alone. */
  async complete(claim: Claim, statusCode: number, body: string, subject: string | null = null): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ status_code: statusCode, response_body: body, subject })
      .where('organization_id', '=', claim.organizationId)
      .where('idempotency_key', '=', claim.key)
      .where('claim_id', '=', claim.claimId)
      .execute();
  }

  /** Frees the key so a retry runs again (after a 5xx, or an answer that cannot be replayed). */
  async release(claim: Claim): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('organization_id', '=', claim.organizationId)
      .where('idempotency_key', '=', claim.key)
      .where('claim_id', '=', claim.claimId)
      .execute();
  }

  /** Deletes every expired row; returns how many. Cheap: it walks the expires_at index. */
  async sweep(): Promise<number> {
    const result = await this.db.deleteFrom('idempotency_keys').where('expires_at', '<=', this.now()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** Deletes the answers kept for retries about `subject` (see `request.idempotencySubject`). */
export async function forgetIdempotentAnswers(db: Kysely<any>, organizationId: string, subject: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('organization_id', '=', organizationId).where('subject', '=', subject).execute();
}

/** Same method, path, query and body, whatever the order of their keys. */
export function requestHash(request: Pick<FastifyRequest, 'method' | 'url' | 'query' | 'body'>): string {
  const preset = presetHashes.get(request);
  if (preset) return preset;
  // JSON.stringify([method, path, query, body]) with every object's keys in order.
  const text = `${requestHashPrefix(request)}${canonicalJson(request.body ?? null)}]`;
  return createHash('sha256').update(text).digest('hex');
}

/** The text requestHash digests, up to the body: a route that hashes its body as it arrives starts with it, and ends with `]`. */
export function requestHashPrefix(request: Pick<FastifyRequest, 'method' | 'url' | 'query'>): string {
  const path = request.url.split('?')[0];
  return `[${JSON.stringify(request.method)},${JSON.stringify(path)},${canonicalJson(request.query ?? {})},`;
}

const presetHashes = new WeakMap<object, string>();

/**
 * For a route that reads its body as it arrives and never holds it whole (the item upload): the
 * request's hash, made as the body was read from requestHashPrefix and the body's canonicalJson.
 */
export function presetRequestHash(request: FastifyRequest, hash: string): void {
  presetHashes.set(request, hash);
}

/** A value's JSON with the keys of every object in order: the same for the same data sent in any order. */
export const canonicalJson = (value: unknown): string => JSON.stringify(canonical(value));

const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, canonical(record[key])]),
  );
};

/**
 * The correlation id of a keyed request. The request's hash is part of it so that a key reused
 * for a different request after its row expired does not pass for a retry of the first one.
 */
export const correlationIdFor = (organizationId: string, key: string, hash: string): string =>
  uuidv5(`${organizationId}\n${key}\n${hash}`, CORRELATION_NAMESPACE);

export function registerIdempotency(app: FastifyInstance, options: IdempotencyOptions = {}): void {
  const store = options.database ? new IdempotencyStore(options.database.db, options) : undefined;
  if (!store) app.log.warn('no database for Idempotency-Key records: keys only fix correlation ids');
  const claims = new WeakMap<FastifyRequest, Claim>();

  app.decorateRequest('correlationId', '');
  app.decorateRequest('idempotencySubject', null);

  app.addHook('onRequest', async (request) => {
    request.correlationId = randomUUID();
  });

  // After authentication, metering and validation: a replay is charged like any request, and a
  // request refused before its handler never holds a key.
  app.addHook('preHandler', async (request, reply) => {
    if (!takesIdempotencyKey(request.method, request.routeOptions.config)) return;
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header.join(', ') : header;
    if (key.length < 1 || key.length > MAX_KEY_LENGTH) throw new HttpError(422, KEY_INVALID);
    const caller = request.caller;
    if (!caller) throw new Error(`${request.method} ${request.routeOptions.url}: a private route ran without request.caller`);

    const hash = requestHash(request);
    request.correlationId = correlationIdFor(caller.organizationId, key, hash);
    if (!store) return;

    const outcome = await store.claim(caller.organizationId, key, hash);
    switch (outcome.kind) {
      case 'claimed':
        claims.set(request, outcome.claim);
        return;
      case 'mismatch':
        throw new HttpError(409, KEY_REUSED);
      case 'in_progress':
        throw new HttpError(409, KEY_IN_PROGRESS);
      case 'replay':
        reply.code(outcome.statusCode).header(REPLAYED_HEADER, 'true');
        // Sent as stored text: the response schema already shaped it the first time.
        if (outcome.body) reply.type('application/json; charset=utf-8');
        return reply.send(outcome.body || undefined);
    }
  });

  if (!store) return;

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = claims.get(request);
    if (!claim) return payload;
    claims.delete(request);
    const body = payload === null || payload === undefined ? '' : typeof payload === 'string' ? payload : undefined;
    try {
      if (reply.statusCode >= 500 || body === undefined) await store.release(claim);
      else await store.complete(claim, reply.statusCode, body, request.idempotencySubject);
    } catch (error) {
      // The answer still goes out; the claim goes stale and a later retry takes it over.
      request.log.error({ err: error }, 'could not record the Idempotency-Key outcome');
    }
    return payload;
  });

  // A reply that never went through onSend (hijacked, or the connection died first).
  app.addHook('onResponse', async (request) => {
    const claim = claims.get(request);
    if (!claim) return;
    claims.delete(request);
    await store.release(claim).catch((error: unknown) => request.log.error({ err: error }, 'could not release an Idempotency-Key'));
  });

  const sweepIntervalMs = options.sweepIntervalMs ?? 15 * 60 * 1000;
  if (sweepIntervalMs > 0) {
    const timer = setInterval(() => {
      store.sweep().catch((error: unknown) => app.log.warn({ err: error }, 'idempotency key sweep failed'));
    }, sweepIntervalMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
}
