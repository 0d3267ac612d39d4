// The quota and RPM counters on PGlite (embedded run) or a Postgres schema with a connection pool
// (integration run), including many processes' worth of concurrent requests on one row.
import t, { type Test } from 'tap';
import { postgresUsageStore } from '../../infra/metering/usage-store.js';
import { migrate } from '../../projections/migrations.js';
import { openTestDatabase } from '../support/database.js';

const periodStart = new Date('2026-03-01T00:00:00.000Z');
const org = 'f3b1c9a2-5d8e-4c1b-9a7f-2e6d4c8b1a01';
const other = 'f3b1c9a2-5d8e-4c1b-9a7f-2e6d4c8b1a02';

const open = async (t: Test) => {
  const database = await openTestDatabase(t, { maxConnections: 20 });
  await migrate(database.db);
  const used = async (subject: string, resource: string, start = periodStart): Promise<number | undefined> => {
    const row = await database.db
      .selectFrom('quota_usage')
      .select('used')
      .where('subject', '=', subject)
      .where('resource', '=', resource)
      .where('period_start', '=', start)
      .executeTakeFirst();
    return row?.used as number | undefined;
  };
  return { database, usage: postgresUsageStore(database.db), used };
};

t.test('given a fresh period, when charged up to the quota, then each unit is counted and the next is refused', async (t) => {
  const { usage, used } = await open(t);
  t.same(await usage.chargeQuota(org, 'api.v1.search.query', periodStart, 3), { allowed: true, used: 1 });
  t.same(await usage.chargeQuota(org, 'api.v1.search.query', periodStart, 3), { allowed: true, used: 2 });
  t.same(await usage.chargeQuota(org, 'api.v1.search.query', periodStart, 3), { allowed: true, used: 3 });
  t.same(await usage.chargeQuota(org, 'api.v1.search.query', periodStart, 3), { allowed: false, used: 3 });
  t.equal(await used(org, 'api.v1.search.query'), 3, 'a refusal never counts past the quota');
  // Raising the quota lets the same row go on.
  t.same(await usage.chargeQuota(org, 'api.v1.search.query', periodStart, 4), { allowed: true, used: 4 });
});

t.test('buckets do not share usage: another resource, organization or period starts at zero', async (t) => {
  const { usage } = await open(t);
  t.same(await usage.chargeQuota(org, 'api.v1.search.query', periodStart, 1), { allowed: true, used: 1 });
  t.same(await usage.chargeQuota(org, 'api.v1.chat.message', periodStart, 1), { allowed: true, used: 1 });
  t.same(await usage.chargeQuota(other, 'api.v1.search.query', periodStart, 1), { allowed: true, used: 1 });
  t.same(await usage.chargeQuota(org, 'api.v1.search.query', new Date('2026-04-01T00:00:00.000Z'), 1), { allowed: true, used: 1 });
  t.same(await usage.chargeQuota(org, 'api.v1.search.query', periodStart, 1), { allowed: false, used: 1 });
});

t.test('a quota of zero admits nothing and stores nothing', async (t) => {
  const { usage, used } = await open(t);
  t.same(await usage.chargeQuota(org, 'api.v1.search.query', periodStart, 0), { allowed: false, used: 0 });
  t.equal(await used(org, 'api.v1.search.query'), undefined);
});

t.test('given units used, when refunded, then one comes back each time and never below zero', async (t) => {
  const { usage, used } = await open(t);
  await usage.chargeQuota(org, 'r', periodStart, 2);
  await usage.chargeQuota(org, 'r', periodStart, 2);
  await usage.refundQuota(org, 'r', periodStart);
  t.equal(await used(org, 'r'), 1);
  await usage.refundQuota(org, 'r', periodStart);
  await usage.refundQuota(org, 'r', periodStart);
  t.equal(await used(org, 'r'), 0);
  await usage.refundQuota(org, 'never-charged', periodStart);
  t.equal(await used(org, 'never-charged'), undefined, 'a refund creates no row');
  t.same(await usage.chargeQuota(org, 'r', periodStart, 2), { allowed: true, used: 1 });
});

t.test('200 concurrent charges on a quota of 100 admit exactly 100', async (t) => {
  const { usage, used } = await open(t);
  const results = await Promise.all(Array.from({ length: 200 }, () => usage.chargeQuota(org, 'api.v1.search.query', periodStart, 100)));
  t.equal(results.filter((r) => r.allowed).length, 100);
  t.same(
    results.filter((r) => r.allowed).map((r) => r.used).sort((a, b) => a - b),
    Array.from({ length: 100 }, (_, i) => i + 1),
    'every admitted request saw its own count',
  );
  t.equal(await used(org, 'api.v1.search.query'), 100);
});

t.test('concurrent refunds and charges never take the count below zero or past the quota', async (t) => {
  const { usage, used } = await open(t);
  await Promise.all(Array.from({ length: 10 }, () => usage.chargeQuota(org, 'r', periodStart, 10)));
  await Promise.all(Array.from({ length: 30 }, () => usage.refundQuota(org, 'r', periodStart)));
  t.equal(await used(org, 'r'), 0);
  const results = await Promise.all(Array.from({ length: 40 }, () => usage.chargeQuota(org, 'r', periodStart, 10)));
  t.equal(results.filter((r) => r.allowed).length, 10);
});

t.test('RPM: the window opens at the first request, lasts 60 s and then restarts at the next request', async (t) => {
  const { usage } = await open(t);
  const start = new Date('2026-03-10T12:00:00.250Z');
  const plus = (ms: number) => new Date(start.getTime() + ms);
  t.same(await usage.hitRpm('org-a', 'r', start, 2), { windowStart: start, count: 1 });
  t.same(await usage.hitRpm('org-a', 'r', plus(10_000), 2), { windowStart: start, count: 2 });
  t.same(await usage.hitRpm('org-a', 'r', plus(20_000), 2), { windowStart: start, count: 3 }, 'over the limit');
  t.same(await usage.hitRpm('org-a', 'r', plus(59_999), 2), { windowStart: start, count: 3 }, 'refusals stop counting one past the limit');
  t.same(await usage.hitRpm('org-a', 'r', plus(60_000), 2), { windowStart: plus(60_000), count: 1 }, 'a new window at the next request');
  t.same(await usage.hitRpm('org-a', 'r', plus(600_000), 2), { windowStart: plus(600_000), count: 1 });
  t.same(await usage.hitRpm('org-b', 'r', plus(600_001), 2), { windowStart: plus(600_001), count: 1 }, 'per subject');
  t.same(await usage.hitRpm('org-a', 'other', plus(600_001), 2), { windowStart: plus(600_001), count: 1 }, 'per resource');
});

t.test('RPM: 50 concurrent requests with a limit of 10 admit exactly 10', async (t) => {
  const { usage } = await open(t);
  const now = new Date('2026-03-10T12:00:00.000Z');
  const windows = await Promise.all(Array.from({ length: 50 }, () => usage.hitRpm('ip:203.0.113.7', 'api.v1.search.query', now, 10)));
  t.equal(windows.filter((w) => w.count <= 10).length, 10);
  t.ok(windows.every((w) => w.windowStart.getTime() === now.getTime()));
});

t.test('the sweep deletes windows that ended, never one still counting', async (t) => {
  const { usage, database } = await open(t);
  const start = new Date('2026-03-10T12:00:00.000Z');
  const plus = (ms: number) => new Date(start.getTime() + ms);
  await usage.hitRpm('session:ended', 'api.v1.events.session', start, 5);
  await usage.hitRpm('session:live', 'api.v1.events.session', plus(30_000), 5);
  await usage.hitRpm('session:live', 'api.v1.events.session', plus(40_000), 5);
  t.equal(await usage.sweepRpmWindows(plus(60_000)), 0, 'a window that ends exactly now is not yet swept');
  t.equal(await usage.sweepRpmWindows(plus(60_001)), 1, 'one ended');
  const left = await database.db.selectFrom('rpm_windows').select(['rate_subject', 'requests']).execute();
  t.same(left, [{ rate_subject: 'session:live', requests: 2 }], 'the live window keeps its count');
  t.same(await usage.hitRpm('session:ended', 'api.v1.events.session', plus(60_002), 5), { windowStart: plus(60_002), count: 1 }, 'a swept subject starts a new window, as it would have anyway');
});
