// Reads and writes of `projection_checkpoints`. Every write is a compare-and-set on the position
// the caller last saw, so two writers (a second process, a rebuild from elsewhere) can never
// both apply the same events: the loser learns the stored position and resynchronises.
import { sql, type Kysely } from 'kysely';
import { parsePosition, positionToString, type Position } from '../infra/eventstore/position.js';

export interface Checkpoint {
  position: Position | null;
  eventsApplied: number;
}

const TABLE = 'projection_checkpoints';

export async function ensureCheckpoints(db: Kysely<any>, names: readonly string[]): Promise<void> {
  if (!names.length) return;
  await db
    .insertInto(TABLE)
    .values(names.map((name) => ({ name })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

export async function readCheckpoints(db: Kysely<any>, names: readonly string[]): Promise<Map<string, Checkpoint>> {
  const found = new Map<string, Checkpoint>();
  if (!names.length) return found;
  const rows = await db.selectFrom(TABLE).select(['name', 'position', 'events_applied']).where('name', 'in', names).execute();
  for (const row of rows) found.set(row.name, toCheckpoint(row));
  return found;
}

/** Locks the projector's row for the rest of `trx` and returns what it holds. */
export async function lockCheckpoint(trx: Kysely<any>, name: string): Promise<Checkpoint> {
  const row = await trx.selectFrom(TABLE).select(['position', 'events_applied']).where('name', '=', name).forUpdate().executeTakeFirst();
  if (!row) throw new Error(`projection ${name} has no checkpoint row; start the runner or run migrate() first`);
  return toCheckpoint(row);
}

export async function advanceCheckpoint(trx: Kysely<any>, name: string, position: Position, applied: number): Promise<void> {
  await trx
    .updateTable(TABLE)
    .set({ position: positionToString(position), events_applied: sql`events_applied + ${applied}`, updated_at: sql`now()` })
    .where('name', '=', name)
    .execute();
}

/** Events applied outside the checkpoint's order (a replayed parked lane): counted, the position stays. */
export async function countApplied(trx: Kysely<any>, name: string, applied: number): Promise<void> {
  await trx.updateTable(TABLE).set({ events_applied: sql`events_applied + ${applied}`, updated_at: sql`now()` }).where('name', '=', name).execute();
}

export async function resetCheckpoint(trx: Kysely<any>, name: string): Promise<void> {
  await trx.updateTable(TABLE).set({ position: null, events_applied: 0, updated_at: sql`now()` }).where('name', '=', name).execute();
}

/**
 * Moves projectors that had nothing to apply in a batch, in one statement: they own no rows to
 * keep in step, only `waitFor` needs them to advance. Returns the names whose stored position
 * was not the expected one (left untouched).
 */
export async function skipAhead(
  db: Kysely<any>,
  moves: ReadonlyArray<{ name: string; expected: Position | null }>,
  position: Position,
): Promise<string[]> {
  if (!moves.length) return [];
  const values = sql.join(moves.map((m) => sql`(${m.name}::text, ${m.expected ? positionToString(m.expected) : null}::text)`));
  const { rows } = await sql<{ name: string }>`
    update ${sql.table(TABLE)} as c set position = ${positionToString(position)}, updated_at = now()
    from (values ${values}) as v(name, expected)
    where c.name = v.name and c.position is not distinct from v.expected
    returning c.name`.execute(db);
  const moved = new Set(rows.map((row) => row.name));
  return moves.filter((m) => !moved.has(m.name)).map((m) => m.name);
}

const toCheckpoint = (row: { position: string | null; events_applied: unknown }): Checkpoint => ({
  position: row.position === null ? null : parsePosition(row.position),
  eventsApplied: Number(row.events_applied),
});
