// A position in `$all`. Both adapters order events by a pair of integers:
// Postgres by (transaction id, global sequence), EventStoreDB by (commit, prepare).
// Stored and sent as text "commit/prepare" so checkpoints fit any column and JSON.
export interface Position {
  commit: bigint;
  prepare: bigint;
}

export const comparePositions = (a: Position, b: Position): number =>
  a.commit < b.commit ? -1 : a.commit > b.commit ? 1 : a.prepare < b.prepare ? -1 : a.prepare > b.prepare ? 1 : 0;

export const positionToString = (p: Position): string => `${p.commit}/${p.prepare}`;

export const parsePosition = (text: string): Position => {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) throw new Error(`Not an event store position: ${JSON.stringify(text)}`);
  return { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) };
};
