// What widget preflight reads per organization (its latest preset, the presets asked for by id,
// its stores), kept in memory: preflight opens every widget, and these change rarely. Staleness is
// bounded twice: an entry is dropped when an event that changes it (a preset, a dataset, the
// organization) is seen on the event store, once on arrival and again when the read models have
// applied it (so a read in between cannot keep the old rows), and no entry outlives `ttlMs`
// whatever happens to the subscription. Quota and per-minute limits are not cached: metering
// stays exact (api/plugins/metering.ts).
import type { Kysely } from 'kysely';
import type { WidgetPreset } from '../domain/widget-preset/state.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { organizationStores, type StoreSummary } from '../projections/queries/datasets.js';
import { getWidgetPreset, latestWidgetPreset } from '../projections/queries/widget-presets.js';
import { followStaleness } from './stale-follower.js';

export const PREFLIGHT_READ_MODELS = ['widget_presets', 'datasets'] as const;

export interface PreflightCacheOptions {
  db: Kysely<any>;
  /** Default 10 s. */
  ttlMs?: number;
  /** Organizations kept (default 10,000), the least recently loaded go first. */
  maxOrganizations?: number;
  now?: () => number;
}

interface Entry {
  expires: number;
  latest?: Promise<WidgetPreset | null>;
  stores?: Promise<StoreSummary[]>;
  byId: Map<string, Promise<WidgetPreset | null>>;
}

const MAX_PRESETS_BY_ID = 64;
const CHANGES = /^(WidgetPreset|Dataset|Organization)/;

export class PreflightCache {
  readonly #db: Kysely<any>;
  readonly #ttl: number;
  readonly #max: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  #follow?: AbortController;

  constructor(options: PreflightCacheOptions) {
    this.#db = options.db;
    this.#ttl = options.ttlMs ?? 10_000;
    this.#max = options.maxOrganizations ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  latestPreset(organizationId: string): Promise<WidgetPreset | null> {
    const entry = this.#entry(organizationId);
    return (entry.latest ??= this.#settled(organizationId, latestWidgetPreset(this.#db, organizationId)));
  }

  preset(organizationId: string, presetId: string): Promise<WidgetPreset | null> {
    const entry = this.#entry(organizationId);
    let found = entry.byId.get(presetId);
    if (!found) {
      if (entry.byId.size >= MAX_PRESETS_BY_ID) entry.byId.clear();
      found = this.#settled(organizationId, getWidgetPreset(this.#db, organizationId, presetId));
      entry.byId.set(presetId, found);
    }
    return found;
  }

  stores(organizationId: string): Promise<StoreSummary[]> {
    const entry = this.#entry(organizationId);
    return (entry.stores ??= this.#settled(organizationId, organizationStores(this.#db, organizationId)));
  }

  forget(organizationId: string): void {
    this.#entries.delete(organizationId);
  }

  /** Follows the event store from its head, forgetting an organization when its presets, datasets or account change. */
  async follow(store: EventStore, waitForReadModels: (position: Position) => Promise<void>): Promise<void> {
    this.#follow = await followStaleness(store, waitForReadModels, (event) => {
      if (!CHANGES.test(event.type)) return null;
      const organizationId = (event.data as { organizationId?: unknown }).organizationId;
      return typeof organizationId === 'string' ? () => this.forget(organizationId) : null;
    });
  }

  stop(): void {
    this.#follow?.abort();
  }

  #entry(organizationId: string): Entry {
    const now = this.#now();
    const found = this.#entries.get(organizationId);
    if (found && found.expires > now) return found;
    this.#entries.delete(organizationId);
    if (this.#entries.size >= this.#max) this.#entries.delete(this.#entries.keys().next().value!);
    const entry: Entry = { expires: now + this.#ttl, byId: new Map() };
    this.#entries.set(organizationId, entry);
    return entry;
  }

  /** A failed read is not kept: the next request asks the database again. */
  #settled<T>(organizationId: string, read: Promise<T>): Promise<T> {
    read.catch(() => this.forget(organizationId));
    return read;
  }
}
