// Claims signed with a key derived from the server secret under a label of their own (so one kind
// of token can never pass for another), as `<base64url JSON>.<base64url HMAC-SHA256>`, with an
// expiry `e` (ms since the epoch). Stateless: any API or worker process checks one without a
// lookup. Used by widget session tokens, the signed-in session cookie and cart intents.
//
// Decoding is strict: both parts must be exactly the unpadded base64url this module writes. Node's
// decoder forgives padding, stray characters and the unused low bits of the last character, so a
// lenient check would take many spellings of one signature (`<sig>=`, a last letter changed) as
// that signature, and a token would not be one string.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';

/** Unpadded base64url, nothing else. */
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export interface SignedClaims<T extends { e: number }> {
  issue(serverSecret: string, claims: T): string;
  /** The claims of a token; null when it is too long, malformed, forged or expired. */
  read(serverSecret: string, token: string, now: Date): T | null;
}

export function signedClaims<S extends z.ZodType<{ e: number }>>(label: string, schema: S, maxLength: number): SignedClaims<z.output<S>> {
  // Derived once per secret, not per token: some routes sign or check one on every request.
  const keys = new Map<string, Buffer>();
  const keyOf = (serverSecret: string): Buffer => {
    let key = keys.get(serverSecret);
    if (!key) {
      key = createHmac('sha256', serverSecret).update(label).digest();
      if (keys.size > 16) keys.clear();
      keys.set(serverSecret, key);
    }
    return key;
  };
  const sign = (serverSecret: string, body: string) => createHmac('sha256', keyOf(serverSecret)).update(body).digest();
  return {
    issue(serverSecret, claims) {
      const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return `${body}.${sign(serverSecret, body).toString('base64url')}`;
    },
    read(serverSecret, token, now) {
      if (token.length > maxLength) return null;
      const [body, signature, extra] = token.split('.');
      if (!body || !signature || extra !== undefined || !BASE64URL.test(body)) return null;
      // Compared as text with the one spelling of the expected signature, in constant time.
      const expected = Buffer.from(sign(serverSecret, body).toString('base64url'));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      let parsed;
      try {
        parsed = schema.safeParse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
      } catch {
        return null;
      }
      if (!parsed.success || parsed.data.e <= now.getTime()) return null;
      return parsed.data;
    },
  };
}
