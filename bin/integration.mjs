#!/usr/bin/env node
// `npm run test:integration`: the same suite against a real Postgres and NATS JetStream.
// Creates a fresh database for this run and drops it afterwards, whatever the outcome.
// With no test files named it runs every test/**/*.test.ts, test/integration/ included (which
// `npm test` leaves out: those tests need the real servers), except the files that cannot differ
// by backend (BACKEND_INDEPENDENT below).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import pg from 'pg';

const server = process.env.INTEGRATION_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const database = `stylist_it_${Date.now()}_${randomBytes(3).toString('hex')}`;

const admin = async (statement) => {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
};

try {
  await admin(`create database ${database}`);
} catch (error) {
  console.error(`integration: cannot create a database on ${server.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@')}: ${error.message}`);
  process.exit(1);
}
const url = new URL(server);
url.pathname = `/${database}`;
console.log(`integration: database ${database}, NATS ${natsUrl}`);

const args = process.argv.slice(2);
const namesFiles = args.some((arg) => !arg.startsWith('-') && /\.[cm]?[jt]s$/.test(arg));

// Files that never read DATABASE_URL or NATS_URL: here they would repeat the embedded run to the
// letter, so only the embedded run has them (named here, so the list is checked when it changes).
const BACKEND_INDEPENDENT = [
  // Pure: deciders and domain functions, no I/O.
  /^test\/domain\//,
  // Pure helpers of the benchmarks, and the search-quality loader, which runs on PGlite by design.
  /^test\/bench\//,
  // The CLI on an embedded DATA_DIR in a clean environment; `stylist serve` on Postgres and NATS
  // is test/integration/cli-serve.test.ts.
  /^test\/app\/cli\.test\.ts$/,
  // Commands against a DATA_DIR another embedded server holds (cleanEnv: no DATABASE_URL).
  /^test\/app\/cli-busy-data-dir\.test\.ts$/,
  // The docs against the code's configuration and commands: no store opened.
  /^test\/app\/docs\.test\.ts$/,
  // The TypeScript loader of the command and the tests (bin/typescript.mjs), on files of its own.
  /^test\/app\/typescript-loader\.test\.ts$/,
  // The in-process queue; its JetStream twin is test/integration/workqueue-jetstream.test.ts.
  /^test\/infra\/workqueue\.test\.ts$/,
  // A crash of an embedded PGlite data directory.
  /^test\/projections\/crash\.test\.ts$/,
  // The HTTP shell with stub readiness checks and no database.
  /^test\/api\/(app|openapi|retired|validation)\.test\.ts$/,
  // Caches over a stub event store, and the image slots and buckets over a moved clock.
  /^test\/api\/session-liveness\.test\.ts$/,
  /^test\/infra\/image-slots\.test\.ts$/,
];

const everyTest = () =>
  readdirSync('test', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `test/${file}`)
    .filter((file) => !BACKEND_INDEPENDENT.some((pattern) => pattern.test(file)))
    .sort();

const code = await new Promise((resolve) => {
  const child = spawn('npx', ['tap', ...args, ...(namesFiles ? [] : everyTest())], {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: url.toString(), NATS_URL: natsUrl, STYLIST_SECRET: process.env.STYLIST_SECRET ?? randomBytes(32).toString('hex') },
  });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
});

try {
  await admin(`drop database if exists ${database} with (force)`);
} catch (error) {
  console.error(`integration: could not drop ${database}: ${error.message}`);
}
process.exit(code);
