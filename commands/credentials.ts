// Fresh key values and the keyed hash their secrets are stored as. Secrets are 192 random bits:
// HMAC-SHA-256 with the server secret is enough (a slow password hash buys nothing for random
// secrets and would cost every request), and the comparison is constant-time.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { keyBody, NONCE_BYTES, PRIVATE_PREFIX, PUBLIC_PREFIX, SECRET_BYTES, secretText } from '../domain/apikey/key-format.js';
import type { KeyCredentials } from '../domain/apikey/events.js';

export interface IssuedKeyPair {
  credentials: KeyCredentials;
  publicKey: string;
  /** Shown once, never stored. */
  privateKey: string;
}

export const secretHash = (serverSecret: string, secret: string): string => createHmac('sha256', serverSecret).update(secret).digest('hex');

export function verifySecret(serverSecret: string, secret: string, storedHash: string): boolean {
  const presented = Buffer.from(secretHash(serverSecret, secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

export function issueKeyPair(keyId: string, organizationId: string, serverSecret: string): IssuedKeyPair {
  const pub = keyBody(keyId, organizationId, randomBytes(NONCE_BYTES));
  const priv = keyBody(keyId, organizationId, randomBytes(NONCE_BYTES));
  const secret = secretText(randomBytes(SECRET_BYTES));
  const publicKey = `${PUBLIC_PREFIX}${pub.body}`;
  return {
    publicKey,
    privateKey: `${PRIVATE_PREFIX}${priv.body}::${secret}`,
    credentials: { publicKey, publicLookup: pub.lookup, privateLookup: priv.lookup, secretHash: secretHash(serverSecret, secret) },
  };
}
