// How many bytes of big request bodies one process holds at once, and how fast they must arrive.
// A parsed JSON body weighs several times its text, and what a route then makes of it (listings,
// events, their JSON) several times more, so item uploads, photo uploads and chat turns with photos
// share one budget per process.
//
// A body holds the bytes it has actually sent, booked as they arrive, never the Content-Length it
// declares: a client that trickles holds next to nothing. Bytes that do not fit wait, unread on
// their socket, and waiting organizations are served in turn. One organization's bodies together
// hold at most its share of the budget (a body bigger than the share counts as the share), so
// whatever one client does, another organization's body finds room beside it. A booking is
// granted only while every body being read could still be finished one after another (the
// banker's rule), so bodies that each hold part of the budget never wait for one another for good.
//
// A body must have arrived within its deadline, and after its first window at a minimum rate over
// every window, or it is cut off with 408: a client that stops sending holds neither its socket nor
// its bytes for long. Time the server keeps a body waiting (for the budget, or while it works on
// what arrived) is not held against the client's pace.
import { Transform, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './plugins/errors.js';

const MB = 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's body budget, once the upload routes are registered. */
    uploadBudget?: BodyBudget;
  }
}

export interface BodyLimits {
  /** Bytes of bodies the process holds at once. */
  capacity: number;
  /** Bytes one organization's bodies hold together; its others wait, another organization's do not. */
  perOrganization: number;
  /** A body still arriving this long after its request was read to its body is cut off. */
  deadlineMs: number;
  /** After the first window, a body must bring at least this many bytes a second over each window (0: no minimum). */
  minBytesPerSecond: number;
  windowMs: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = {
  capacity: 16 * MB,
  perOrganization: 8 * MB,
  deadlineMs: 120_000,
  minBytesPerSecond: 8 * 1024,
  windowMs: 10_000,
};

/** The 408 answers (document 2 has none: `{ error }` like every other error). */
export const BODY_MESSAGES = {
  deadline: (limits: Pick<BodyLimits, 'deadlineMs'>) => `Request body took longer than ${limits.deadlineMs / 1000} s to arrive.`,
  slow: (limits: Pick<BodyLimits, 'minBytesPerSecond' | 'windowMs'>) =>
    `Request body arrived too slowly: under ${limits.minBytesPerSecond / 1024} KB/s over ${limits.windowMs / 1000} s.`,
};

/** One body being read within the budget. */
export interface BodyReading {
  /** Aborted, its reason the 408 to answer, when the body missed its deadline or came too slowly. */
  readonly expired: AbortSignal;
  /** Bytes that arrived and are kept: resolves once they are booked (at once when they fit); rejects once expired or closed. */
  take(bytes: number): Promise<void>;
  /**
   * take without a promise: true when the bytes were booked at once (nothing of this body or of
   * anyone else waits, and they fit); false, with nothing booked, when they must go through take.
   * A body sent in many small chunks (one byte per chunk is legal HTTP) then costs no promise per chunk.
   */
  tryTake(bytes: number): boolean;
  /** Bytes that arrived and were dropped at once: they count for the pace only. */
  passed(bytes: number): void;
  /** Kept bytes let go (a file checked and stored): back to the budget. */
  give(bytes: number): void;
  /** The server's own wait (its work on what arrived): not held against the client's pace. */
  serverWait<T>(work: Promise<T>): Promise<T>;
  /** The whole body arrived (or is no longer read): no deadline any more, and no booking beyond what it holds. */
  finished(): void;
  /** Everything back: the answer went out, or the client went away. Once, however often called. */
  close(): void;
}

interface Entry {
  readonly owner: string;
  /** The most it will hold: its size, at most the organization's share. */
  need: number;
  held: number;
  /** Kept bytes so far (past `need` they are not counted). */
  used: number;
}

/** Kept bytes the body counts (at most its need) beyond what it holds; negative once it holds more. */
const unbooked = (entry: Entry): number => Math.min(entry.used, entry.need) - entry.held;

interface Waiter {
  readonly entry: Entry;
  readonly bytes: number;
  readonly grant: () => void;
  readonly fail: (error: unknown) => void;
}

export class BodyBudget {
  readonly limits: BodyLimits;
  #held = 0;
  readonly #heldBy = new Map<string, number>();
  readonly #entries = new Set<Entry>();
  /** Bookings waiting per organization, oldest first; the map's order is whose turn comes next. */
  readonly #waiting = new Map<string, Waiter[]>();

  constructor(limits: Partial<BodyLimits> & Pick<BodyLimits, 'capacity'>) {
    const capacity = Math.max(1, limits.capacity);
    this.limits = { ...DEFAULT_BODY_LIMITS, perOrganization: capacity, ...limits, capacity };
    this.limits.perOrganization = Math.max(1, Math.min(this.limits.perOrganization, capacity));
  }

  /** Bytes held by bodies being read or worked on. */
  get inUse(): number {
    return this.#held;
  }

  /** Bodies being read or worked on. */
  get readings(): number {
    return this.#entries.size;
  }

  /** Bookings waiting for their turn. */
  get waiting(): number {
    let count = 0;
    for (const queue of this.#waiting.values()) count += queue.length;
    return count;
  }

  /** Bytes one organization's bodies hold. */
  heldBy(owner: string): number {
    return this.#heldBy.get(owner) ?? 0;
  }

  /** A body of at most `bytes` (a bigger one is counted up to its organization's share), paced from now. */
  open(owner: string, bytes: number): BodyReading {
    const entry: Entry = { owner, need: Math.max(0, Math.min(bytes, this.limits.perOrganization)), held: 0, used: 0 };
    this.#entries.add(entry);
    const expiry = new AbortController();
    let waiter: Waiter | undefined;
    let closed = false;
    let complete = false;
    const pace = new Pace(this.limits, (error) => {
      expiry.abort(error);
      if (waiter) this.#leave(waiter, error);
    });
    // One booking at a time, in the order the bytes arrived.
    let queue: Promise<void> = Promise.resolve();
    /** Takes not yet settled: while any is, a later chunk's bytes queue behind it. */
    let queued = 0;

    /** Resolves once booked; a booking that cannot be granted at once is the server's wait. */
    const book = (bytes: number): Promise<void> => {
      const booked = new Promise<void>((resolve, reject) => {
        const own: Waiter = {
          entry,
          bytes,
          grant: () => ((waiter = undefined), resolve()),
          fail: (error) => ((waiter = undefined), reject(error)),
        };
        waiter = own;
        const line = this.#waiting.get(owner);
        if (line) line.push(own);
        else this.#waiting.set(owner, [own]);
        this.#serve();
      });
      return waiter ? pace.serverWait(booked) : booked;
    };

    return {
      expired: expiry.signal,
      take: (bytes) => {
        pace.arrived(bytes);
        queued += 1;
        const step = queue.then(() => {
          if (closed) throw new Error('the body is no longer read');
          if (expiry.signal.aborted) throw expiry.signal.reason;
          entry.used += bytes;
          const more = unbooked(entry);
          if (more <= 0) return;
          return book(more).catch((error: unknown) => {
            entry.used -= bytes;
            throw error;
          });
        });
        queue = step.catch(() => {}).finally(() => (queued -= 1));
        return step;
      },
      tryTake: (bytes) => {
        if (closed || queued > 0 || expiry.signal.aborted) return false;
        entry.used += bytes;
        const more = unbooked(entry);
        if (more > 0 && !this.#grantAtOnce(entry, more)) {
          entry.used -= bytes;
          return false;
        }
        pace.arrived(bytes);
        return true;
      },
      passed: (bytes) => pace.arrived(bytes),
      give: (bytes) => {
        entry.used = Math.max(0, entry.used - bytes);
        const surplus = -unbooked(entry);
        // A body read to its end will not grow again: what it gave back is no longer its to take.
        if (complete) entry.need -= Math.max(0, surplus);
        if (surplus > 0) this.#let(entry, surplus);
      },
      serverWait: (work) => pace.serverWait(work),
      finished: () => {
        pace.stop();
        complete = true;
        if (entry.need === entry.held) return;
        entry.need = entry.held;
        this.#serve();
      },
      close: () => {
        if (closed) return;
        closed = true;
        pace.stop();
        if (waiter) this.#leave(waiter, new Error('the body is no longer read'));
        this.#entries.delete(entry);
        this.#let(entry, entry.held);
      },
    };
  }

  /** Booked without waiting, when no one waits before it (organizations are served in turn) and it fits. */
  #grantAtOnce(entry: Entry, bytes: number): boolean {
    if (this.#waiting.size > 0 || !this.#grantable(entry, bytes)) return false;
    this.#hold(entry, bytes);
    return true;
  }

  #hold(entry: Entry, bytes: number): void {
    // What arrived may have been given back while the booking waited.
    const share = Math.min(bytes, unbooked(entry));
    if (share <= 0) return;
    entry.held += share;
    this.#held += share;
    this.#heldBy.set(entry.owner, this.heldBy(entry.owner) + share);
  }

  #let(entry: Entry, bytes: number): void {
    if (bytes > 0) {
      entry.held -= bytes;
      this.#held -= bytes;
      const left = this.heldBy(entry.owner) - bytes;
      if (left > 0) this.#heldBy.set(entry.owner, left);
      else this.#heldBy.delete(entry.owner);
    }
    this.#serve();
  }

  #leave(waiter: Waiter, error: unknown): void {
    const line = this.#waiting.get(waiter.entry.owner);
    const index = line?.indexOf(waiter) ?? -1;
    if (index >= 0) {
      line!.splice(index, 1);
      if (line!.length === 0) this.#waiting.delete(waiter.entry.owner);
    }
    waiter.fail(error);
    this.#serve();
  }

  /** Organizations in turn: the first booking of the next organization that can be granted. */
  #serve(): void {
    for (let granted = true; granted; ) {
      granted = false;
      for (const [owner, line] of this.#waiting) {
        const index = line.findIndex((waiter) => this.#grantable(waiter.entry, waiter.bytes));
        if (index < 0) continue;
        const [waiter] = line.splice(index, 1);
        // Served: to the back of the line (or out of it).
        this.#waiting.delete(owner);
        if (line.length) this.#waiting.set(owner, line);
        this.#hold(waiter!.entry, waiter!.bytes);
        waiter!.grant();
        granted = true;
        break;
      }
    }
  }

  #grantable(entry: Entry, bytes: number): boolean {
    if (this.#held + bytes > this.limits.capacity) return false;
    if (this.heldBy(entry.owner) + bytes > this.limits.perOrganization) return false;
    return this.#safeWith(entry, bytes);
  }

  /**
   * Whether, with `bytes` more for `entry`, every body could still be read to its end: one that
   * needs no more finishes and gives its bytes back, then any whose rest fits what is free (in the
   * budget and in its organization's share), and so on until none is left.
   */
  #safeWith(entry: Entry, bytes: number): boolean {
    let free = this.limits.capacity - this.#held - bytes;
    const freeOf = new Map<string, number>();
    for (const { owner } of this.#entries) freeOf.set(owner, this.limits.perOrganization - this.heldBy(owner) - (owner === entry.owner ? bytes : 0));
    const finish = (owner: string, held: number) => {
      free += held;
      freeOf.set(owner, freeOf.get(owner)! + held);
    };
    let pending: Array<{ owner: string; held: number; rest: number }> = [];
    for (const other of this.#entries) {
      const held = other.held + (other === entry ? bytes : 0);
      const rest = other.need - held;
      if (rest <= 0) finish(other.owner, held);
      else pending.push({ owner: other.owner, held, rest });
    }
    pending.sort((a, b) => a.rest - b.rest);
    for (let progress = true; pending.length > 0 && progress; ) {
      progress = false;
      pending = pending.filter((body) => {
        if (body.rest > free || body.rest > freeOf.get(body.owner)!) return true;
        finish(body.owner, body.held);
        progress = true;
        return false;
      });
    }
    return pending.length === 0;
  }
}

/** The deadline and the minimum rate of one body. */
class Pace {
  #windowBytes = 0;
  #serverWaits = 0;
  #excused = false;
  readonly #deadline: NodeJS.Timeout;
  readonly #window: NodeJS.Timeout | undefined;

  private readonly limits: BodyLimits;
  private readonly expire: (error: HttpError) => void;
  constructor(
    limits: BodyLimits,
    expire: (error: HttpError) => void,
  ) {
    this.limits = limits;
    this.expire = expire;
    this.#deadline = setTimeout(() => this.#cut(BODY_MESSAGES.deadline(limits)), limits.deadlineMs);
    if (limits.minBytesPerSecond > 0) this.#window = setInterval(() => this.#judge(), limits.windowMs);
  }

  arrived(bytes: number): void {
    this.#windowBytes += bytes;
  }

  async serverWait<T>(work: Promise<T>): Promise<T> {
    this.#serverWaits += 1;
    this.#excused = true;
    try {
      return await work;
    } finally {
      this.#serverWaits -= 1;
    }
  }

  stop(): void {
    clearTimeout(this.#deadline);
    clearInterval(this.#window);
  }

  /** A window the server kept waiting in part is not judged. */
  #judge(): void {
    const enough = this.#windowBytes >= (this.limits.minBytesPerSecond * this.limits.windowMs) / 1000;
    const excused = this.#excused;
    this.#windowBytes = 0;
    this.#excused = this.#serverWaits > 0;
    if (!enough && !excused) this.#cut(BODY_MESSAGES.slow(this.limits));
  }

  #cut(message: string): void {
    this.stop();
    this.expire(new HttpError(408, message));
  }
}

/** How a route's body is read within the budget. */
export interface BudgetedBody {
  /** The most bytes a body of this request holds, or null to read it outside the budget (small, or refused unread). */
  bytes(request: FastifyRequest): number | null;
}

const readings = new WeakMap<FastifyRequest, BodyReading>();

/**
 * A route's preParsing hook: the body is read through the budget and paced, and holds its bytes
 * until the answer went out (or releaseBody). The caller's organization is the owner; a request
 * without one (not authenticated) is read outside the budget, as is a body `bytes` leaves out.
 */
export function budgetedBody(budget: BodyBudget, { bytes }: BudgetedBody) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: Readable): Promise<Readable> => {
    const owner = request.caller?.organizationId;
    const most = bytes(request);
    if (owner === undefined || most === null) return payload;
    const reading = budget.open(owner, most);
    readings.set(request, reading);
    reply.raw.once('close', () => reading.close());
    return metered(payload, reading, reply);
  };
}

/** The body's bytes no longer weigh on this process (handed on to a queue): back to the budget. */
export function releaseBody(request: FastifyRequest): void {
  readings.get(request)?.close();
}

/**
 * The declared Content-Length, at most `limit`; a body without one (chunked) may reach `limit`.
 * null when it declares more than `limit` (fastify refuses it unread) or at most `unbudgeted`.
 */
export function declaredBody(request: FastifyRequest, limit: number, unbudgeted = -1): number | null {
  const header = request.headers['content-length'];
  if (header === undefined) return limit;
  const declared = Number(header);
  if (!Number.isFinite(declared) || declared < 0) return limit;
  if (declared > limit || declared <= unbudgeted) return null;
  return declared;
}

/** The body as the parser reads it: each chunk passed on once booked; cut off with the 408 when expired. */
function metered(payload: Readable, reading: BodyReading, reply: FastifyReply): Readable {
  const body = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (reading.tryTake(chunk.length)) return done(null, chunk);
      reading.take(chunk.length).then(() => done(null, chunk), done);
    },
    flush(done) {
      reading.finished();
      done();
    },
  });
  payload.on('error', (error) => body.destroy(error));
  // The parser listens while it reads; a booking refused after the answer went out (the reading
  // closed under a chunk still waiting) has no one left to tell and must not become uncaught.
  body.on('error', () => {});
  reading.expired.addEventListener(
    'abort',
    () => {
      // The rest of the body is never read: the connection closes after the answer.
      reply.header('connection', 'close');
      payload.unpipe(body);
      body.destroy(reading.expired.reason as Error);
    },
    { once: true },
  );
  return payload.pipe(body);
}
