// Every fetch of a URL a merchant gave us (store feeds, market feeds, product photos) goes through
// here. The check sits where the socket is made: the address looked up is the address checked and
// the address connected to, so neither an odd spelling nor a DNS answer that changes between a
// check and a connect (rebinding) reaches this machine, its private network or a metadata service.
// A refused address fails before a single packet is sent to it.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { Socket } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { classifyAddress, classifyHost, describeClass, isFetchable, type AddressClass } from './address-policy.js';

/** Every address a name has, as dns.lookup with `all: true` gives them. */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export interface OutboundOptions {
  /** Fetch loopback, private and link-local addresses too (OUTBOUND_ALLOW_PRIVATE): tests and local setups only. */
  allowPrivate?: boolean;
  /** Default dns.lookup; tests inject names that resolve where they say. */
  resolve?: Resolver;
  /**
   * Tests only, never configuration: these exact addresses are fetched as if public, so a local
   * server can stand in for a store on the internet while every other local address stays refused.
   */
  treatAsPublic?: readonly string[];
  /** Default 10,000. */
  connectTimeoutMs?: number;
  /** Until the answer's headers have come (the first byte). Default 30,000. */
  headersTimeoutMs?: number;
  /** Longest silence while the body arrives. Default 30,000. */
  bodyTimeoutMs?: number;
}

export interface OutboundRequest {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The whole exchange, body included, when the caller reads it before this runs out. */
  timeoutMs?: number;
}

export interface Outbound {
  readonly allowPrivate: boolean;
  /** One GET, redirects not followed (callers follow them, so every hop is checked and counted). */
  fetch(url: string | URL, request?: OutboundRequest): Promise<Response>;
  close(): Promise<void>;
}

/** At most this many redirects are followed by any caller. */
export const MAX_REDIRECTS = 5;

/** The address a merchant's URL leads to is not one Stylist fetches; the message is for the merchant. */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
  readonly code = 'E_OUTBOUND_REFUSED';

  constructor(message: string) {
    super(message);
  }

  static address(host: string, address: string, kind: Exclude<AddressClass, 'public'>): OutboundRefused {
    const which = host === address ? `${address} is` : `${host} resolves to ${address},`;
    return new OutboundRefused(`refused: ${which} ${describeClass(kind)}; Stylist only fetches addresses on the public internet`);
  }

  static scheme(protocol: string): OutboundRefused {
    return new OutboundRefused(`refused: ${protocol} addresses are not fetched, only http and https`);
  }
}

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export function createOutbound(options: OutboundOptions = {}): Outbound {
  const allowPrivate = options.allowPrivate ?? false;
  const resolve = options.resolve ?? systemResolver;
  const treatAsPublic = new Set(options.treatAsPublic ?? []);

  /** Null when `address` may be connected to. */
  const refusal = (host: string, address: string, kind: AddressClass = classifyAddress(address)): OutboundRefused | null => {
    if (treatAsPublic.has(address) || kind === 'public' || isFetchable(kind, allowPrivate)) return null;
    return OutboundRefused.address(host, address, kind);
  };

  // net.connect and tls.connect call this for a name; what it answers is what they connect to.
  const lookup = (hostname: string, lookupOptions: LookupOptions, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void): void => {
    resolve(hostname)
      .then((answers) => {
        const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? answers.filter((answer) => answer.family === lookupOptions.family) : answers;
        if (!wanted.length) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
        // One refused answer refuses the name: a store has no reason to list a private address beside a public one.
        for (const answer of wanted) {
          const refused = refusal(hostname, answer.address);
          if (refused) throw refused;
        }
        if (lookupOptions.all) callback(null, wanted.map(({ address, family }) => ({ address, family })));
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      })
      .catch((error: Error) => callback(error, ''));
  };

  const connectSocket = buildConnector({ timeout: options.connectTimeoutMs ?? 10_000, lookup });
  const connect: buildConnector.connector = (target, callback) => {
    // An address literal never reaches lookup, and `localhost` must not depend on what DNS says.
    const known = classifyHost(target.hostname);
    const refused = known === null ? null : refusal(target.hostname, target.hostname, known);
    if (refused) return callback(refused, null);
    connectSocket(target, (error, socket) => {
      if (error) return callback(error, null);
      // Never expected to fire (lookup already checked); here so the rule holds whatever path made the socket.
      const peer = (socket as Socket).remoteAddress;
      const refused = peer ? refusal(target.hostname, peer) : null;
      if (refused) {
        socket!.destroy();
        return callback(refused, null);
      }
      callback(null, socket!);
    });
  };

  const agent = new Agent({
    connect,
    headersTimeout: options.headersTimeoutMs ?? 30_000,
    bodyTimeout: options.bodyTimeoutMs ?? 30_000,
    maxRedirections: 0,
  });

  return {
    allowPrivate,
    async fetch(url, request = {}) {
      const target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw OutboundRefused.scheme(target.protocol);
      const signals = [request.signal, request.timeoutMs === undefined ? undefined : AbortSignal.timeout(request.timeoutMs)].filter((signal): signal is AbortSignal => signal !== undefined);
      try {
        const response = await undiciFetch(target, {
          redirect: 'manual',
          headers: request.headers,
          signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
          dispatcher: agent,
        });
        return response as unknown as Response;
      } catch (error) {
        throw refusalIn(error) ?? error;
      }
    },
    close: () => agent.close(),
  };
}

/** Undici wraps what the connector said in `TypeError: fetch failed`; a refusal is worth its own words. */
function refusalIn(error: unknown): OutboundRefused | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    if (current instanceof OutboundRefused) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const shared = new Map<boolean, Outbound>();

/** The process's own client for a setting: one connection pool, shared by every worker. */
export function outboundClient(allowPrivate: boolean): Outbound {
  let client = shared.get(allowPrivate);
  if (!client) shared.set(allowPrivate, (client = createOutbound({ allowPrivate })));
  return client;
}

/** A body read to the end, refused as soon as it passes `maxBytes` (declared or counted). */
export async function readCapped(response: Response, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  if (Number(response.headers.get('content-length')) > maxBytes) {
    response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const reader = response.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}
