// Authentication and access (document 1 "Authentication" and its error table), run before the
// body is read, in the order of that table: header, key type, format, lookup, secret, the
// organization data in the key, the organization, its subscription, where the key may be used,
// and its scopes. Rejections carry only `X-RateLimit-Resource`; nothing is counted against quota.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkPrivateAccess, checkPublicAccess, type AccessDenial } from '../../domain/apikey/access.js';
import { lookupOf, readAuthorization } from '../../domain/apikey/key-format.js';
import type { Plan } from '../../domain/plan.js';
import { verifySecret } from '../../commands/credentials.js';
import type { KeyDirectory } from '../auth/key-directory.js';
import { UPLOAD_MESSAGES } from '../../domain/file/rules.js';
import { accountSessionCookie, readAccountSession } from '../auth/account-session.js';
import type { Caller, KeyType } from '../caller.js';
import { HttpError } from './errors.js';

export interface AuthenticationOptions {
  keys: KeyDirectory;
  serverSecret: string;
  demo: { key: string; organizationId: string; plan: Plan };
}

export const AUTH_ERRORS = {
  missing: 'API key missing.',
  publicUnknown: 'Authentication failed: public key is invalid or not recognized.',
  privateForPublic: 'Authentication failed: private key provided instead of a public key.',
  publicForPrivate: 'Authentication failed: public key provided instead of a private key.',
  format: 'Authentication failed: bearer token format is invalid.',
  privateUnknown: 'Authentication failed: token is not recognized.',
  badSecret: 'Authentication failed: private key is invalid.',
  unreadable: 'Authentication failed: API key could not be read. Regenerate the key.',
  noSubscription: 'No active subscription for this organization.',
  demoPrivate: 'Demo mode is not available for private-key routes. Demos are only supported with public API keys.',
  demoUnsupported: 'Demo mode is not supported on this API route. Check the documentation for available demo endpoints.',
  scopesDoNotCover: "This key's scopes do not cover this endpoint.",
} as const;

export const organizationNotFound = (organizationId: string, wording: 'named' | 'please-check' = 'named'): string =>
  wording === 'please-check' ? 'Organization not found. Please check the organizationId.' : `Organization '${organizationId}' not found.`;
export const missingScope = (scope: string): string => `This key does not have the "${scope}" scope.`;

/** Document 1 gives each message's opening; the rest tells the merchant what to change. */
export const whereDenied = (denial: AccessDenial): string => {
  switch (denial.kind) {
    case 'service-only':
      return "This API key is for the service's own use only. Use another key of this organization.";
    case 'website':
      return `This API key cannot be used from ${denial.origin}. Add the website to the key's allowed websites.`;
    case 'no-website':
      return "This API key only accepts requests from its allowed websites. Allow apps and servers on the key to call it without a website.";
    case 'address':
      return `This API key cannot be used from ${denial.address}. Add the address to the key's allowed IP addresses.`;
  }
};

export function registerAuthentication(app: FastifyInstance, options: AuthenticationOptions): void {
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (!config?.auth) return;
    try {
      if (config.auth === 'private-or-session') await authenticateKeyOrSession(request, options);
      else request.caller = await authenticate(request, options, config.auth);
    } catch (error) {
      if (config.resource) reply.header('X-RateLimit-Resource', config.resource);
      throw error;
    }
  });
}

const fail = (status: 401 | 403, message: string): never => {
  throw new HttpError(status, message);
};

/**
 * Document 2 "POST /v1/file/upload/session": (1) a private key as bearer token; a public key is
 * refused before the session is looked at; a malformed, unknown or revoked private key (any 401)
 * falls through to (2) the signed session cookie, and only without one is the request refused. A
 * key that is recognised but refused where it stands (subscription, address, scopes) is not
 * "no valid bearer token": its 403 stands. The demo key is a public key here, with its own 403.
 */
async function authenticateKeyOrSession(request: FastifyRequest, options: AuthenticationOptions): Promise<void> {
  const presented = readAuthorization(request.headers.authorization, options.demo.key);
  if (presented.kind === 'demo') return fail(403, AUTH_ERRORS.demoPrivate);
  if (presented.kind === 'public') return fail(403, UPLOAD_MESSAGES.publicKey);
  if (presented.kind !== 'missing') {
    try {
      request.caller = await authenticate(request, options, 'private');
      return;
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 401) throw error;
    }
  }
  const cookie = accountSessionCookie(request.headers.cookie);
  const session = cookie ? readAccountSession(options.serverSecret, cookie, new Date()) : null;
  if (!session) return fail(401, UPLOAD_MESSAGES.authenticationRequired);
  // The first organization the account is an active member of that still exists (document 2: not
  // selectable). Whether it has none is told after the per-IP limit, in the route.
  let organizationId: string | null = null;
  for (const membership of session.memberships) {
    if (!membership.active) continue;
    const account = await options.keys.findAccount(membership.organizationId);
    if (account && !account.deleted) {
      organizationId = membership.organizationId;
      break;
    }
  }
  request.signedIn = { accountId: session.accountId, organizationId };
}

async function authenticate(request: FastifyRequest, { keys, serverSecret, demo }: AuthenticationOptions, type: KeyType | undefined): Promise<Caller> {
  const { scope, demo: demoAllowed } = request.routeOptions.config;
  const presented = readAuthorization(request.headers.authorization, demo.key);

  if (presented.kind === 'missing') return fail(401, AUTH_ERRORS.missing);
  if (presented.kind === 'demo') {
    if (type === 'private') return fail(403, AUTH_ERRORS.demoPrivate);
    if (demoAllowed === false) return fail(403, AUTH_ERRORS.demoUnsupported);
    const account = await keys.findAccount(demo.organizationId);
    if (!account?.subscription?.active || account.deleted) return fail(403, AUTH_ERRORS.noSubscription);
    return {
      organizationId: demo.organizationId,
      keyId: null,
      demo: true,
      plan: demo.plan,
      subscriptionStartedAt: account.subscription.startedAt,
      rateSubject: `ip:${request.ip}`,
      actor: { kind: 'key', id: 'demo' },
    };
  }

  let body: string;
  if (type === 'public') {
    if (presented.kind === 'private') return fail(401, AUTH_ERRORS.privateForPublic);
    body = presented.kind === 'public' ? presented.body : '';
  } else {
    if (presented.kind === 'public') return fail(401, AUTH_ERRORS.publicForPrivate);
    const secret = presented.kind === 'private' ? presented.secret : presented.key.includes('::') ? '' : null;
    if (secret === null) return fail(401, AUTH_ERRORS.format);
    body = presented.kind === 'private' ? presented.body : '';
  }

  const unknown = type === 'public' ? AUTH_ERRORS.publicUnknown : AUTH_ERRORS.privateUnknown;
  const lookup = lookupOf(body);
  const key = lookup ? await keys.findKey(type!, lookup) : null;
  if (!key) return fail(401, unknown);
  if (presented.kind === 'private' && !verifySecret(serverSecret, presented.secret ?? '', key.secretHash)) return fail(401, AUTH_ERRORS.badSecret);
  // The organization part must be the one this key carries (see `bodyOf`).
  if (body !== key.body) return fail(401, AUTH_ERRORS.unreadable);

  const account = await keys.findAccount(key.organizationId);
  if (!account || account.deleted) return fail(401, organizationNotFound(key.organizationId, request.routeOptions.config.organizationNotFound));
  if (!account.subscription?.active) return fail(403, AUTH_ERRORS.noSubscription);

  const denial = type === 'public' ? checkPublicAccess(key.publicAccess, request.headers.origin) : checkPrivateAccess(key.privateAccess, request.ip);
  if (denial) return fail(403, whereDenied(denial));

  if (key.scopes !== null) {
    if (scope && !key.scopes.includes(scope)) return fail(403, missingScope(scope));
    if (!scope && type === 'private') return fail(403, AUTH_ERRORS.scopesDoNotCover);
  }

  return {
    organizationId: key.organizationId,
    keyId: key.keyId,
    demo: false,
    plan: account.subscription.plan,
    subscriptionStartedAt: account.subscription.startedAt,
    rateSubject: key.organizationId,
    actor: { kind: 'key', id: key.keyId },
  };
}
