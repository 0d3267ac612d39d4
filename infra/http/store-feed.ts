// A Shopify store's public `products.json`, read page by page. The store is someone else's server:
// slow, flaky, rate-limited, password-protected or not a shop at all. Every answer is checked
// before it is trusted, only failures that can pass are retried, and one bad product never sinks
// the run. Pages are parsed as they stream in, one product at a time, and the caller's `keep`
// reduces each product as it completes: what a run holds is what it keeps, not the raw feed.
import { STATUS_CODES } from 'node:http';
import { count, deepestMessage, discard, errorCode, formatBytes, formatDuration, isJson, isWebUrl, retryAfterMs, sleep, withoutQuery } from './fetch-helpers.js';
import { InvalidJson, JsonLists } from './json-lists.js';
import { outboundClient, OutboundRefused, type Outbound } from './outbound.js';

export interface FeedNotice {
  level: 'info' | 'warn' | 'error';
  message: string;
}

export interface FeedOptions<T = FeedProduct> {
  /** Default 250, Shopify's largest page. */
  pageSize?: number;
  /** Default 25,000: once this many distinct products are held the run stops (the last page is cut) and `capped` is set. */
  maxProducts?: number;
  /** Default 256 MB: the bytes of every page together; past it the run fails (not retried). */
  maxFeedBytes?: number;
  /** What is held of each product (with an id) as soon as it is read; default the product as sent. */
  keep?: (product: FeedProduct) => T;
  /** Per request, connection and whole body (redirects included). Default 30,000. */
  timeoutMs?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Default 25 MB; a bigger answer (declared or counted while streaming) is refused. */
  maxPageBytes?: number;
  /** Per page, the first try included. Default 5. */
  maxAttempts?: number;
  /** Exponential back-off base, with jitter. Default 1,000. */
  retryBaseMs?: number;
  /** Longest wait between attempts, an honoured Retry-After included. Default 60,000. */
  retryMaxMs?: number;
  /** Stops everything promptly; the run rejects with the signal's reason. */
  signal?: AbortSignal;
  /** After each page: `products` is how many entries the store sent on it, `held` the distinct products so far. */
  onPage?: (page: { page: number; url: string; products: number; held: number }) => void | Promise<void>;
  /** Entries for the sync log: retries, redirects followed, repeated products, skipped entries, the cap. */
  onNotice?: (notice: FeedNotice) => void;
  userAgent?: string;
  /** Every page and redirect goes through it. Default: the client that fetches public addresses only. */
  outbound?: Outbound;
}

/** A products.json entry with a usable id. */
export type FeedProduct = Record<string, unknown> & { id: string | number };

export interface FeedResult<T = FeedProduct> {
  /** Distinct products in feed order (first occurrence wins), as `keep` made them (as the store sent them by default). */
  products: T[];
  retrieved: number;
  /** Pages answered successfully. */
  pages: number;
  /** Products dropped because their id had already been seen. */
  repeated: number;
  /** maxProducts was reached before the feed was seen to end. */
  capped: boolean;
}

export class FeedError extends Error {
  override name = 'FeedError';

  readonly page: number;
  readonly status?: number;
  constructor(message: string, page: number, status?: number) {
    super(message);
    this.page = page;
    this.status = status;
  }
}

/** A failure that may pass on its own (rate limit, server error, network, timeout): worth another attempt. */
class PassingFailure extends Error {
  readonly status?: number;
  readonly retryAfterMs?: number;
  constructor(reason: string, status?: number, retryAfterMs?: number) {
    super(reason);
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

const SHOPIFY_MAX_PAGE_SIZE = 250;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const PASSING_NETWORK_ERRORS: Record<string, string> = {
  ECONNRESET: 'connection reset',
  ECONNREFUSED: 'connection refused',
  ECONNABORTED: 'connection aborted',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection broken',
  EAI_AGAIN: 'address lookup failed for now',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network down',
  EHOSTUNREACH: 'host unreachable',
  EHOSTDOWN: 'host down',
  UND_ERR_SOCKET: 'connection closed mid-answer',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no headers in time',
  UND_ERR_BODY_TIMEOUT: 'the answer stalled',
};

interface Run {
  pageSize: number;
  maxProducts: number;
  maxFeedBytes: number;
  /** Bytes of the pages read so far (the last answer of each). */
  feedBytes: number;
  keep: (product: FeedProduct) => unknown;
  timeoutMs: number;
  maxRedirects: number;
  maxPageBytes: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  userAgent: string;
  outbound: Outbound;
  signal: AbortSignal | undefined;
  onPage: FeedOptions<unknown>['onPage'];
  notify: (level: FeedNotice['level'], message: string) => void;
  /** Every page of a moved feed takes the same redirect: the log hears about each one once. */
  redirectsNoted: Set<string>;
}

/** `endpoint` already ends in /products.json; its own query parameters are kept. */
export function feedPageUrl(endpoint: string, page: number, pageSize: number): string {
  const url = new URL(endpoint);
  url.searchParams.set('limit', String(pageSize));
  url.searchParams.set('page', String(page));
  return url.toString();
}

export async function fetchStoreFeed<T = FeedProduct>(endpoint: string, options: FeedOptions<T> = {}): Promise<FeedResult<T>> {
  const run = startRun(options as FeedOptions<unknown>);
  if (!isWebUrl(endpoint)) throw new FeedError(`Page 1: ${endpoint} is not an http(s) address`, 1);
  const seenIds = new Set<string>();
  const products: T[] = [];
  let repeated = 0;
  let capped = false;
  for (let page = 1; ; page++) {
    run.signal?.throwIfAborted();
    const url = feedPageUrl(endpoint, page, run.pageSize);
    const full = products.length === run.maxProducts;
    let entries: PageEntry[];
    try {
      entries = await fetchPage(url, page, run);
    } catch (error) {
      // At the cap this page only tells whether more products follow; failing to read it must not
      // sink a run that already holds all it may keep. Not knowing counts as capped (archive nothing).
      if (!full || !(error instanceof FeedError)) throw error;
      run.notify('warn', `${error.message}; the ${run.maxProducts.toLocaleString('en-US')} products already read are kept, and the store counts as larger than that`);
      return { products, retrieved: products.length, pages: page - 1, repeated, capped: true };
    }
    let withoutId = 0;
    let repeatedHere = 0;
    let newHere = 0;
    for (const entry of entries) {
      if (!entry) {
        withoutId++;
        continue;
      }
      const { id } = entry;
      if (seenIds.has(id)) {
        repeatedHere++;
        continue;
      }
      if (products.length === run.maxProducts) {
        capped = true;
        break;
      }
      seenIds.add(id);
      products.push(entry.kept as T);
      newHere++;
    }
    repeated += repeatedHere;
    if (withoutId > 0) run.notify('warn', `Page ${page}: ${count(withoutId, 'entry', 'entries')} without a product id skipped`);
    if (repeatedHere > 0) run.notify('info', `Page ${page}: ${count(repeatedHere, 'product')} already seen on an earlier page skipped`);
    await run.onPage?.({ page, url, products: entries.length, held: products.length });

    const feedEnded = entries.length < run.pageSize;
    // A full page that ends exactly at the cap: the next page says whether the store is larger.
    if (capped) {
      run.notify('warn', `Page ${page}: stopped at ${run.maxProducts.toLocaleString('en-US')} products, the most one sync reads; the rest of the feed was not read`);
      return { products, retrieved: products.length, pages: page, repeated, capped };
    }
    if (feedEnded) return { products, retrieved: products.length, pages: page, repeated, capped };
    if (newHere === 0) {
      // Some stores (or apps in front of them) ignore `page` and send the first page forever.
      run.notify('warn', `Page ${page}: a full page with no new products; the store seems to ignore paging, so the feed ends here`);
      return { products, retrieved: products.length, pages: page, repeated, capped };
    }
  }
}

function startRun(options: FeedOptions<unknown>): Run {
  const whole = (name: string, value: number, least: number, most = Number.MAX_SAFE_INTEGER): number => {
    if (!Number.isInteger(value) || value < least || value > most) throw new RangeError(`${name} must be a whole number from ${least} to ${most}, not ${value}`);
    return value;
  };
  const onNotice = options.onNotice;
  return {
    pageSize: whole('pageSize', options.pageSize ?? SHOPIFY_MAX_PAGE_SIZE, 1, SHOPIFY_MAX_PAGE_SIZE),
    maxProducts: whole('maxProducts', options.maxProducts ?? 25_000, 1),
    maxFeedBytes: whole('maxFeedBytes', options.maxFeedBytes ?? 256 * 1024 * 1024, 1),
    feedBytes: 0,
    keep: options.keep ?? ((product) => product),
    timeoutMs: whole('timeoutMs', options.timeoutMs ?? 30_000, 1),
    maxRedirects: whole('maxRedirects', options.maxRedirects ?? 5, 0),
    maxPageBytes: whole('maxPageBytes', options.maxPageBytes ?? 25 * 1024 * 1024, 1),
    maxAttempts: whole('maxAttempts', options.maxAttempts ?? 5, 1),
    retryBaseMs: whole('retryBaseMs', options.retryBaseMs ?? 1_000, 0),
    retryMaxMs: whole('retryMaxMs', options.retryMaxMs ?? 60_000, 0),
    userAgent: options.userAgent ?? 'StylistSync/1.0 (+https://github.com/stylist)',
    outbound: options.outbound ?? outboundClient(false),
    signal: options.signal,
    onPage: options.onPage,
    notify: (level, message) => onNotice?.({ level, message }),
    redirectsNoted: new Set(),
  };
}

async function fetchPage(url: string, page: number, run: Run): Promise<PageEntry[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await attemptPage(url, page, run);
    } catch (error) {
      if (!(error instanceof PassingFailure)) throw error;
      if (attempt >= run.maxAttempts) throw new FeedError(`Page ${page}: ${error.message} after ${count(attempt, 'attempt')}`, page, error.status);
      const wait = error.retryAfterMs !== undefined ? Math.min(error.retryAfterMs, run.retryMaxMs) : backOffMs(attempt, run);
      run.notify('warn', `Page ${page}: ${error.message}, retrying in ${formatDuration(wait)} (attempt ${attempt + 1} of ${run.maxAttempts})`);
      await sleep(wait, run.signal);
    }
  }
}

/** One attempt at a page: redirects followed, the answer checked, the products list returned. */
async function attemptPage(url: string, page: number, run: Run): Promise<PageEntry[]> {
  const timeout = AbortSignal.timeout(run.timeoutMs);
  const signal = run.signal ? AbortSignal.any([run.signal, timeout]) : timeout;
  try {
    const response = await followRedirects(url, page, signal, run);
    if (!response.ok) {
      discard(response);
      throw failureFor(response, page);
    }
    const mediaType = response.headers.get('content-type')?.split(';')[0]!.trim().toLowerCase();
    if (mediaType !== undefined && !isJson(mediaType)) {
      discard(response);
      throw new FeedError(`Page ${page}: the store answered with ${mediaType || 'an empty content type'}, not JSON (is the store password-protected?)`, page);
    }
    return await readProducts(response, page, run);
  } catch (error) {
    if (run.signal?.aborted) throw run.signal.reason;
    if (error instanceof FeedError || error instanceof PassingFailure) throw error;
    if (timeout.aborted) throw new PassingFailure(`no answer within ${formatDuration(run.timeoutMs)}`);
    throw networkFailure(error, page);
  }
}

async function followRedirects(start: string, page: number, signal: AbortSignal, run: Run): Promise<Response> {
  let url = start;
  for (let redirects = 0; ; redirects++) {
    const response = await run.outbound.fetch(url, { signal, headers: { accept: 'application/json', 'user-agent': run.userAgent } }).catch((error: unknown) => {
      // Not the store misbehaving: an address Stylist does not fetch; asking again would change nothing.
      throw error instanceof OutboundRefused ? new FeedError(`Page ${page}: ${error.message}`, page) : error;
    });
    if (!REDIRECT_STATUSES.has(response.status)) return response;
    discard(response);
    const location = response.headers.get('location');
    if (!location) throw new FeedError(`Page ${page}: HTTP ${response.status} redirect without a Location`, page);
    if (redirects >= run.maxRedirects) throw new FeedError(`Page ${page}: too many redirects (more than ${run.maxRedirects})`, page);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new FeedError(`Page ${page}: redirected to ${location}, which is not an address`, page);
    }
    if (!isWebUrl(next.href)) throw new FeedError(`Page ${page}: redirected to ${next.protocol} ${next.href}; only http and https are followed`, page);
    const from = withoutQuery(url);
    const to = withoutQuery(next.href);
    if (!run.redirectsNoted.has(`${response.status} ${from} ${to}`)) {
      run.redirectsNoted.add(`${response.status} ${from} ${to}`);
      run.notify('info', `Page ${page}: followed a ${response.status} redirect from ${from} to ${to}`);
    }
    url = next.href;
  }
}

function failureFor(response: Response, page: number): Error {
  const status = response.status;
  const said = `HTTP ${status} ${response.statusText || STATUS_CODES[status] || ''}`.trim();
  if (status === 429 || status >= 500) return new PassingFailure(said, status, retryAfterMs(response.headers.get('retry-after')));
  const hint =
    status === 404 ? ' (check the store address: the feed is not there, or the store is password-protected)'
    : status === 401 || status === 403 ? ' (the store refused the feed: it may be password-protected or blocking robots)'
    : '';
  return new FeedError(`Page ${page}: ${said}${hint}`, page, status);
}

function networkFailure(error: unknown, page: number): Error {
  const code = errorCode(error);
  const message = deepestMessage(error);
  const known = code ? PASSING_NETWORK_ERRORS[code] : undefined;
  if (known) return new PassingFailure(`${known} (${code})`);
  if (/socket hang up|other side closed/i.test(message)) return new PassingFailure(message);
  return new FeedError(`Page ${page}: could not reach the store (${code ? `${code}: ` : ''}${message})`, page);
}

/** One entry of a page: its id and what `keep` made of it, or null for an entry without a usable id. */
type PageEntry = { id: string; kept: unknown } | null;

/** Containers nested deeper than this in a page are read as empty: a product has 5 levels or so. */
const MAX_PAGE_DEPTH = 36;

/**
 * The page's products, each reduced by `keep` as it completes; the page's bytes are counted
 * against both caps as they arrive. Malformed JSON is not retried. A body cut short in transit
 * already fails as a network error (undici rejects a body that ends before its Content-Length or
 * final chunk) and is retried there; a body that arrived whole but does not parse is what the
 * store serves, and asking again would only get it again.
 */
async function readProducts(response: Response, page: number, run: Run): Promise<PageEntry[]> {
  const pageTooLarge = () => new FeedError(`Page ${page}: the answer is larger than ${formatBytes(run.maxPageBytes)}`, page);
  const feedTooLarge = () => new FeedError(`Page ${page}: the feed is larger than ${formatBytes(run.maxFeedBytes)} in all, the most one sync reads (the operator's SYNC_MAX_FEED_MB)`, page);
  const declared = Number(response.headers.get('content-length'));
  if (declared > run.maxPageBytes || run.feedBytes + declared > run.maxFeedBytes) {
    discard(response);
    throw declared > run.maxPageBytes ? pageTooLarge() : feedTooLarge();
  }
  // Each product reduced by `keep` as it completes; a products list seen twice counts as its last, as JSON.parse reads it.
  const entries: PageEntry[] = [];
  const parser = new JsonLists(['products'], {
    startList: () => void (entries.length = 0),
    entry: (_key, product) => void entries.push(hasProductId(product) ? { id: String(product.id), kept: run.keep(product) } : null),
  }, MAX_PAGE_DEPTH);
  const reader = response.body?.getReader();
  let received = 0;
  // TextDecoder drops a leading byte-order mark, which some exported feeds carry, and joins characters split across chunks.
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = reader ? await reader.read() : { done: true, value: undefined };
      if (done) break;
      received += value.byteLength;
      if (received > run.maxPageBytes || run.feedBytes + received > run.maxFeedBytes) {
        reader!.cancel().catch(() => {});
        throw received > run.maxPageBytes ? pageTooLarge() : feedTooLarge();
      }
      parser.write(decoder.decode(value, { stream: true }));
    }
    parser.write(decoder.decode());
    parser.end();
  } catch (error) {
    if (!(error instanceof InvalidJson)) throw error;
    reader?.cancel().catch(() => {});
    const reason = error.message;
    throw new FeedError(`Page ${page}: the answer is not valid JSON (${reason.length > 120 ? `${reason.slice(0, 120)}…` : reason})`, page);
  }
  if (parser.root !== 'object' || !parser.isList('products')) throw new FeedError(`Page ${page}: the answer has no products list`, page);
  run.feedBytes += received;
  return entries;
}

function hasProductId(entry: unknown): entry is FeedProduct {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return false;
  const id = (entry as { id?: unknown }).id;
  return (typeof id === 'string' && id.trim() !== '') || (typeof id === 'number' && Number.isFinite(id));
}

/** Half the exponential step plus a random half: retries from many syncs spread out instead of arriving together. */
function backOffMs(failedAttempt: number, run: Run): number {
  const step = Math.min(run.retryMaxMs, run.retryBaseMs * 2 ** (failedAttempt - 1));
  return Math.round(step / 2 + (Math.random() * step) / 2);
}
