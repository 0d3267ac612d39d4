// Configuration from the environment (document 3 §1), parsed with zod. Any bad value stops
// start-up with one line naming the variable; nothing else is read from the environment.
import { BlockList, isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

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
  DEMO_KEY: z.preprocess((v) => v || 'sgpt-pk-demo', z.string().regex(/^sgpt-pk-[A-Za-z0-9]+$/, 'must look like a public key: sgpt-pk- followed by letters and digits')),
  DEMO_QUOTA: integer(10_000, 0, Number.MAX_SAFE_INTEGER),
  DEMO_RPM: integer(60, 1, 1_000_000),
  STYLIST_SECRET: optional(z.string().min(32, 'must be at least 32 characters')),
  BASE_URL: optional(url(['http', 'https'], 'https://stylist.example.com')),
  TRUST_PROXY: trustProxy,
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
  QUEUE_MAX_IN_FLIGHT: integer(1000, 1, 100_000),
  PROJECTION_LAG_LIMIT_SECONDS: integer(30, 1, 86_400),
  OUTBOUND_ALLOW_PRIVATE: flag(false),
  AGENT_CONCURRENCY: integer(16, 1, 256),
  AGENT_MAX_PER_ORGANIZATION: integer(32, 1, 1_000),
  AGENT_TURN_TIMEOUT_SECONDS: integer(120, 1, 3_600),
  AGENT_PICKUP_TIMEOUT_SECONDS: integer(15, 1, 600),
  AGENT_HEARTBEAT_MS: integer(1_000, 50, 60_000),
  AGENT_SILENCE_MS: integer(3_000, 100, 300_000),
  STYLIST_CHAT_TIMEOUT_SECONDS: integer(60, 1, 600),
  STYLIST_CHAT_RETRIES: integer(3, 0, 10),
  STYLIST_CHAT_REASONING: flag(false),
});

export type Environment = z.infer<typeof environment>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  eventStoreUrl?: string;
  natsUrl?: string;
  natsPrefix: string;
  s3?: { endpoint: string; accessKey: string; secretKey: string; bucket: string };
  openai?: { apiKey?: string; baseUrl?: string; chatModel?: string; embeddingModel?: string; visionModel?: string };
  demo: { key: string; quota: number; rpm: number };
  /** Absent on the embedded default: generated once and kept under DATA_DIR. */
  secret?: string;
  baseUrl: string;
  /** false, a hop count, or the trusted proxies' addresses and CIDRs (fastify's trustProxy). */
  trustProxy: false | number | string[];
  logLevel: Environment['LOG_LEVEL'];
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
  queue: {
    /** Messages of one subject unacknowledged at once across every process (JetStream max_ack_pending). */
    maxInFlight: number;
  };
  projections: {
    /** `/readyz` answers 503 when a projection's oldest unapplied event is older than this. */
    lagLimitSeconds: number;
  };
  outbound: {
    /** Store feeds and photos may be fetched from loopback, private and link-local addresses (tests and local setups). */
    allowPrivate: boolean;
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
    databaseUrl: e.DATABASE_URL,
    eventStoreUrl: e.EVENTSTORE_URL,
    natsUrl: e.NATS_URL,
    natsPrefix: e.NATS_PREFIX,
    s3: e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT, accessKey: e.S3_ACCESS_KEY!, secretKey: e.S3_SECRET_KEY!, bucket: e.S3_BUCKET! } : undefined,
    openai: Object.values(openai).some(Boolean) ? openai : undefined,
    demo: { key: e.DEMO_KEY, quota: e.DEMO_QUOTA, rpm: e.DEMO_RPM },
    secret: e.STYLIST_SECRET,
    baseUrl: (e.BASE_URL ?? `http://${hostForUrl}:${e.PORT}`).replace(/\/+$/, ''),
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
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
    queue: { maxInFlight: e.QUEUE_MAX_IN_FLIGHT },
    projections: { lagLimitSeconds: e.PROJECTION_LAG_LIMIT_SECONDS },
    outbound: { allowPrivate: e.OUTBOUND_ALLOW_PRIVATE },
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
