// Every work queue subject and the schema of its payload, in one place: commands enqueue with
// these, workers consume with these, and `stylist queue replay` checks a dead letter against them
// before putting it back. Here, under infra/, because both commands/ and workers/ may import
// infra but not each other; it depends on zod alone.
import { z } from 'zod';

/** One item to fetch, label and embed (commands/items.ts, the ingest sweep). */
export const INGEST_SUBJECT = 'ingest.items';
export const ingestMessage = z.object({ itemId: z.uuid(), datasetId: z.uuid(), organizationId: z.uuid() });
export type IngestMessage = z.infer<typeof ingestMessage>;

/** A wake-up for a pending sync job; the source's stream decides whether there is work. */
export const SYNC_SUBJECT = 'sync.jobs';
export const syncMessage = z.object({ jobId: z.uuid(), sourceId: z.uuid(), datasetId: z.uuid(), organizationId: z.uuid() });
export type SyncMessage = z.infer<typeof syncMessage>;

/** A deleted dataset's photos and search vectors to remove. */
export const DATASET_CLEANUP_SUBJECT = 'catalogue.cleanup';
export const datasetCleanupMessage = z.object({ organizationId: z.uuid(), datasetId: z.uuid() });
export type DatasetCleanupMessage = z.infer<typeof datasetCleanupMessage>;

/**
 * One shopper's agent turn (POST /v2/agent/chat). `request` is the chat request as the route read
 * it; the agent worker reads it again with the domain's schema. `giveUpAt`: the API stops waiting
 * for a worker to take the turn then, so a worker that gets it later drops it.
 */
export const AGENT_SUBJECT = 'agent.turns';
export const agentTurnMessage = z.object({
  turnId: z.uuid(),
  organizationId: z.uuid(),
  demo: z.boolean(),
  enqueuedAt: z.iso.datetime({ offset: true }),
  giveUpAt: z.iso.datetime({ offset: true }),
  request: z.record(z.string(), z.unknown()),
});
export type AgentTurnMessage = z.infer<typeof agentTurnMessage>;

/** Every subject a worker consumes, with its payload schema. */
export const queueMessages: Readonly<Record<string, z.ZodType>> = {
  [INGEST_SUBJECT]: ingestMessage,
  [SYNC_SUBJECT]: syncMessage,
  [DATASET_CLEANUP_SUBJECT]: datasetCleanupMessage,
  [AGENT_SUBJECT]: agentTurnMessage,
};
