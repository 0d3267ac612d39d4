import fc from 'fast-check';
import t from 'tap';
import {
  addMonths,
  billingPeriod,
  nextRpmWindow,
  rateLimitHeaders,
  rpmAdmits,
  RPM_WINDOW_MS,
  type MeteringOutcome,
  type RpmWindow,
} from '../../domain/metering.js';

const at = (iso: string): Date => new Date(iso);
const iso = (period: { start: Date; end: Date }) => ({ start: period.start.toISOString(), end: period.end.toISOString() });

// Dates a subscription could plausibly carry; wide enough for leap centuries (2100, 2400).
const instant = fc.date({ min: at('1970-01-01T00:00:00.000Z'), max: at('2400-12-31T23:59:59.999Z'), noInvalidDate: true });

t.test('billing periods: given a subscription start, when asked at a moment, then the month around it', async (t) => {
  const given = (start: string) => ({
    when: (now: string) => ({ then: (expected: { start: string; end: string }) => t.same(iso(billingPeriod(at(start), at(now))), expected, `${start} at ${now}`) }),
  });
  given('2026-01-15T08:30:00.000Z').when('2026-01-15T08:30:00.000Z').then({ start: '2026-01-15T08:30:00.000Z', end: '2026-02-15T08:30:00.000Z' });
  given('2026-01-15T08:30:00.000Z').when('2026-02-15T08:29:59.999Z').then({ start: '2026-01-15T08:30:00.000Z', end: '2026-02-15T08:30:00.000Z' });
  given('2026-01-15T08:30:00.000Z').when('2026-02-15T08:30:00.000Z').then({ start: '2026-02-15T08:30:00.000Z', end: '2026-03-15T08:30:00.000Z' });
  given('2026-01-15T08:30:00.000Z').when('2027-07-01T00:00:00.000Z').then({ start: '2027-06-15T08:30:00.000Z', end: '2027-07-15T08:30:00.000Z' });
  // The 31st: the last day of shorter months, and the 31st again when the month has one.
  given('2026-01-31T10:00:00.000Z').when('2026-02-10T00:00:00.000Z').then({ start: '2026-01-31T10:00:00.000Z', end: '2026-02-28T10:00:00.000Z' });
  given('2026-01-31T10:00:00.000Z').when('2026-03-01T00:00:00.000Z').then({ start: '2026-02-28T10:00:00.000Z', end: '2026-03-31T10:00:00.000Z' });
  given('2026-01-31T10:00:00.000Z').when('2026-04-05T00:00:00.000Z').then({ start: '2026-03-31T10:00:00.000Z', end: '2026-04-30T10:00:00.000Z' });
  given('2026-01-31T10:00:00.000Z').when('2026-05-01T00:00:00.000Z').then({ start: '2026-04-30T10:00:00.000Z', end: '2026-05-31T10:00:00.000Z' });
  given('2027-12-31T00:00:00.000Z').when('2028-02-29T12:00:00.000Z').then({ start: '2028-02-29T00:00:00.000Z', end: '2028-03-31T00:00:00.000Z' });
  given('2026-03-30T00:00:00.000Z').when('2026-02-27T23:00:00.000Z').then({ start: '2026-01-30T00:00:00.000Z', end: '2026-02-28T00:00:00.000Z' });
  given('2026-03-30T00:00:00.000Z').when('2026-03-01T00:00:00.000Z').then({ start: '2026-02-28T00:00:00.000Z', end: '2026-03-30T00:00:00.000Z' });
  // A clock behind the one that recorded the subscription still gets a period around its now.
  given('2026-01-15T08:30:00.000Z').when('2026-01-15T08:29:00.000Z').then({ start: '2025-12-15T08:30:00.000Z', end: '2026-01-15T08:30:00.000Z' });
  t.throws(() => billingPeriod(new Date('not a date'), at('2026-01-01T00:00:00.000Z')), RangeError);
});

t.test('billing periods: the period always contains now', async (t) => {
  fc.assert(
    fc.property(instant, instant, (start, now) => {
      const period = billingPeriod(start, now);
      return period.start.getTime() <= now.getTime() && now.getTime() < period.end.getTime();
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

t.test('billing periods: consecutive periods tile time without gaps or overlaps', async (t) => {
  fc.assert(
    fc.property(instant, instant, (start, now) => {
      const period = billingPeriod(start, now);
      const next = billingPeriod(start, period.end);
      const previous = billingPeriod(start, new Date(period.start.getTime() - 1));
      return next.start.getTime() === period.end.getTime() && previous.end.getTime() === period.start.getTime();
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

t.test('billing periods: anchored at the subscription day and time, clamped to short months only', async (t) => {
  const daysIn = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  const timeOfDay = (date: Date) => date.getTime() - Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  fc.assert(
    fc.property(instant, instant, (start, now) => {
      const { start: from, end } = billingPeriod(start, now);
      const lengthInDays = (end.getTime() - from.getTime()) / 86_400_000;
      return (
        from.getUTCDate() === Math.min(start.getUTCDate(), daysIn(from)) &&
        end.getUTCDate() === Math.min(start.getUTCDate(), daysIn(end)) &&
        timeOfDay(from) === timeOfDay(start) &&
        lengthInDays >= 28 &&
        lengthInDays <= 31 &&
        // Exactly one calendar month apart.
        (end.getUTCFullYear() * 12 + end.getUTCMonth()) - (from.getUTCFullYear() * 12 + from.getUTCMonth()) === 1
      );
    }),
    { numRuns: 2000 },
  );
  fc.assert(fc.property(instant, fc.integer({ min: -1200, max: 1200 }), (start, k) => billingPeriod(start, addMonths(start, k)).start.getTime() === addMonths(start, k).getTime()));
  t.pass();
});

t.test('RPM window: given the stored window, when a request arrives, then the next window', async (t) => {
  const start = at('2026-01-01T00:00:00.000Z');
  const plus = (ms: number) => new Date(start.getTime() + ms);
  const given = (stored: RpmWindow | null) => ({
    when: (now: Date, limit: number) => ({ then: (expected: RpmWindow, admitted: boolean) => {
      const next = nextRpmWindow(stored, now, limit);
      t.same(next, expected);
      t.equal(rpmAdmits(next, limit), admitted);
    } }),
  });
  given(null).when(start, 2).then({ windowStart: start, count: 1 }, true);
  given({ windowStart: start, count: 1 }).when(plus(59_999), 2).then({ windowStart: start, count: 2 }, true);
  given({ windowStart: start, count: 2 }).when(plus(59_999), 2).then({ windowStart: start, count: 3 }, false);
  // Refusals do not grow the count further, nor move the window.
  given({ windowStart: start, count: 3 }).when(plus(59_999), 2).then({ windowStart: start, count: 3 }, false);
  // 60 s after its start the window is over: the next request opens a new one.
  given({ windowStart: start, count: 3 }).when(plus(60_000), 2).then({ windowStart: plus(60_000), count: 1 }, true);
  given({ windowStart: start, count: 1 }).when(plus(600_000), 2).then({ windowStart: plus(600_000), count: 1 }, true);
  // A limit lowered mid-window refuses at once.
  given({ windowStart: start, count: 5 }).when(plus(1), 2).then({ windowStart: start, count: 3 }, false);
});

t.test('RPM window: never admits more than the limit in a window, and refuses only when it is full', async (t) => {
  const gaps = fc.array(fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 90_000 })), { minLength: 1, maxLength: 300 });
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 12 }), gaps, (limit, steps) => {
      let clock = Date.UTC(2026, 0, 1);
      let window: RpmWindow | null = null;
      const requests: Array<{ at: number; admitted: boolean; windowStart: number }> = [];
      for (const gap of steps) {
        clock += gap;
        const previous: RpmWindow | null = window;
        window = nextRpmWindow(previous, new Date(clock), limit);
        // A window opens only at a request arriving once the previous window has run its 60 s.
        if (window.windowStart.getTime() !== previous?.windowStart.getTime()) {
          if (window.windowStart.getTime() !== clock) return false;
          if (previous && clock < previous.windowStart.getTime() + RPM_WINDOW_MS) return false;
        }
        requests.push({ at: clock, admitted: rpmAdmits(window, limit), windowStart: window.windowStart.getTime() });
      }
      const windowStarts = new Set(requests.map((r) => r.windowStart));
      for (const start of windowStarts) {
        const inWindow = requests.filter((r) => r.at >= start && r.at < start + RPM_WINDOW_MS);
        const admitted = inWindow.filter((r) => r.admitted).length;
        if (admitted > limit) return false;
        // No false refusal: a refused request found the limit already reached in its window.
        for (const [index, request] of inWindow.entries()) {
          if (!request.admitted && inWindow.slice(0, index).filter((r) => r.admitted).length < limit) return false;
        }
      }
      return true;
    }),
    { numRuns: 1000 },
  );
  t.pass();
});

t.test('headers: given an outcome, when the response goes out, then the headers of document 1', async (t) => {
  const now = at('2026-03-10T12:00:00.400Z');
  const resetsAt = at('2026-04-01T00:00:00.000Z');
  const secondsToReset = String(Math.ceil((resetsAt.getTime() - now.getTime()) / 1000));
  const nowPlus60 = String(Math.ceil(now.getTime() / 1000) + 60);
  const when = (outcome: MeteringOutcome) => ({ then: (expected: Record<string, string>) => t.same(rateLimitHeaders(outcome, now), expected) });

  when({ resource: 'api.v1.search.query', quota: { kind: 'metered', limit: 100, used: 3, resetsAt }, rpm: { limit: 60, count: 10 }, refusedFor: null }).then({
    'X-RateLimit-Resource': 'api.v1.search.query',
    'X-RateLimit-Quota-Limit': '100',
    'X-RateLimit-Quota-Remaining': '97',
    'X-RateLimit-Quota-Reset': String(resetsAt.getTime() / 1000),
    'X-RateLimit-RPM-Limit': '60',
    'X-RateLimit-RPM-Remaining': '50',
    'X-RateLimit-RPM-Reset': nowPlus60,
  });
  when({ resource: 'api.v2.agent.chat', quota: { kind: 'unlimited' }, rpm: null, refusedFor: null }).then({
    'X-RateLimit-Resource': 'api.v2.agent.chat',
    'X-RateLimit-Quota-Limit': 'unlimited',
    'X-RateLimit-Quota-Remaining': 'unlimited',
  });
  when({ resource: 'r', quota: { kind: 'metered', limit: 5, used: 5, resetsAt }, rpm: null, refusedFor: 'quota' }).then({
    'X-RateLimit-Resource': 'r',
    'X-RateLimit-Quota-Limit': '5',
    'X-RateLimit-Quota-Remaining': '0',
    'X-RateLimit-Quota-Reset': String(resetsAt.getTime() / 1000),
    'Retry-After': secondsToReset,
  });
  when({ resource: 'r', quota: { kind: 'metered', limit: 5, used: 2, resetsAt }, rpm: { limit: 2, count: 3 }, refusedFor: 'rpm' }).then({
    'X-RateLimit-Resource': 'r',
    'X-RateLimit-Quota-Limit': '5',
    'X-RateLimit-Quota-Remaining': '3',
    'X-RateLimit-Quota-Reset': String(resetsAt.getTime() / 1000),
    'X-RateLimit-RPM-Limit': '2',
    'X-RateLimit-RPM-Remaining': '0',
    'X-RateLimit-RPM-Reset': nowPlus60,
    'Retry-After': '60',
  });
  when({ resource: 'r', quota: null, rpm: null, refusedFor: null }).then({ 'X-RateLimit-Resource': 'r' });
  // A quota lowered below what was already used reads 0, never negative.
  when({ resource: 'r', quota: { kind: 'metered', limit: 5, used: 9, resetsAt }, rpm: null, refusedFor: null }).then({
    'X-RateLimit-Resource': 'r',
    'X-RateLimit-Quota-Limit': '5',
    'X-RateLimit-Quota-Remaining': '0',
    'X-RateLimit-Quota-Reset': String(resetsAt.getTime() / 1000),
  });
});
