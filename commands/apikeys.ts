import { randomUUID } from 'node:crypto';
import { apiKeyDecider, apiKeyStream, type PrivateAccess, type PublicAccess } from '../domain/apikey/index.js';
import type { CommandMeta } from '../domain/metadata.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { issueKeyPair } from './credentials.js';
import { handleCommand, loadState } from './handle.js';

export interface NewKey {
  organizationId: string;
  name: string;
  primary?: boolean;
  publicAccess?: PublicAccess;
  privateAccess?: PrivateAccess;
  scopes?: readonly string[] | null;
}

export interface IssuedKey {
  keyId: string;
  publicKey: string;
  privateKey: string;
  position: Position;
}

export async function createApiKey(store: EventStore, serverSecret: string, input: NewKey, meta: CommandMeta): Promise<IssuedKey> {
  const keyId = randomUUID();
  const issued = issueKeyPair(keyId, input.organizationId, serverSecret);
  const { position } = await handleCommand(
    store,
    apiKeyDecider,
    {
      type: 'CreateApiKey',
      data: {
        keyId,
        organizationId: input.organizationId,
        name: input.name,
        primary: input.primary ?? false,
        credentials: issued.credentials,
        publicAccess: input.publicAccess ?? { mode: 'everyone' },
        privateAccess: input.privateAccess ?? { mode: 'everyone' },
        scopes: input.scopes ?? null,
      },
    },
    meta,
    { organizationId: input.organizationId },
  );
  return { keyId, publicKey: issued.publicKey, privateKey: issued.privateKey, position: position! };
}

export async function rotateApiKey(
  store: EventStore,
  serverSecret: string,
  input: { keyId: string; confirmName: string },
  meta: CommandMeta,
): Promise<IssuedKey & { organizationId: string }> {
  // The organization is part of the key values, so read it from the key's own stream first;
  // a missing or deleted key is refused by the decider below.
  const current = await loadState(store, apiKeyDecider, apiKeyStream(input.keyId));
  const organizationId = current?.organizationId ?? '00000000-0000-0000-0000-000000000000';
  const issued = issueKeyPair(input.keyId, organizationId, serverSecret);
  const { position } = await handleCommand(store, apiKeyDecider, { type: 'RotateApiKey', data: { ...input, credentials: issued.credentials } }, meta, { organizationId });
  return { keyId: input.keyId, organizationId, publicKey: issued.publicKey, privateKey: issued.privateKey, position: position! };
}

export async function deleteApiKey(store: EventStore, input: { keyId: string }, meta: CommandMeta): Promise<{ organizationId: string; position: Position }> {
  const { state, position } = await handleCommand(store, apiKeyDecider, { type: 'DeleteApiKey', data: input }, meta);
  return { organizationId: state!.organizationId, position: position! };
}
