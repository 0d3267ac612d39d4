// The agent role: a consumer of queued chat turns (POST /v2/agent/chat). Each process runs up to
// AGENT_CONCURRENCY turns at once; a second process adds as many again (docs/storefront.md, "The stylist agent").
import { hostname } from 'node:os';
import { AGENT_SUBJECT, agentTurnMessage, type AgentTurnMessage } from '../../infra/queue/messages.js';
import { openChatModel } from '../../infra/models/index.js';
import type { WorkerDefinition } from '../worker.js';
import { handleTurnJob } from './run.js';

export const agentWorker: WorkerDefinition<AgentTurnMessage> = {
  role: 'agent',
  subject: AGENT_SUBJECT,
  handler(context) {
    const model = openChatModel(context.config);
    const deps = {
      db: context.database.db,
      eventStore: context.eventStore,
      channel: context.channel,
      search: context.search,
      model,
      serverSecret: context.secret,
      baseUrl: context.config.baseUrl,
      logger: context.logger,
      workerName: `${hostname()}:${process.pid}`,
      heartbeatMs: context.config.agent.heartbeatMs,
      turnTimeoutMs: context.config.agent.turnTimeoutMs,
      halt: context.halt,
    };
    context.logger.info({ model: model.name, concurrency: context.config.agent.concurrency }, 'agent worker ready');
    // The first shopper should not wait for the catalogue's search memory to load (the API role warms its own; in one process they share it).
    const { memory } = context.search();
    void memory.warm().catch((error: unknown) => context.logger.warn({ err: error }, 'search memory could not be loaded at start; the first turns load it'));
    return (job) => handleTurnJob(deps, job);
  },
  options: (context) => ({
    parse: (payload) => agentTurnMessage.parse(payload),
    concurrency: context.config.agent.concurrency,
    // A turn is run once: a redelivery (its worker died) is dropped by the handler, never retried.
    maxDeliver: 2,
    retryDelayMs: 0,
    // A turn is never replayed (its shopper is gone), and its conversation is personal data (a v1
    // chat's words must be gone when the chat is deleted): a dead letter keeps only who and when.
    deadLetterPayload: (payload) => {
      const { turnId, organizationId, demo, enqueuedAt, giveUpAt } = (payload ?? {}) as Partial<AgentTurnMessage>;
      return { turnId, organizationId, demo, enqueuedAt, giveUpAt, request: 'left out: a conversation is not kept in dead letters' };
    },
  }),
};
