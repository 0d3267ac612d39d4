// Document 1, common body errors: every JSON route answers 400 `Request body must be valid JSON.`
// or 400 `Request body must be a JSON object.` (empty, an array or a scalar) before its own checks.
// Bodies are read as JSON whatever Content-Type says, so a missing header is not a different error.
import type { FastifyInstance } from 'fastify';
import { valueProblem } from '../../domain/text.js';
import { HttpError } from './errors.js';

export const INVALID_JSON = 'Request body must be valid JSON.';
export const NOT_AN_OBJECT = 'Request body must be a JSON object.';
export const MAX_BODY_DEPTH = 32;
export const TOO_DEEP = `Request body is nested too deeply (at most ${MAX_BODY_DEPTH} levels).`;
export const BAD_TEXT = 'Request body text must not contain NUL characters or unpaired surrogates.';

/** Refuses what would fail later and deeper (a stack overflow in a recursive serialiser, a string Postgres refuses). */
export function bodyProblem(body: unknown): string | null {
  const problem = valueProblem(body, MAX_BODY_DEPTH);
  return problem === null ? null : problem.kind === 'depth' ? TOO_DEEP : BAD_TEXT;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 'none': the route takes no body (e.g. "No body" endpoints); 'optional': no body reads as `{}`,
     * a body must be a JSON object; default for POST/PUT/PATCH is a JSON object.
     */
    body?: 'json' | 'none' | 'optional';
  }
}

const EMPTY = Symbol('empty body');

export function registerJsonBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, text, done) => {
    const source = String(text);
    if (source.trim() === '') return done(null, EMPTY);
    let body: unknown;
    try {
      body = JSON.parse(source);
    } catch {
      return done(new HttpError(400, INVALID_JSON), undefined);
    }
    const problem = bodyProblem(body);
    if (problem) return done(new HttpError(400, problem), undefined);
    done(null, body);
  });

  app.addHook('preValidation', async (request) => {
    const config = request.routeOptions.config;
    const takesBody = ['POST', 'PUT', 'PATCH'].includes(request.method) && config?.body !== 'none';
    if (!takesBody) {
      if (request.body === EMPTY) request.body = undefined;
      return;
    }
    const body = request.body;
    if (config?.body === 'optional' && (body === undefined || body === EMPTY)) {
      request.body = {};
      return;
    }
    if (body === undefined || body === EMPTY || body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new HttpError(400, NOT_AN_OBJECT);
    }
  });
}
