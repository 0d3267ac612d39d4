// Finds the key and organization behind a presented key value, with a cache that never outlives
// its TTL (≤ 5 minutes, document 1 "Changes take effect within five minutes") and is dropped at
// once when a key is rotated or deleted or its organization changes: in this process directly by
// the command, in other processes by following the event store.
import type { Kysely } from 'kysely';
import type { EventStore, Position } from '../../infra/eventstore/port.js';
import { bodyOf } from '../../domain/apikey/key-format.js';
import { findKeyByLookup, type KeyRecord } from '../../projections/queries/apikeys.js';
import { getOrganizationAccount, type OrganizationAccount } from '../../projections/queries/organizations.js';

export interface KeyDirectoryOptions {
  db: Kysely<any>;
  /** Default 60 s; capped at 5 minutes. */
  ttlMs?: number;
  now?: () => number;
  /** At most this many cached lookups (default 10,000); the oldest go first. */
  maxEntries?: number;
}

/** A key as the directory hands it out: with the one body that carries its lookup and organization. */
export interface KnownKey extends KeyRecord {
  body: string;
}

interface Entry<T> {
  value: T;
  expires: number;
}

const KEY_EVENTS = new Set(['ApiKeyRotated', 'ApiKeyDeleted']);
const ORGANIZATION_EVENTS = new Set(['OrganizationDeleted', 'SubscriptionActivated', 'SubscriptionDeactivated', 'SubscriptionStarted', 'PlanEntrySet']);

export class KeyDirectory {
  readonly #db: Kysely<any>;
  readonly #ttl: number;
  readonly #now: () => number;
  readonly #max: number;
  readonly #keys = new Map<string, Entry<KnownKey | null>>();
  readonly #accounts = new Map<string, Entry<OrganizationAccount | null>>();
  #follow?: AbortController;

  constructor(options: KeyDirectoryOptions) {
    this.#db = options.db;
    this.#ttl = Math.min(options.ttlMs ?? 60_000, 5 * 60_000);
    this.#now = options.now ?? Date.now;
    this.#max = options.maxEntries ?? 10_000;
  }

  findKey(type: 'public' | 'private', lookup: string): Promise<KnownKey | null> {
    return this.#cached(this.#keys, `${type}:${lookup}`, async () => {
      const key = await findKeyByLookup(this.#db, type, lookup);
      // Computed once per cached key, not per request (a base62 decode and a hash).
      return key && { ...key, body: bodyOf(lookup, key.organizationId) };
    });
  }

  findAccount(organizationId: string): Promise<OrganizationAccount | null> {
    return this.#cached(this.#accounts, organizationId, () => getOrganizationAccount(this.#db, organizationId));
  }

  forgetKey(keyId: string): void {
    for (const [lookup, entry] of this.#keys) if (entry.value?.keyId === keyId) this.#keys.delete(lookup);
  }

  forgetOrganization(organizationId: string): void {
    this.#accounts.delete(organizationId);
  }

  /**
   * Follows the event store from its head and forgets what a change in another process made
   * stale, once when the event arrives and again when the read models have applied it (so a
   * lookup in between cannot keep the old row cached).
   */
  async follow(store: EventStore, waitForReadModels: (position: Position) => Promise<void>): Promise<void> {
    this.#follow = new AbortController();
    const signal = this.#follow.signal;
    const after = (await store.headPosition()) ?? undefined;
    void (async () => {
      for await (const event of store.subscribeToAll({ after, signal })) {
        const data = event.data as { keyId?: string; organizationId?: string };
        const forget = KEY_EVENTS.has(event.type) && data.keyId
          ? () => this.forgetKey(data.keyId!)
          : ORGANIZATION_EVENTS.has(event.type) && data.organizationId
            ? () => this.forgetOrganization(data.organizationId!)
            : null;
        if (!forget) continue;
        forget();
        void waitForReadModels(event.position).then(forget, forget);
      }
    })().catch(() => {
      // The subscription ends with the store; the TTL still bounds staleness.
    });
  }

  stop(): void {
    this.#follow?.abort();
  }

  async #cached<T>(map: Map<string, Entry<T>>, id: string, load: () => Promise<T>): Promise<T> {
    const now = this.#now();
    const hit = map.get(id);
    if (hit && hit.expires > now) return hit.value;
    const value = await load();
    // Unknown lookups are not cached: a key created a moment ago must work at once.
    if (value === null) {
      map.delete(id);
      return value;
    }
    if (map.size >= this.#max) map.delete(map.keys().next().value!);
    map.set(id, { value, expires: now + this.#ttl });
    return value;
  }
}
