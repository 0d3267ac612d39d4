// Configuration from the environment (document 3 §1), parsed with zod. Any bad value stops
// start-up with one line naming the variable; nothing else is read from the environment.
import { BlockList, isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_DEMO_COUNT } from '../../domain/demo-catalogue/generate.js';

const optional = (schema: z.ZodType<string>) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const url = (schemes: string[], example: string) =>
  z.string().refine(
    (value) => {
      try {
        return schemes.includes(new URL(value).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    },
    { message: `must be a ${schemes.map((s) => `${s}://`).join(' or ')} URL, for example ${example}` },
  );

// Exactly what @eventstore/db-client 6 parses (its parseConnectionString, case-sensitive):
// kurrentdb:// belongs to the newer KurrentDB client and fails there, so it fails here first.
const eventStoreUrl = z.string().superRefine((value, context) => {
  const scheme = /^([^:]+):\/\//.exec(value.trim())?.[1];
  if (scheme === 'esdb' || scheme === 'esdb+discover') return;
  const known = scheme?.toLowerCase().startsWith('kurrent')
    ? `${scheme}:// is not accepted by the EventStoreDB client of this build (@eventstore/db-client 6); `
    : '';
  context.addIssue({ code: 'custom', message: `must be an esdb:// or esdb+discover:// URL (${known}for example esdb://127.0.0.1:2113?tls=false)` });
});

const integer = (fallback: number, min: number, max: number) =>
  z.preprocess(
    (value) => (value === undefined || value === '' ? fallback : value),
    z.coerce
      .number({ message: `must be a whole number from ${min} to ${max}` })
      .int(`must be a whole number from ${min} to ${max}`)
      .min(min, `must be a whole number from ${min} to ${max}`)
      .max(max, `must be a whole number from ${min} to ${max}`),
  );

/** true or false (1/0, yes/no also), any case; unset or empty is the fallback. */
const flag = (fallback: boolean) =>
  z.preprocess(
    (value) => (value === undefined || value === '' ? String(fallback) : String(value).trim().toLowerCase()),
    z.enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' }).transform((value) => value === 'true' || value === '1' || value === 'yes'),
  );

const TRUST_PROXY_MESSAGE =
  'must be false, the number of proxies in front of the service (1 to 10), or their addresses or CIDRs separated by commas (e.g. 10.0.0.0/8,127.0.0.1)';

/** An address or CIDR that proxy-addr (fastify's trustProxy) understands. */
const isAddressOrCidr = (entry: string): boolean => {
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  const prefix = Number(bits);
  if (!/^\d{1,3}$/.test(bits) || prefix > (family === 4 ? 32 : 128)) return false;
  // BlockList refuses what proxy-addr would also refuse.
  try {
    new BlockList().addSubnet(address!, prefix, family === 4 ? 'ipv4' : 'ipv6');
    return true;
  } catch {
    return false;
  }
};

// `true` would trust every hop: behind a proxy that appends to X-Forwarded-For, the client's own
// first entry would become its address. A hop count or the proxies' addresses cannot be fooled so.
const trustProxy = z.preprocess(
  (value) => (value === undefined ? '' : String(value).trim().toLowerCase()),
  z.string().transform((value, context): false | number | string[] => {
    if (value === '' || value === 'false' || value === '0' || value === 'no') return false;
    if (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 10) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    if (value !== 'true' && entries.every(isAddressOrCidr)) return entries;
    context.addIssue({ code: 'custom', message: TRUST_PROXY_MESSAGE });
    return z.NEVER;
  }),
);

const environment = z.object({
  PORT: integer(3000, 0, 65535),
  HOST: z.preprocess((v) => v || '127.0.0.1', z.string().regex(/^[A-Za-z0-9.:\-[\]]+$/, 'must be a host name or IP address')),
  DATA_DIR: z.preprocess((v) => v || './.stylist', z.string()),
  DATABASE_URL: optional(url(['postgres', 'postgresql'], 'postgres://user:password@127.0.0.1:5432/stylist')),
  EVENTSTORE_URL: optional(eventStoreUrl),
  NATS_URL: optional(url(['nats', 'tls'], 'nats://127.0.0.1:4222')),
  // Namespaces the JetStream streams and consumers: several deployments (or test runs) can share one NATS.
  NATS_PREFIX: z.preprocess((v) => v || 'stylist', z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1 to 32 letters, digits, _ or -')),
  S3_ENDPOINT: optional(url(['http', 'https'], 'http://127.0.0.1:9000')),
  S3_ACCESS_KEY: optional(z.string()),
  S3_SECRET_KEY: optional(z.string()),
  S3_BUCKET: optional(z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name (3 to 63 lower-case letters, digits, dots, dashes)')),
  OPENAI_API_KEY: optional(z.string()),
  OPENAI_BASE_URL: optional(url(['http', 'https'], 'https://api.openai.com/v1')),
  STYLIST_CHAT_MODEL: optional(z.string()),
  STYLIST_EMBEDDING_MODEL: optional(z.string()),
  STYLIST_VISION_MODEL: optional(z.string()),
  STYLIST_IMAGE_MODEL: optional(z.string()),
  STYLIST_IMAGE_TIMEOUT_SECONDS: integer(45, 1, 600),
  LOOKS_RENDER_SLOTS: integer(0, 0, 256),
  LOOKS_RENDER_QUEUE: integer(64, 0, 10_000),
  DEMO_KEY: z.preprocess((v) => v || 'sgpt-pk-demo', z.string().regex(/^sgpt-pk-[A-Za-z0-9]+$/, 'must look like a public key: sgpt-pk- followed by letters and digits')),
  DEMO_QUOTA: integer(10_000, 0, Number.MAX_SAFE_INTEGER),
  DEMO_RPM: integer(60, 1, 1_000_000),
  DEMO_SEED: flag(true),
  DEMO_PRODUCTS: integer(DEFAULT_DEMO_COUNT, 1, DEFAULT_DEMO_COUNT),
  STYLIST_SECRET: optional(z.string().min(32, 'must be at least 32 characters')),
  BASE_URL: optional(url(['http', 'https'], 'https://stylist.example.com')),
  TRUST_PROXY: trustProxy,
  LOG_FORMAT: z.preprocess((v) => v || 'auto', z.enum(['auto', 'pretty', 'json'], { message: 'must be one of auto, pretty, json' })),
  LOG_LEVEL: z.preprocess((v) => v || 'info', z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { message: 'must be one of fatal, error, warn, info, debug, trace, silent' })),
  SYNC_HEARTBEAT_TIMEOUT_SECONDS: integer(1200, 2, 86_400),
  SYNC_SCHEDULER_INTERVAL_SECONDS: integer(30, 1, 3_600),
  SYNC_CONCURRENCY: integer(4, 1, 16),
  SYNC_MAX_FEED_MB: integer(256, 1, 4096),
  SYNC_MAX_PRODUCTS: integer(25_000, 1, 25_000),
  SYNC_MAX_PER_ORGANIZATION: integer(1, 1, 16),
  SYNC_RETRY_DELAY_MS: integer(5_000, 0, 600_000),
  SYNC_DEADLINE_SECONDS: integer(1800, 1, 86_400),
  INGEST_MAX_PER_ORGANIZATION: integer(16, 1, 1_000),
  INGEST_PHOTO_TIMEOUT_MS: integer(10_000, 100, 120_000),
  INGEST_RETRY_DELAY_MS: integer(2_000, 0, 600_000),
  UPLOAD_BUDGET_MB: integer(16, 1, 1024),
  UPLOAD_ORGANIZATION_SHARE_PERCENT: integer(50, 10, 100),
  UPLOAD_DEADLINE_SECONDS: integer(120, 1, 3_600),
  UPLOAD_MIN_KB_PER_SECOND: integer(8, 0, 1_000_000),
  UPLOAD_SLOW_WINDOW_SECONDS: integer(10, 1, 600),
  HTTP_REQUEST_TIMEOUT_SECONDS: integer(150, 1, 3_600),
  HTTP_HEADERS_TIMEOUT_SECONDS: integer(20, 1, 600),
  ADMIN_ANSWER_SECONDS: integer(10, 2, 600),
  QUEUE_MAX_IN_FLIGHT: integer(1000, 1, 100_000),
  PROJECTION_LAG_LIMIT_SECONDS: integer(30, 1, 86_400),
  ANALYTICS_TIMEZONE_WAIT_MS: integer(5_000, 0, 60_000),
  OUTBOUND_ALLOW_PRIVATE: flag(false),
  AGENT_CONCURRENCY: integer(16, 1, 256),
  AGENT_MAX_PER_ORGANIZATION: integer(32, 1, 1_000),
  AGENT_TURN_TIMEOUT_SECONDS: integer(120, 1, 3_600),
  AGENT_PICKUP_TIMEOUT_SECONDS: integer(15, 1, 600),
  AGENT_HEARTBEAT_MS: integer(1_000, 50, 60_000),
  AGENT_SILENCE_MS: integer(3_000, 100, 300_000),
  CHAT_MAX_PER_ORGANIZATION: integer(10_000, 1, 10_000_000),
  STYLIST_CHAT_TIMEOUT_SECONDS: integer(60, 1, 600),
  STYLIST_CHAT_RETRIES: integer(3, 0, 10),
  STYLIST_CHAT_REASONING: flag(false),
  MATCH_VISION_TIMEOUT_SECONDS: integer(8, 1, 120),
  MATCH_SLOTS: integer(0, 0, 256),
  MATCH_MAX_QUEUED: integer(8, 0, 1_000),
  IMAGE_TRANSFORM_SLOTS: integer(0, 0, 256),
  IMAGE_TRANSFORM_SLOTS_PER_ADDRESS: integer(0, 0, 256),
  IMAGE_AVIF_SLOTS: integer(1, 1, 256),
  IMAGE_AVIF_COST: integer(4, 1, 1_000),
  IMAGE_AVIF_EFFORT: integer(0, 0, 9),
  IMAGE_QUEUE: integer(256, 0, 100_000),
  IMAGE_QUEUE_PER_ADDRESS: integer(32, 0, 100_000),
  IMAGE_VARIANTS_PER_MINUTE: integer(120, 1, 1_000_000),
  IMAGE_VARIANT_BURST: integer(60, 1, 1_000_000),
  IMAGE_VARIANTS_MAX_MB: integer(2048, 1, 100_000_000),
  IMAGE_CACHE_MB: integer(64, 0, 65_536),
  IMAGE_ORIGINAL_READS: integer(4, 1, 1_024),
  SEARCH_MEMORY_MB: integer(512, 16, 1_048_576),
  EVENTS_SESSION_RPM: integer(120, 1, 100_000),
  EVENTS_ADDRESS_RPM: integer(1_200, 1, 10_000_000),
  EVENTS_MAX_VALUE: integer(100_000_000, 1, 1_000_000_000),
  EVENTS_MAX_SESSION_REVENUE: integer(100_000_000, 1, 100_000_000_000),
  EVENTS_SESSION_CHECK_SECONDS: integer(5, 0, 10),
});

export type Environment = z.infer<typeof environment>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** How long a `stylist` command waits for a running server to take it over its admin channel. */
  adminAnswerMs: number;
  databaseUrl?: string;
  eventStoreUrl?: string;
  natsUrl?: string;
  natsPrefix: string;
  s3?: { endpoint: string; accessKey: string; secretKey: string; bucket: string };
  openai?: { apiKey?: string; baseUrl?: string; chatModel?: string; embeddingModel?: string; visionModel?: string };
  /** `seedAtStart`: the embedded default loads the demo catalogue when it starts (DEMO_SEED). */
  /** `products`: how many of the demo catalogue's products are loaded (the first ones; DEMO_PRODUCTS). */
  demo: { key: string; quota: number; rpm: number; seedAtStart: boolean; products: number };
  /** Absent on the embedded default: generated once and kept under DATA_DIR. */
  secret?: string;
  baseUrl: string;
  /** false, a hop count, or the trusted proxies' addresses and CIDRs (fastify's trustProxy). */
  trustProxy: false | number | string[];
  logLevel: Environment['LOG_LEVEL'];
  /** `auto`: readable lines on a terminal, JSON otherwise. */
  logFormat: Environment['LOG_FORMAT'];
  sync: {
    /** A processing job whose worker is silent this long goes back to pending (document 1: 20 minutes). */
    heartbeatTimeoutMs: number;
    /** How often the scheduler looks for due sources, stale jobs and expired jobs. */
    schedulerIntervalMs: number;
    /** Sync jobs one process runs at once. */
    concurrency: number;
    /** The bytes of a store's feed, every page together, one run reads; past it the run fails. */
    maxFeedBytes: number;
    /** Distinct products one run reads (document 1: 25,000); past it the run is capped and archives nothing. */
    maxProducts: number;
    /** Sync jobs of one organization running at once across every process (workers/sync/slots.ts). */
    maxPerOrganization: number;
    /** Before a sync run that broke is tried again. */
    retryDelayMs: number;
    /** A run still going after this long stops and its job fails: one slow store cannot hold a slot for ever. */
    deadlineMs: number;
  };
  ingest: {
    /** Items of one organization processed at once across every process; organizations with waiting items take turns. */
    maxPerOrganization: number;
    /** A photo whose server has not finished answering by then is skipped (the item is processed without it). */
    photoTimeoutMs: number;
    /** Before an item that failed is tried again. */
    retryDelayMs: number;
  };
  /** Bytes of upload bodies one process reads and works on at once; more wait their turn (api/body-budget.ts). */
  uploadBudgetBytes: number;
  /** How big bodies (uploads, chat photos) are read (api/body-budget.ts). */
  uploadLimits: {
    /** Of uploadBudgetBytes, what one organization's bodies hold together. */
    perOrganization: number;
    /** A body still arriving after this long is cut off with 408. */
    deadlineMs: number;
    /** After the first window, a body slower than this over a window is cut off with 408 (0: no minimum). */
    minBytesPerSecond: number;
    windowMs: number;
  };
  /** Node's HTTP server: the whole request, and its headers, must have arrived within these (else 408 and the connection closes). */
  serverTimeouts: { requestMs: number; headersMs: number };
  queue: {
    /** Messages of one subject unacknowledged at once across every process (JetStream max_ack_pending). */
    maxInFlight: number;
  };
  projections: {
    /** `/readyz` answers 503 when a projection's oldest unapplied event is older than this. */
    lagLimitSeconds: number;
    /**
     * PATCH /v1/organization with a new reporting timezone waits at most this long for the analytics
     * count in the new timezone to replace the old one; a longer replay answers `rebuilding: true`.
     */
    analyticsTimezoneWaitMs: number;
  };
  outbound: {
    /** Store feeds and photos may be fetched from loopback, private and link-local addresses (tests and local setups). */
    allowPrivate: boolean;
  };
  looks: {
    /** POST /v2/agent/looks asks this OpenAI-compatible images model (images/edits); without one the offline composition is the picture. */
    imageModel?: { model: string; apiKey?: string; baseUrl?: string };
    /** One image model call; past it the offline composition is answered. */
    imageTimeoutMs: number;
    /** Looks drawn at once in one API process (0: its cores). */
    renderSlots: number;
    /** Looks waiting for a slot before 503 (one organization: half of it). */
    renderQueue: number;
  };
  agent: {
    /** Turns one agent worker process runs at once. */
    concurrency: number;
    /** Turns of one organization running at once across every agent process; its others wait their turn. */
    maxPerOrganization: number;
    /** A turn still running after this long ends with an `error` event. */
    turnTimeoutMs: number;
    /** A turn no agent worker has taken after this long ends with an `error` event (no worker running, or all busy). */
    pickupTimeoutMs: number;
    /** How often a worker says it is still on a turn. */
    heartbeatMs: number;
    /** A worker silent this long (no frame, no heartbeat) is taken for dead: the shopper gets an `error` event. */
    silenceMs: number;
    /** One call to an OpenAI-compatible chat model, retries included. */
    chatTimeoutMs: number;
    chatRetries: number;
    /** Send `reasoning_effort` for the thinking levels (servers that take it). */
    chatReasoning: boolean;
    /** POST /v2/agent/match: the vision model's call, after which the photo is read offline. */
    matchTimeoutMs: number;
    /** Photos read at once (undefined: one per core), and waiting before a 503. */
    matchSlots?: number;
    matchMaxQueued: number;
    /** v1 chats one organization may hold at once (deleted ones give their place back). */
    maxChats: number;
  };
  /** GET /v1/image: what anyone may make the service transform and keep (infra/images/variants.ts). */
  images: {
    /** Transforms running at once in this process; undefined: one per core. */
    slots?: number;
    /** Of those, one client address at most; undefined: half the slots, at least one. */
    slotsPerAddress?: number;
    /** AVIF transforms running at once, each inside a slot. */
    avifSlots: number;
    /** New-variant tokens an AVIF variant takes. */
    avifCost: number;
    /** AVIF encoder effort, 0 (fastest) to 9. */
    avifEffort: number;
    /** Transforms waiting for a slot, in all and per address. */
    maxQueued: number;
    maxQueuedPerAddress: number;
    /** New variants (cache misses) per client address: refilled per minute, and at most this many at once. */
    missesPerMinute: number;
    missBurst: number;
    /** Bytes kept variants may take in the object store; least recently used are evicted. */
    variantBudgetBytes: number;
    /** Bytes of recently served images kept in memory. */
    cacheBytes: number;
    /** Originals streamed from the object store into sharp at once (each held in memory while it is decoded). */
    originalReads: number;
  };
  /** The search memory of each process that searches (projections/search-memory.ts). */
  search: {
    /** Bytes its datasets may hold, by its own estimate; past it the least recently searched go. */
    memoryBytes: number;
  };
  /** POST /v1/events (api/routes/events.ts, domain/session/admission.ts). */
  events: {
    /** Requests one widget session may send a minute. */
    sessionRpm: number;
    /** Requests one client address may send a minute, all sessions together. */
    addressRpm: number;
    /** The largest `value` of one event, in major units; past it the request is a 422. */
    maxValue: number;
    /** One session's counted purchases per currency, in major units; purchases past it are recorded but not counted. */
    maxSessionRevenue: number;
    /** How long a session's key and organization are trusted to be live (at most 10 s): a deletion stops its sessions within it. */
    sessionCheckMs: number;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the configuration; throws ConfigError whose message is the one line to print. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = environment.safeParse(pick(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      const got = env[name];
      return `${name} ${issue.message}${got === undefined ? '' : ` (got ${JSON.stringify(redactValue(name, got))})`}`;
    });
    throw new ConfigError(`configuration error: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const s3Fields = ['S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_BUCKET'] as const;
  if (e.S3_ENDPOINT) {
    const missing = s3Fields.filter((name) => !e[name]);
    if (missing.length) throw new ConfigError(`configuration error: ${missing.join(', ')} must be set when S3_ENDPOINT is set`);
  } else {
    const stray = s3Fields.filter((name) => e[name]);
    if (stray.length) throw new ConfigError(`configuration error: S3_ENDPOINT must be set when ${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set`);
  }
  if (e.HTTP_REQUEST_TIMEOUT_SECONDS <= e.UPLOAD_DEADLINE_SECONDS) {
    throw new ConfigError('configuration error: HTTP_REQUEST_TIMEOUT_SECONDS must be more than UPLOAD_DEADLINE_SECONDS (an upload cut off by its deadline answers 408 with what it stored)');
  }
  if (e.HTTP_HEADERS_TIMEOUT_SECONDS > e.HTTP_REQUEST_TIMEOUT_SECONDS) {
    throw new ConfigError('configuration error: HTTP_HEADERS_TIMEOUT_SECONDS must be at most HTTP_REQUEST_TIMEOUT_SECONDS');
  }
  if (e.DATABASE_URL && !e.STYLIST_SECRET) {
    throw new ConfigError('configuration error: STYLIST_SECRET must be set when DATABASE_URL is set (every API process must share it)');
  }
  const openai = {
    apiKey: e.OPENAI_API_KEY,
    baseUrl: e.OPENAI_BASE_URL,
    chatModel: e.STYLIST_CHAT_MODEL,
    embeddingModel: e.STYLIST_EMBEDDING_MODEL,
    visionModel: e.STYLIST_VISION_MODEL,
  };
  const hostForUrl = e.HOST.includes(':') && !e.HOST.startsWith('[') ? `[${e.HOST}]` : e.HOST;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    adminAnswerMs: e.ADMIN_ANSWER_SECONDS * 1000,
    databaseUrl: e.DATABASE_URL,
    eventStoreUrl: e.EVENTSTORE_URL,
    natsUrl: e.NATS_URL,
    natsPrefix: e.NATS_PREFIX,
    s3: e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT, accessKey: e.S3_ACCESS_KEY!, secretKey: e.S3_SECRET_KEY!, bucket: e.S3_BUCKET! } : undefined,
    openai: Object.values(openai).some(Boolean) ? openai : undefined,
    demo: { key: e.DEMO_KEY, quota: e.DEMO_QUOTA, rpm: e.DEMO_RPM, seedAtStart: e.DEMO_SEED, products: e.DEMO_PRODUCTS },
    secret: e.STYLIST_SECRET,
    baseUrl: (e.BASE_URL ?? `http://${hostForUrl}:${e.PORT}`).replace(/\/+$/, ''),
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    sync: {
      heartbeatTimeoutMs: e.SYNC_HEARTBEAT_TIMEOUT_SECONDS * 1000,
      schedulerIntervalMs: e.SYNC_SCHEDULER_INTERVAL_SECONDS * 1000,
      concurrency: e.SYNC_CONCURRENCY,
      maxPerOrganization: e.SYNC_MAX_PER_ORGANIZATION,
      retryDelayMs: e.SYNC_RETRY_DELAY_MS,
      deadlineMs: e.SYNC_DEADLINE_SECONDS * 1000,
      maxFeedBytes: e.SYNC_MAX_FEED_MB * 1024 * 1024,
      maxProducts: e.SYNC_MAX_PRODUCTS,
    },
    ingest: { maxPerOrganization: e.INGEST_MAX_PER_ORGANIZATION, photoTimeoutMs: e.INGEST_PHOTO_TIMEOUT_MS, retryDelayMs: e.INGEST_RETRY_DELAY_MS },
    uploadBudgetBytes: e.UPLOAD_BUDGET_MB * 1024 * 1024,
    uploadLimits: {
      perOrganization: Math.floor((e.UPLOAD_BUDGET_MB * 1024 * 1024 * e.UPLOAD_ORGANIZATION_SHARE_PERCENT) / 100),
      deadlineMs: e.UPLOAD_DEADLINE_SECONDS * 1000,
      minBytesPerSecond: e.UPLOAD_MIN_KB_PER_SECOND * 1024,
      windowMs: e.UPLOAD_SLOW_WINDOW_SECONDS * 1000,
    },
    serverTimeouts: { requestMs: e.HTTP_REQUEST_TIMEOUT_SECONDS * 1000, headersMs: e.HTTP_HEADERS_TIMEOUT_SECONDS * 1000 },
    queue: { maxInFlight: e.QUEUE_MAX_IN_FLIGHT },
    projections: { lagLimitSeconds: e.PROJECTION_LAG_LIMIT_SECONDS, analyticsTimezoneWaitMs: e.ANALYTICS_TIMEZONE_WAIT_MS },
    outbound: { allowPrivate: e.OUTBOUND_ALLOW_PRIVATE },
    looks: {
      imageModel: e.STYLIST_IMAGE_MODEL ? { model: e.STYLIST_IMAGE_MODEL, apiKey: e.OPENAI_API_KEY, baseUrl: e.OPENAI_BASE_URL } : undefined,
      imageTimeoutMs: e.STYLIST_IMAGE_TIMEOUT_SECONDS * 1000,
      renderSlots: e.LOOKS_RENDER_SLOTS,
      renderQueue: e.LOOKS_RENDER_QUEUE,
    },
    agent: {
      concurrency: e.AGENT_CONCURRENCY,
      maxPerOrganization: e.AGENT_MAX_PER_ORGANIZATION,
      turnTimeoutMs: e.AGENT_TURN_TIMEOUT_SECONDS * 1000,
      pickupTimeoutMs: e.AGENT_PICKUP_TIMEOUT_SECONDS * 1000,
      heartbeatMs: e.AGENT_HEARTBEAT_MS,
      silenceMs: Math.max(e.AGENT_SILENCE_MS, e.AGENT_HEARTBEAT_MS * 2),
      chatTimeoutMs: e.STYLIST_CHAT_TIMEOUT_SECONDS * 1000,
      chatRetries: e.STYLIST_CHAT_RETRIES,
      chatReasoning: e.STYLIST_CHAT_REASONING,
      matchTimeoutMs: e.MATCH_VISION_TIMEOUT_SECONDS * 1000,
      matchSlots: e.MATCH_SLOTS || undefined,
      matchMaxQueued: e.MATCH_MAX_QUEUED,
      maxChats: e.CHAT_MAX_PER_ORGANIZATION,
    },
    images: {
      slots: e.IMAGE_TRANSFORM_SLOTS || undefined,
      slotsPerAddress: e.IMAGE_TRANSFORM_SLOTS_PER_ADDRESS || undefined,
      avifSlots: e.IMAGE_AVIF_SLOTS,
      avifCost: e.IMAGE_AVIF_COST,
      avifEffort: e.IMAGE_AVIF_EFFORT,
      maxQueued: e.IMAGE_QUEUE,
      maxQueuedPerAddress: e.IMAGE_QUEUE_PER_ADDRESS,
      missesPerMinute: e.IMAGE_VARIANTS_PER_MINUTE,
      missBurst: e.IMAGE_VARIANT_BURST,
      variantBudgetBytes: e.IMAGE_VARIANTS_MAX_MB * 1024 * 1024,
      cacheBytes: e.IMAGE_CACHE_MB * 1024 * 1024,
      originalReads: e.IMAGE_ORIGINAL_READS,
    },
    search: { memoryBytes: e.SEARCH_MEMORY_MB * 1024 * 1024 },
    events: {
      sessionRpm: e.EVENTS_SESSION_RPM,
      addressRpm: e.EVENTS_ADDRESS_RPM,
      maxValue: e.EVENTS_MAX_VALUE,
      maxSessionRevenue: e.EVENTS_MAX_SESSION_REVENUE,
      sessionCheckMs: e.EVENTS_SESSION_CHECK_SECONDS * 1000,
    },
  };
}

const pick = (env: Record<string, string | undefined>) =>
  Object.fromEntries(Object.keys(environment.shape).map((name) => [name, env[name]]));

const secretNames = new Set(['STYLIST_SECRET', 'S3_SECRET_KEY', 'OPENAI_API_KEY']);

// Secrets never reach a log line, not even a wrong one.
const redactValue = (name: string, value: string): string => {
  if (secretNames.has(name)) return '***';
  return value.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
};
