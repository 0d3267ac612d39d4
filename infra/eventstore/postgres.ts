// The EventStore on Postgres: PGlite in-process (embedded default) or a Postgres server.
// Schema and append logic: postgres-schema.ts. Group commit: append-batcher.ts.
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CompiledQuery } from 'kysely';
import type { Database } from '../db/database.js';
import { AppendBatcher, type AppendRequest } from './append-batcher.js';
import {
  WrongExpectedRevision,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type RecordedEvent,
  type SubscribeOptions,
} from './port.js';
import type { Position } from './position.js';
import { assertTransactionCounterAhead, EVENTS_TABLE, ensureEventStoreSchema } from './postgres-schema.js';
import { listen, Wakeup, type Listener } from './wakeup.js';

export interface PostgresEventStoreOptions {
  /** How long an idle subscriber waits for a wake-up before looking anyway (ms). Default 250. */
  pollIntervalMs?: number;
  /** Events per read while a subscriber catches up (a page is held in memory). Default 500. */
  readBatchSize?: number;
  /** Append batches in flight at once, one connection each. Default 1 on PGlite, 2 on Postgres. */
  appendConcurrency?: number;
  /** Most appends sharing one commit. Default 64. */
  maxAppendsPerBatch?: number;
  /** Told when the LISTEN connection is lost; it reconnects by itself. */
  onConnectionError?: (error: Error) => void;
}

/**
 * jsonb cannot hold U+0000 (nor an unpaired surrogate) in a string, though JSON can. Such an
 * append is refused whole with this error, before it reaches the database where possible, and
 * never fails the appends batched with it. EventStoreDB would store it: keep event data free of
 * NUL (it has no business in text) rather than relying on that.
 */
export class UnsupportedEventData extends Error {
  override name = 'UnsupportedEventData';
  readonly streamId: string;
  constructor(
    streamId: string,
    reason: string,
  ) {
    super(`Cannot append to ${streamId}: ${reason}`);
    this.streamId = streamId;
  }
}

const START: Position = { commit: 0n, prepare: 0n };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_BATCH_BYTES = 1 << 20;

// Postgres error codes.
const UNIQUE_VIOLATION = '23505';
const DEADLOCK = '40P01';
const SERIALIZATION_FAILURE = '40001';
const UNTRANSLATABLE_CHARACTER = '22P05';
const INVALID_TEXT = '22P02';

type Outcome =
  | { kind: 'appended' | 'duplicate'; revision: bigint; position: Position }
  | { kind: 'conflict'; head: bigint | null };

interface OutcomeRow {
  o_item: number;
  o_outcome: 'append' | 'duplicate' | 'conflict';
  o_revision: string | null;
  o_commit: string | null;
  o_prepare: string | null;
}

interface EventRow {
  stream_id: string;
  revision: string;
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  commit: string;
  prepare: string;
  recorded_at: Date | string;
}

const eventColumns = `stream_id, revision::text as revision, id::text as id, type, data, metadata,
  transaction_id::text as commit, global_position::text as prepare, recorded_at`;

// Only rows below the oldest running transaction: nothing can still commit in front of them.
const visible = `transaction_id < pg_snapshot_xmin(pg_current_snapshot())`;

const readAllSql = `select ${eventColumns} from ${EVENTS_TABLE}
  where ${visible} and (transaction_id, global_position) > ($1::xid8, $2::bigint)
  order by transaction_id, global_position limit $3::bigint`;

const headSql = `select transaction_id::text as commit, global_position::text as prepare from ${EVENTS_TABLE}
  where ${visible} order by transaction_id desc, global_position desc limit 1`;

// Every committed row, the invisible ones included: what a writer that already returned appended.
const committedHeadSql = `select transaction_id::text as commit, global_position::text as prepare from ${EVENTS_TABLE}
  order by transaction_id desc, global_position desc limit 1`;

// How soon a subscriber looks again while committed events wait behind an open transaction.
const HELD_BACK_FIRST_MS = 5;
const HELD_BACK_MAX_MS = 100;

// Committed rows past a checkpoint that the visibility cut still holds back: a row when there are.
// Not `select exists (…)`: Postgres drops an ORDER BY and LIMIT inside EXISTS, guesses that a third
// of the table passes a row comparison, and so scans the table for the first match; when there is
// none, the usual answer, it reads every event (340 ms at 200,000 events), and every subscriber
// asks after each short page: under search load at 100,000 items Postgres spent more than a core
// on it (docs/performance.md). Ordered by the primary key and limited, it is one index probe.
export const HELD_BACK_SQL = `select true as held from ${EVENTS_TABLE}
  where (transaction_id, global_position) > ($1::xid8, $2::bigint)
  order by transaction_id, global_position limit 1`;

// A stream needs no visibility cut: its order is its revision, and deciders want the latest.
const readStreamSql = `select ${eventColumns} from ${EVENTS_TABLE}
  where stream_id = $1 and revision >= $2::bigint order by ${EVENTS_TABLE}.revision limit $3::bigint`;

const readStreamsSql = `select ${eventColumns} from ${EVENTS_TABLE}
  where stream_id = any($1::text[]) order by stream_id, ${EVENTS_TABLE}.revision`;

const appendSql = `select o_item, o_outcome, o_revision::text as o_revision, o_commit, o_prepare::text as o_prepare
  from ${EVENTS_TABLE}_append($1::jsonb, $2)`;

// Stores opened on one Database share wake-ups, so an append through one wakes the others'
// subscribers at once (on PGlite nothing else would).
const wakeups = new WeakMap<object, Wakeup>();
const wakeupFor = (db: object): Wakeup => {
  let wakeup = wakeups.get(db);
  if (!wakeup) wakeups.set(db, (wakeup = new Wakeup()));
  return wakeup;
};

export async function openPostgresEventStore(
  database: Database,
  options: PostgresEventStoreOptions = {},
): Promise<EventStore> {
  const { db } = database;
  const query = async <R>(text: string, params: readonly unknown[] = []): Promise<R[]> =>
    (await db.executeQuery<R>(CompiledQuery.raw(text, [...params]))).rows;

  await ensureEventStoreSchema(db);
  await assertTransactionCounterAhead(db);

  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const readBatchSize = options.readBatchSize ?? 500;
  const closing = new AbortController();
  const wakeup = wakeupFor(db);

  // On a server, other processes append too; their pg_notify wakes us. PGlite lives in this
  // process only, so the local wake-up after each batch is all there is.
  let channel: string | null = null;
  let listener: Listener | undefined;
  if (database.kind === 'postgres') {
    const [row] = await query<{ schema: string }>('select current_schema() as schema');
    channel = channelName(row?.schema ?? 'public');
  }
  const ensureListening = () => {
    if (channel && database.clientConfig && !listener && !closing.signal.aborted) {
      listener = listen(database.clientConfig, channel, () => wakeup.notify(), { onError: options.onConnectionError });
    }
  };

  const batcher = new AppendBatcher<Outcome>(
    async (requests: readonly AppendRequest[]) => {
      const rounds = new Map<string, number>();
      const items = requests.map((r) => {
        const round = rounds.get(r.streamId) ?? 0;
        rounds.set(r.streamId, round + 1);
        return `{"round":${round},"append":${r.json}}`;
      });
      const rows = await query<OutcomeRow>(appendSql, [`[${items.join(',')}]`, channel]);
      const outcomes: Outcome[] = new Array(requests.length);
      for (const row of rows) outcomes[row.o_item] = toOutcome(row);
      const missing = requests.findIndex((_, i) => !outcomes[i]);
      if (missing >= 0) throw new Error(`The append function gave no outcome for ${requests[missing]!.streamId}`);
      return outcomes;
    },
    {
      concurrency: options.appendConcurrency ?? (database.kind === 'pglite' ? 1 : 2),
      maxItems: options.maxAppendsPerBatch ?? 64,
      maxBytes: MAX_BATCH_BYTES,
      isRetryable: (error) => [UNIQUE_VIOLATION, DEADLOCK, SERIALIZATION_FAILURE].includes(errorCode(error) ?? ''),
      maxAttempts: 10,
      onCommitted: () => wakeup.notify(),
    },
  );

  const readAll = async ({ after, maxCount }: ReadAllOptions = {}): Promise<RecordedEvent[]> => {
    const from = after ?? START;
    const rows = await query<EventRow>(readAllSql, [String(from.commit), String(from.prepare), maxCount ?? null]);
    return rows.map(toRecordedEvent);
  };

  async function* subscribeToAll({ after, signal }: SubscribeOptions = {}): AsyncGenerator<RecordedEvent> {
    const stop = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;
    ensureListening();
    let checkpoint = after ?? START;
    let heldBackMs = HELD_BACK_FIRST_MS / 2;
    while (!stop.aborted) {
      const seen = wakeup.generation;
      let page: RecordedEvent[];
      try {
        page = await readAll({ after: checkpoint, maxCount: readBatchSize });
      } catch (error) {
        if (stop.aborted) return;
        throw error;
      }
      for (const event of page) {
        if (stop.aborted) return;
        yield event;
        checkpoint = event.position;
      }
      if (page.length >= readBatchSize) continue;
      // An append committed behind an older transaction that is still open (anywhere on the
      // server) is invisible until that one ends, which notifies nobody: look again soon rather
      // than after the poll interval, or a wait for read-your-writes would sit out the whole poll.
      if (database.kind === 'postgres' && (await isHeldBack(checkpoint).catch(() => false))) {
        heldBackMs = Math.min(heldBackMs * 2, HELD_BACK_MAX_MS, pollIntervalMs);
        await sleep(heldBackMs, undefined, { signal: stop }).catch(() => {});
        continue;
      }
      heldBackMs = HELD_BACK_FIRST_MS / 2;
      await wakeup.wait(seen, pollIntervalMs, stop);
    }
  }

  const isHeldBack = async (after: Position): Promise<boolean> => {
    const rows = await query<{ held: boolean }>(HELD_BACK_SQL, [String(after.commit), String(after.prepare)]);
    return rows.length > 0;
  };

  return {
    kind: database.kind,

    async append(streamId: string, events: NewEvent[], { expectedRevision }: { expectedRevision: ExpectedRevision }) {
      const json = serialiseAppend(streamId, events, expectedRevision);
      let outcome: Outcome;
      try {
        outcome = await batcher.submit({ streamId, json });
      } catch (error) {
        const code = errorCode(error);
        if (code === UNTRANSLATABLE_CHARACTER || code === INVALID_TEXT) {
          throw new UnsupportedEventData(streamId, (error as Error).message);
        }
        throw error;
      }
      if (outcome.kind === 'conflict') {
        throw new WrongExpectedRevision(streamId, expectedRevision, outcome.head ?? 'no_stream');
      }
      return { nextExpectedRevision: outcome.revision, position: outcome.position } satisfies AppendResult;
    },

    async readStream(streamId, { fromRevision = 0n, maxCount } = {}) {
      const rows = await query<EventRow>(readStreamSql, [streamId, String(fromRevision), maxCount ?? null]);
      return rows.map(toRecordedEvent);
    },

    async readStreams(streamIds) {
      const found = new Map<string, RecordedEvent[]>(streamIds.map((id) => [id, []]));
      if (!streamIds.length) return found;
      for (const row of await query<EventRow>(readStreamsSql, [[...streamIds]])) found.get(row.stream_id)!.push(toRecordedEvent(row));
      return found;
    },

    readAll,
    subscribeToAll,

    async headPosition() {
      const [row] = await query<{ commit: string; prepare: string }>(headSql);
      return row ? { commit: BigInt(row.commit), prepare: BigInt(row.prepare) } : null;
    },

    async committedHead() {
      const [row] = await query<{ commit: string; prepare: string }>(committedHeadSql);
      return row ? { commit: BigInt(row.commit), prepare: BigInt(row.prepare) } : null;
    },

    ping: () => database.ping(),

    // The Database belongs to the caller (read models share it): closing the store leaves it open.
    async close() {
      if (closing.signal.aborted) return;
      closing.abort();
      await batcher.close();
      await listener?.close();
    },
  };
}

function serialiseAppend(streamId: string, events: NewEvent[], expected: ExpectedRevision): string {
  if (events.length === 0) throw new TypeError(`Append to ${streamId} without events`);
  if (typeof expected === 'bigint' && expected < 0n) throw new RangeError(`Expected revision ${expected} < 0`);
  const stored = events.map((event) => {
    const id = (event.id ?? randomUUID()).toLowerCase();
    if (!UUID.test(id)) throw new TypeError(`Event id ${JSON.stringify(event.id)} is not a uuid`);
    return { id, type: event.type, data: event.data, metadata: event.metadata ?? {} };
  });
  const json = JSON.stringify({ stream: streamId, expected: String(expected), events: stored });
  if (hasNulEscape(json)) {
    throw new UnsupportedEventData(streamId, 'the stream id, data or metadata contains \\u0000, which jsonb cannot store');
  }
  return json;
}

// JSON.stringify writes U+0000 as the escape \u0000; an odd run of backslashes before "u0000"
// is that escape, an even one is a literal backslash followed by the text "u0000".
const hasNulEscape = (json: string): boolean => json.includes('\\u0000') && /(?<!\\)(?:\\\\)*\\u0000/.test(json);

function toOutcome(row: OutcomeRow): Outcome {
  if (row.o_outcome === 'conflict') return { kind: 'conflict', head: row.o_revision === null ? null : BigInt(row.o_revision) };
  return {
    kind: row.o_outcome === 'append' ? 'appended' : 'duplicate',
    revision: BigInt(row.o_revision!),
    position: { commit: BigInt(row.o_commit!), prepare: BigInt(row.o_prepare!) },
  };
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    streamId: row.stream_id,
    revision: BigInt(row.revision),
    position: { commit: BigInt(row.commit), prepare: BigInt(row.prepare) },
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: (row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at)).toISOString(),
  };
}

// One channel per schema, so stores in other schemas (parallel test runs) do not wake ours;
// Postgres refuses channel names over 63 bytes.
const channelName = (schema: string): string => {
  const name = `stylist_events:${schema}`;
  return Buffer.byteLength(name) <= 63 ? name : `stylist_events:${createHash('sha256').update(schema).digest('hex').slice(0, 40)}`;
};

const errorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
