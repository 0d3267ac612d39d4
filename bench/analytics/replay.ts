// Replay of shopper events into the analytics read model, on Postgres (issue 15's third figure:
// 1,000,000 shopper events, goal ≤ 60 s). One organization (plus a bystander whose events the
// organization's rebuild must read past), sessions of a few requests each, 20 shopper events per
// request (one `ShopperEventsRecorded` store event each, as POST /v1/events appends them), spread
// over 30 days. Measured:
//   - catch-up: the analytics projector started on the full store (a new deployment);
//   - full rebuild: `stylist projections rebuild analytics` (every organization, live path);
//   - blue/green rebuild: `stylist analytics rebuild --org ID --wait` (the builder replays the
//     history beside the count in use, then swaps);
// and that all three give the same days.
//   BENCH_SHOPPER_EVENTS=1000000  BENCH_PER_REQUEST=20  DATABASE_URL=postgres://…
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLogger } from '../../api/logging.js';
import { executeCommand } from '../../app/cli/execute.js';
import { openPlatform } from '../../app/platform.js';
import { SHOPPER_EVENT_TYPES, sessionStream, type RecordedShopperEvent } from '../../domain/session/events.js';
import { loadConfig } from '../../infra/config/config.js';
import { activeGeneration, storedDays } from '../../projections/queries/analytics.js';
import { openPostgresBackend } from '../eventstore.js';
import { random } from '../search/mix.js';

export interface ReplayResult {
  shopperEvents: number;
  storeEvents: number;
  appendSeconds: number;
  catchUpSeconds: number;
  rebuildSeconds: number;
  blueGreenSeconds: number;
  sameDays: boolean;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

function shopperEvents(next: () => number, count: number): RecordedShopperEvent[] {
  return Array.from({ length: count }, () => {
    const type = SHOPPER_EVENT_TYPES[Math.floor(next() * SHOPPER_EVENT_TYPES.length)]!;
    const money = type === 'purchase' || type === 'add_to_cart';
    return {
      type,
      eventId: null,
      at: null,
      itemId: `item-${Math.floor(next() * 50)}`,
      datasetId: null,
      intent: null,
      value: money ? Math.round(next() * 20_000) / 100 : null,
      currency: money ? (next() < 0.9 ? 'CAD' : 'USD') : null,
      data: null,
      // Appended as POST /v1/events records them, each saying whether it counts: these all do.
      unverified: null,
    };
  });
}

export async function measureReplay(shopperEventCount = 1_000_000, perRequest = 20): Promise<ReplayResult> {
  const backend = await openPostgresBackend(undefined, {}, 16);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stylist-bench-analytics-'));
  const platform = await openPlatform(loadConfig({ DATA_DIR: dataDir, STYLIST_SECRET: 'a'.repeat(40), LOG_LEVEL: 'silent' }), createLogger({ level: 'silent' }), { database: backend.database });
  const cli = async (argv: string[]) => {
    const answer = await executeCommand(platform, argv);
    if (!answer.ok) throw new Error(answer.error);
    return answer.result as Record<string, any>;
  };
  try {
    await platform.projections.start();
    const org = await cli(['org', 'create', '--name', 'Bench Boutique', '--json']);
    const bystander = await cli(['org', 'create', '--name', 'Bench Bystander', '--json']);
    await platform.projections.stop();

    // The history: requests of `perRequest` events, 3 per session, 30 days, appended 32 at a time.
    const next = random(7);
    const requests = Math.ceil(shopperEventCount / perRequest);
    const start = Date.parse('2026-09-01T00:00:00Z');
    const appendStarted = performance.now();
    let made = 0;
    let sessionId = randomUUID();
    const appendOne = async (n: number) => {
      if (n % 3 === 0) sessionId = randomUUID();
      // Every tenth session is the bystander's.
      const organizationId = Math.floor(n / 3) % 10 === 9 ? bystander.organizationId : org.organizationId;
      const receivedAt = new Date(start + Math.floor((n / requests) * 30 * 86_400_000)).toISOString();
      const data = { sessionId, organizationId, demo: false, receivedAt, events: shopperEvents(next, perRequest), at: receivedAt };
      await platform.eventStore.append(sessionStream(sessionId), [{ type: 'ShopperEventsRecorded', data }], { expectedRevision: 'any' });
    };
    while (made < requests) {
      const batch = Array.from({ length: Math.min(32, requests - made) }, (_, i) => made + i);
      await Promise.all(batch.map(appendOne));
      made += batch.length;
      if (made % 10_000 < 32) console.error(`  appended ${made * perRequest} of ${requests * perRequest} shopper events`);
    }
    const appendSeconds = round1((performance.now() - appendStarted) / 1000);
    const head = (await platform.eventStore.committedHead())!;

    const catchUpStarted = performance.now();
    await platform.projections.start();
    await platform.projections.waitFor(head, ['analytics'], 30 * 60_000);
    const catchUpSeconds = round1((performance.now() - catchUpStarted) / 1000);
    console.error(`  caught up in ${catchUpSeconds} s`);
    const daysNow = async () => {
      const active = (await activeGeneration(platform.database.db, org.organizationId))!;
      return JSON.stringify([...(await storedDays(platform.database.db, org.organizationId, active.generation, '2026-01-01', '2026-12-31'))].map(([date, day]) => [date, { ...day, revenue: [...day.revenue] }]));
    };
    const first = await daysNow();

    const rebuildStarted = performance.now();
    await cli(['projections', 'rebuild', 'analytics', '--json']);
    const rebuildSeconds = round1((performance.now() - rebuildStarted) / 1000);
    console.error(`  full rebuild in ${rebuildSeconds} s`);
    const afterRebuild = await daysNow();

    const blueGreenStarted = performance.now();
    await cli(['analytics', 'rebuild', '--org', org.organizationId, '--wait', '--json']);
    const blueGreenSeconds = round1((performance.now() - blueGreenStarted) / 1000);
    console.error(`  blue/green rebuild in ${blueGreenSeconds} s`);
    const afterBlueGreen = await daysNow();

    // Where a count differs, the first day that does.
    for (const [name, other] of [['rebuild', afterRebuild], ['blue/green', afterBlueGreen]] as const) {
      const a = JSON.parse(first) as unknown[];
      const b = JSON.parse(other) as unknown[];
      const at = a.findIndex((day, i) => JSON.stringify(day) !== JSON.stringify(b[i]));
      if (at >= 0) console.error(`  ${name} differs on day ${at}: ${JSON.stringify(a[at])} vs ${JSON.stringify(b[at])}`);
    }
    return { shopperEvents: requests * perRequest, storeEvents: requests, appendSeconds, catchUpSeconds, rebuildSeconds, blueGreenSeconds, sameDays: first === afterRebuild && first === afterBlueGreen };
  } finally {
    await platform.close();
    await backend.dispose();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function printReplay(r: ReplayResult): void {
  const rate = (seconds: number) => `${seconds} s (${Math.round(r.shopperEvents / seconds).toLocaleString('en')}/s)`;
  console.log('\nReplay of shopper events into the analytics read model (Postgres):');
  console.log('| Shopper events (store events) | Append s | Catch-up | Full rebuild | Blue/green rebuild of one organization | Same days |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  console.log(`| ${r.shopperEvents.toLocaleString('en')} (${r.storeEvents.toLocaleString('en')}) | ${r.appendSeconds} | ${rate(r.catchUpSeconds)} | ${rate(r.rebuildSeconds)} | ${rate(r.blueGreenSeconds)} | ${r.sameDays ? 'yes' : 'NO'} |`);
  console.log('Goal: 1,000,000 shopper events replayed in ≤ 60 s.');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printReplay(await measureReplay(Number(process.env.BENCH_SHOPPER_EVENTS) || 1_000_000, Number(process.env.BENCH_PER_REQUEST) || 20));
}
