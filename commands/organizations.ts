import { randomUUID } from 'node:crypto';
import type { CommandMeta } from '../domain/metadata.js';
import { organizationDecider, type OrganizationCommand } from '../domain/organization/index.js';
import type { Plan, PlanEntry } from '../domain/plan.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { createApiKey } from './apikeys.js';
import { handleCommand } from './handle.js';

export interface CreatedOrganization {
  organizationId: string;
  /** The unrestricted key pair; the primary key (service-only) is created alongside. */
  keyId: string;
  publicKey: string;
  privateKey: string;
  primaryKeyId: string;
  position: Position;
}

/**
 * A new organization with an active subscription, its primary key pair (service-only, document 1
 * rule 4) and an unrestricted key pair to start with (document 3 §2 `org create`).
 */
export async function createOrganization(
  store: EventStore,
  serverSecret: string,
  input: { name: string; organizationId?: string; plan?: Plan },
  meta: CommandMeta,
): Promise<CreatedOrganization> {
  const organizationId = input.organizationId ?? randomUUID();
  await handleCommand(store, organizationDecider, { type: 'CreateOrganization', data: { organizationId, name: input.name, plan: input.plan } }, meta);
  const primary = await createApiKey(
    store,
    serverSecret,
    { organizationId, name: 'Primary key', primary: true, publicAccess: { mode: 'service-only' }, privateAccess: { mode: 'service-only' } },
    meta,
  );
  const key = await createApiKey(store, serverSecret, { organizationId, name: 'Default key' }, meta);
  return { organizationId, keyId: key.keyId, publicKey: key.publicKey, privateKey: key.privateKey, primaryKeyId: primary.keyId, position: key.position };
}

const run = async (store: EventStore, command: OrganizationCommand, meta: CommandMeta): Promise<{ position: Position | null }> => {
  const { position } = await handleCommand(store, organizationDecider, command, meta);
  return { position };
};

export const renameOrganization = (store: EventStore, data: { organizationId: string; name: string }, meta: CommandMeta) =>
  run(store, { type: 'RenameOrganization', data }, meta);

/** `reportingTimezone`: the new timezone when it changed (the analytics projector then opens a count in it), else null. */
export async function updateOrganization(
  store: EventStore,
  data: { organizationId: string; fields: { name?: string; reportingTimezone?: string } },
  meta: CommandMeta,
): Promise<{ position: Position | null; reportingTimezone: string | null }> {
  const { events, position } = await handleCommand(store, organizationDecider, { type: 'UpdateOrganization', data }, meta);
  const changed = events.find((event) => event.type === 'OrganizationTimezoneChanged');
  return { position, reportingTimezone: changed?.type === 'OrganizationTimezoneChanged' ? changed.data.reportingTimezone : null };
}

export const deleteOrganization = (store: EventStore, data: { organizationId: string }, meta: CommandMeta) =>
  run(store, { type: 'DeleteOrganization', data }, meta);

export const setSubscription = (store: EventStore, data: { organizationId: string; active: boolean }, meta: CommandMeta) =>
  run(store, { type: 'SetSubscription', data }, meta);

/** `stylist analytics rebuild --org ID`: the analytics projector starts a new count beside the one in use. */
export const requestAnalyticsRebuild = (store: EventStore, data: { organizationId: string }, meta: CommandMeta) =>
  run(store, { type: 'RequestAnalyticsRebuild', data }, meta);

export const setPlanEntry = (store: EventStore, data: { organizationId: string; resource: string; entry: PlanEntry | null }, meta: CommandMeta) =>
  run(store, { type: 'SetPlanEntry', data }, meta);
