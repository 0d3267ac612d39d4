// Read-your-writes for a new reporting timezone: the analytics projector has opened a count in it
// (wait for its position first, as for any read model), and the builder replays history into it
// and swaps it in (analytics-builder.ts). A caller that wants the new numbers waits for that swap,
// within a bound: a small history is replayed well within it, a large one is answered meanwhile by
// the old count, which GET /v1/analytics/daily then says (`rebuilding: true`, and the timezone
// its numbers are in).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { wakeAnalyticsBuilders } from './analytics-builder.js';
import { buildingGenerations } from './queries/analytics.js';

const FIRST_LOOK_MS = 10;
const LONGEST_LOOK_MS = 200;

/**
 * Resolves true once nothing is being counted anew for the organization (its newest count
 * answers), false when `boundMs` passes first. Polls the database: the builder may run in
 * another process.
 */
export async function waitForAnalyticsSwap(db: Kysely<any>, organizationId: string, boundMs: number): Promise<boolean> {
  wakeAnalyticsBuilders();
  const deadline = Date.now() + boundMs;
  for (let pause = FIRST_LOOK_MS; ; pause = Math.min(pause * 2, LONGEST_LOOK_MS)) {
    if (!(await buildingGenerations(db, organizationId)).length) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await sleep(Math.min(pause, left));
  }
}
