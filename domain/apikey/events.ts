import type { KeyScope, PrivateAccess, PublicAccess } from './access.js';

/** What identifies and proves a key pair. Only the secret's keyed hash is ever stored. */
export interface KeyCredentials {
  publicKey: string;
  publicLookup: string;
  privateLookup: string;
  /** HMAC-SHA-256 of the private key's secret with the server secret, hex. */
  secretHash: string;
}

export interface ApiKeyCreated {
  type: 'ApiKeyCreated';
  data: {
    keyId: string;
    organizationId: string;
    name: string;
    primary: boolean;
    credentials: KeyCredentials;
    publicAccess: PublicAccess;
    privateAccess: PrivateAccess;
    /** null: the key is not scoped and reaches every endpoint of its type. */
    scopes: KeyScope[] | null;
    at: string;
  };
}

export interface ApiKeyRotated {
  type: 'ApiKeyRotated';
  data: { keyId: string; organizationId: string; credentials: KeyCredentials; at: string };
}

export interface ApiKeyDeleted {
  type: 'ApiKeyDeleted';
  data: { keyId: string; organizationId: string; at: string };
}

export type ApiKeyEvent = ApiKeyCreated | ApiKeyRotated | ApiKeyDeleted;

export const apiKeyStream = (keyId: string): string => `apikey-${keyId}`;
