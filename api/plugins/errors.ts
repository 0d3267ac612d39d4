// One place maps every failure to the spec's status and string. Anything unexpected is a 500
// with the one message document 1 allows; the detail goes to the log, never to the caller.
import type { FastifyError, FastifyInstance } from 'fastify';
import { Conflict, DomainError, Forbidden, Invalid, NotFound } from '../../domain/errors.js';
import { ProjectionDegraded, ProjectionTimeout } from '../../projections/runner-errors.js';

/** An error whose message is already the exact text a client should see. */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly body?: Record<string, unknown>;
  constructor(statusCode: number, message: string, body?: Record<string, unknown>) {
    super(message);
    this.statusCode = statusCode;
    this.body = body;
    this.name = 'HttpError';
  }
}

const domainStatus = (error: DomainError): number =>
  error instanceof NotFound ? 404 : error instanceof Invalid ? 422 : error instanceof Conflict ? 409 : error instanceof Forbidden ? 403 : 400;

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof HttpError) return reply.code(error.statusCode).send({ error: error.message, ...error.body });
    if (error instanceof DomainError) {
      // The same shape as schema validation errors: document 2's `[{ path, message }]`.
      const details =
        error instanceof Invalid && error.details ? { details: Object.entries(error.details).map(([path, message]) => ({ path, message })) } : {};
      return reply.code(domainStatus(error)).send({ error: error.message, ...details });
    }
    if (error instanceof ProjectionDegraded) {
      // Only this organization's lane of a read model is stopped: a 503 (the service is there, this
      // tenant's reads are not current yet) with which read model and why; the full error is logged.
      request.log.warn({ err: error, lanes: error.lanes }, "a write reached a read model whose lane for its organization is parked");
      return reply.code(503).send({ error: 'Service unavailable.', reason: error.reason });
    }
    if (error instanceof ProjectionTimeout) {
      // The write is stored; only its read models are late or stopped. Say so, never a silent 2xx:
      // the caller learns its next read may not show the change, and the operator why.
      request.log.error({ err: error, behind: error.behind }, 'a write waited for its projections in vain');
      return reply.code(500).send({ error: 'Internal server error.', reason: error.reason });
    }
    const code = (error as FastifyError).code;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(413).send({ error: 'Request body is too large.' });
    if (code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return reply.code(400).send({ error: 'Request body length does not match Content-Length.' });
    // Bodies are read as JSON whatever Content-Type says, but one that is not a media type at all
    // (`/`, a control character) is refused by fastify before any parser: say what to send.
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || code === 'FST_ERR_CTP_INVALID_CONTENT_TYPE') {
      return reply.code(415).send({ error: 'Content-Type must be a media type such as application/json.' });
    }
    request.log.error({ err: error }, 'unexpected failure');
    return reply.code(500).send({ error: 'Internal server error.' });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return reply.code(404).send({ error: `Route not found: ${request.method} ${path}` });
  });
}
