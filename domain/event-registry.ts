// Versioned event types: which version of each type this build writes, and how an older version
// becomes the next (an upcaster per step). A reader sees every event at its type's latest version,
// so deciders and projectors only ever handle the current shape. The version travels in the
// event's metadata (`schemaVersion`); events written before versioning carry none and are version 1.
import type { z } from 'zod';
import { eventSchemas } from './event-schemas.js';
import { DEFAULT_SHOPPER_EVENT_LIMITS, isIsoCurrency } from './session/index.js';

export const SCHEMA_VERSION = 'schemaVersion';

type Data = Record<string, unknown>;

/** Upcasters by event type, keyed by the version they read: `n` turns version n into n + 1. */
const upcasters: Record<string, Record<number, (data: Data) => Data>> = {
  // Markets arrived after the first sources; SourceCreated gained them in place. Version 2 always
  // carries both, so the fold and the read model no longer guess a default.
  SourceCreated: {
    1: (data) => ({ ...data, markets: data.markets ?? [], defaultMarket: data.defaultMarket ?? null }),
  },
  // Before shopper events said whether they count, POST /v1/events took any three letters as a
  // currency and values up to 1e9. Such events stay readable and count in nothing; the rest of
  // version 1 counts as it did (its items were never checked, and cannot be now).
  ShopperEventsRecorded: {
    1: (data) => ({
      ...data,
      events: (data.events as Array<Record<string, unknown>>).map((event) => ({ ...event, unverified: unverifiedBefore(event) })),
    }),
  },
};

const unverifiedBefore = (event: Record<string, unknown>): 'currency' | 'value' | null => {
  if (typeof event.currency === 'string' && !isIsoCurrency(event.currency)) return 'currency';
  if (typeof event.value === 'number' && event.value > DEFAULT_SHOPPER_EVENT_LIMITS.maxValue) return 'value';
  return null;
};

/** The version this build writes for `type`; undefined for a type it does not know. */
export const latestVersion = (type: string): number | undefined => {
  const versions = eventSchemas[type];
  return versions ? Math.max(...Object.keys(versions).map(Number)) : undefined;
};

export class InvalidEventData extends Error {
  override name = 'InvalidEventData';
}

/**
 * The event's data at its type's latest version, checked against that version's schema (and
 * against its own version's schema first). A type this build does not know passes unchanged: a
 * newer build may have written it, and folds and projectors ignore it.
 */
export function upcastEventData(type: string, version: number, data: Data): { data: Data; version: number } {
  const versions = eventSchemas[type];
  if (!versions) return { data, version };
  const latest = latestVersion(type)!;
  if (!Number.isInteger(version) || version < 1 || version > latest) {
    throw new InvalidEventData(`version ${String(version)} is not one of this build's (1 to ${latest})`);
  }
  let current = parse(versions, version, data);
  for (let v = version; v < latest; v++) {
    const step = upcasters[type]?.[v];
    if (!step) throw new InvalidEventData(`no upcaster from version ${v} to ${v + 1}`);
    current = parse(versions, v + 1, step(current));
  }
  return { data: current, version: latest };
}

function parse(versions: Record<number, z.ZodType<Data>>, version: number, data: Data): Data {
  const result = versions[version]!.safeParse(data);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(data)'}: ${issue.message}`);
  throw new InvalidEventData(`data does not match version ${version}: ${problems.join('; ')}`);
}
