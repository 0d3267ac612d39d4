// Every rate limit of the API, declared in route config and checked here, counted in the usage
// store (shared by every API process on Postgres):
// - a route naming a `resource` is metered against the caller's plan (document 1 §Limits): quota,
//   per-minute limit and their headers, once authentication (onRequest) has set `request.caller`.
//   These checks run in preValidation, after the common body check of json-body.ts and before the
//   routes' zod schemas: a malformed body is neither charged nor given headers, while a 422 from a
//   schema is a request that passed authentication and entitlement, so it uses its unit and
//   carries the headers (document 1 §Limits 2; DESIGN "Requests, in order").
// - a route listing `minuteLimits` has per-minute bounds outside any plan (routes without a key,
//   document 1 "Other limits"), checked in preParsing: after authentication and the route's own
//   onRequest hooks (which may name the subject, a widget session), before the body is read.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  billingPeriod,
  minuteLimitRefusal,
  rateLimitHeaders,
  rpmAdmits,
  type MeteringOutcome,
} from '../../domain/metering.js';
import { entitlement } from '../../domain/plan.js';
import type { UsageStore } from '../../infra/metering/usage-store.js';
import { HttpError } from './errors.js';

export interface MeteringOptions {
  usage: UsageStore;
  /** The clock; tests move it. */
  now?: () => Date;
  /** How often ended per-minute windows are deleted; 0 turns the sweep off. Default 5 minutes. */
  sweepIntervalMs?: number;
}

/** A per-minute bound outside the plan, declared by a route in `config.minuteLimits`. */
export interface MinuteLimit {
  /** The counter, named as `bucket` and `resource` in the 429 body. */
  bucket: string;
  perMinute: number;
  /** Whom a request counts for (`ip:<address>`, `session:<id>`); null: the bound does not apply to it. */
  subject(request: FastifyRequest): string | null;
  /** The 429's `error`, to the letter of the spec where it has one. */
  message: string;
  /** Retry-After on the 429 (default true); document 1 forbids it on the session upload route. */
  retryAfterHeader?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Checked in the order listed; the first bound a request is over answers the 429. */
    minuteLimits?: readonly MinuteLimit[];
  }
}

// A window that ended this long ago is swept: room for API processes whose clocks disagree.
const SWEEP_MARGIN_MS = 5 * 60_000;

export const noEntitlement = (resource: string): string => `No entitlement for "${resource}".`;
export const accessDenied = (resource: string): string => `Access denied to "${resource}".`;
export const quotaExceeded = (resource: string, quota: number): string =>
  `Monthly quota exceeded for "${resource}" (${quota}/${quota} used).`;
export const rpmExceeded = (resource: string, used: number, limit: number): string =>
  `RPM limit exceeded for "${resource}" (${used}/${limit} used).`;

interface Metered {
  outcome: MeteringOutcome;
  /** The unit this request holds, given back if the response turns out a 5xx. */
  charge: { subject: string; resource: string; periodStart: Date } | null;
  refunded: boolean;
  now: () => Date;
}

// Keyed by request so nothing leaks onto the request type and a finished request frees its entry.
const meteredRequests = new WeakMap<FastifyRequest, Metered>();

// Set by our own authentication plugin, but a malformed date would otherwise meter every request
// of the organization against a period that does not exist (Invalid Date).
const subscriptionStart = z.iso.datetime({ offset: true });

/**
 * The rate-limit headers this request has earned so far, for routes that write their own response
 * head (an SSE stream after `reply.hijack()`); empty when the request is not metered. Responses
 * sent through `reply.send` get them without asking.
 */
export function meteringHeaders(request: FastifyRequest): Record<string, string> {
  const metered = meteredRequests.get(request);
  return metered ? rateLimitHeaders(metered.outcome, metered.now()) : {};
}

/**
 * Register after `registerJsonBodies` (buildApi does): both hooks run in preValidation, in the
 * order they were added, and the body check must come first.
 */
export function registerMetering(app: FastifyInstance, options: MeteringOptions): void {
  const { usage } = options;
  const now = options.now ?? (() => new Date());

  // All bounds are counted at once (one round trip's wait): a request refused by one also took a
  // place in the others' windows, which only matters to a client already over a bound.
  app.addHook('preParsing', async (request, reply, payload) => {
    const limits = request.routeOptions.config?.minuteLimits;
    if (!limits?.length) return payload;
    const at = now();
    const counted = limits.flatMap((limit) => {
      const subject = limit.subject(request);
      return subject === null ? [] : [{ limit, subject }];
    });
    const windows = await Promise.all(counted.map(({ limit, subject }) => usage.hitRpm(subject, limit.bucket, at, limit.perMinute)));
    const refused = counted.findIndex(({ limit }, i) => !rpmAdmits(windows[i]!, limit.perMinute));
    if (refused < 0) return payload;
    const { limit } = counted[refused]!;
    const body = minuteLimitRefusal(limit.bucket, windows[refused]!, limit.perMinute, at);
    if (limit.retryAfterHeader !== false) reply.header('retry-after', String(body.retryAfter));
    throw new HttpError(429, limit.message, { ...body });
  });

  const sweepIntervalMs = options.sweepIntervalMs ?? 5 * 60_000;
  if (sweepIntervalMs > 0) {
    const timer = setInterval(() => {
      usage.sweepRpmWindows(new Date(now().getTime() - SWEEP_MARGIN_MS)).catch((error: unknown) => app.log.warn({ err: error }, 'sweeping ended rate-limit windows failed'));
    }, sweepIntervalMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }

  app.addHook('preValidation', async (request) => {
    const resource = request.routeOptions.config?.resource;
    const caller = request.caller;
    if (!resource || !caller) return;
    const at = now();
    const metered: Metered = { outcome: { resource, quota: null, rpm: null, refusedFor: null }, charge: null, refunded: false, now };
    meteredRequests.set(request, metered);
    const { outcome } = metered;

    const entry = entitlement(caller.plan, resource);
    if (entry.kind === 'none') throw new HttpError(403, noEntitlement(resource));
    if (entry.kind === 'off') throw new HttpError(403, accessDenied(resource));

    // Quota and RPM go to the database together: one round trip's wait instead of two. The order
    // of document 1 still decides the answer (a quota refusal wins, and then the RPM count is not
    // reported); the only trace of the overlap is that a request refused for quota also took a
    // place in its minute window, which matters to nobody while the quota is used up.
    const period = entry.quota === 'unlimited' ? null : billingPeriod(new Date(subscriptionStart.parse(caller.subscriptionStartedAt)), at);
    // The organization pays, whoever calls: every demo caller shares the demo organization's quota.
    const subject = caller.organizationId;
    const [charge, window] = await Promise.all([
      period && entry.quota !== 'unlimited' ? usage.chargeQuota(subject, resource, period.start, entry.quota) : null,
      entry.rpm !== null ? usage.hitRpm(caller.rateSubject, resource, at, entry.rpm) : null,
    ]);

    if (!period || !charge || entry.quota === 'unlimited') {
      outcome.quota = { kind: 'unlimited' };
    } else {
      outcome.quota = { kind: 'metered', limit: entry.quota, used: charge.used, resetsAt: period.end };
      if (!charge.allowed) {
        outcome.refusedFor = 'quota';
        throw new HttpError(429, quotaExceeded(resource, entry.quota));
      }
      metered.charge = { subject, resource, periodStart: period.start };
    }

    if (window && entry.rpm !== null) {
      outcome.rpm = { limit: entry.rpm, count: window.count };
      if (!rpmAdmits(window, entry.rpm)) {
        // The quota unit stays used (document 1 §Limits 4).
        outcome.refusedFor = 'rpm';
        throw new HttpError(429, rpmExceeded(resource, Math.min(window.count, entry.rpm), entry.rpm));
      }
    }
  });

  // Refund before the headers are written so Quota-Remaining already counts the unit given back.
  app.addHook('onSend', async (request, reply, payload) => {
    const metered = meteredRequests.get(request);
    // Stopped before metering: authentication sets its own X-RateLimit-Resource, and the common
    // body errors carry no rate-limit headers at all.
    if (!metered) return payload;
    if (reply.statusCode >= 500) await refund(request, reply, metered);
    reply.headers(rateLimitHeaders(metered.outcome, metered.now()));
    return payload;
  });

  // A 5xx that bypassed onSend (a hijacked reply writing its own head) is refunded here instead.
  // A stream that started 200 and failed later keeps its charge (document 1 §Limits 5).
  app.addHook('onResponse', async (request, reply) => {
    const metered = meteredRequests.get(request);
    if (metered && reply.statusCode >= 500) await refund(request, reply, metered);
  });

  async function refund(request: FastifyRequest, reply: FastifyReply, metered: Metered): Promise<void> {
    if (!metered.charge || metered.refunded) return;
    // Claimed before the await: onSend and onResponse may both see the 5xx, one unit comes back.
    metered.refunded = true;
    const { subject, resource, periodStart } = metered.charge;
    try {
      await usage.refundQuota(subject, resource, periodStart);
      if (metered.outcome.quota?.kind === 'metered') metered.outcome.quota.used -= 1;
    } catch (error) {
      // The response is already a failure; a lost refund costs the caller one unit, not the reply.
      request.log.error({ err: error, statusCode: reply.statusCode, resource }, 'quota refund failed');
    }
  }
}
