// Transform slots shared fairly among client addresses. A transform can run for a second (a
// full-size WebP of a big photo) and the slots are the machine's cores, so a first-come queue lets
// one address that asks for many variants make everyone else wait behind all of them. Here:
// - one address holds at most `perOwner` slots at once, so with two or more slots a newcomer
//   finds one free however much another address keeps asking;
// - waiting requests are served in turn, one per address, so an address with a long line of
//   requests waits behind each other address's next one, never the other way round;
// - heavy jobs (AVIF) take a slot and one of `heavySlots`: a line of them cannot fill every slot;
// - waiting is bounded, in all (ImagesBusy, 503) and per address (WaitingLineFull, 429); a waiting
//   request holds nothing but its place, and leaves the line when nobody wants it any more.
// One pool of one slot per core serves all of the process's CPU-bound sharp work (image variants,
// looks' compositions, match's photo reads: app/api.ts makes it), so they cannot together run more
// sharp jobs than there are cores. Owners are namespaced (addressOwner, organizationOwner), so an
// address's turn is one turn across routes, and the waiting bounds are the pool's, across routes:
// a route wanting a shorter line keeps its own bound in front of the pool.

/** The pool's owner of a client address's jobs (image variants, match's photo reads). */
export const addressOwner = (address: string): string => `address:${address}`;
/** The pool's owner of an organization's jobs (looks). */
export const organizationOwner = (organizationId: string): string => `org:${organizationId}`;

/** Every place in the queue is taken. */
export class ImagesBusy extends Error {
  override name = 'ImagesBusy';
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super('Too many images are being resized right now. Try again shortly.');
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Everyone who wanted the job went away before it had a slot: it never ran. */
export class Abandoned extends Error {
  override name = 'Abandoned';
  constructor() {
    super('The request was abandoned before its image was made.');
  }
}

/** This address already has as many requests waiting as one address may. */
export class WaitingLineFull extends Error {
  override name = 'WaitingLineFull';
  readonly waiting: number;
  readonly limit: number;
  constructor(waiting: number, limit: number) {
    super(`${waiting} new variants of this address are waiting already (at most ${limit})`);
    this.waiting = waiting;
    this.limit = limit;
  }
}

export interface FairSlotsOptions {
  /** Transforms running at once. */
  slots: number;
  /** Of those, at most this many for one owner (address). */
  perOwner: number;
  /** Heavy transforms (AVIF) running at once, each also taking a slot. */
  heavySlots: number;
  /** Transforms waiting in all before ImagesBusy. */
  maxWaiting: number;
  /** Transforms of one owner waiting before WaitingLineFull. */
  maxWaitingPerOwner: number;
}

interface Waiter {
  readonly heavy: boolean;
  readonly start: () => void;
  readonly refuse: (error: Error) => void;
}

export class FairSlots {
  readonly #options: FairSlotsOptions;
  #running = 0;
  #heavyRunning = 0;
  #waitingCount = 0;
  readonly #runningBy = new Map<string, number>();
  /** Waiting requests per owner, oldest first; the map's order is whose turn comes next. */
  readonly #waiting = new Map<string, Waiter[]>();
  #closed = false;

  constructor(options: FairSlotsOptions) {
    this.#options = {
      slots: Math.max(1, options.slots),
      perOwner: Math.max(1, options.perOwner),
      heavySlots: Math.max(1, options.heavySlots),
      maxWaiting: Math.max(0, options.maxWaiting),
      maxWaitingPerOwner: Math.max(0, options.maxWaitingPerOwner),
    };
  }

  get counts() {
    return { running: this.#running, queued: this.#waitingCount, heavyRunning: this.#heavyRunning };
  }

  /**
   * Runs `job` once `owner` has its turn and a slot. Throws ImagesBusy or WaitingLineFull instead
   * of waiting past the bounds, and Abandoned when `abandoned` fires while it waits.
   */
  async run<T>(owner: string, heavy: boolean, job: () => Promise<T>, abandoned?: AbortSignal): Promise<T> {
    if (this.#closed) throw new ImagesBusy(1);
    if (abandoned?.aborted) throw new Abandoned();
    const line = this.#waiting.get(owner);
    if (!line?.length && this.#canStart(owner, heavy)) {
      this.#take(owner, heavy);
    } else {
      if ((line?.length ?? 0) >= this.#options.maxWaitingPerOwner) throw new WaitingLineFull(line?.length ?? 0, this.#options.maxWaitingPerOwner);
      if (this.#waitingCount >= this.#options.maxWaiting) throw new ImagesBusy(1);
      await new Promise<void>((start, refuse) => {
        const waiter: Waiter = { heavy, start, refuse };
        if (line) line.push(waiter);
        else this.#waiting.set(owner, [waiter]);
        this.#waitingCount++;
        abandoned?.addEventListener('abort', () => this.#leave(owner, waiter), { once: true });
      });
    }
    try {
      return await job();
    } finally {
      this.#give(owner, heavy);
      this.#serve();
    }
  }

  /** Shutting down: whoever waits is told to come back (ImagesBusy), and nothing new starts. */
  close(): void {
    this.#closed = true;
    for (const line of this.#waiting.values()) for (const waiter of line) waiter.refuse(new ImagesBusy(1));
    this.#waiting.clear();
    this.#waitingCount = 0;
  }

  #leave(owner: string, waiter: Waiter): void {
    const line = this.#waiting.get(owner);
    const index = line?.indexOf(waiter) ?? -1;
    // Started already (or refused at close): it runs to its end.
    if (index < 0) return;
    line!.splice(index, 1);
    if (line!.length === 0) this.#waiting.delete(owner);
    this.#waitingCount--;
    waiter.refuse(new Abandoned());
    this.#serve();
  }

  #canStart(owner: string, heavy: boolean): boolean {
    const { slots, perOwner, heavySlots } = this.#options;
    return this.#running < slots && (this.#runningBy.get(owner) ?? 0) < perOwner && (!heavy || this.#heavyRunning < heavySlots);
  }

  #take(owner: string, heavy: boolean): void {
    this.#running++;
    if (heavy) this.#heavyRunning++;
    this.#runningBy.set(owner, (this.#runningBy.get(owner) ?? 0) + 1);
  }

  #give(owner: string, heavy: boolean): void {
    this.#running--;
    if (heavy) this.#heavyRunning--;
    const left = (this.#runningBy.get(owner) ?? 1) - 1;
    if (left > 0) this.#runningBy.set(owner, left);
    else this.#runningBy.delete(owner);
  }

  /** In turn: each owner's oldest request, if it may start now; a served owner goes to the back of the line. */
  #serve(): void {
    let started = true;
    while (started && this.#running < this.#options.slots) {
      started = false;
      for (const [owner, line] of this.#waiting) {
        const next = line[0]!;
        if (!this.#canStart(owner, next.heavy)) continue;
        line.shift();
        this.#waitingCount--;
        this.#waiting.delete(owner);
        if (line.length) this.#waiting.set(owner, line);
        this.#take(owner, next.heavy);
        next.start();
        started = true;
        break;
      }
    }
  }
}
