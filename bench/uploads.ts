// `node --import tsx bench/uploads.ts`: the upload measurement of bench/images/uploads.ts against the
// service as `stylist serve` builds it (PGlite in a temp dir, files object store), printed as a
// table and written to bench/results/uploads.json.
//   BENCH_UPLOAD_REQUESTS=20 (measured requests of ten photos each)
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLogger } from '../api/logging.js';
import { buildServiceApi } from '../app/api.js';
import { executeCommand } from '../app/cli/execute.js';
import { openPlatform } from '../app/platform.js';
import { loadConfig } from '../infra/config/config.js';
import { openPgliteBackend } from './eventstore.js';
import { measureUploads } from './images/uploads.js';

async function main(): Promise<void> {
  const backend = await openPgliteBackend();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stylist-bench-uploads-'));
  const config = loadConfig({ DATA_DIR: dataDir, STYLIST_SECRET: 'b'.repeat(40), LOG_LEVEL: 'silent' });
  const platform = await openPlatform(config, createLogger({ level: 'silent' }), { database: backend.database });
  await platform.projections.start();
  const app = await buildServiceApi(platform);
  try {
    const answer = await executeCommand(platform, ['org', 'create', '--name', 'Bench Boutique', '--json']);
    if (!answer.ok) throw new Error(answer.error);
    const { privateKey } = answer.result as { privateKey: string };
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const timing = await measureUploads(url, privateKey, { requests: Number(process.env.BENCH_UPLOAD_REQUESTS) || 20 });
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}`;
    console.table([{ measurement: `ten ${(timing.bytesPerFile / 1e6).toFixed(2)} MB photos in one request`, ...timing, goalMs: 300, machine }]);
    await mkdir(new URL('results/', import.meta.url), { recursive: true });
    await writeFile(new URL('results/uploads.json', import.meta.url), JSON.stringify({ at: new Date().toISOString(), machine, objectStore: platform.objects.kind, timing }, null, 2));
  } finally {
    await app.close();
    await platform.close();
    await backend.dispose();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
