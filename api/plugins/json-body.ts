// Document 1, common body errors: every JSON route answers 400 `Request body must be valid JSON.`
// or 400 `Request body must be a JSON object.` (empty, an array or a scalar) before its own checks.
// Bodies are read as JSON whatever Content-Type says, so a missing header is not a different error.
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

export const INVALID_JSON = 'Request body must be valid JSON.';
export const NOT_AN_OBJECT = 'Request body must be a JSON object.';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'none': the route takes no body (e.g. "No body" endpoints); default for POST/PUT/PATCH is a JSON object. */
    body?: 'json' | 'none';
  }
}

const EMPTY = Symbol('empty body');

export function registerJsonBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, text, done) => {
    const source = String(text);
    if (source.trim() === '') return done(null, EMPTY);
    try {
      done(null, JSON.parse(source));
    } catch {
      done(new HttpError(400, INVALID_JSON), undefined);
    }
  });

  app.addHook('preValidation', async (request) => {
    const config = request.routeOptions.config;
    const takesBody = ['POST', 'PUT', 'PATCH'].includes(request.method) && config?.body !== 'none';
    if (!takesBody) {
      if (request.body === EMPTY) request.body = undefined;
      return;
    }
    const body = request.body;
    if (body === undefined || body === EMPTY || body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new HttpError(400, NOT_AN_OBJECT);
    }
  });
}
