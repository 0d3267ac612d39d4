// Widget session tokens (document 3 "Widget preflight", sent back in `X-Service-Session` with
// events): the session, its organization and expiry, signed with a key derived from the server
// secret. Stateless, so any API process can check one.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

export interface WidgetSession {
  sessionId: string;
  organizationId: string;
  demo: boolean;
  expiresAt: Date;
}

const payload = z.object({ s: z.uuid(), o: z.uuid(), d: z.boolean(), e: z.number().int() });

const signingKey = (serverSecret: string) => createHmac('sha256', serverSecret).update('widget-session-token').digest();
const sign = (serverSecret: string, body: string) => createHmac('sha256', signingKey(serverSecret)).update(body).digest();

export function issueSessionToken(serverSecret: string, session: WidgetSession): string {
  const body = Buffer.from(JSON.stringify({ s: session.sessionId, o: session.organizationId, d: session.demo, e: session.expiresAt.getTime() })).toString('base64url');
  return `${body}.${sign(serverSecret, body).toString('base64url')}`;
}

/** The session a token stands for; null when it is malformed, forged or expired. */
export function readSessionToken(serverSecret: string, token: string, now: Date): WidgetSession | null {
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
  return { sessionId: parsed.data.s, organizationId: parsed.data.o, demo: parsed.data.d, expiresAt: new Date(parsed.data.e) };
}
