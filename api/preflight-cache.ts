// What widget preflight reads per organization (its latest preset, the presets asked for by id,
// its stores), kept in memory: preflight opens every widget, and these change rarely. Staleness is
// bounded twice: an entry is dropped when an event that changes it (PREFLIGHT_CHANGES) is seen on
// the event store, once on arrival and again when the read models have
// applied it (so a read in between cannot keep the old rows), and no entry outlives `ttlMs`
// whatever happens to the subscription. Quota and per-minute limits are not cached: metering
// stays exact (api/plugins/metering.ts).
import type { Kysely } from 'kysely';
import type { DatasetEvent } from '../domain/dataset/events.js';
import type { OrganizationEvent } from '../domain/organization/events.js';
import type { WidgetPresetEvent } from '../domain/widget-preset/events.js';
import type { WidgetPreset } from '../domain/widget-preset/state.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import type { StoreSummary } from '../projections/queries/datasets.js';
import { directPreflightReads, type PreflightReads } from './preflight-reads.js';
import { followStaleness, type FollowerErrors } from './stale-follower.js';

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

/**
 * The events after which an organization's entry is dropped, named one by one so a new event type
 * is a decision, not a match: presets (the theme), datasets (the stores: a new, changed, activated,
 * archived or deleted dataset), and a deleted organization (its entry is no use to anyone).
 * Styling, renames and subscriptions change nothing preflight reads.
 */
export const PREFLIGHT_CHANGES: ReadonlySet<string> = new Set([
  'WidgetPresetCreated',
  'DatasetCreated',
  'DatasetUpdated',
  'DatasetActivated',
  'DatasetArchived',
  'DatasetDeleted',
  'OrganizationDeleted',
] satisfies Array<(WidgetPresetEvent | DatasetEvent | OrganizationEvent)['type']>);

export class PreflightCache implements PreflightReads {
  readonly #source: PreflightReads;
  readonly #ttl: number;
  readonly #max: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  #follow?: AbortController;

  constructor(options: PreflightCacheOptions) {
    this.#source = directPreflightReads(options.db);
    this.#ttl = options.ttlMs ?? 10_000;
    this.#max = options.maxOrganizations ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  latestPreset(organizationId: string): Promise<WidgetPreset | null> {
    const entry = this.#entry(organizationId);
    return (entry.latest ??= this.#settled(organizationId, this.#source.latestPreset(organizationId)));
  }

  preset(organizationId: string, presetId: string): Promise<WidgetPreset | null> {
    const entry = this.#entry(organizationId);
    let found = entry.byId.get(presetId);
    if (!found) {
      if (entry.byId.size >= MAX_PRESETS_BY_ID) entry.byId.clear();
      found = this.#settled(organizationId, this.#source.preset(organizationId, presetId));
      entry.byId.set(presetId, found);
    }
    return found;
  }

  stores(organizationId: string): Promise<StoreSummary[]> {
    const entry = this.#entry(organizationId);
    return (entry.stores ??= this.#settled(organizationId, this.#source.stores(organizationId)));
  }

  forget(organizationId: string): void {
    this.#entries.delete(organizationId);
  }

  /** Follows the event store from its head, forgetting an organization after any of PREFLIGHT_CHANGES. */
  async follow(store: EventStore, waitForReadModels: (position: Position) => Promise<void>, errors: FollowerErrors): Promise<void> {
    this.#follow = await followStaleness(store, waitForReadModels, errors, (event) => {
      if (!PREFLIGHT_CHANGES.has(event.type)) return null;
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
