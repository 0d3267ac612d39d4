// How many new variants one client address may have made: a token bucket per address, `burst`
// tokens when full, refilled at `perMinute`. Only a miss (a variant neither in memory nor in the
// store) takes tokens, so a storefront's cached images never count; an AVIF variant takes
// `avifCost` of them. Kept in this process's memory, like api/minute-windows.ts: several API
// processes each give an address its own share, which bounds one address per process.

export interface MissBudgetOptions {
  perMinute: number;
  burst: number;
  /** Addresses remembered at most; the least recently seen are forgotten first (a forgotten bucket is a full one). */
  maxAddresses?: number;
}

export interface MissCharge {
  allowed: boolean;
  /** Seconds until the bucket holds what was asked for (for Retry-After); 0 when allowed. */
  retryAfter: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class MissBudget {
  readonly perMinute: number;
  readonly burst: number;
  readonly #maxAddresses: number;
  /** Least recently charged first. */
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: MissBudgetOptions) {
    this.perMinute = Math.max(0, options.perMinute);
    this.burst = Math.max(1, options.burst);
    this.#maxAddresses = options.maxAddresses ?? 100_000;
  }

  /** Takes `cost` tokens (at most the whole bucket) from `address`, or none and says when to come back. */
  charge(address: string, cost: number, now: number): MissCharge {
    const bucket = this.#fill(address, now);
    const wanted = Math.min(Math.max(0, cost), this.burst);
    if (bucket.tokens >= wanted) {
      bucket.tokens -= wanted;
      return { allowed: true, retryAfter: 0 };
    }
    const perSecond = this.perMinute / 60;
    const retryAfter = perSecond > 0 ? Math.max(1, Math.ceil((wanted - bucket.tokens) / perSecond)) : 60;
    return { allowed: false, retryAfter };
  }

  /** Gives back what a charge took when the work was not done after all. */
  refund(address: string, cost: number, now: number): void {
    const bucket = this.#fill(address, now);
    bucket.tokens = Math.min(this.burst, bucket.tokens + Math.min(Math.max(0, cost), this.burst));
  }

  #fill(address: string, now: number): Bucket {
    let bucket = this.#buckets.get(address);
    if (bucket) {
      this.#buckets.delete(address);
      bucket.tokens = Math.min(this.burst, bucket.tokens + (Math.max(0, now - bucket.at) * this.perMinute) / 60_000);
      bucket.at = now;
    } else {
      bucket = { tokens: this.burst, at: now };
      while (this.#buckets.size >= this.#maxAddresses) {
        const oldest = this.#buckets.keys().next().value!;
        this.#buckets.delete(oldest);
      }
    }
    this.#buckets.set(address, bucket);
    return bucket;
  }
}
