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
  t.same(config.demo, { key: 'sgpt-pk-demo', quota: 10000, rpm: 60 });
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
