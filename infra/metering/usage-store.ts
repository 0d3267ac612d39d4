// Quota and per-minute counters on the shared database. Each operation is one statement, so the
// row lock its upsert takes is the only coordination several API processes need: two requests can
// never both take the last unit. Time is always passed in, never read from the database clock, so
// the window rule is the one of domain/metering.ts and tests can move the clock.
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { RPM_WINDOW_MS, type RpmWindow } from '../../domain/metering.js';

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
}

interface UsageTables {
  quota_usage: { subject: string; resource: string; period_start: Date; used: number };
  rpm_windows: { rate_subject: string; resource: string; window_start: Date; requests: number };
}

// Rows cross from the driver: pg and PGlite both hand back Date and number for these columns,
// and a driver setting that changed that would otherwise surface as NaN headers.
const chargedRow = z.object({ used: z.number().int() });
const windowRow = z.object({ window_start: z.date(), requests: z.number().int() });

const WINDOW = sql.raw(`interval '${RPM_WINDOW_MS} milliseconds'`);

export function postgresUsageStore(database: Kysely<any>): UsageStore {
  const db: Kysely<UsageTables> = database;
  return {
    async chargeQuota(subject, resource, periodStart, quota) {
      if (quota < 1) return { allowed: false, used: quota };
      const row = await db
        .insertInto('quota_usage')
        .values({ subject, resource, period_start: periodStart, used: 1 })
        .onConflict((conflict) =>
          conflict
            .columns(['subject', 'resource', 'period_start'])
            .doUpdateSet((eb) => ({ used: eb('quota_usage.used', '+', 1) }))
            // No row comes back when the quota is used up: that, not a read, is the refusal.
            .where('quota_usage.used', '<', quota),
        )
        .returning('used')
        .executeTakeFirst();
      return row ? { allowed: true, used: chargedRow.parse(row).used } : { allowed: false, used: quota };
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

    async hitRpm(rateSubject, resource, now, limit) {
      const at = sql<Date>`cast(${now} as timestamptz)`;
      // Every SET expression reads the row as it was before this statement, so `expired` means the
      // same thing for both columns.
      const expired = sql<boolean>`rpm_windows.window_start + ${WINDOW} <= ${at}`;
      const row = await db
        .insertInto('rpm_windows')
        .values({ rate_subject: rateSubject, resource, window_start: at, requests: 1 })
        .onConflict((conflict) =>
          conflict.columns(['rate_subject', 'resource']).doUpdateSet({
            window_start: sql<Date>`case when ${expired} then ${at} else rpm_windows.window_start end`,
            requests: sql<number>`case when ${expired} then 1 else least(rpm_windows.requests + 1, cast(${limit + 1} as integer)) end`,
          }),
        )
        .returning(['window_start', 'requests'])
        .executeTakeFirstOrThrow();
      const parsed = windowRow.parse(row);
      return { windowStart: parsed.window_start, count: parsed.requests };
    },
  };
}
