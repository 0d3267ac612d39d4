#!/usr/bin/env node
// An S3 server of its own process for CI (s3rver, from npm: no MinIO installs from this machine's
// registries), so the object-store test that needs S3_ENDPOINT runs instead of being skipped. The
// peer module makes a PUT answer only once the object is on disk, as S3 and MinIO do.
// Prints "S3_ENDPOINT=http://127.0.0.1:PORT" once listening; stops on SIGTERM/SIGINT.
// Credentials are s3rver's built-in account: S3RVER / S3RVER.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout } from 'node:timers';
import { createS3rver } from '../test/support/s3rver-peer.mjs';

const directory = mkdtempSync(path.join(tmpdir(), 'stylist-ci-s3-'));
const server = createS3rver({ address: '127.0.0.1', port: Number(process.env.S3_PORT ?? 0), directory, silent: true });
const { port } = await server.run();
console.log(`S3_ENDPOINT=http://127.0.0.1:${port}`);
const stop = async () => {
  setTimeout(() => process.exit(0), 2000).unref(); // open keep-alive sockets must not hold it up
  await server.close().catch(() => {});
  rmSync(directory, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
