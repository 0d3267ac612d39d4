// Who is calling: set by the authentication plugin on every request to a keyed route, read by
// metering, idempotency and the routes. Routes declare what they need in their config.
import type { Actor } from '../domain/metadata.js';
import type { KeyScope } from '../domain/apikey/access.js';
import type { Plan } from '../domain/plan.js';

export type KeyType = 'public' | 'private';
export type Scope = KeyScope;

export interface Caller {
  organizationId: string;
  /** The API key's id; null for the demo key. */
  keyId: string | null;
  demo: boolean;
  plan: Plan;
  /** Start of the subscription: billing periods run monthly from it. ISO date-time. */
  subscriptionStartedAt: string;
  /** Who RPM is counted for: the organization, or `ip:<address>` for the demo key. */
  rateSubject: string;
  /** Recorded on every event the request appends. */
  actor: Actor;
}

/** A signed-in account, and the organization its uploads belong to (null: it has none). */
export interface SignedIn {
  accountId: string;
  organizationId: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The key the route takes (document 1 "Which key each endpoint group needs"); unset: no key.
     * `private-or-session`: a private key, else the signed-in session cookie (the session upload
     * route); the route finds `request.caller` or `request.signedIn` set.
     */
    auth?: KeyType | 'private-or-session';
    /** Quota resource (document 1 §Limits 1), e.g. `api.v1.widget.presets.list`. */
    resource?: string;
    /** Scope a scoped key needs for this route; unset on a private route: no scope grants it. */
    scope?: Scope;
    /** Public routes accept the demo key unless this is false. */
    demo?: boolean;
    /**
     * How this route words a deleted organization's 401 (document 2 gives two): by default
     * `Organization '<id>' not found.`; `please-check` is retrieve-dataset's wording.
     */
    organizationNotFound?: 'named' | 'please-check';
  }
  interface FastifyRequest {
    caller?: Caller;
    /** A `private-or-session` route called without a valid private key, with a valid session cookie. */
    signedIn?: SignedIn;
  }
}
