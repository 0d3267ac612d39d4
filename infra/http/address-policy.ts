// Which network addresses Stylist may fetch a merchant's URL from. A store address is someone
// else's text: it must not reach this machine, the private network it sits on, or the cloud's
// metadata service, whatever spelling or DNS answer it arrives in. Pure: no lookups here.
import { isIP } from 'node:net';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'reserved'
  | 'ipv4-mapped';

/** What `OUTBOUND_ALLOW_PRIVATE=true` opens: this machine and the networks around it. The rest is never fetched. */
const OPENED_BY_ALLOW_PRIVATE: ReadonlySet<AddressClass> = new Set(['loopback', 'private', 'link-local']);

const DESCRIPTION: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'a loopback address (this machine)',
  private: 'a private network address',
  'link-local': 'a link-local address (such as a cloud metadata service)',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  documentation: 'a documentation-only address',
  reserved: 'a reserved address',
  'ipv4-mapped': 'an IPv4-mapped IPv6 address',
};

export const describeClass = (kind: Exclude<AddressClass, 'public'>): string => DESCRIPTION[kind];

export function isFetchable(kind: AddressClass, allowPrivate: boolean): boolean {
  return kind === 'public' || (allowPrivate && OPENED_BY_ALLOW_PRIVATE.has(kind));
}

type V4Range = readonly [first: number, prefix: number, kind: AddressClass];

const v4 = (dotted: string): number => dotted.split('.').reduce((value, part) => value * 256 + Number(part), 0);

// RFC 6890 and the IANA special-purpose registry; anything not listed is public.
const V4_RANGES: readonly V4Range[] = [
  [v4('0.0.0.0'), 8, 'unspecified'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'private'], // carrier-grade NAT: someone's internal network
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local'], // 169.254.169.254 is the metadata service on most clouds
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'reserved'],
  [v4('192.0.2.0'), 24, 'documentation'],
  [v4('192.88.99.0'), 24, 'reserved'], // the retired 6to4 relay anycast
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'reserved'], // benchmarking
  [v4('198.51.100.0'), 24, 'documentation'],
  [v4('203.0.113.0'), 24, 'documentation'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('255.255.255.255'), 32, 'broadcast'],
  [v4('240.0.0.0'), 4, 'reserved'],
];

function classifyV4(value: number): AddressClass {
  for (const [first, prefix, kind] of V4_RANGES) {
    const size = 2 ** (32 - prefix);
    if (value >= first && value < first + size) return kind;
  }
  return 'public';
}

/** 16 bytes of an IPv6 address in any textual form (compressed, embedded dotted IPv4, zone id). */
function v6Bytes(address: string): number[] {
  const text = address.replace(/%.*$/, '');
  const [head, tail] = text.includes('::') ? text.split('::') as [string, string] : [text, undefined];
  const groups = (part: string | undefined): number[] => {
    if (!part) return [];
    return part.split(':').flatMap((group) => {
      if (group.includes('.')) {
        const n = v4(group);
        return [Math.floor(n / 65536), n % 65536];
      }
      return [parseInt(group, 16)];
    });
  };
  const front = groups(head);
  const back = groups(tail);
  const all = tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  return all.flatMap((group) => [group >> 8, group & 0xff]);
}

const startsWith = (bytes: number[], prefix: readonly number[], bits: number): boolean => {
  for (let bit = 0; bit < bits; bit++) {
    const mask = 0x80 >> (bit % 8);
    if ((bytes[Math.floor(bit / 8)]! & mask) !== (prefix[Math.floor(bit / 8)]! & mask)) return false;
  }
  return true;
};

const v4At = (bytes: number[], offset: number): number => ((bytes[offset]! << 24) >>> 0) + (bytes[offset + 1]! << 16) + (bytes[offset + 2]! << 8) + bytes[offset + 3]!;

/** An IPv4 address carried inside an IPv6 one takes the embedded address's class when that is not public. */
const embedded = (value: number, otherwise: AddressClass): AddressClass => {
  const inner = classifyV4(value);
  return inner === 'public' ? otherwise : inner;
};

function classifyV6(bytes: number[]): AddressClass {
  const zeroUpTo = (n: number) => bytes.slice(0, n).every((byte) => byte === 0);
  if (zeroUpTo(16)) return 'unspecified';
  if (zeroUpTo(15) && bytes[15] === 1) return 'loopback';
  // ::ffff:a.b.c.d reaches the IPv4 address on a dual-stack socket; a public one is still refused:
  // no real store is published that way.
  if (zeroUpTo(10) && bytes[10] === 0xff && bytes[11] === 0xff) return embedded(v4At(bytes, 12), 'ipv4-mapped');
  // ::a.b.c.d, the deprecated IPv4-compatible form.
  if (zeroUpTo(12)) return embedded(v4At(bytes, 12), 'reserved');
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b], 32) && bytes.slice(4, 12).every((byte) => byte === 0)) return embedded(v4At(bytes, 12), 'public'); // NAT64 64:ff9b::/96
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 1], 48)) return 'private'; // local-use NAT64
  if (startsWith(bytes, [0x20, 0x02], 16)) return embedded(v4At(bytes, 2), 'public'); // 6to4
  if (startsWith(bytes, [0x20, 0x01, 0x0d, 0xb8], 32)) return 'documentation';
  if (startsWith(bytes, [0x20, 0x01, 0, 0], 32)) return 'reserved'; // Teredo: tunnels to an IPv4 address of its own choosing
  if (startsWith(bytes, [0xfc], 7)) return 'private'; // unique local
  if (startsWith(bytes, [0xfe, 0x80], 10)) return 'link-local';
  if (startsWith(bytes, [0xfe, 0xc0], 10)) return 'private'; // the retired site-local range
  if (startsWith(bytes, [0xff], 8)) return 'multicast';
  // Global unicast is 2000::/3; everything else is unassigned or special.
  return startsWith(bytes, [0x20], 3) ? 'public' : 'reserved';
}

/** The class of an IP address literal (IPv6 without brackets); throws on anything else. */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) return classifyV4(v4(address));
  if (family === 6) return classifyV6(v6Bytes(address));
  throw new TypeError(`${address} is not an IP address`);
}

/**
 * A URL host as the WHATWG parser leaves it (decimal, hex and octal IPv4 already made dotted,
 * IPv6 in brackets): its class when it is an address or a name that can only mean this machine,
 * null when it is a name DNS must answer for.
 */
export function classifyHost(hostname: string): AddressClass | null {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const bare = host.replace(/\.$/, '');
  if (isIP(bare.replace(/%.*$/, ''))) return classifyAddress(bare);
  const name = bare.toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  return null;
}
