// When a source's next automatic sync is due (document 1: `sync.previous + syncPeriod`; 0 = never).
// A failed run is tried again sooner than a whole period later, but not at every scheduler tick:
// a store that is down for a day would otherwise be hammered every 30 seconds.

/** After a failed run the next try waits this long, or one period if that is shorter. */
export const RETRY_AFTER_FAILURE_MS = 60 * 60_000;

export interface ScheduleFacts {
  syncPeriod: number;
  syncPrevious: string | null;
  createdAt: string;
  lastFailedAt: string | null;
}

/** Epoch milliseconds when the next sync is due; null when the source syncs only on request. */
export function nextSyncAt({ syncPeriod, syncPrevious, createdAt, lastFailedAt }: ScheduleFacts): number | null {
  if (syncPeriod <= 0) return null;
  const period = syncPeriod * 60_000;
  const failedSinceSuccess = lastFailedAt !== null && (syncPrevious === null || Date.parse(lastFailedAt) > Date.parse(syncPrevious));
  if (failedSinceSuccess) return Date.parse(lastFailedAt) + Math.min(period, RETRY_AFTER_FAILURE_MS);
  return Date.parse(syncPrevious ?? createdAt) + period;
}

export const isDue = (facts: ScheduleFacts, now: string): boolean => {
  const next = nextSyncAt(facts);
  return next !== null && next <= Date.parse(now);
};
