import { Conflict, Invalid, NotFound } from '../errors.js';
import type { CommandMeta } from '../metadata.js';
import { ipRange, scopes as checkScopes, website, type KeyScope, type PrivateAccess, type PublicAccess } from './access.js';
import type { ApiKeyEvent, KeyCredentials } from './events.js';
import type { ApiKeyState } from './state.js';

export type ApiKeyCommand =
  | {
      type: 'CreateApiKey';
      data: {
        keyId: string;
        organizationId: string;
        name: string;
        primary?: boolean;
        credentials: KeyCredentials;
        publicAccess: PublicAccess;
        privateAccess: PrivateAccess;
        scopes: readonly string[] | null;
      };
    }
  /** Document 1 rule 6: the caller types the key's name to confirm. */
  | { type: 'RotateApiKey'; data: { keyId: string; confirmName: string; credentials: KeyCredentials } }
  | { type: 'DeleteApiKey'; data: { keyId: string } };

export const keyName = (raw: string): string => {
  const name = raw.trim();
  if (!name) throw new Invalid('Key name is required.');
  if (name.length > 100) throw new Invalid('Key name can be at most 100 characters.');
  return name;
};

const publicAccessOf = (access: PublicAccess): PublicAccess =>
  access.mode === 'websites'
    ? { mode: 'websites', websites: [...new Set(access.websites.map(website))], allowLocalhost: access.allowLocalhost, allowApps: access.allowApps }
    : { mode: access.mode };

const privateAccessOf = (access: PrivateAccess): PrivateAccess =>
  access.mode === 'ips' ? { mode: 'ips', ips: access.ips.map(({ cidr, note }) => ({ cidr: ipRange(cidr), note: note.trim() })) } : { mode: access.mode };

const missing = (keyId: string) => new NotFound(`API key '${keyId}' not found.`);

export const decide = (command: ApiKeyCommand, state: ApiKeyState, meta: CommandMeta): ApiKeyEvent[] => {
  switch (command.type) {
    case 'CreateApiKey': {
      if (state) throw new Conflict(`API key '${command.data.keyId}' already exists.`);
      const { keyId, organizationId, credentials } = command.data;
      const scopes: KeyScope[] | null = command.data.scopes === null ? null : checkScopes(command.data.scopes);
      return [
        {
          type: 'ApiKeyCreated',
          data: {
            keyId,
            organizationId,
            name: keyName(command.data.name),
            primary: command.data.primary ?? false,
            credentials,
            publicAccess: publicAccessOf(command.data.publicAccess),
            privateAccess: privateAccessOf(command.data.privateAccess),
            scopes,
            at: meta.now,
          },
        },
      ];
    }
    case 'RotateApiKey': {
      if (!state || state.deleted) throw missing(command.data.keyId);
      if (command.data.confirmName.trim() !== state.name) throw new Invalid(`Type the key's name (${state.name}) to confirm the rotation.`);
      return [{ type: 'ApiKeyRotated', data: { keyId: state.keyId, organizationId: state.organizationId, credentials: command.data.credentials, at: meta.now } }];
    }
    case 'DeleteApiKey': {
      if (!state || state.deleted) throw missing(command.data.keyId);
      if (state.primary) throw new Conflict('The primary key cannot be deleted; rotate it instead.');
      return [{ type: 'ApiKeyDeleted', data: { keyId: state.keyId, organizationId: state.organizationId, at: meta.now } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
};
