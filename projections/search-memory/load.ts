// The two ways a dataset comes into the search memory (projections/search-memory.ts): built from
// the read model, or restored from its saved copy (snapshot.ts) and caught up with the read model.
import type { Kysely } from 'kysely';
import { DatasetMemory } from './dataset.js';
import type { Lexicon } from './lexicon.js';
import { applyRow, readActiveRows, readChanges, readHead, readUnchanged } from './rows.js';
import { decodeSnapshot, UnreadableSnapshot, type SavedDataset } from './snapshot.js';

/** Rounds of catching a saved copy up while its dataset keeps changing, before it is built instead. */
const RESTORE_ROUNDS = 3;

/** The dataset from the read model: its active rows, then (from the next follow) the changes after the head read first. */
export async function buildDataset(db: Kysely<any>, datasetId: string, lexicon: Lexicon): Promise<{ memory: DatasetMemory; cursor: bigint }> {
  // The cursor is taken before the rows: a change made meanwhile is read twice, never missed.
  const cursor = await readHead(db);
  const memory = new DatasetMemory();
  await readActiveRows(db, datasetId, (row) => applyRow(memory, row, lexicon));
  return { memory, cursor };
}

/**
 * A saved copy, caught up with the changes after its cursor, if the read model agrees with it:
 * the dataset's active rows not changed since the cursor must be exactly the copy's docs not
 * among the changes read (same count, same sum of `change_seq`). A copy of another database,
 * one missing or inventing rows, or one whose bytes are damaged is not trusted: the caller
 * builds from the read model, and the shopper sees no error. Reading the check in the same
 * instant as the changes is not possible without a transaction, so the check also gives the
 * dataset's latest change: when it is past the changes read, they are read again and checked
 * again.
 */
export async function restoreDataset(db: Kysely<any>, datasetId: string, bytes: Buffer, lexicon: Lexicon): Promise<{ memory: DatasetMemory; cursor: bigint; changes: number } | { distrusted: string }> {
  let saved: SavedDataset;
  try {
    saved = decodeSnapshot(bytes, datasetId, lexicon);
  } catch (error) {
    return { distrusted: error instanceof UnreadableSnapshot ? error.message : `unreadable: ${(error as Error).message}` };
  }
  const memory = new DatasetMemory();
  try {
    memory.restore(saved.docs, saved.vectors);
  } catch (error) {
    return { distrusted: `its docs do not restore: ${(error as Error).message}` };
  }
  const changed = new Set<string>();
  let read = saved.cursor;
  let changes = 0;
  for (let round = 0; round < RESTORE_ROUNDS; round++) {
    const head = await readHead(db);
    read = await readChanges(db, read, [datasetId], (row) => {
      changed.add(row.item_id);
      changes++;
      applyRow(memory, row, lexicon);
    });
    const now = await readUnchanged(db, datasetId, saved.cursor);
    if (now.last > read) continue;
    let kept = 0;
    let keptSum = 0n;
    saved.docs.itemId.forEach((itemId, d) => {
      if (changed.has(itemId)) return;
      kept++;
      keptSum += BigInt(saved.docs.changeSeq[d]!);
    });
    if (kept !== now.kept || keptSum !== now.keptSum) return { distrusted: `it holds ${kept} unchanged items where the read model has ${now.kept} (or other ones)` };
    return { memory, cursor: head > read ? head : read, changes };
  }
  return { distrusted: `the dataset kept changing while its copy was caught up (${changes} changes)` };
}
