// Finds the key and organization behind a presented key value, with a cache that never outlives
// its TTL (≤ 5 minutes, document 1 "Changes take effect within five minutes") and is dropped at
// once when a key is rotated or deleted or its organization changes: in this process directly by
// the command, in other processes by following the event store.
import type { Kysely } from 'kysely';
import type { EventStore, Position } from '../../infra/eventstore/port.js';
import { bodyOf } from '../../domain/apikey/key-format.js';
import { findKeyByLookup, type KeyRecord } from '../../projections/queries/apikeys.js';
import { getOrganizationAccount, type OrganizationAccount } from '../../projections/queries/organizations.js';
import { followStaleness, type FollowerErrors } from '../stale-follower.js';

export interface KeyDirectoryOptions {
  db: Kysely<any>;
  /** Default 60 s; capped at 5 minutes. */
  ttlMs?: number;
  now?: () => number;
  /** At most this many cached lookups (default 10,000); the oldest go first. */
  maxEntries?: number;
  /** How long an unknown key stays known as unknown (default 5 s, at most 60 s). */
  missTtlMs?: number;
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
/** Events that can make an unknown key value known. */
const NEW_KEY_EVENTS = new Set(['ApiKeyCreated', 'ApiKeyRotated']);
const ORGANIZATION_EVENTS = new Set(['OrganizationDeleted', 'SubscriptionActivated', 'SubscriptionDeactivated', 'SubscriptionStarted', 'PlanEntrySet']);

export class KeyDirectory {
  readonly #db: Kysely<any>;
  readonly #ttl: number;
  readonly #now: () => number;
  readonly #max: number;
  readonly #missTtl: number;
  readonly #keys = new Map<string, Entry<KnownKey | null>>();
  /**
   * Key values that were not found, briefly: a client (or an attacker) repeating a wrong key costs
   * one read-model query per value and period, not one per request. Kept apart from the hits so a
   * flood of made-up values cannot evict the keys in use.
   */
  readonly #misses = new Map<string, number>();
  readonly #accounts = new Map<string, Entry<OrganizationAccount | null>>();
  #follow?: AbortController;

  constructor(options: KeyDirectoryOptions) {
    this.#db = options.db;
    this.#ttl = Math.min(options.ttlMs ?? 60_000, 5 * 60_000);
    this.#now = options.now ?? Date.now;
    this.#max = options.maxEntries ?? 10_000;
    this.#missTtl = Math.min(options.missTtlMs ?? 5_000, 60_000);
  }

  async findKey(type: 'public' | 'private', lookup: string): Promise<KnownKey | null> {
    const id = `${type}:${lookup}`;
    const missed = this.#misses.get(id);
    if (missed !== undefined) {
      if (missed > this.#now()) return null;
      this.#misses.delete(id);
    }
    const key = await this.#cached(this.#keys, id, async () => {
      const key = await findKeyByLookup(this.#db, type, lookup);
      // Computed once per cached key, not per request (a base62 decode and a hash).
      return key && { ...key, body: bodyOf(lookup, key.organizationId) };
    });
    if (key === null && this.#missTtl > 0) {
      if (this.#misses.size >= this.#max) this.#misses.delete(this.#misses.keys().next().value!);
      this.#misses.set(id, this.#now() + this.#missTtl);
    }
    return key;
  }

  /** A key was created or rotated: a value remembered as unknown may be one of its values now. */
  forgetMisses(): void {
    this.#misses.clear();
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
  async follow(store: EventStore, waitForReadModels: (position: Position) => Promise<void>, errors: FollowerErrors): Promise<void> {
    this.#follow = await followStaleness(store, waitForReadModels, errors, (event) => {
      const forgets: Array<() => void> = [];
      // A new key may be one a lookup just missed; a rotation also retires the old lookup.
      if (NEW_KEY_EVENTS.has(event.type)) forgets.push(() => this.forgetMisses());
      if (KEY_EVENTS.has(event.type)) {
        const { keyId } = event.data as { keyId?: string };
        if (keyId) forgets.push(() => this.forgetKey(keyId));
      } else if (ORGANIZATION_EVENTS.has(event.type)) {
        const { organizationId } = event.data as { organizationId?: string };
        if (organizationId) forgets.push(() => this.forgetOrganization(organizationId));
      }
      return forgets.length ? () => forgets.forEach((forget) => forget()) : null;
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
    // Unknown values are remembered apart (findKey's misses), or not at all (accounts).
    if (value === null) {
      map.delete(id);
      return value;
    }
    if (map.size >= this.#max) map.delete(map.keys().next().value!);
    map.set(id, { value, expires: now + this.#ttl });
    return value;
  }
}
