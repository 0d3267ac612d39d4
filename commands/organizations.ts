import { randomUUID } from 'node:crypto';
import type { CommandMeta } from '../domain/metadata.js';
import { organizationDecider } from '../domain/organization/index.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { handleCommand } from './handle.js';

export async function createOrganization(
  store: EventStore,
  input: { name: string; organizationId?: string },
  meta: CommandMeta,
): Promise<{ organizationId: string; position: Position }> {
  const organizationId = input.organizationId ?? randomUUID();
  const { position } = await handleCommand(
    store,
    organizationDecider,
    { type: 'CreateOrganization', data: { organizationId, name: input.name } },
    meta,
    { organizationId },
  );
  return { organizationId, position: position! };
}

export async function renameOrganization(
  store: EventStore,
  input: { organizationId: string; name: string },
  meta: CommandMeta,
): Promise<{ position: Position | null }> {
  const { position } = await handleCommand(store, organizationDecider, { type: 'RenameOrganization', data: input }, meta, {
    organizationId: input.organizationId,
  });
  return { position };
}
