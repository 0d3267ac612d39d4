// Widget session tokens (document 3 "Widget preflight", sent back in `X-Service-Session` with
// events): the session, its organization and expiry, signed with a key derived from the server
// secret. Stateless, so any API process can check one. Bound to the key that opened it (`k`, its
// key id; null for the demo key): tokens issued before `k` existed read as keyId null.
import { z } from 'zod';
import { signedClaims } from '../../infra/tokens/signed-claims.js';

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

const tokens = signedClaims(
  'widget-session-token',
  z.object({ s: z.uuid(), o: z.uuid(), k: z.string().min(1).max(100).nullable().optional(), d: z.boolean(), e: z.number().int() }),
  MAX_TOKEN_LENGTH,
);

export function issueSessionToken(serverSecret: string, session: WidgetSession): string {
  return tokens.issue(serverSecret, { s: session.sessionId, o: session.organizationId, k: session.keyId, d: session.demo, e: session.expiresAt.getTime() });
}

/** The session a token stands for; null when it is malformed, forged or expired. */
export function readSessionToken(serverSecret: string, token: string, now: Date): WidgetSession | null {
  const claims = tokens.read(serverSecret, token, now);
  return claims && { sessionId: claims.s, organizationId: claims.o, keyId: claims.k ?? null, demo: claims.d, expiresAt: new Date(claims.e) };
}
