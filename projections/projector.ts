// A projector turns events into rows of one read model. It names the tables it owns (so a
// rebuild can empty them) and one handler per event type it cares about. Handlers run inside
// the transaction that also moves the projector's checkpoint, so a replay is exactly-once in effect.
import type { Kysely } from 'kysely';
import type { RecordedEvent } from '../infra/eventstore/port.js';

export type ProjectionHandler = (trx: Kysely<any>, event: RecordedEvent) => Promise<unknown>;

export interface Projector {
  readonly name: string;
  /** Tables holding this read model, emptied by `rebuild` before the replay. */
  readonly tables: readonly string[];
  readonly handlers: Readonly<Record<string, ProjectionHandler>>;
  /**
   * Optional fast path for catch-ups and rebuilds: applies, in order, the events of one batch that
   * have a handler (typically as one multi-row statement). When present the runner calls it
   * instead of the handlers, in the same transaction as the checkpoint.
   */
  readonly applyBatch?: (trx: Kysely<any>, events: readonly RecordedEvent[]) => Promise<unknown>;
}

export const projector = (name: string, tables: readonly string[], handlers: Record<string, ProjectionHandler>): Projector => ({
  name,
  tables,
  handlers,
});
