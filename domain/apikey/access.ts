// Where a key may be used (document 1 "Restricting where a key works"): access modes, allowed
// websites and IP ranges, validated when set and checked on every request. Pure.
import { BlockList, isIP } from 'node:net';
import { Invalid } from '../errors.js';

export type PublicAccess =
  | { mode: 'everyone' }
  | { mode: 'service-only' }
  | { mode: 'websites'; websites: string[]; allowLocalhost: boolean; allowApps: boolean };

export type PrivateAccess = { mode: 'everyone' } | { mode: 'service-only' } | { mode: 'ips'; ips: Array<{ cidr: string; note: string }> };

export const SCOPES = ['widget', 'styling', 'organization', 'analytics', 'chat'] as const;
export type KeyScope = (typeof SCOPES)[number];

const DOMAIN = /^(\*\.)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** `store.com` or `*.store.com`, lower-cased; anything else is refused with the entry named. */
export function website(entry: string): string {
  const value = entry.trim().toLowerCase();
  if (!DOMAIN.test(value)) throw new Invalid(`Not a website: ${JSON.stringify(entry)}. Use store.com or *.store.com.`);
  return value;
}

/** An address or CIDR range, normalised to `address/prefix`. */
export function ipRange(entry: string): string {
  const [address = '', prefixText, extra] = entry.trim().split('/');
  const family = isIP(address);
  const max = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!family || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max || (prefixText !== undefined && !/^\d+$/.test(prefixText))) {
    throw new Invalid(`Not an IP address or CIDR range: ${JSON.stringify(entry)}.`);
  }
  return `${address.toLowerCase()}/${prefix}`;
}

export function scopes(entries: readonly string[]): KeyScope[] {
  const unknown = entries.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw new Invalid(`Unknown scope: ${unknown.join(', ')}. Scopes: ${SCOPES.join(', ')}.`);
  return [...new Set(entries as KeyScope[])].sort();
}

const LOCALHOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The host of an `Origin` header value, or null when it is not a usable origin. */
export function originHost(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.toLowerCase() : null;
  } catch {
    return null;
  }
}

export function websiteAllows(entries: readonly string[], host: string): boolean {
  return entries.some((entry) => (entry.startsWith('*.') ? host === entry.slice(2) || host.endsWith(entry.slice(1)) : host === entry));
}

export type AccessDenial =
  | { kind: 'service-only' }
  | { kind: 'website'; origin: string }
  | { kind: 'no-website' }
  | { kind: 'address'; address: string };

/** Public keys: the `Origin` header says which website a request came from; none means an app or server. */
export function checkPublicAccess(access: PublicAccess, origin: string | undefined): AccessDenial | null {
  if (access.mode === 'everyone') return null;
  if (access.mode === 'service-only') return { kind: 'service-only' };
  if (origin === undefined || origin === '' || origin === 'null') return access.allowApps ? null : { kind: 'no-website' };
  const host = originHost(origin);
  if (host && access.allowLocalhost && LOCALHOSTS.has(host)) return null;
  if (host && websiteAllows(access.websites, host)) return null;
  return { kind: 'website', origin };
}

/** Private keys: the client address (the socket's, or the proxy's `X-Forwarded-For` when trusted). */
export function checkPrivateAccess(access: PrivateAccess, address: string): AccessDenial | null {
  if (access.mode === 'everyone') return null;
  if (access.mode === 'service-only') return { kind: 'service-only' };
  const client = plainAddress(address);
  const family = isIP(client);
  if (family) {
    const list = new BlockList();
    for (const { cidr } of access.ips) {
      const [network, prefix] = cidr.split('/');
      const type = isIP(network!) === 4 ? 'ipv4' : 'ipv6';
      list.addSubnet(network!, Number(prefix), type);
    }
    if (list.check(client, family === 4 ? 'ipv4' : 'ipv6')) return null;
  }
  return { kind: 'address', address: client };
}

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is 10.0.0.1. */
export const plainAddress = (address: string): string => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
};
