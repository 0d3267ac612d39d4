// Widget session tokens (document 3 "Widget preflight", sent back in `X-Service-Session` with
// events): the session, its organization and expiry, signed with a key derived from the server
// secret. Stateless, so any API process can check one. Bound to the key that opened it (`k`, its
// key id; null for the demo key): tokens issued before `k` existed read as keyId null.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** Longer than any token this service issues; a longer header is not even decoded. */
const MAX_TOKEN_LENGTH = 512;

export interface WidgetSession {
  sessionId: string;
  organizationId: string;
  /** The API key that opened the session; null for the demo key (and for tokens issued before keys were bound). */
  keyId: string | null;
  demo: boolean;
  expiresAt: Date;
}

const payload = z.object({ s: z.uuid(), o: z.uuid(), k: z.string().min(1).max(100).nullable().optional(), d: z.boolean(), e: z.number().int() });

// Derived once per secret, not per token: preflight and every events request sign or check one.
const signingKeys = new Map<string, Buffer>();
const signingKey = (serverSecret: string): Buffer => {
  let key = signingKeys.get(serverSecret);
  if (!key) {
    key = createHmac('sha256', serverSecret).update('widget-session-token').digest();
    if (signingKeys.size > 16) signingKeys.clear();
    signingKeys.set(serverSecret, key);
  }
  return key;
};
const sign = (serverSecret: string, body: string) => createHmac('sha256', signingKey(serverSecret)).update(body).digest();

export function issueSessionToken(serverSecret: string, session: WidgetSession): string {
  const body = Buffer.from(JSON.stringify({ s: session.sessionId, o: session.organizationId, k: session.keyId, d: session.demo, e: session.expiresAt.getTime() })).toString('base64url');
  return `${body}.${sign(serverSecret, body).toString('base64url')}`;
}

/** The session a token stands for; null when it is malformed, forged or expired. */
export function readSessionToken(serverSecret: string, token: string, now: Date): WidgetSession | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return null;
  const expected = sign(serverSecret, body);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed;
  try {
    parsed = payload.safeParse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
  } catch {
    return null;
  }
  if (!parsed.success || parsed.data.e <= now.getTime()) return null;
  return { sessionId: parsed.data.s, organizationId: parsed.data.o, keyId: parsed.data.k ?? null, demo: parsed.data.d, expiresAt: new Date(parsed.data.e) };
}
