// The shape of every event type this build writes, per version, checked when an event is read
// back (events are data from the past: a bug, a hand edit or an older build may have written
// them). Top-level fields are checked exactly; nested values the domain builds and reads whole
// (listings, labels, plans, access rules) are checked to be objects. Objects are loose, so a field
// a newer build added passes through instead of failing a rolling deploy.
import { z } from 'zod';
import type { ApiKeyEvent } from './apikey/events.js';
import type { DatasetEvent } from './dataset/events.js';
import type { FileEvent } from './file/events.js';
import type { ItemEvent } from './item/events.js';
import type { OrganizationEvent } from './organization/events.js';
import type { SourceEvent } from './source/events.js';
import type { SyncJobEvent } from './sync-job/events.js';
import type { WidgetPresetEvent } from './widget-preset/events.js';
import type { ChatEvent, ChatLedgerEvent } from './chat/events.js';
import { SHOPPER_EVENT_TYPES, UNVERIFIED_REASONS, type SessionEvent } from './session/events.js';

/** Every event type the domain writes: each must have a schema (a new one fails the type check). */
type DomainEventType = (ApiKeyEvent | DatasetEvent | FileEvent | ItemEvent | OrganizationEvent | SourceEvent | SyncJobEvent | WidgetPresetEvent | SessionEvent | ChatEvent | ChatLedgerEvent)['type'];

const id = z.string().min(1);
const at = z.string().min(1);
const object = z.looseObject({});
const data = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);

const organizationIds = { organizationId: id };
const datasetIds = { datasetId: id, organizationId: id };
const itemIds = { itemId: id, datasetId: id, organizationId: id };
const sourceIds = { sourceId: id, datasetId: id, organizationId: id };

const credentials = z.looseObject({ publicKey: z.string(), publicLookup: z.string(), privateLookup: z.string(), secretHash: z.string() });

const datasetContent = {
  name: z.string(),
  description: z.string(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  config: z.looseObject({ targetGender: z.string().nullable() }),
  autoPublish: z.boolean(),
};

const sourceSettings = { endpoint: z.string(), syncPeriod: z.number(), status: z.enum(['active', 'inactive']) };
const market = z.looseObject({ handle: z.string(), countries: z.array(z.string()), currency: z.string(), endpoint: z.string().nullable() });
const syncStats = z.looseObject({ retrieved: z.number(), added: z.number(), updated: z.number(), archived: z.number(), failed: z.number() });
const itemStatus = z.enum(['active', 'archived']);
const sealed = z.looseObject({ iv: z.string(), data: z.string(), tag: z.string() });

/** SourceCreated as the first sources wrote it, before markets (and still unversioned after). */
export const sourceCreatedV1 = data({
  ...sourceIds,
  sourceType: z.literal('shopify-api'),
  at,
  ...sourceSettings,
  markets: z.array(market).optional(),
  defaultMarket: z.string().nullable().optional(),
});

/** SourceCreated since markets: both fields always present (none: `[]` and `null`). */
export const sourceCreatedV2 = data({
  ...sourceIds,
  sourceType: z.literal('shopify-api'),
  at,
  ...sourceSettings,
  markets: z.array(market),
  defaultMarket: z.string().nullable(),
});

type Versions = Record<number, z.ZodType<Record<string, unknown>>>;

/** Per event type, one schema per version, numbered from 1; the highest is what this build writes. */
const schemas = {
  OrganizationCreated: { 1: data({ ...organizationIds, name: z.string(), reportingTimezone: z.string(), at }) },
  OrganizationRenamed: { 1: data({ ...organizationIds, name: z.string(), at }) },
  OrganizationTimezoneChanged: { 1: data({ ...organizationIds, reportingTimezone: z.string(), at }) },
  OrganizationDeleted: { 1: data({ ...organizationIds, at }) },
  SubscriptionStarted: { 1: data({ ...organizationIds, plan: object, at }) },
  SubscriptionActivated: { 1: data({ ...organizationIds, at }) },
  SubscriptionDeactivated: { 1: data({ ...organizationIds, at }) },
  PlanEntrySet: { 1: data({ ...organizationIds, resource: z.string(), entry: object.nullable(), at }) },
  AnalyticsRebuildRequested: { 1: data({ ...organizationIds, at }) },

  ApiKeyCreated: {
    1: data({
      keyId: id,
      ...organizationIds,
      name: z.string(),
      primary: z.boolean(),
      credentials,
      publicAccess: object,
      privateAccess: object,
      scopes: z.array(z.unknown()).nullable(),
      at,
    }),
  },
  ApiKeyRotated: { 1: data({ keyId: id, ...organizationIds, credentials, at }) },
  ApiKeyDeleted: { 1: data({ keyId: id, ...organizationIds, at }) },

  DatasetCreated: { 1: data({ ...datasetIds, at, ...datasetContent }) },
  DatasetUpdated: { 1: data({ ...datasetIds, changes: z.looseObject(datasetContent).partial(), at }) },
  DatasetActivated: { 1: data({ ...datasetIds, at }) },
  DatasetArchived: { 1: data({ ...datasetIds, at }) },
  DatasetDeleted: { 1: data({ ...datasetIds, at }) },
  DatasetStylingReplaced: { 1: data({ ...datasetIds, styling: object.optional(), sizing: object.optional(), at }) },

  WidgetPresetCreated: {
    1: data({ presetId: id, ...organizationIds, name: z.string(), options: z.looseObject({ button: object, widget: object }), at }),
  },

  ShopperEventsRecorded: {
    1: data({
      sessionId: id,
      ...organizationIds,
      demo: z.boolean(),
      receivedAt: at,
      // Each shopper event was checked field by field at the edge (POST /v1/events) and is built by
      // the domain; here, as other nested values, it is checked to be an object. Every subscriber
      // reads every event, and these are the most numerous (a profile under event load showed
      // about 12% of the CPU in schema checks across five subscribers, before this).
      events: z.array(z.looseObject({ type: z.enum(SHOPPER_EVENT_TYPES) })).max(100),
      at,
    }),
    // Each shopper event says whether it counts (domain/session/admission.ts); version 1 events
    // get theirs from the upcaster (domain/event-registry.ts).
    2: data({
      sessionId: id,
      ...organizationIds,
      demo: z.boolean(),
      receivedAt: at,
      events: z.array(z.looseObject({ type: z.enum(SHOPPER_EVENT_TYPES), unverified: z.enum(UNVERIFIED_REASONS).nullable() })).max(100),
      at,
    }),
  },

  SearchResultsShown: {
    1: data({ sessionId: id, ...organizationIds, demo: z.boolean(), shown: z.array(z.looseObject({ itemId: id, datasetId: id })).max(100), at }),
  },

  AgentTurnCompleted: {
    1: data({
      sessionId: id,
      ...organizationIds,
      demo: z.boolean(),
      turnId: id,
      outcome: z.enum(['done', 'error']),
      model: z.string(),
      shown: z.array(z.looseObject({ itemId: id, datasetId: id })).max(500),
      tools: z.array(z.looseObject({ name: z.string(), ok: z.boolean(), ms: z.number() })).max(100),
      timings: z.looseObject({ modelCalls: z.number().int(), firstEventMs: z.number().nullable(), firstResultsMs: z.number().nullable(), totalMs: z.number() }),
      visit: z.record(z.string(), z.string().nullable()).nullable(),
      at,
    }),
  },

  FileUploaded: {
    1: data({
      fileId: id,
      ...organizationIds,
      uploadedBy: z.looseObject({ kind: z.enum(['key', 'account']), id }),
      key: z.string(),
      filename: z.string(),
      contentType: z.string(),
      size: z.number().int(),
      sha256: z.string(),
      width: z.number().int().nullable(),
      height: z.number().int().nullable(),
      at,
    }),
  },

  ItemQueued: {
    1: data({
      ...itemIds,
      sku: z.string(),
      kind: z.enum(['pending', 'partial_update']),
      listing: object,
      contentHash: z.string(),
      commerceHash: z.string(),
      sourceId: id.optional(),
      at,
    }),
  },
  ItemProcessingStarted: { 1: data({ ...itemIds, queueVersion: z.number(), attempt: z.number(), at }) },
  ItemProcessed: {
    1: data({
      ...itemIds,
      queueVersion: z.number(),
      listing: object,
      currency: z.string(),
      labels: object,
      searchText: z.string(),
      searchTextVersion: z.number(),
      images: z.array(object),
      photoProblems: z.array(z.looseObject({ src: z.string(), problem: z.string() })),
      labeller: z.string(),
      pipelineVersion: z.number(),
      status: itemStatus,
      at,
    }),
  },
  ItemCommerceUpdated: {
    1: data({ ...itemIds, queueVersion: z.number(), price: z.number(), currency: z.string(), variants: z.array(object), at }),
  },
  ItemFailed: { 1: data({ ...itemIds, queueVersion: z.number(), reason: z.string(), attempts: z.number(), at }) },
  ItemStatusChanged: { 1: data({ ...itemIds, status: itemStatus, sourceId: id.optional(), at }) },

  SourceCreated: { 1: sourceCreatedV1, 2: sourceCreatedV2 },
  SourceUpdated: { 1: data({ ...sourceIds, changes: z.looseObject(sourceSettings).partial(), at }) },
  SourceDeleted: { 1: data({ ...sourceIds, deletedJobs: z.number(), deletedLogs: z.number(), at }) },
  SyncJobRequested: { 1: data({ ...sourceIds, jobId: id, number: z.number().int().positive().optional(), priority: z.number(), trigger: z.string(), at }) },
  SyncJobClaimed: { 1: data({ ...sourceIds, jobId: id, workerId: z.string(), logId: z.string(), at }) },
  SyncJobReleased: { 1: data({ ...sourceIds, jobId: id, workerId: z.string(), reason: z.string(), at }) },
  SyncJobCompleted: { 1: data({ ...sourceIds, jobId: id, workerId: z.string(), logId: z.string(), stats: syncStats, at }) },
  SyncJobFailed: {
    1: data({ ...sourceIds, jobId: id, workerId: z.string().nullable(), logId: z.string().nullable(), error: z.string(), stats: syncStats.nullable(), at }),
  },
  SyncJobCancelled: { 1: data({ ...sourceIds, jobId: id, error: z.string(), at }) },
  SyncJobExpired: { 1: data({ ...sourceIds, jobId: id, at }) },

  // A chat's words are sealed (domain/chat/events.ts): the schema sees only their envelope.
  ChatCreated: { 1: data({ chatId: id, ...organizationIds, via: z.enum(['message', 'create']), at }) },
  ChatMessagesAppended: { 1: data({ chatId: id, ...organizationIds, messages: sealed, count: z.number().int().min(0), characters: z.number().int().min(0), turnId: id.nullable(), at }) },
  ChatReplyFinished: {
    1: data({
      chatId: id,
      ...organizationIds,
      turnId: id,
      index: z.number().int().min(0),
      outcome: z.enum(['resolved', 'needs_clarification', 'failed']),
      message: sealed.nullable(),
      trail: sealed.nullable(),
      characters: z.number().int().min(0),
      at,
    }),
  },
  ChatMessagesReplaced: { 1: data({ chatId: id, ...organizationIds, messages: sealed, count: z.number().int().min(0), characters: z.number().int().min(0), at }) },
  ChatDeleted: { 1: data({ chatId: id, ...organizationIds, at }) },
  ChatOpened: { 1: data({ ...organizationIds, chatId: id, at }) },
  ChatClosed: { 1: data({ ...organizationIds, chatId: id, at }) },
} satisfies Record<DomainEventType, Versions>;

export const eventSchemas: Record<string, Versions> = schemas;
