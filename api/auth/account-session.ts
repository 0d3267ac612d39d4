// The signed-in session of the session upload route (document 2 "POST /v1/file/upload/session"):
// a cookie naming an account and its organization memberships, signed with a key derived from the
// server secret under its own label, so neither a widget session token nor anything else signed
// with the secret can pass for one. Stateless: any API process checks it without a lookup.
//
// Accounts live with whoever signs people in (the dashboard, later; `stylist session issue` now):
// this service keeps no account records. The cookie is the account's claim, vouched for by the
// signature: its id is recorded as the actor of what it uploads, and its memberships say which
// organization the files belong to (the first active one, document 2).
import { z } from 'zod';
import { signedClaims } from '../../infra/tokens/signed-claims.js';

export const ACCOUNT_SESSION_COOKIE = 'stylist_session';
export const ACCOUNT_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface Membership {
  organizationId: string;
  /** An invited or suspended member is listed but not active. */
  active: boolean;
}

export interface AccountSession {
  accountId: string;
  memberships: Membership[];
  expiresAt: Date;
}

const cookies = signedClaims(
  'account-session-cookie',
  z.object({
    a: z.uuid(),
    m: z.array(z.object({ o: z.uuid(), a: z.boolean() })).max(100),
    e: z.number().int(),
  }),
  8192,
);

export function issueAccountSession(serverSecret: string, session: AccountSession): string {
  return cookies.issue(serverSecret, { a: session.accountId, m: session.memberships.map((m) => ({ o: m.organizationId, a: m.active })), e: session.expiresAt.getTime() });
}

/** The session a cookie value stands for; null when it is malformed, forged or expired. */
export function readAccountSession(serverSecret: string, value: string, now: Date): AccountSession | null {
  const claims = cookies.read(serverSecret, value, now);
  return claims && { accountId: claims.a, memberships: claims.m.map((m) => ({ organizationId: m.o, active: m.a })), expiresAt: new Date(claims.e) };
}

/** The cookie's value from a `Cookie` header (the first one of that name), or null. */
export function accountSessionCookie(header: string | string[] | undefined): string | null {
  const text = Array.isArray(header) ? header.join('; ') : header;
  if (!text) return null;
  for (const pair of text.split(';')) {
    const index = pair.indexOf('=');
    if (index < 0) continue;
    if (pair.slice(0, index).trim() !== ACCOUNT_SESSION_COOKIE) continue;
    const value = pair.slice(index + 1).trim();
    return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value;
  }
  return null;
}
