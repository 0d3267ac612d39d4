// Quota and per-minute counters on the shared database. Each change is one statement holding the
// row's lock, the only coordination several API processes need: two requests can never both take
// the last unit. Requests for the same row while a statement is in flight are counted together in
// the next one (coalesce.ts), so a busy organization costs one statement per batch, not per request. Time is always passed in, never read from the database clock, so
// the window rule is the one of domain/metering.ts and tests can move the clock.
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { RPM_WINDOW_MS, type RpmWindow } from '../../domain/metering.js';
import { Coalescer } from './coalesce.js';

export interface QuotaCharge {
  allowed: boolean;
  /** Units used this period, this request's included; on a refusal, the quota (all of it is used). */
  used: number;
}

export interface UsageStore {
  /** Takes one unit unless `quota` units are already used; never counts past the quota. */
  chargeQuota(subject: string, resource: string, periodStart: Date, quota: number): Promise<QuotaCharge>;
  /** Gives one unit back (a 5xx response); never below zero. */
  refundQuota(subject: string, resource: string, periodStart: Date): Promise<void>;
  /** Counts one request in the caller's window (see `nextRpmWindow`); admitted when `count <= limit`. */
  hitRpm(rateSubject: string, resource: string, now: Date, limit: number): Promise<RpmWindow>;
  /**
   * Deletes the windows that ended before `before`: an ended window counts as no window, and
   * subjects such as widget sessions come and go, so their rows would otherwise pile up.
   */
  sweepRpmWindows(before: Date): Promise<number>;
}

interface UsageTables {
  quota_usage: { subject: string; resource: string; period_start: Date; used: number };
  rpm_windows: { rate_subject: string; resource: string; window_start: Date; requests: number };
}

// Rows cross from the driver: pg and PGlite both hand back Date and number for these columns,
// and a driver setting that changed that would otherwise surface as NaN headers.
const chargedRow = z.object({ used: z.number().int() });
const windowRow = z.object({ window_start: z.date(), requests: z.number().int() });
const countsRow = z.object({ before: z.number().int(), after: z.number().int() });
const rpmUpdateRow = z.object({ old_start: z.date(), old_requests: z.number().int(), window_start: z.date(), requests: z.number().int() });

const WINDOW = sql.raw(`interval '${RPM_WINDOW_MS} milliseconds'`);

export function postgresUsageStore(database: Kysely<any>): UsageStore {
  const db: Kysely<UsageTables> = database;

  // A batch of n requests for one quota row: the units granted are after − before, handed out in
  // arrival order; the rest are refused.
  const quotaBatches = new Coalescer<{ subject: string; resource: string; periodStart: Date; quota: number }, QuotaCharge>(async (_key, items) => {
    const { subject, resource, periodStart, quota } = items[0]!;
    const { before, after } = await chargeQuotaRow(db, subject, resource, periodStart, quota, items.length);
    return items.map((_, i) => (before + i < after ? { allowed: true, used: before + i + 1 } : { allowed: false, used: quota }));
  });

  const rpmBatches = new Coalescer<{ rateSubject: string; resource: string; now: Date; limit: number }, RpmWindow>(async (_key, items) => {
    const { rateSubject, resource, limit } = items[0]!;
    // The latest clock of the batch: they arrived within one statement's time of each other.
    const now = new Date(Math.max(...items.map((item) => item.now.getTime())));
    const { startCount, windowStart } = await hitRpmRow(db, rateSubject, resource, now, limit, items.length);
    return items.map((_, i) => ({ windowStart, count: Math.min(startCount + i + 1, limit + 1) }));
  });

  return {
    async chargeQuota(subject, resource, periodStart, quota) {
      if (quota < 1) return { allowed: false, used: quota };
      return quotaBatches.submit(JSON.stringify([subject, resource, periodStart.getTime(), quota]), { subject, resource, periodStart, quota });
    },

    async refundQuota(subject, resource, periodStart) {
      await db
        .updateTable('quota_usage')
        .set((eb) => ({ used: eb('used', '-', 1) }))
        .where('subject', '=', subject)
        .where('resource', '=', resource)
        .where('period_start', '=', periodStart)
        .where('used', '>', 0)
        .execute();
    },

    hitRpm(rateSubject, resource, now, limit) {
      return rpmBatches.submit(JSON.stringify([rateSubject, resource, limit]), { rateSubject, resource, now, limit });
    },

    // A window being counted right now holds its row's lock; the delete waits for it and then sees
    // the window's new start, so a live window is never swept.
    async sweepRpmWindows(before) {
      const result = await db.deleteFrom('rpm_windows').where('window_start', '<', new Date(before.getTime() - RPM_WINDOW_MS)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/**
 * Takes up to `n` units from one quota row and returns its count before and after. The row is
 * locked by the sub-select (FOR UPDATE), so `before` is the value this statement changed; the
 * first use of a period inserts the row, and a concurrent insert makes us go round again.
 */
async function chargeQuotaRow(db: Kysely<UsageTables>, subject: string, resource: string, periodStart: Date, quota: number, n: number) {
  for (;;) {
    const updated = await sql<{ before: number; after: number }>`
      update quota_usage q
         set used = greatest(q.used, least(q.used + ${n}::integer, ${quota}::integer))
        from (select used from quota_usage
               where subject = ${subject} and resource = ${resource} and period_start = ${periodStart}
               for update) old
       where q.subject = ${subject} and q.resource = ${resource} and q.period_start = ${periodStart}
      returning old.used as before, q.used as after`.execute(db);
    if (updated.rows[0]) return countsRow.parse(updated.rows[0]);
    const inserted = await db
      .insertInto('quota_usage')
      .values({ subject, resource, period_start: periodStart, used: Math.min(n, quota) })
      .onConflict((conflict) => conflict.columns(['subject', 'resource', 'period_start']).doNothing())
      .returning('used')
      .executeTakeFirst();
    if (inserted) return { before: 0, after: chargedRow.parse(inserted).used };
  }
}

/**
 * Counts `n` requests in one RPM window (the rule of `nextRpmWindow`, n at a time) and returns
 * the count the first of them starts from and the window they fall in.
 */
async function hitRpmRow(db: Kysely<UsageTables>, rateSubject: string, resource: string, now: Date, limit: number, n: number) {
  const at = sql<Date>`cast(${now} as timestamptz)`;
  const cap = limit + 1;
  for (;;) {
    const updated = await sql<{ old_start: Date; old_requests: number; window_start: Date; requests: number }>`
      update rpm_windows w
         set window_start = case when old.window_start + ${WINDOW} <= ${at} then ${at} else old.window_start end,
             requests = case when old.window_start + ${WINDOW} <= ${at} then least(${n}::integer, ${cap}::integer)
                              else least(old.requests + ${n}::integer, ${cap}::integer) end
        from (select window_start, requests from rpm_windows
               where rate_subject = ${rateSubject} and resource = ${resource}
               for update) old
       where w.rate_subject = ${rateSubject} and w.resource = ${resource}
      returning old.window_start as old_start, old.requests as old_requests, w.window_start, w.requests`.execute(db);
    const row = updated.rows[0];
    if (row) {
      const parsed = rpmUpdateRow.parse(row);
      const reset = parsed.window_start.getTime() !== parsed.old_start.getTime();
      return { startCount: reset ? 0 : parsed.old_requests, windowStart: parsed.window_start };
    }
    const inserted = await db
      .insertInto('rpm_windows')
      .values({ rate_subject: rateSubject, resource, window_start: at, requests: Math.min(n, cap) })
      .onConflict((conflict) => conflict.columns(['rate_subject', 'resource']).doNothing())
      .returning(['window_start', 'requests'])
      .executeTakeFirst();
    if (inserted) return { startCount: 0, windowStart: windowRow.parse(inserted).window_start };
  }
}
