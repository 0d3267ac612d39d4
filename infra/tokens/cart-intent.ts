// Cart intents (document 2, `cart_action`): an `add` or `swap` the agent proposes carries a token
// bound to the widget session, the item, the variant and an expiry, signed with the service's
// secret. The storefront applies the action and reports `cart_outcome` with the token, so an
// outcome can be tied to what the agent proposed, and a token cannot be made for another session,
// product or variant, nor used after it expires.
import { z } from 'zod';
import { signedClaims } from './signed-claims.js';

export const INTENT_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_INTENT_LENGTH = 600;

export interface CartIntent {
  sessionId: string;
  itemId: string;
  variantId: string;
  action: 'add' | 'swap';
  expiresAt: Date;
}

const intents = signedClaims(
  'cart-intent',
  z.object({ s: z.string().min(1).max(100), i: z.string().min(1).max(100), v: z.string().max(100), a: z.enum(['add', 'swap']), e: z.number().int() }),
  MAX_INTENT_LENGTH,
);

export function issueCartIntent(serverSecret: string, intent: CartIntent): string {
  return intents.issue(serverSecret, { s: intent.sessionId, i: intent.itemId, v: intent.variantId, a: intent.action, e: intent.expiresAt.getTime() });
}

/** The intent a token stands for; null when it is malformed, forged or expired. */
export function readCartIntent(serverSecret: string, token: string, now: Date): CartIntent | null {
  const claims = intents.read(serverSecret, token, now);
  return claims && { sessionId: claims.s, itemId: claims.i, variantId: claims.v, action: claims.a, expiresAt: new Date(claims.e) };
}
