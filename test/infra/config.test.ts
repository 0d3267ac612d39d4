import t from 'tap';
import { EventStoreDBClient } from '@eventstore/db-client';
import { ConfigError, loadConfig } from '../../infra/config/config.js';

const fails = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
};

t.test('with nothing set the embedded defaults of document 3 §1 apply', async (t) => {
  const config = loadConfig({});
  t.equal(config.port, 3000);
  t.equal(config.host, '127.0.0.1');
  t.match(config.dataDir, /\/\.stylist$/);
  t.equal(config.databaseUrl, undefined);
  t.equal(config.eventStoreUrl, undefined);
  t.equal(config.natsUrl, undefined);
  t.equal(config.s3, undefined);
  t.equal(config.openai, undefined);
  t.same(config.demo, { key: 'sgpt-pk-demo', quota: 10000, rpm: 60, seedAtStart: true, products: 300 });
  t.equal(config.baseUrl, 'http://127.0.0.1:3000');
  t.equal(config.trustProxy, false);
});

t.test('TRUST_PROXY takes a hop count or the proxies\' addresses, never "every hop"', async (t) => {
  t.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
  t.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
  t.same(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8' }).trustProxy, ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']);
});

t.test('production variables switch each port to its server', async (t) => {
  const config = loadConfig({
    PORT: '8080',
    HOST: '0.0.0.0',
    DATABASE_URL: 'postgres://stylist:pw@db:5432/stylist',
    EVENTSTORE_URL: 'esdb://eventstore:2113?tls=false',
    NATS_URL: 'nats://nats:4222',
    S3_ENDPOINT: 'http://minio:9000',
    S3_ACCESS_KEY: 'access',
    S3_SECRET_KEY: 'secret',
    S3_BUCKET: 'stylist',
    STYLIST_SECRET: 'x'.repeat(40),
    BASE_URL: 'https://stylist.example.com/',
    OPENAI_API_KEY: 'sk-test',
    STYLIST_CHAT_MODEL: 'gpt-test',
    TRUST_PROXY: '1',
  });
  t.equal(config.port, 8080);
  t.equal(config.databaseUrl, 'postgres://stylist:pw@db:5432/stylist');
  t.equal(config.eventStoreUrl, 'esdb://eventstore:2113?tls=false');
  t.equal(config.natsUrl, 'nats://nats:4222');
  t.same(config.s3, { endpoint: 'http://minio:9000', accessKey: 'access', secretKey: 'secret', bucket: 'stylist' });
  t.equal(config.baseUrl, 'https://stylist.example.com', 'trailing slash dropped');
  t.equal(config.openai?.chatModel, 'gpt-test');
  t.equal(config.trustProxy, 1);
});

t.test('every bad value is refused with one line that names the variable', async (t) => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'abc' }, /^configuration error: PORT must be a whole number from 0 to 65535 \(got "abc"\)$/],
    [{ PORT: '70000' }, /^configuration error: PORT /],
    [{ PORT: '3.5' }, /^configuration error: PORT /],
    [{ DATABASE_URL: 'mysql://db/x', STYLIST_SECRET: 'x'.repeat(32) }, /^configuration error: DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/],
    [{ EVENTSTORE_URL: 'http://es:2113' }, /^configuration error: EVENTSTORE_URL must be an esdb:\/\/ or esdb\+discover:\/\/ URL/],
    [{ NATS_URL: 'not a url' }, /^configuration error: NATS_URL must be a nats:\/\/ or tls:\/\/ URL/],
    [{ S3_ENDPOINT: 'ftp://x' }, /^configuration error: S3_ENDPOINT /],
    [{ S3_ENDPOINT: 'http://minio:9000' }, /^configuration error: S3_ACCESS_KEY, S3_SECRET_KEY, S3_BUCKET must be set when S3_ENDPOINT is set$/],
    [{ S3_BUCKET: 'stylist' }, /^configuration error: S3_ENDPOINT must be set when S3_BUCKET is set$/],
    [{ S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b', S3_BUCKET: 'Bad_Bucket' }, /^configuration error: S3_BUCKET /],
    [{ OPENAI_BASE_URL: 'localhost:8080' }, /^configuration error: OPENAI_BASE_URL /],
    [{ DEMO_KEY: 'sgpt-sk-demo' }, /^configuration error: DEMO_KEY must look like a public key/],
    [{ DEMO_QUOTA: '-1' }, /^configuration error: DEMO_QUOTA /],
    [{ DEMO_RPM: 'lots' }, /^configuration error: DEMO_RPM /],
    [{ DEMO_SEED: 'maybe' }, /^configuration error: DEMO_SEED must be true or false/],
    [{ DEMO_PRODUCTS: '301' }, /^configuration error: DEMO_PRODUCTS /],
    [{ STYLIST_SECRET: 'short' }, /^configuration error: STYLIST_SECRET must be at least 32 characters \(got "\*\*\*"\)$/],
    [{ DATABASE_URL: 'postgres://db/x' }, /^configuration error: STYLIST_SECRET must be set when DATABASE_URL is set/],
    [{ BASE_URL: '/relative' }, /^configuration error: BASE_URL /],
    [{ TRUST_PROXY: 'maybe' }, /^configuration error: TRUST_PROXY must be false, the number of proxies in front of the service \(1 to 10\), or their addresses or CIDRs/],
    [{ TRUST_PROXY: 'true' }, /^configuration error: TRUST_PROXY must be false, the number of proxies/],
    [{ TRUST_PROXY: '11' }, /^configuration error: TRUST_PROXY /],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /^configuration error: TRUST_PROXY /],
    [{ TRUST_PROXY: '10.0.0.0/8,proxy.example' }, /^configuration error: TRUST_PROXY /],
    [{ LOG_LEVEL: 'loud' }, /^configuration error: LOG_LEVEL /],
    [{ OUTBOUND_ALLOW_PRIVATE: 'sometimes' }, /^configuration error: OUTBOUND_ALLOW_PRIVATE must be true or false \(got "sometimes"\)$/],
  ];
  for (const [env, expected] of cases) {
    const message = fails(env);
    t.match(message, expected, JSON.stringify(env));
    t.notOk(message.includes('\n'), 'one line');
  }
});

t.test('a refused URL never shows its password', async (t) => {
  const message = fails({ DATABASE_URL: 'mysql://admin:hunter2@db/x', STYLIST_SECRET: 'x'.repeat(32) });
  t.notOk(message.includes('hunter2'));
  t.match(message, /admin:\*\*\*@db/);
});

t.test('several bad values are all named on the same line', async (t) => {
  const message = fails({ PORT: 'x', NATS_URL: 'http://nats' });
  t.match(message, /PORT .*; NATS_URL /);
});

t.test('QUEUE_MAX_IN_FLIGHT is the cluster-wide in-flight limit, independent of SYNC_CONCURRENCY', async (t) => {
  t.equal(loadConfig({}).queue.maxInFlight, 1000);
  const config = loadConfig({ QUEUE_MAX_IN_FLIGHT: '4', SYNC_CONCURRENCY: '1' });
  t.same([config.queue.maxInFlight, config.sync.concurrency], [4, 1]);
  t.match(fails({ QUEUE_MAX_IN_FLIGHT: '0' }), /^configuration error: QUEUE_MAX_IN_FLIGHT .*\(got "0"\)/);
});

t.test('PROJECTION_LAG_LIMIT_SECONDS sets how far behind a projection may fall before /readyz says 503', async (t) => {
  t.equal(loadConfig({}).projections.lagLimitSeconds, 30);
  t.equal(loadConfig({ PROJECTION_LAG_LIMIT_SECONDS: '5' }).projections.lagLimitSeconds, 5);
  t.match(fails({ PROJECTION_LAG_LIMIT_SECONDS: '0' }), /^configuration error: PROJECTION_LAG_LIMIT_SECONDS must be a whole number from 1 to 86400 \(got "0"\)/);
  t.match(fails({ PROJECTION_LAG_LIMIT_SECONDS: 'soon' }), /PROJECTION_LAG_LIMIT_SECONDS/);
});

t.test('ANALYTICS_TIMEZONE_WAIT_MS bounds how long a change of reporting timezone waits for the analytics in it', async (t) => {
  t.equal(loadConfig({}).projections.analyticsTimezoneWaitMs, 5000);
  t.equal(loadConfig({ ANALYTICS_TIMEZONE_WAIT_MS: '0' }).projections.analyticsTimezoneWaitMs, 0, '0: never waits');
  t.match(fails({ ANALYTICS_TIMEZONE_WAIT_MS: '60001' }), /^configuration error: ANALYTICS_TIMEZONE_WAIT_MS must be a whole number from 0 to 60000 \(got "60001"\)/);
});

t.test('EVENTSTORE_URL accepts exactly the URLs the EventStoreDB client parses', async (t) => {
  const urls = [
    'esdb://127.0.0.1:2113?tls=false',
    'esdb://admin:changeit@es1:2113,es2:2113,es3:2113?tls=true&nodePreference=leader',
    'esdb+discover://cluster.example.com:2113',
    'kurrentdb://127.0.0.1:2113?tls=false',
    'kurrentdb+discover://cluster.example.com:2113',
    'kurrent://127.0.0.1:2113',
    'ESDB://127.0.0.1:2113',
    'http://127.0.0.1:2113',
    'tcp://127.0.0.1:1113',
  ];
  for (const url of urls) {
    let clientAccepts = true;
    try {
      // Parses the connection string; the client connects only on its first call.
      await EventStoreDBClient.connectionString(url).dispose();
    } catch {
      clientAccepts = false;
    }
    let configAccepts = true;
    try {
      loadConfig({ EVENTSTORE_URL: url });
    } catch {
      configAccepts = false;
    }
    t.equal(configAccepts, clientAccepts, `${url}: client ${clientAccepts ? 'accepts' : 'refuses'} it`);
  }
  t.match(
    fails({ EVENTSTORE_URL: 'kurrentdb://127.0.0.1:2113?tls=false' }),
    /^configuration error: EVENTSTORE_URL must be an esdb:\/\/ or esdb\+discover:\/\/ URL \(kurrentdb:\/\/ is not accepted by the EventStoreDB client of this build/,
  );
});

t.test('OUTBOUND_ALLOW_PRIVATE is off unless set to true', async (t) => {
  t.equal(loadConfig({}).outbound.allowPrivate, false);
  t.equal(loadConfig({ OUTBOUND_ALLOW_PRIVATE: '' }).outbound.allowPrivate, false);
  t.equal(loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'false' }).outbound.allowPrivate, false);
  t.equal(loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'true' }).outbound.allowPrivate, true);
  t.equal(loadConfig({ OUTBOUND_ALLOW_PRIVATE: ' TRUE ' }).outbound.allowPrivate, true);
  t.equal(loadConfig({ OUTBOUND_ALLOW_PRIVATE: '1' }).outbound.allowPrivate, true);
});

t.test('SYNC_MAX_FEED_MB and SYNC_MAX_PRODUCTS cap a sync run; the product cap cannot exceed document 1\'s 25,000', async (t) => {
  t.match(loadConfig({}).sync, { maxFeedBytes: 256 * 1024 * 1024, maxProducts: 25_000 });
  t.match(loadConfig({ SYNC_MAX_FEED_MB: '64', SYNC_MAX_PRODUCTS: '5000' }).sync, { maxFeedBytes: 64 * 1024 * 1024, maxProducts: 5000 });
  t.throws(() => loadConfig({ SYNC_MAX_PRODUCTS: '25001' }), { message: 'configuration error: SYNC_MAX_PRODUCTS must be a whole number from 1 to 25000 (got "25001")' });
  t.throws(() => loadConfig({ SYNC_MAX_FEED_MB: '0' }), { message: 'configuration error: SYNC_MAX_FEED_MB must be a whole number from 1 to 4096 (got "0")' });
});

t.test('sync fairness: several syncs per process, one per organization, each within a deadline', async (t) => {
  t.match(loadConfig({}).sync, { concurrency: 4, maxPerOrganization: 1, deadlineMs: 30 * 60_000 });
  t.match(loadConfig({ SYNC_MAX_PER_ORGANIZATION: '3', SYNC_DEADLINE_SECONDS: '90' }).sync, { maxPerOrganization: 3, deadlineMs: 90_000 });
  t.match(fails({ SYNC_MAX_PER_ORGANIZATION: '0' }), /^configuration error: SYNC_MAX_PER_ORGANIZATION must be a whole number from 1 to 16 \(got "0"\)/);
  t.match(fails({ SYNC_DEADLINE_SECONDS: '1.5' }), /^configuration error: SYNC_DEADLINE_SECONDS must be a whole number from 1 to 86400/);
});

t.test('INGEST_MAX_PER_ORGANIZATION: items of one organization in flight at once across every process', async (t) => {
  t.equal(loadConfig({}).ingest.maxPerOrganization, 16);
  t.equal(loadConfig({ INGEST_MAX_PER_ORGANIZATION: '4' }).ingest.maxPerOrganization, 4);
  t.match(fails({ INGEST_MAX_PER_ORGANIZATION: '0' }), /^configuration error: INGEST_MAX_PER_ORGANIZATION must be a whole number from 1 to 1000/);
});

t.test('UPLOAD_BUDGET_MB: the upload bytes one process works on at once, one maximum upload by default', async (t) => {
  t.equal(loadConfig({}).uploadBudgetBytes, 16 * 1024 * 1024);
  t.equal(loadConfig({ UPLOAD_BUDGET_MB: '48' }).uploadBudgetBytes, 48 * 1024 * 1024);
  t.throws(() => loadConfig({ UPLOAD_BUDGET_MB: '0' }), { message: 'configuration error: UPLOAD_BUDGET_MB must be a whole number from 1 to 1024 (got "0")' });
});

const MiB = 1024 * 1024;

t.test('upload limits, server timeouts, image and event limits: their defaults with nothing set', async (t) => {
  const config = loadConfig({});
  t.same(config.uploadLimits, { perOrganization: 8 * MiB, deadlineMs: 120_000, minBytesPerSecond: 8 * 1024, windowMs: 10_000 });
  t.same(config.serverTimeouts, { requestMs: 150_000, headersMs: 20_000 });
  t.same(config.images, {
    slots: undefined,
    slotsPerAddress: undefined,
    avifSlots: 1,
    avifCost: 4,
    avifEffort: 0,
    maxQueued: 256,
    maxQueuedPerAddress: 32,
    missesPerMinute: 120,
    missBurst: 60,
    variantBudgetBytes: 2048 * MiB,
    cacheBytes: 64 * MiB,
    originalReads: 4,
  });
  t.equal(config.images.slots, undefined, 'IMAGE_TRANSFORM_SLOTS unset: one per core, decided by the image delivery');
  t.equal(config.images.slotsPerAddress, undefined, 'IMAGE_TRANSFORM_SLOTS_PER_ADDRESS unset: half the slots');
  t.same(config.events, { sessionRpm: 120, addressRpm: 1_200, maxValue: 100_000_000, maxSessionRevenue: 100_000_000, sessionCheckMs: 5_000 });
});

t.test('the defaults are the ones the parts use when they are given nothing', async (t) => {
  const { DEFAULT_BODY_LIMITS } = await import('../../api/body-budget.js');
  const { IMAGE_DEFAULTS } = await import('../../infra/images/variants.js');
  const { DEFAULT_AVIF_EFFORT } = await import('../../infra/images/transform.js');
  const { DEFAULT_EVENT_LIMITS } = await import('../../api/routes/events.js');
  const { MAX_TTL_MS } = await import('../../api/auth/session-liveness.js');
  const config = loadConfig({});
  t.same({ capacity: config.uploadBudgetBytes, ...config.uploadLimits }, DEFAULT_BODY_LIMITS);
  t.match(config.images, { ...IMAGE_DEFAULTS, avifEffort: DEFAULT_AVIF_EFFORT });
  t.match(config.events, DEFAULT_EVENT_LIMITS);
  t.equal(MAX_TTL_MS, 10_000, 'EVENTS_SESSION_CHECK_SECONDS stops at 10, the longest the session check may trust an answer');
});

t.test('each new variable is read into the config, in the config\'s units', async (t) => {
  const config = loadConfig({
    UPLOAD_BUDGET_MB: '48',
    UPLOAD_ORGANIZATION_SHARE_PERCENT: '25',
    UPLOAD_DEADLINE_SECONDS: '60',
    UPLOAD_MIN_KB_PER_SECOND: '0',
    UPLOAD_SLOW_WINDOW_SECONDS: '5',
    HTTP_REQUEST_TIMEOUT_SECONDS: '90',
    HTTP_HEADERS_TIMEOUT_SECONDS: '10',
    IMAGE_TRANSFORM_SLOTS: '6',
    IMAGE_TRANSFORM_SLOTS_PER_ADDRESS: '2',
    IMAGE_AVIF_SLOTS: '3',
    IMAGE_AVIF_COST: '8',
    IMAGE_AVIF_EFFORT: '2',
    IMAGE_QUEUE: '0',
    IMAGE_QUEUE_PER_ADDRESS: '4',
    IMAGE_VARIANTS_PER_MINUTE: '600',
    IMAGE_VARIANT_BURST: '200',
    IMAGE_VARIANTS_MAX_MB: '10',
    IMAGE_CACHE_MB: '0',
    IMAGE_ORIGINAL_READS: '2',
    EVENTS_SESSION_RPM: '30',
    EVENTS_ADDRESS_RPM: '5000',
    EVENTS_MAX_VALUE: '1000',
    EVENTS_MAX_SESSION_REVENUE: '50000',
    EVENTS_SESSION_CHECK_SECONDS: '0',
  });
  t.same(config.uploadLimits, { perOrganization: 12 * MiB, deadlineMs: 60_000, minBytesPerSecond: 0, windowMs: 5_000 });
  t.same(config.serverTimeouts, { requestMs: 90_000, headersMs: 10_000 });
  t.same(config.images, {
    slots: 6,
    slotsPerAddress: 2,
    avifSlots: 3,
    avifCost: 8,
    avifEffort: 2,
    maxQueued: 0,
    maxQueuedPerAddress: 4,
    missesPerMinute: 600,
    missBurst: 200,
    variantBudgetBytes: 10 * MiB,
    cacheBytes: 0,
    originalReads: 2,
  });
  t.same(config.events, { sessionRpm: 30, addressRpm: 5_000, maxValue: 1_000, maxSessionRevenue: 50_000, sessionCheckMs: 0 });
});

t.test('an organization\'s share of the upload budget is a whole number of bytes, rounded down', async (t) => {
  t.equal(loadConfig({ UPLOAD_BUDGET_MB: '1', UPLOAD_ORGANIZATION_SHARE_PERCENT: '33' }).uploadLimits.perOrganization, Math.floor((1 * MiB * 33) / 100));
  t.equal(loadConfig({ UPLOAD_BUDGET_MB: '16', UPLOAD_ORGANIZATION_SHARE_PERCENT: '100' }).uploadLimits.perOrganization, 16 * MiB, 'all of it');
  t.equal(loadConfig({ UPLOAD_BUDGET_MB: '16', UPLOAD_ORGANIZATION_SHARE_PERCENT: '10' }).uploadLimits.perOrganization, Math.floor(1.6 * MiB));
});

t.test('IMAGE_TRANSFORM_SLOTS and IMAGE_TRANSFORM_SLOTS_PER_ADDRESS: 0, like unset, leaves the choice to the image delivery', async (t) => {
  for (const value of ['0', '']) {
    const images = loadConfig({ IMAGE_TRANSFORM_SLOTS: value, IMAGE_TRANSFORM_SLOTS_PER_ADDRESS: value }).images;
    t.equal(images.slots, undefined, JSON.stringify(value));
    t.equal(images.slotsPerAddress, undefined, JSON.stringify(value));
  }
  t.match(loadConfig({ IMAGE_TRANSFORM_SLOTS: '1', IMAGE_TRANSFORM_SLOTS_PER_ADDRESS: '1' }).images, { slots: 1, slotsPerAddress: 1 });
});

t.test('an empty value is the default, like an unset one', async (t) => {
  const config = loadConfig({ UPLOAD_DEADLINE_SECONDS: '', HTTP_REQUEST_TIMEOUT_SECONDS: '', IMAGE_VARIANT_BURST: '', EVENTS_ADDRESS_RPM: '' });
  t.equal(config.uploadLimits.deadlineMs, 120_000);
  t.equal(config.serverTimeouts.requestMs, 150_000);
  t.equal(config.images.missBurst, 60);
  t.equal(config.events.addressRpm, 1_200);
});

t.test('the new variables refuse values out of their range, naming the variable and the range', async (t) => {
  // [variable, least, most]
  const ranges: Array<[string, number, number]> = [
    ['UPLOAD_ORGANIZATION_SHARE_PERCENT', 10, 100],
    ['UPLOAD_DEADLINE_SECONDS', 1, 3600],
    ['UPLOAD_MIN_KB_PER_SECOND', 0, 1_000_000],
    ['UPLOAD_SLOW_WINDOW_SECONDS', 1, 600],
    ['HTTP_REQUEST_TIMEOUT_SECONDS', 1, 3600],
    ['HTTP_HEADERS_TIMEOUT_SECONDS', 1, 600],
    ['IMAGE_TRANSFORM_SLOTS', 0, 256],
    ['IMAGE_TRANSFORM_SLOTS_PER_ADDRESS', 0, 256],
    ['IMAGE_AVIF_SLOTS', 1, 256],
    ['IMAGE_AVIF_COST', 1, 1000],
    ['IMAGE_AVIF_EFFORT', 0, 9],
    ['IMAGE_QUEUE', 0, 100_000],
    ['IMAGE_QUEUE_PER_ADDRESS', 0, 100_000],
    ['IMAGE_VARIANTS_PER_MINUTE', 1, 1_000_000],
    ['IMAGE_VARIANT_BURST', 1, 1_000_000],
    ['IMAGE_VARIANTS_MAX_MB', 1, 100_000_000],
    ['IMAGE_CACHE_MB', 0, 65_536],
    ['IMAGE_ORIGINAL_READS', 1, 1_024],
    ['EVENTS_SESSION_RPM', 1, 100_000],
    ['EVENTS_ADDRESS_RPM', 1, 10_000_000],
    ['EVENTS_MAX_VALUE', 1, 1_000_000_000],
    ['EVENTS_MAX_SESSION_REVENUE', 1, 100_000_000_000],
    ['EVENTS_SESSION_CHECK_SECONDS', 0, 10],
  ];
  for (const [name, least, most] of ranges) {
    for (const bad of [String(least - 1), String(most + 1), '2.5', 'lots']) {
      const message = fails({ [name]: bad });
      t.equal(message, `configuration error: ${name} must be a whole number from ${least} to ${most} (got ${JSON.stringify(bad)})`, `${name}=${bad}`);
    }
  }
});

t.test('the range ends themselves are accepted', async (t) => {
  // HTTP_REQUEST_TIMEOUT_SECONDS must outlast UPLOAD_DEADLINE_SECONDS and HTTP_HEADERS_TIMEOUT_SECONDS (the rules below).
  const least = loadConfig({
    UPLOAD_ORGANIZATION_SHARE_PERCENT: '10',
    UPLOAD_DEADLINE_SECONDS: '1',
    UPLOAD_MIN_KB_PER_SECOND: '0',
    UPLOAD_SLOW_WINDOW_SECONDS: '1',
    HTTP_REQUEST_TIMEOUT_SECONDS: '2',
    HTTP_HEADERS_TIMEOUT_SECONDS: '1',
    IMAGE_AVIF_SLOTS: '1',
    IMAGE_AVIF_COST: '1',
    IMAGE_VARIANTS_PER_MINUTE: '1',
    IMAGE_VARIANT_BURST: '1',
    IMAGE_VARIANTS_MAX_MB: '1',
    EVENTS_SESSION_RPM: '1',
    EVENTS_ADDRESS_RPM: '1',
    EVENTS_MAX_VALUE: '1',
    EVENTS_MAX_SESSION_REVENUE: '1',
  });
  t.same(least.uploadLimits, { perOrganization: Math.floor(1.6 * MiB), deadlineMs: 1_000, minBytesPerSecond: 0, windowMs: 1_000 });
  t.same(least.serverTimeouts, { requestMs: 2_000, headersMs: 1_000 });
  t.match(least.images, { avifSlots: 1, avifCost: 1, missesPerMinute: 1, missBurst: 1, variantBudgetBytes: MiB });
  t.match(least.events, { sessionRpm: 1, addressRpm: 1, maxValue: 1, maxSessionRevenue: 1 });
  const most = loadConfig({
    UPLOAD_ORGANIZATION_SHARE_PERCENT: '100',
    UPLOAD_DEADLINE_SECONDS: '3599',
    UPLOAD_MIN_KB_PER_SECOND: '1000000',
    UPLOAD_SLOW_WINDOW_SECONDS: '600',
    HTTP_REQUEST_TIMEOUT_SECONDS: '3600',
    HTTP_HEADERS_TIMEOUT_SECONDS: '600',
    IMAGE_TRANSFORM_SLOTS: '256',
    IMAGE_TRANSFORM_SLOTS_PER_ADDRESS: '256',
    IMAGE_AVIF_SLOTS: '256',
    IMAGE_AVIF_COST: '1000',
    IMAGE_AVIF_EFFORT: '9',
    IMAGE_QUEUE: '100000',
    IMAGE_QUEUE_PER_ADDRESS: '100000',
    IMAGE_VARIANTS_PER_MINUTE: '1000000',
    IMAGE_VARIANT_BURST: '1000000',
    IMAGE_VARIANTS_MAX_MB: '100000000',
    IMAGE_CACHE_MB: '65536',
    IMAGE_ORIGINAL_READS: '1024',
    EVENTS_SESSION_RPM: '100000',
    EVENTS_ADDRESS_RPM: '10000000',
    EVENTS_MAX_VALUE: '1000000000',
    EVENTS_MAX_SESSION_REVENUE: '100000000000',
    EVENTS_SESSION_CHECK_SECONDS: '10',
  });
  t.same(most.serverTimeouts, { requestMs: 3_600_000, headersMs: 600_000 });
  t.equal(most.images.variantBudgetBytes, 100_000_000 * MiB);
  t.equal(most.events.maxSessionRevenue, 100_000_000_000);
  t.equal(most.events.sessionCheckMs, 10_000);
});

t.test('HTTP_REQUEST_TIMEOUT_SECONDS must be more than UPLOAD_DEADLINE_SECONDS: an upload cut off by its deadline still gets its 408', async (t) => {
  const refused = /^configuration error: HTTP_REQUEST_TIMEOUT_SECONDS must be more than UPLOAD_DEADLINE_SECONDS \(an upload cut off by its deadline answers 408 with what it stored\)$/;
  t.match(fails({ HTTP_REQUEST_TIMEOUT_SECONDS: '120', UPLOAD_DEADLINE_SECONDS: '120' }), refused, 'equal');
  t.match(fails({ HTTP_REQUEST_TIMEOUT_SECONDS: '60', UPLOAD_DEADLINE_SECONDS: '120' }), refused, 'shorter');
  t.match(fails({ HTTP_REQUEST_TIMEOUT_SECONDS: '100' }), refused, 'below the default deadline (120 s)');
  t.match(fails({ UPLOAD_DEADLINE_SECONDS: '300' }), refused, 'a deadline past the default request timeout (150 s) needs a longer request timeout');
  t.equal(loadConfig({ HTTP_REQUEST_TIMEOUT_SECONDS: '121', UPLOAD_DEADLINE_SECONDS: '120' }).serverTimeouts.requestMs, 121_000, 'one second more is enough');
  t.equal(loadConfig({ HTTP_REQUEST_TIMEOUT_SECONDS: '360', UPLOAD_DEADLINE_SECONDS: '300' }).serverTimeouts.requestMs, 360_000);
  t.notOk(fails({ UPLOAD_DEADLINE_SECONDS: '300' }).includes('\n'), 'one line');
});

t.test('HTTP_HEADERS_TIMEOUT_SECONDS must be at most HTTP_REQUEST_TIMEOUT_SECONDS', async (t) => {
  const refused = /^configuration error: HTTP_HEADERS_TIMEOUT_SECONDS must be at most HTTP_REQUEST_TIMEOUT_SECONDS$/;
  t.match(fails({ HTTP_HEADERS_TIMEOUT_SECONDS: '31', HTTP_REQUEST_TIMEOUT_SECONDS: '30', UPLOAD_DEADLINE_SECONDS: '20' }), refused);
  t.same(loadConfig({ HTTP_HEADERS_TIMEOUT_SECONDS: '30', HTTP_REQUEST_TIMEOUT_SECONDS: '30', UPLOAD_DEADLINE_SECONDS: '20' }).serverTimeouts, { requestMs: 30_000, headersMs: 30_000 }, 'equal is allowed');
});

t.test('a value out of its range is reported before the rules between variables', async (t) => {
  const message = fails({ HTTP_REQUEST_TIMEOUT_SECONDS: '0', UPLOAD_DEADLINE_SECONDS: '120' });
  t.equal(message, 'configuration error: HTTP_REQUEST_TIMEOUT_SECONDS must be a whole number from 1 to 3600 (got "0")');
});
