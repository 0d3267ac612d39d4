// Table, indexes and append function of the Postgres event store, created idempotently on open.
import { sql, type Kysely } from 'kysely';

export const EVENTS_TABLE = 'events';

// Ordering in $all is (transaction_id, global_position), never global_position alone: a
// sequence value is taken at insert time, so a transaction that commits late can carry a lower
// one than events already read. Readers only look below pg_snapshot_xmin, where every
// transaction has finished, so nothing can appear later in front of what they returned
// (Emmett's approach; DESIGN.md, event store rules). The primary key doubles as the $all index.
const createTable = `
create table if not exists ${EVENTS_TABLE} (
  transaction_id xid8 not null default pg_current_xact_id(),
  global_position bigserial not null,
  stream_id text not null,
  revision bigint not null,
  id uuid not null,
  type text not null,
  data jsonb not null,
  metadata jsonb not null,
  recorded_at timestamptz not null default now(),
  primary key (transaction_id, global_position),
  unique (stream_id, revision),
  unique (stream_id, id)
)`;

// One call appends a whole batch of appends in one transaction, so concurrent writers share a
// commit and its WAL flush. Items are {round, append}: appends to one stream take successive
// rounds, and each round is one set-based statement that sees the rounds before it. Per append:
//   duplicate: every event id is already in the stream (a retried command): return the stored
//              result and write nothing;
//   conflict:  some ids are stored but not all, or the expected revision does not hold;
//   append:    insert at head + 1.. .
// Two writers racing on a stream both pass the check and one of them fails on
// unique (stream_id, revision); the caller re-runs the batch, which then decides again.
// Rows are inserted in stream order so two racing batches take index locks in the same order
// and cannot deadlock. plpgsql keeps the plan cached per connection.
const createAppendFunction = `
create or replace function ${EVENTS_TABLE}_append(p_batch jsonb, p_channel text)
returns table (o_item int, o_outcome text, o_revision bigint, o_commit text, o_prepare bigint)
language plpgsql as $fn$
declare
  v_rounds int := (select max((i->>'round')::int) from jsonb_array_elements(p_batch) i);
begin
  for v_round in 0..v_rounds loop
    return query
    with items as (
      select (i.ordinality - 1)::int as item, i.value->'append'->>'stream' as stream_id,
             i.value->'append'->'events' as events, i.value->'append'->>'expected' as expected
      from jsonb_array_elements(p_batch) with ordinality i
      where (i.value->>'round')::int = v_round
    ),
    incoming as (
      select it.item, it.stream_id, e.value as event, (e.value->>'id')::uuid as id, e.ordinality as n
      from items it cross join lateral jsonb_array_elements(it.events) with ordinality e
    ),
    -- "limit 1" keeps this a per-event index probe: as a plain join, a plan cached while the
    -- table was small (or before it was analysed) scans the whole table on every append.
    stored as (
      select i.item, x.revision, x.transaction_id, x.global_position
      from incoming i
      cross join lateral (
        select x.revision, x.transaction_id, x.global_position from ${EVENTS_TABLE} x
        where x.stream_id = i.stream_id and x.id = i.id limit 1
      ) x
    ),
    decided as (
      select it.item, it.stream_id, h.head,
        case
          when s.found = jsonb_array_length(it.events) then 'duplicate'
          when s.found > 0
            or (it.expected = 'no_stream' and h.head is not null)
            or (it.expected not in ('any', 'no_stream') and h.head is distinct from it.expected::bigint) then 'conflict'
          else 'append'
        end as outcome
      from items it
      cross join lateral (select max(x.revision) as head from ${EVENTS_TABLE} x where x.stream_id = it.stream_id) h
      cross join lateral (select count(*) as found from stored s where s.item = it.item) s
    ),
    inserted as (
      insert into ${EVENTS_TABLE} (stream_id, revision, id, type, data, metadata)
      select d.stream_id, coalesce(d.head, -1) + i.n, i.id, i.event->>'type', i.event->'data',
             coalesce(i.event->'metadata', '{}')
      from decided d join incoming i on i.item = d.item
      where d.outcome = 'append'
      order by d.stream_id collate "C", i.n
      returning stream_id, revision, transaction_id, global_position
    )
    select d.item, d.outcome, coalesce(l.revision, d.head), l.transaction_id::text, l.global_position
    from decided d
    left join lateral (
      select r.revision, r.transaction_id, r.global_position from (
        select s.revision, s.transaction_id, s.global_position from stored s
        where d.outcome = 'duplicate' and s.item = d.item
        union all
        select n.revision, n.transaction_id, n.global_position from inserted n
        where d.outcome = 'append' and n.stream_id = d.stream_id
      ) r order by r.revision desc limit 1
    ) l on true;
  end loop;
  -- Delivered on commit only, so a listener never wakes for a batch it cannot read yet.
  if p_channel is not null then perform pg_notify(p_channel, ''); end if;
end
$fn$`;

/** Creates what is missing; concurrent openers (several processes, parallel tests) queue on a lock. */
export async function ensureEventStoreSchema(db: Kysely<any>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('stylist.eventstore.schema'))`.execute(trx);
    await sql.raw(createTable).execute(trx);
    await sql.raw(createAppendFunction).execute(trx);
  });
}

/**
 * Positions start with the transaction id, so they only grow if the server's transaction counter
 * is ahead of every stored event. A dump restored into another cluster can leave it behind: new
 * events would sort before old ones and subscribers would never see them. Refuse to run then.
 */
export async function assertTransactionCounterAhead(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ stored: string; next: string }>`
    select transaction_id::text as stored, pg_snapshot_xmax(pg_current_snapshot())::text as next
    from ${sql.table(EVENTS_TABLE)} order by transaction_id desc limit 1`.execute(db);
  const row = rows[0];
  if (row && BigInt(row.stored) >= BigInt(row.next)) {
    throw new Error(
      `The event store holds transaction id ${row.stored} but the server is only at ${row.next} ` +
        '(restored from a dump into another cluster?): new events would sort before old ones. ' +
        'Advance the counter past it first (pg_resetwal --epoch / --next-transaction-id) or move clusters with pg_upgrade.',
    );
  }
}
