// PGlite data directories to start test databases from, made once per machine: a fresh initdb
// costs seconds on two cores, loading a tarball of one a few hundred milliseconds.
//
// The tarball's name carries a hash of everything that shapes the schema (the migrations, the
// event store's schema, PGlite's version), so a change to any of them makes a new one. Test files
// run in parallel processes: the first to need a template builds it under a lock file, the others
// wait for it; it is written under another name and renamed, so nobody reads half a file.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect } from 'kysely';
import { openPostgresEventStore } from '../../infra/eventstore/postgres.js';
import { migrate } from '../../projections/migrations.js';

export type TemplateKind = 'migrated' | 'empty';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cacheDir = path.join(tmpdir(), 'stylist-pglite-templates');
/** A lock older than this belongs to a builder that died: take it over. */
const staleLockMs = 120_000;

const loaded = new Map<TemplateKind, Promise<Blob>>();

export function pgliteTemplate(kind: TemplateKind): Promise<Blob> {
  let template = loaded.get(kind);
  if (!template) {
    template = cachedTemplate(kind);
    loaded.set(kind, template);
  }
  return template;
}

function schemaSources(kind: TemplateKind): string[] {
  const manifest = path.join(root, 'node_modules/@electric-sql/pglite/package.json');
  const pgliteVersion = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  if (kind === 'empty') return [`pglite ${pgliteVersion}`];
  const under = (dir: string) => readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) => `${dir}/${f}`);
  const files = [
    ...under('projections/migrations'),
    'projections/migrations.ts',
    'projections/migration-scope.ts',
    ...under('infra/eventstore'),
    ...under('infra/db'),
  ].filter((f) => f.endsWith('.ts'));
  return [`pglite ${pgliteVersion}`, ...files.sort().map((f) => `${f}\n${readFileSync(path.join(root, f), 'utf8')}`)];
}

async function cachedTemplate(kind: TemplateKind): Promise<Blob> {
  const hash = createHash('sha256');
  for (const source of schemaSources(kind)) hash.update(source).update('\0');
  const file = path.join(cacheDir, `${kind}-${hash.digest('hex').slice(0, 16)}.tar`);
  await mkdir(cacheDir, { recursive: true });
  for (;;) {
    const existing = await readFile(file).catch(() => null);
    if (existing) {
      await utimes(file, new Date(), new Date()).catch(() => {});
      return new Blob([existing]);
    }
    const lock = await open(`${file}.lock`, 'wx').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return null;
      throw error;
    });
    if (!lock) {
      const age = await stat(`${file}.lock`).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > staleLockMs) await unlink(`${file}.lock`).catch(() => {});
      else await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    try {
      const blob = await buildTemplate(kind);
      const partial = `${file}.${process.pid}.partial`;
      await writeFile(partial, new Uint8Array(await blob.arrayBuffer()));
      await rename(partial, file);
      await pruneUnused(kind, file);
      return blob;
    } finally {
      await lock.close();
      await unlink(`${file}.lock`).catch(() => {});
    }
  }
}

/** Templates of older sources nobody used for a week (each is about 40 MB). */
async function pruneUnused(kind: TemplateKind, keep: string): Promise<void> {
  for (const name of await readdir(cacheDir)) {
    const file = path.join(cacheDir, name);
    if (file === keep || !name.startsWith(`${kind}-`) || !name.endsWith('.tar')) continue;
    const age = await stat(file).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (age > 7 * 24 * 3600_000) await unlink(file).catch(() => {});
  }
}

/** A database as a service leaves it after its first start: migrated, the event store's schema in place. */
async function buildTemplate(kind: TemplateKind): Promise<Blob> {
  const pglite = await PGlite.create('memory://');
  const db = new Kysely<any>({ dialect: new PGliteDialect({ pglite }) });
  try {
    if (kind === 'migrated') {
      await migrate(db);
      const store = await openPostgresEventStore({ kind: 'pglite', db, ping: async () => {}, close: async () => {} });
      await store.close();
    }
    return await pglite.dumpDataDir('none');
  } finally {
    await db.destroy();
    if (!pglite.closed) await pglite.close();
  }
}

/** Fills an embedded data directory (`DATA_DIR/pglite`) from the migrated template, as a service that ran once leaves it. */
export async function seedPgliteDir(dir: string): Promise<void> {
  const pglite = await PGlite.create({ dataDir: dir, loadDataDir: await pgliteTemplate('migrated') });
  await pglite.close();
}
