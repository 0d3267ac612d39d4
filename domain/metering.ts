// Quota periods, the per-minute window and the rate-limit headers of document 1 §Limits, as pure
// arithmetic: the clock is always an argument, so the same rules hold in SQL, in tests and here.

/** Document 1 §Limits 3: a window lasts 60 seconds from the first request after a quiet period. */
export const RPM_WINDOW_MS = 60_000;
/** Document 1: Retry-After on an RPM refusal is always 60, whenever the window really ends. */
export const RPM_RETRY_AFTER_SECONDS = 60;

export interface BillingPeriod {
  start: Date;
  end: Date;
}

const daysInMonth = (year: number, month: number): number =>
  month === 1 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month]!;

/**
 * The anchor moved by whole calendar months (UTC), keeping its time of day. The anchor's day is
 * clamped to shorter months but never forgotten: a start on Jan 31 gives Feb 28, then Mar 31.
 */
export const addMonths = (anchor: Date, months: number): Date => {
  const total = anchor.getUTCFullYear() * 12 + anchor.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  const moved = new Date(anchor.getTime());
  // setUTCFullYear rather than Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  moved.setUTCFullYear(year, month, day);
  return moved;
};

/** The monthly billing period, anchored at the subscription start, that contains `now`. */
export function billingPeriod(subscriptionStartedAt: Date, now: Date): BillingPeriod {
  if (Number.isNaN(subscriptionStartedAt.getTime()) || Number.isNaN(now.getTime())) {
    throw new RangeError('billingPeriod needs valid dates');
  }
  const anchor = subscriptionStartedAt;
  // The month difference is right or one too many (now is earlier in its month than the anchor
  // day); the loops settle it. A `now` before the anchor gives a period before it, so start <= now
  // holds even when a server's clock trails the one that recorded the subscription.
  let k = now.getUTCFullYear() * 12 + now.getUTCMonth() - (anchor.getUTCFullYear() * 12 + anchor.getUTCMonth());
  while (addMonths(anchor, k).getTime() > now.getTime()) k -= 1;
  while (addMonths(anchor, k + 1).getTime() <= now.getTime()) k += 1;
  return { start: addMonths(anchor, k), end: addMonths(anchor, k + 1) };
}

export interface RpmWindow {
  windowStart: Date;
  /** Requests seen in the window, stopping at limit + 1: anything above the limit is refused alike. */
  count: number;
}

/**
 * The window after one more request at `now`. An expired (or absent) window restarts at `now`;
 * inside it the count grows but stops at limit + 1, so a flood cannot grow the row and a request
 * is admitted exactly when the new count is within the limit. `infra/metering/usage-store.ts`
 * runs the same rule in one SQL statement.
 */
export function nextRpmWindow(stored: RpmWindow | null, now: Date, limit: number): RpmWindow {
  if (!stored || stored.windowStart.getTime() + RPM_WINDOW_MS <= now.getTime()) return { windowStart: now, count: 1 };
  return { windowStart: stored.windowStart, count: Math.min(stored.count + 1, limit + 1) };
}

export const rpmAdmits = (window: RpmWindow, limit: number): boolean => window.count <= limit;

/** Seconds until the window ends, at least 1: the real end, where a plan's RPM refusal says 60. */
export const secondsLeftInWindow = (window: RpmWindow, now: Date): number =>
  Math.max(1, Math.ceil((window.windowStart.getTime() + RPM_WINDOW_MS - now.getTime()) / 1000));

/**
 * The fields of a 429 for a per-minute bound outside the plan, the shape document 1 "Other limits"
 * gives the session upload route (`bucket` and `resource` both name the counter).
 */
export interface MinuteLimitRefusal {
  bucket: string;
  resource: string;
  used: number;
  limit: number;
  retryAfter: number;
  windowSeconds: number;
}

export const minuteLimitRefusal = (bucket: string, window: RpmWindow, limit: number, now: Date): MinuteLimitRefusal => ({
  bucket,
  resource: bucket,
  used: Math.min(window.count, limit),
  limit,
  retryAfter: secondsLeftInWindow(window, now),
  windowSeconds: RPM_WINDOW_MS / 1000,
});

/** What the quota said about one request. */
export type QuotaUse =
  | { kind: 'unlimited' }
  /** `used` includes this request's unit when it was charged. */
  | { kind: 'metered'; limit: number; used: number; resetsAt: Date };

/** Everything the response headers depend on, as far as the checks got. */
export interface MeteringOutcome {
  resource: string;
  /** null: refused before the quota was looked at (no entitlement, or turned off). */
  quota: QuotaUse | null;
  /** null: the entry has no per-minute limit, or the request was refused before it was counted. */
  rpm: { limit: number; count: number } | null;
  refusedFor: 'quota' | 'rpm' | null;
}

const unixSeconds = (at: Date): number => Math.ceil(at.getTime() / 1000);

/**
 * Document 1 "Response headers on metered endpoints". `at` is when the headers go out: the RPM
 * reset is promised 60 seconds after the response, and Retry-After counts from then.
 */
export function rateLimitHeaders(outcome: MeteringOutcome, at: Date): Record<string, string> {
  const headers: Record<string, string> = { 'X-RateLimit-Resource': outcome.resource };
  const { quota, rpm } = outcome;
  if (quota?.kind === 'unlimited') {
    headers['X-RateLimit-Quota-Limit'] = 'unlimited';
    headers['X-RateLimit-Quota-Remaining'] = 'unlimited';
  } else if (quota) {
    headers['X-RateLimit-Quota-Limit'] = String(quota.limit);
    headers['X-RateLimit-Quota-Remaining'] = String(Math.max(0, quota.limit - quota.used));
    headers['X-RateLimit-Quota-Reset'] = String(unixSeconds(quota.resetsAt));
  }
  if (rpm) {
    headers['X-RateLimit-RPM-Limit'] = String(rpm.limit);
    headers['X-RateLimit-RPM-Remaining'] = String(Math.max(0, rpm.limit - rpm.count));
    headers['X-RateLimit-RPM-Reset'] = String(unixSeconds(at) + RPM_RETRY_AFTER_SECONDS);
  }
  if (outcome.refusedFor === 'quota' && quota?.kind === 'metered') {
    headers['Retry-After'] = String(Math.max(0, Math.ceil((quota.resetsAt.getTime() - at.getTime()) / 1000)));
  } else if (outcome.refusedFor === 'rpm') {
    headers['Retry-After'] = String(RPM_RETRY_AFTER_SECONDS);
  }
  return headers;
}
