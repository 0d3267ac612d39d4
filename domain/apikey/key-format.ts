// Key values of document 3 §2: `sgpt-pk-<body>` and `sgpt-sk-<body>::<secret>`. The body is base62
// (no `-`, so a key has exactly three dash-separated segments) and carries two fixed-width parts:
//   lookup (33 chars) = key id (16 bytes) + a nonce (8 bytes) that rotation replaces, the index the
//                       key is found by;
//   org    (27 chars) = organization id (16 bytes) + a 4-byte check, read after the lookup so
//                       a damaged key says "could not be read" rather than "not recognized".
// Pure: random bytes come in from the caller.
import { createHash } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE = 62n;
export const LOOKUP_LENGTH = 33;
export const ORG_LENGTH = 27;
export const BODY_LENGTH = LOOKUP_LENGTH + ORG_LENGTH;
export const SECRET_BYTES = 24;
export const NONCE_BYTES = 8;

export const PUBLIC_PREFIX = 'sgpt-pk-';
export const PRIVATE_PREFIX = 'sgpt-sk-';

export function toBase62(bytes: Uint8Array, width: number): string {
  let n = 0n;
  for (const byte of bytes) n = (n << 8n) | BigInt(byte);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % BASE)] + out;
    n /= BASE;
  }
  if (out.length > width) throw new RangeError(`${bytes.length} bytes do not fit in ${width} base62 characters`);
  return out.padStart(width, '0');
}

export function fromBase62(text: string, byteLength: number): Uint8Array | null {
  let n = 0n;
  for (const char of text) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) return null;
    n = n * BASE + BigInt(digit);
  }
  if (n >> BigInt(byteLength * 8) !== 0n) return null;
  const bytes = new Uint8Array(byteLength);
  for (let i = byteLength - 1; i >= 0; i--) {
    bytes[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return bytes;
}

const uuidBytes = (uuid: string): Uint8Array => Uint8Array.from(Buffer.from(uuid.replace(/-/g, ''), 'hex'));

const bytesUuid = (bytes: Uint8Array): string => {
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

const orgCheck = (org: Uint8Array, lookup: string): Uint8Array =>
  createHash('sha256').update(org).update(lookup).digest().subarray(0, 4);

/** The body of one key value: the lookup it is found by and the organization it belongs to. */
export function keyBody(keyId: string, organizationId: string, nonce: Uint8Array): { lookup: string; body: string } {
  if (nonce.length !== NONCE_BYTES) throw new RangeError(`the nonce is ${NONCE_BYTES} bytes`);
  const lookup = toBase62(Buffer.concat([uuidBytes(keyId), nonce]), LOOKUP_LENGTH);
  return { lookup, body: bodyOf(lookup, organizationId) };
}

/**
 * The one body a key with this lookup and organization has: base62 at a fixed width is canonical,
 * so `organizationOf(b) === organizationId` exactly when `b === bodyOf(lookupOf(b), organizationId)`,
 * and a caller that has the key can compare strings instead of decoding every request.
 */
export function bodyOf(lookup: string, organizationId: string): string {
  const org = uuidBytes(organizationId);
  return lookup + toBase62(Buffer.concat([org, orgCheck(org, lookup)]), ORG_LENGTH);
}

export const secretText = (random: Uint8Array): string => toBase62(random, Math.ceil((random.length * 8) / Math.log2(62)));

/** The organization id a body carries, or null when that part is damaged. */
export function organizationOf(body: string): string | null {
  if (body.length !== BODY_LENGTH) return null;
  const lookup = body.slice(0, LOOKUP_LENGTH);
  const bytes = fromBase62(body.slice(LOOKUP_LENGTH), 20);
  if (!bytes) return null;
  const org = bytes.subarray(0, 16);
  return Buffer.from(orgCheck(org, lookup)).equals(Buffer.from(bytes.subarray(16))) ? bytesUuid(org) : null;
}

/** The lookup part of a body, or null when the body cannot hold one. */
export const lookupOf = (body: string): string | null =>
  body.length === BODY_LENGTH && /^[0-9A-Za-z]+$/.test(body) ? body.slice(0, LOOKUP_LENGTH) : null;

/** What an Authorization header holds, read without touching any store. */
export type PresentedKey =
  | { kind: 'missing' }
  | { kind: 'demo' }
  | { kind: 'public'; key: string; body: string }
  | { kind: 'private'; key: string; body: string; secret: string | null }
  /** Three segments, but neither `pk` nor `sk`. */
  | { kind: 'other'; key: string };

/**
 * Reads `Authorization: Bearer <key>`. Missing, empty, another scheme, or a key without exactly
 * three dash-separated segments are all "missing" (document 1, `API key missing.`).
 */
export function readAuthorization(header: string | undefined, demoKey: string): PresentedKey {
  const match = /^Bearer +(\S+) *$/.exec(header ?? '');
  if (!match) return { kind: 'missing' };
  const key = match[1]!;
  if (key.split('-').length !== 3) return { kind: 'missing' };
  if (key === demoKey) return { kind: 'demo' };
  if (key.startsWith(PUBLIC_PREFIX)) return { kind: 'public', key, body: key.slice(PUBLIC_PREFIX.length) };
  if (key.startsWith(PRIVATE_PREFIX)) {
    const rest = key.slice(PRIVATE_PREFIX.length);
    const split = rest.indexOf('::');
    return split < 0
      ? { kind: 'private', key, body: rest, secret: null }
      : { kind: 'private', key, body: rest.slice(0, split), secret: rest.slice(split + 2) };
  }
  return { kind: 'other', key };
}
