// Whether a widget session may still record: its token is signed and stateless (session-token.ts),
// so on its own it would outlive the key that opened it and its organization by up to a day. A
// session is revoked with its key (deleted) or its organization (deleted): each request's token is
// checked against the key's and the organization's streams in the event store (the truth, not a
// read model that may lag), through a cache whose answers live at most MAX_TTL_MS, so a deletion
// stops every session within that bound, in every process. A deletion is for good: a key or
// organization found deleted stays known as such without further reads. A rotated key's sessions
// live on: rotation replaces the key's values, not the key.
import { apiKeyDecider, apiKeyStream } from '../../domain/apikey/index.js';
import { organizationDecider, organizationStream } from '../../domain/organization/index.js';
import { loadState } from '../../commands/handle.js';
import type { EventStore } from '../../infra/eventstore/port.js';
import type { WidgetSession } from './session-token.js';

/** The most a live answer is trusted: document 3's bound on revocation. */
export const MAX_TTL_MS = 10_000;

export interface SessionLivenessOptions {
  /** How long a live answer is trusted (default 5 s; at most 10 s). */
  ttlMs?: number;
  now?: () => number;
  /** Keys and organizations remembered (default 10,000 each); the oldest go first. */
  maxEntries?: number;
}

interface Entry {
  live: boolean;
  /** Until when a live answer holds; a dead one holds for good. */
  until: number;
}

export class SessionLiveness {
  readonly #store: EventStore;
  readonly #ttl: number;
  readonly #now: () => number;
  readonly #max: number;
  readonly #keys = new Map<string, Entry>();
  readonly #organizations = new Map<string, Entry>();
  /** Reads under way, so a burst of requests after an answer expires reads once. */
  readonly #reading = new Map<string, Promise<boolean>>();

  constructor(store: EventStore, options: SessionLivenessOptions = {}) {
    this.#store = store;
    this.#ttl = Math.max(0, Math.min(options.ttlMs ?? 5_000, MAX_TTL_MS));
    this.#now = options.now ?? Date.now;
    this.#max = options.maxEntries ?? 10_000;
  }

  /** False once the session's key or organization is deleted (within the TTL). */
  async isLive(session: Pick<WidgetSession, 'organizationId' | 'keyId'>): Promise<boolean> {
    const [organization, key] = await Promise.all([
      this.#cached(this.#organizations, `organization:${session.organizationId}`, session.organizationId, async () => {
        const state = await loadState(this.#store, organizationDecider, organizationStream(session.organizationId));
        return state !== null && !state.deleted;
      }),
      // The demo key, and tokens issued before sessions were bound to their key, name none.
      session.keyId === null
        ? true
        : this.#cached(this.#keys, `key:${session.keyId}`, session.keyId, async () => {
            const state = await loadState(this.#store, apiKeyDecider, apiKeyStream(session.keyId!));
            return state !== null && !state.deleted && state.organizationId === session.organizationId;
          }),
    ]);
    return organization && key;
  }

  async #cached(map: Map<string, Entry>, readingKey: string, id: string, read: () => Promise<boolean>): Promise<boolean> {
    const hit = map.get(id);
    if (hit && (!hit.live || hit.until > this.#now())) return hit.live;
    let reading = this.#reading.get(readingKey);
    if (!reading) {
      reading = read().finally(() => this.#reading.delete(readingKey));
      this.#reading.set(readingKey, reading);
    }
    const live = await reading;
    map.delete(id);
    if (map.size >= this.#max) map.delete(map.keys().next().value!);
    map.set(id, { live, until: this.#now() + this.#ttl });
    return live;
  }
}
