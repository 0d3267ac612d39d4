// `npm run bench`: every benchmark in turn, each in its own process so one's memory and
// connections do not colour the next. Each prints its table and writes bench/results/<name>.json.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const benchmarks = ['eventstore.ts', 'streams.ts', 'projections.ts', 'gateway.ts', 'images.ts', 'looks.ts', 'match.ts', 'analytics.ts', 'labelling.ts', 'labelling-shopify.ts', 'search-quality.ts', 'search.ts', 'agent.ts', 'ingest.ts', 'sync.ts', 'scale-out.ts', 'memory.ts'];
const only = process.argv.slice(2);
let failed = 0;
for (const file of benchmarks.filter((name) => !only.length || only.some((o) => name.startsWith(o)))) {
  console.log(`\n## bench/${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(file, import.meta.url))], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
