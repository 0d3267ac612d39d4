// The operator commands of document 3 §2 that act on the stores. Each returns the JSON object
// `--json` prints and a line for people; the same function runs in the CLI's own process or,
// when a server holds the embedded database, inside that server through the admin channel.
import { randomUUID } from 'node:crypto';
import { createOrganization, renameOrganization } from '../../commands/organizations.js';
import type { CommandMeta } from '../../domain/metadata.js';
import { NotFound } from '../../domain/errors.js';
import { allProjectors } from '../../projections/index.js';
import { migrate } from '../../projections/migrations.js';
import { getOrganization } from '../../projections/queries/organizations.js';
import type { Platform } from '../platform.js';

export interface CommandSpec {
  /** Words that name the command, e.g. ['org', 'create']. */
  words: string[];
  usage: string;
  options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  /** At most this many words after the command words. */
  maxArguments?: number;
  run(platform: Platform, values: Record<string, unknown>, args: string[]): Promise<Record<string, unknown>>;
  text(result: Record<string, any>): string;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

const operator = (): CommandMeta => ({
  now: new Date().toISOString(),
  actor: { kind: 'system', id: 'cli' },
  correlationId: randomUUID(),
});

const required = (values: Record<string, unknown>, name: string): string => {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
};

export const commands: CommandSpec[] = [
  {
    words: ['migrate'],
    usage: 'stylist migrate',
    options: {},
    run: async (platform) => ({ applied: [...platform.migrated, ...(await migrate(platform.database.db)).applied] }),
    text: (r) => (r.applied.length ? `applied ${r.applied.join(', ')}` : 'read models are up to date'),
  },
  {
    words: ['projections', 'status'],
    usage: 'stylist projections status',
    options: {},
    run: async (platform) => ({ projections: await platform.projections.status() }),
    text: (r) =>
      (r.projections as Array<{ name: string; position: string | null; eventsApplied: number | string; error?: string }>)
        .map((p) => `${p.name.padEnd(24)} ${String(p.position ?? 'not started').padEnd(20)} ${p.eventsApplied} events${p.error ? `  FAILED: ${p.error}` : ''}`)
        .join('\n'),
  },
  {
    words: ['projections', 'rebuild'],
    usage: 'stylist projections rebuild [NAME]',
    options: {},
    maxArguments: 1,
    run: async (platform, _values, args) => {
      const known = allProjectors.map((p) => p.name);
      const unknown = args.filter((name) => !known.includes(name));
      if (unknown.length) throw new UsageError(`unknown projection ${unknown.join(', ')} (known: ${known.join(', ')})`);
      return { ...(await platform.projections.rebuild(args.length ? args : undefined)) };
    },
    text: (r) => `rebuilt ${r.rebuilt.join(', ')} from ${r.events} events`,
  },
  {
    words: ['org', 'create'],
    usage: 'stylist org create --name NAME [--plan NAME]',
    options: { name: { type: 'string' }, plan: { type: 'string' } },
    run: async (platform, values) => {
      const { organizationId, position } = await createOrganization(platform.eventStore, { name: required(values, 'name') }, operator());
      await platform.projections.waitFor(position, ['organizations']);
      const organization = await getOrganization(platform.database.db, organizationId);
      return { organizationId, name: organization!.name, createdAt: organization!.createdAt };
    },
    text: (r) => `created organization ${r.organizationId} (${r.name})`,
  },
  {
    words: ['org', 'rename'],
    usage: 'stylist org rename --org ID --name NAME',
    options: { org: { type: 'string' }, name: { type: 'string' } },
    run: async (platform, values) => {
      const organizationId = required(values, 'org');
      const { position } = await renameOrganization(platform.eventStore, { organizationId, name: required(values, 'name') }, operator());
      if (position) await platform.projections.waitFor(position, ['organizations']);
      const organization = await getOrganization(platform.database.db, organizationId);
      return { organizationId, name: organization!.name, updatedAt: organization!.updatedAt };
    },
    text: (r) => `organization ${r.organizationId} is now called ${r.name}`,
  },
  {
    words: ['org', 'show'],
    usage: 'stylist org show --org ID',
    options: { org: { type: 'string' } },
    run: async (platform, values) => {
      const organizationId = required(values, 'org');
      const organization = await getOrganization(platform.database.db, organizationId);
      if (!organization) throw new NotFound(`Organization '${organizationId}' not found.`);
      return { organization };
    },
    text: (r) => JSON.stringify(r.organization, null, 2),
  },
];
