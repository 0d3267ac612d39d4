// A projector turns events into rows of one read model. It names the tables it owns (so a
// rebuild can empty them) and one handler per event type it cares about. Handlers run inside
// the transaction that also moves the projector's checkpoint, so a replay is exactly-once in effect.
import type { Kysely } from 'kysely';
import type { AnyEvent, RecordedEvent } from '../infra/eventstore/port.js';

export type ProjectionHandler = (trx: Kysely<any>, event: RecordedEvent) => Promise<unknown>;

/** Handlers of a projector over the event union E: each receives its own type's event, typed. */
export type TypedHandlers<E extends AnyEvent> = {
  [K in E['type']]?: (trx: Kysely<any>, event: RecordedEvent<Extract<E, { type: K }>>) => Promise<unknown>;
};

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

export interface ProjectorDefinition<E extends AnyEvent> {
  name: string;
  tables: readonly string[];
  handlers: TypedHandlers<E>;
  /** Receives only events that have a handler, so only members of E. */
  applyBatch?: (trx: Kysely<any>, events: ReadonlyArray<RecordedEvent<E>>) => Promise<unknown>;
}

/**
 * `projector<ItemEvent | DatasetEvent>({ name, tables, handlers })`: handlers typed by event type.
 * The runner calls a handler only for its own type, and every event it reads has been checked
 * against that type's schema by the upcaster (infra/eventstore/upcasting.ts): the one place that
 * turns the store's untyped events into the union's members is here.
 */
export function projector<E extends AnyEvent>(definition: ProjectorDefinition<E>): Projector;
/** Untyped: handlers see the store's events as they are. */
export function projector(name: string, tables: readonly string[], handlers: Record<string, ProjectionHandler>): Projector;
export function projector<E extends AnyEvent>(
  nameOrDefinition: string | ProjectorDefinition<E>,
  tables?: readonly string[],
  handlers?: Record<string, ProjectionHandler>,
): Projector {
  if (typeof nameOrDefinition === 'string') return { name: nameOrDefinition, tables: tables!, handlers: handlers! };
  const { name, tables: owned, handlers: typed, applyBatch } = nameOrDefinition;
  return {
    name,
    tables: owned,
    handlers: typed as unknown as Record<string, ProjectionHandler>,
    ...(applyBatch ? { applyBatch: applyBatch as unknown as NonNullable<Projector['applyBatch']> } : {}),
  };
}
