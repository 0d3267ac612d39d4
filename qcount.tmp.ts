import { PGlite } from '@electric-sql/pglite';
const counts = new Map<string, number>();
for (const m of ['query', 'exec'] as const) {
  const orig = (PGlite.prototype as any)[m];
  (PGlite.prototype as any)[m] = function (q: string, ...rest: unknown[]) {
    const key = String(q).replace(/\s+/g, ' ').slice(0, 90);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return orig.call(this, q, ...rest);
  };
}
const { mkdtemp } = await import('node:fs/promises');
const { tmpdir } = await import('node:os');
const path = await import('node:path');
const { createLogger } = await import('/work/main/api/logging.js');
const { buildServiceApi } = await import('/work/main/app/api.js');
const { executeCommand } = await import('/work/main/app/cli/execute.js');
const { openPlatform } = await import('/work/main/app/platform.js');
const { loadConfig } = await import('/work/main/infra/config/config.js');
const dataDir = await mkdtemp(path.join(tmpdir(), 'qc-'));
const config = loadConfig({ DATA_DIR: dataDir, STYLIST_SECRET: 'b'.repeat(40), LOG_LEVEL: 'silent' });
const platform = await openPlatform(config, createLogger({ level: 'silent' }));
await platform.projections.start();
const app = await buildServiceApi(platform);
const ans: any = await executeCommand(platform, ["org","create","--name","Bench B","--json"]); console.log(ans); const org = ans.result;
await executeCommand(platform, ['plan', 'set', '--org', org.organizationId, '--resource', 'api.v1.widget.presets.list', '--quota', '1000000000', '--rpm', '1000000000']);
const authorization = `Bearer ${org.privateKey}`;
await app.inject({ url: '/v1/widget/presets', headers: { authorization } });
await new Promise((r) => setTimeout(r, 1500));
counts.clear();
const t = Date.now();
for (let round = 0; round < 30; round++) {
  await Promise.all(Array.from({ length: 32 }, () => app.inject({ url: '/v1/widget/presets', headers: { authorization } })));
}
console.log('320 requests in', Date.now() - t, 'ms');
console.log([...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15));
await app.close(); await platform.close();
