#!/usr/bin/env node
// `npm run test:integration`: the same suite against a real Postgres and NATS JetStream.
// Creates a fresh database for this run and drops it afterwards, whatever the outcome.
// With no test files named it runs every test/**/*.test.ts, test/integration/ included (which
// `npm test` leaves out: those tests need the real servers).
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
const everyTest = () =>
  readdirSync('test', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `test/${file}`)
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
