// The operator commands of document 3 §2 that act on the stores. Each returns the JSON object
// `--json` prints and a line for people; the same function runs in the CLI's own process or,
// when a server holds the embedded database, inside that server through the admin channel.
import { randomUUID } from 'node:crypto';
import { ACCOUNT_SESSION_COOKIE, ACCOUNT_SESSION_TTL_MS, issueAccountSession } from '../../api/auth/account-session.js';
import { createApiKey, deleteApiKey, rotateApiKey } from '../../commands/apikeys.js';
import { seedDemo } from '../demo.js';
import { createOrganization, deleteOrganization, renameOrganization, setPlanEntry, setSubscription } from '../../commands/organizations.js';
import type { PrivateAccess, PublicAccess } from '../../domain/apikey/access.js';
import type { Plan, PlanEntry } from '../../domain/plan.js';
import { listKeys } from '../../projections/queries/apikeys.js';
import { NotFound } from '../../domain/errors.js';
import { migrate } from '../../projections/migrations.js';
import { getOrganization, getOrganizationAccount } from '../../projections/queries/organizations.js';
import { CLI_READ_MODEL_WAIT_MS, operator, required, settle, UsageError, type CommandSpec } from './spec.js';
import { syncCommands } from './sync-commands.js';
import { queueCommands } from './queue-commands.js';
import { projectionCommands } from './projection-commands.js';
import { follow } from './follow.js';
import { listItems } from '../../projections/queries/items.js';
import { analyticsCommands } from './analytics-commands.js';

export { UsageError, type CommandSpec } from './spec.js';

export const commands: CommandSpec[] = [
  {
    words: ['migrate'],
    usage: 'stylist migrate',
    options: {},
    run: async (platform) => ({ applied: [...platform.migrated, ...(await migrate(platform.database.db)).applied] }),
    text: (r) => (r.applied.length ? `applied ${r.applied.join(', ')}` : 'read models are up to date'),
  },
  ...projectionCommands,
  ...analyticsCommands,
  {
    words: ['demo', 'seed'],
    usage: 'stylist demo seed [--wait]',
    options: { wait: { type: 'boolean' } },
    run: async (platform, values, _args, { progress }) => {
      const seeded = await seedDemo(platform);
      const answer = { organizationId: seeded.organizationId, datasetId: seeded.datasetId, products: seeded.products, queued: seeded.queued, unchanged: seeded.unchanged };
      if (values.wait !== true) return answer;
      // The products are live once the ingest worker has processed them (photos drawn, labelled, indexed).
      await follow(progress, 'demo catalogue ingest', async () => {
        const { total } = await listItems(platform.database.db, seeded.organizationId, seeded.datasetId, 1, 1);
        return { done: total >= seeded.products, step: { what: 'demo catalogue ingest', done: total, total: seeded.products, unit: 'products live' }, value: total };
      });
      return answer;
    },
    text: (r) => `demo catalogue: ${r.products} products in dataset ${r.datasetId} (${r.queued} queued for ingest, ${r.unchanged} unchanged)`,
  },
  {
    words: ['org', 'create'],
    usage: 'stylist org create --name NAME [--plan default|unlimited]',
    options: { name: { type: 'string' }, plan: { type: 'string' } },
    run: async (platform, values) => {
      const plan = planNamed(values.plan as string | undefined);
      const created = await createOrganization(platform.eventStore, platform.secret, { name: required(values, 'name'), plan }, operator());
      await platform.projections.waitFor(created.position, ['organizations', 'api_keys'], CLI_READ_MODEL_WAIT_MS);
      platform.keys?.forgetMisses();
      return { organizationId: created.organizationId, publicKey: created.publicKey, privateKey: created.privateKey, keyId: created.keyId };
    },
    text: (r) => `created organization ${r.organizationId}\nkey ${r.keyId}\n  public:  ${r.publicKey}\n  private: ${r.privateKey} (shown once)`,
  },
  {
    words: ['org', 'delete'],
    usage: 'stylist org delete --org ID',
    options: { org: { type: 'string' } },
    run: async (platform, values) => {
      const organizationId = required(values, 'org');
      await settle(platform, await deleteOrganization(platform.eventStore, { organizationId }, operator()), ['organizations']);
      platform.keys?.forgetOrganization(organizationId);
      return { organizationId, deleted: true };
    },
    text: (r) => `deleted organization ${r.organizationId}; its keys no longer work`,
  },
  {
    words: ['org', 'rename'],
    usage: 'stylist org rename --org ID --name NAME',
    options: { org: { type: 'string' }, name: { type: 'string' } },
    run: async (platform, values) => {
      const organizationId = required(values, 'org');
      await settle(platform, await renameOrganization(platform.eventStore, { organizationId, name: required(values, 'name') }, operator()), ['organizations']);
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
  {
    words: ['key', 'create'],
    usage:
      'stylist key create --org ID --name NAME [--public-access everyone|service-only|websites] [--website D]... [--allow-localhost] [--allow-apps] [--private-access everyone|service-only|ips] [--ip CIDR[=NOTE]]... [--scopes a,b]',
    options: {
      org: { type: 'string' },
      name: { type: 'string' },
      'public-access': { type: 'string' },
      website: { type: 'string', multiple: true },
      'allow-localhost': { type: 'boolean' },
      'allow-apps': { type: 'boolean' },
      'private-access': { type: 'string' },
      ip: { type: 'string', multiple: true },
      scopes: { type: 'string' },
    },
    run: async (platform, values) => {
      const organizationId = required(values, 'org');
      if (!(await getOrganization(platform.database.db, organizationId))) throw new NotFound(`Organization '${organizationId}' not found.`);
      const issued = await createApiKey(
        platform.eventStore,
        platform.secret,
        {
          organizationId,
          name: required(values, 'name'),
          publicAccess: publicAccessOption(values),
          privateAccess: privateAccessOption(values),
          scopes: typeof values.scopes === 'string' ? values.scopes.split(',').map((s) => s.trim()).filter(Boolean) : null,
        },
        operator(),
      );
      await platform.projections.waitFor(issued.position, ['api_keys'], CLI_READ_MODEL_WAIT_MS);
      platform.keys?.forgetMisses();
      return { keyId: issued.keyId, publicKey: issued.publicKey, privateKey: issued.privateKey };
    },
    text: (r) => `key ${r.keyId}\n  public:  ${r.publicKey}\n  private: ${r.privateKey} (shown once)`,
  },
  {
    words: ['key', 'rotate'],
    usage: "stylist key rotate --key ID --confirm NAME (the key's name)",
    options: { key: { type: 'string' }, confirm: { type: 'string' } },
    run: async (platform, values) => {
      const keyId = required(values, 'key');
      const rotated = await rotateApiKey(platform.eventStore, platform.secret, { keyId, confirmName: required(values, 'confirm') }, operator());
      await platform.projections.waitFor(rotated.position, ['api_keys'], CLI_READ_MODEL_WAIT_MS);
      platform.keys?.forgetMisses();
      platform.keys?.forgetKey(keyId);
      return { keyId, publicKey: rotated.publicKey, privateKey: rotated.privateKey };
    },
    text: (r) => `key ${r.keyId} rotated; the old values no longer work\n  public:  ${r.publicKey}\n  private: ${r.privateKey} (shown once)`,
  },
  {
    words: ['key', 'delete'],
    usage: 'stylist key delete --key ID',
    options: { key: { type: 'string' } },
    run: async (platform, values) => {
      const keyId = required(values, 'key');
      const { position } = await deleteApiKey(platform.eventStore, { keyId }, operator());
      await platform.projections.waitFor(position, ['api_keys'], CLI_READ_MODEL_WAIT_MS);
      platform.keys?.forgetKey(keyId);
      return { keyId, deleted: true };
    },
    text: (r) => `deleted key ${r.keyId}`,
  },
  {
    words: ['key', 'list'],
    usage: 'stylist key list --org ID',
    options: { org: { type: 'string' } },
    run: async (platform, values) => {
      const keys = await listKeys(platform.database.db, required(values, 'org'));
      return {
        keys: keys.map((k) => ({ keyId: k.keyId, name: k.name, primary: k.primary, publicKey: k.publicKey, publicAccess: k.publicAccess, privateAccess: k.privateAccess, scopes: k.scopes, createdAt: k.createdAt })),
      };
    },
    text: (r) => (r.keys as Array<{ keyId: string; name: string; publicKey: string }>).map((k) => `${k.keyId}  ${k.name.padEnd(20)} ${k.publicKey}`).join('\n'),
  },
  {
    words: ['subscription', 'set'],
    usage: 'stylist subscription set --org ID --active true|false',
    options: { org: { type: 'string' }, active: { type: 'string' } },
    run: async (platform, values) => {
      const organizationId = required(values, 'org');
      const flag = required(values, 'active');
      if (flag !== 'true' && flag !== 'false') throw new UsageError('--active takes true or false');
      await settle(platform, await setSubscription(platform.eventStore, { organizationId, active: flag === 'true' }, operator()), ['organizations']);
      platform.keys?.forgetOrganization(organizationId);
      return { organizationId, active: flag === 'true' };
    },
    text: (r) => `subscription of ${r.organizationId} is ${r.active ? 'active' : 'inactive'}`,
  },
  {
    words: ['plan', 'set'],
    usage: 'stylist plan set --org ID --resource R (--quota N | --unlimited | --off | --no-entry | --default) [--rpm N]',
    options: {
      org: { type: 'string' },
      resource: { type: 'string' },
      quota: { type: 'string' },
      unlimited: { type: 'boolean' },
      off: { type: 'boolean' },
      'no-entry': { type: 'boolean' },
      default: { type: 'boolean' },
      rpm: { type: 'string' },
    },
    run: async (platform, values) => {
      const organizationId = required(values, 'org');
      const resource = required(values, 'resource');
      const account = await getOrganizationAccount(platform.database.db, organizationId);
      if (!account || account.deleted) throw new NotFound(`Organization '${organizationId}' not found.`);
      const entry = planEntryOption(values, account.subscription?.plan.defaults?.rpm ?? null);
      await settle(platform, await setPlanEntry(platform.eventStore, { organizationId, resource, entry }, operator()), ['organizations']);
      platform.keys?.forgetOrganization(organizationId);
      return { organizationId, resource, entry: entry ?? 'default' };
    },
    text: (r) => `${r.resource} for ${r.organizationId}: ${JSON.stringify(r.entry)}`,
  },
  {
    words: ['session', 'issue'],
    usage: 'stylist session issue (--org ID [--org ID]… | --no-org) [--inactive-org ID]… [--account UUID] [--hours N]',
    options: {
      org: { type: 'string', multiple: true },
      'inactive-org': { type: 'string', multiple: true },
      'no-org': { type: 'boolean' },
      account: { type: 'string' },
      hours: { type: 'string' },
    },
    run: async (platform, values) => {
      const active = (values.org as string[] | undefined) ?? [];
      const inactive = (values['inactive-org'] as string[] | undefined) ?? [];
      if ((active.length === 0) === (values['no-org'] !== true)) throw new UsageError('give --org ID (repeatable) or --no-org');
      for (const organizationId of [...active, ...inactive]) {
        const account = await getOrganizationAccount(platform.database.db, organizationId);
        if (!account || account.deleted) throw new NotFound(`Organization '${organizationId}' not found.`);
      }
      const accountId = typeof values.account === 'string' ? values.account : randomUUID();
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(accountId)) throw new UsageError('--account takes a uuid');
      const hours = typeof values.hours === 'string' ? count(values.hours, 'hours') : ACCOUNT_SESSION_TTL_MS / 3_600_000;
      if (hours < 1 || hours > 24 * 30) throw new UsageError('--hours takes 1 to 720');
      const expiresAt = new Date(Date.now() + hours * 3_600_000);
      // Inactive memberships first: the session's organization is the first active one, whatever comes before it.
      const memberships = [...inactive.map((organizationId) => ({ organizationId, active: false })), ...active.map((organizationId) => ({ organizationId, active: true }))];
      const value = issueAccountSession(platform.secret, { accountId, memberships, expiresAt });
      return {
        cookie: ACCOUNT_SESSION_COOKIE,
        value,
        header: `${ACCOUNT_SESSION_COOKIE}=${value}`,
        accountId,
        organizationId: active[0] ?? null,
        memberships,
        expiresAt: expiresAt.toISOString(),
      };
    },
    text: (r) => `session of account ${r.accountId} (organization ${r.organizationId ?? 'none'}) until ${r.expiresAt}\nCookie: ${r.header}`,
  },
  ...syncCommands,
  ...queueCommands,
];

const count = (text: string, option: string): number => {
  if (!/^\d+$/.test(text)) throw new UsageError(`--${option} takes a whole number`);
  return Number(text);
};

const planNamed = (name: string | undefined): Plan | undefined => {
  if (name === undefined || name === 'default') return undefined;
  if (name === 'unlimited') return { name: 'unlimited', defaults: { quota: 'unlimited', rpm: null }, entries: {} };
  throw new UsageError('--plan takes default or unlimited');
};

function planEntryOption(values: Record<string, unknown>, defaultRpm: number | null): PlanEntry | null {
  const chosen = ['quota', 'unlimited', 'off', 'no-entry', 'default'].filter((name) => values[name] !== undefined && values[name] !== false);
  if (chosen.length !== 1) throw new UsageError('give exactly one of --quota N, --unlimited, --off, --no-entry, --default');
  const rpm = typeof values.rpm === 'string' ? count(values.rpm, 'rpm') : defaultRpm;
  switch (chosen[0]) {
    case 'quota':
      return { kind: 'metered', quota: count(values.quota as string, 'quota'), rpm };
    case 'unlimited':
      return { kind: 'metered', quota: 'unlimited', rpm };
    case 'off':
      return { kind: 'off' };
    case 'no-entry':
      return { kind: 'none' };
    default:
      return null;
  }
}

function publicAccessOption(values: Record<string, unknown>): PublicAccess {
  const websites = (values.website as string[] | undefined) ?? [];
  const mode = (values['public-access'] as string | undefined) ?? (websites.length ? 'websites' : 'everyone');
  if (mode === 'websites') return { mode, websites, allowLocalhost: values['allow-localhost'] === true, allowApps: values['allow-apps'] === true };
  if (mode === 'everyone' || mode === 'service-only') return { mode };
  throw new UsageError('--public-access takes everyone, service-only or websites');
}

function privateAccessOption(values: Record<string, unknown>): PrivateAccess {
  const ips = ((values.ip as string[] | undefined) ?? []).map((entry) => {
    const [cidr = '', ...note] = entry.split('=');
    return { cidr, note: note.join('=') };
  });
  const mode = (values['private-access'] as string | undefined) ?? (ips.length ? 'ips' : 'everyone');
  if (mode === 'ips') return { mode, ips };
  if (mode === 'everyone' || mode === 'service-only') return { mode };
  throw new UsageError('--private-access takes everyone, service-only or ips');
}
