// Endpoints the specification keeps only to say they are gone (document 2 "Chat (v1)", document 3
// "Retired"). They answer 410 from their own onRequest hook: before authentication and metering
// (they carry no `auth` or `resource`), and before the body is read, so whatever is sent, the
// answer is the same and no quota is used.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { zodRoutes } from '../plugins/validation.js';

const retiredBody = z.object({ error: z.string() }).describe('The endpoint has been retired.');

const retired = (name: string) => {
  const message = `This endpoint has been retired (${name}).`;
  return async (_request: FastifyRequest, reply: FastifyReply) => reply.code(410).send({ error: message });
};

export function retiredRoutes(app: FastifyInstance): void {
  const routes = zodRoutes(app);

  const chat = retired('v1/chat/[chatId]');
  // A static path registered later (`GET /v1/chat/list`) still wins over this parametric one.
  routes.get(
    '/v1/chat/:chatId',
    {
      onRequest: chat,
      config: { body: 'none' },
      schema: { deprecated: true, tags: ['chat'], summary: 'Retrieve a chat (retired)', response: { 410: retiredBody } },
    },
    chat,
  );

  const compositions = retired('v1/outfit/compositions');
  routes.post(
    '/v1/outfit/compositions',
    {
      onRequest: compositions,
      config: { body: 'none' },
      schema: { deprecated: true, tags: ['outfit'], summary: 'Outfit compositions (retired)', response: { 410: retiredBody } },
    },
    compositions,
  );
}
