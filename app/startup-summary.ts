// What `stylist serve` tells the person who just typed `npm start`: where to point a browser, which
// stores and models it runs on, and where its data lives. Printed on a terminal only; a log
// collector reads the `stylist is running` line, which carries the same facts as fields.
import path from 'node:path';
import type { Config } from '../infra/config/config.js';
import type { Platform } from './platform.js';
import { lanesOfRoles } from './projection-roles.js';

const STORE_NAMES: Record<string, string> = {
  pglite: 'PGlite (embedded Postgres)',
  postgres: 'Postgres',
  eventstoredb: 'EventStoreDB',
  inprocess: 'in-process',
  jetstream: 'NATS JetStream',
  nats: 'NATS JetStream',
  files: 'files',
  s3: 'S3',
};

const named = (kind: string) => STORE_NAMES[kind] ?? kind;

/** Which projection lanes this process keeps current (the catalogue's and the shoppers'). */
function projectionsRow(roles: readonly string[]): string {
  const lanes = lanesOfRoles(roles);
  if (!lanes.length) return 'none here: a process with the projections role keeps the read models current';
  return `${lanes.map((lane) => `${lane} lane`).join(' · ')}${lanes.length === 1 ? ' only' : ''} (stylist projections status)`;
}

/** The lines of the summary, without colour. */
export function startupSummary(config: Config, platform: Pick<Platform, 'eventStore' | 'database' | 'queue' | 'objects'>, url: string | undefined, roles: readonly string[]): string[] {
  const openai = config.openai;
  const models = [
    `chat ${openai?.chatModel ?? 'offline stylist'}`,
    `labels ${openai?.visionModel ?? 'offline'}`,
    `embeddings ${openai?.embeddingModel ?? 'offline (hashed)'}`,
    ...(config.looks.imageModel ? [`pictures ${config.looks.imageModel.model}`] : []),
  ].join(' · ');
  const stores = [`events ${named(platform.eventStore.kind)}`, `read models ${named(platform.database.kind)}`, `queue ${named(platform.queue.kind)}`, `objects ${named(platform.objects.kind)}`].join(' · ');
  const data = config.databaseUrl ? `Postgres at ${new URL(config.databaseUrl).host}, objects ${platform.objects.kind}` : path.resolve(config.dataDir);
  const rows: Array<[string, string]> = [
    ...(url
      ? ([
          ['Demo storefront', `${url}/demo`],
          ['API reference', `${url}/docs`],
          ['Widget script', `${url}/widget.js`],
        ] as Array<[string, string]>)
      : [['Roles', roles.join(', ')] as [string, string]]),
    ['Stores', stores],
    ['Projections', projectionsRow(roles)],
    ['Models', models],
    ['Data', data],
    ...(url ? ([['Demo key', config.demo.key]] as Array<[string, string]>) : []),
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return ['', 'Stylist is running', '', ...rows.map(([label, value]) => `  ${label.padEnd(width)}   ${value}`), '', 'Press Ctrl+C to stop.', ''];
}
