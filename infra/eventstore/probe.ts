// A short check, run at start-up against a server event store (EventStoreDB), that it behaves as
// the EventStore port requires: no CI run has a server of that kind, so each start proves it
// instead. It speaks only the port, so it runs against any adapter (its tests use PGlite and
// Postgres). It leaves two `StylistProbe` events in a stream of its own; no projector reads them.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { WrongExpectedRevision, type EventStore, type NewEvent, type RecordedEvent } from './port.js';

export const PROBE_EVENT_TYPE = 'StylistProbe';

/** The store did not behave as the port requires; `check` names what failed. */
export class EventStoreProbeFailed extends Error {
  override name = 'EventStoreProbeFailed';
  readonly check: string;
  constructor(
    check: string,
    detail: string,
  ) {
    super(`event store probe failed at "${check}": ${detail}`);
    this.check = check;
  }
}

export interface ProbeOptions {
  /** Bound on each check, so a server that hangs fails the start instead of stalling it. */
  timeoutMs?: number;
}

export async function probeEventStore(store: EventStore, { timeoutMs = 10_000 }: ProbeOptions = {}): Promise<void> {
  const stream = `stylist-probe-${randomUUID()}`;
  const at = new Date().toISOString();
  const probeEvent = (step: string): NewEvent => ({
    id: randomUUID(),
    type: PROBE_EVENT_TYPE,
    data: { step, at },
    metadata: { actor: { kind: 'system', id: 'probe' }, at },
  });
  const first = probeEvent('first');
  const second = probeEvent('second');

  const check = async <T>(name: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new EventStoreProbeFailed(name, `no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([run(controller.signal), timeout]);
    } catch (error) {
      if (error instanceof EventStoreProbeFailed) throw error;
      throw new EventStoreProbeFailed(name, error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  };
  const fail = (name: string, detail: string): never => {
    throw new EventStoreProbeFailed(name, detail);
  };

  const appended = await check('append expecting no stream', async () => {
    const result = await store.append(stream, [first], { expectedRevision: 'no_stream' });
    if (result.nextExpectedRevision !== 0n) fail('append expecting no stream', `next expected revision ${result.nextExpectedRevision}, not 0`);
    return result;
  });

  await check('revision conflict', async () => {
    let outcome: unknown;
    try {
      await store.append(stream, [probeEvent('conflicting')], { expectedRevision: 'no_stream' });
      outcome = 'accepted';
    } catch (error) {
      outcome = error;
    }
    if (outcome === 'accepted') fail('revision conflict', `a second append expecting no stream to ${stream} was accepted`);
    if (!(outcome instanceof WrongExpectedRevision)) {
      const what = outcome instanceof Error ? `${outcome.name}: ${outcome.message}` : String(outcome);
      fail('revision conflict', `the conflict surfaced as ${what}, not as WrongExpectedRevision`);
    }
    if ((outcome as WrongExpectedRevision).actual !== 0n) {
      fail('revision conflict', `the conflict reported actual revision ${String((outcome as WrongExpectedRevision).actual)}, not 0`);
    }
  });

  await check('append of the same event id twice', async () => {
    const retried = await store.append(stream, [first], { expectedRevision: 'no_stream' });
    if (retried.nextExpectedRevision !== appended.nextExpectedRevision) {
      fail('append of the same event id twice', `the retry answered revision ${retried.nextExpectedRevision}, not ${appended.nextExpectedRevision}`);
    }
    const stored = await store.readStream(stream);
    if (stored.length !== 1) fail('append of the same event id twice', `the stream holds ${stored.length} events after a retried append, not 1`);
  });

  await check('append expecting a revision', () => store.append(stream, [second], { expectedRevision: 0n }));

  await check('read back', async () => {
    const events = await store.readStream(stream);
    const expected = [first, second];
    if (events.length !== 2) fail('read back', `read ${events.length} events, not 2`);
    events.forEach((event, i) => {
      const sent = expected[i]!;
      if (event.id !== sent.id || event.type !== sent.type || event.revision !== BigInt(i) || !isDeepStrictEqual(event.data, sent.data)) {
        fail('read back', `event ${i} came back as ${describe(event)}`);
      }
    });
  });

  await check('subscribe from a position', async (signal) => {
    for await (const event of store.subscribeToAll({ after: appended.position, signal })) {
      if (event.streamId !== stream) continue;
      if (event.id === first.id) fail('subscribe from a position', 'the subscription delivered the event at its start position, which it must exclude');
      if (event.id !== second.id) fail('subscribe from a position', `the subscription delivered ${describe(event)}`);
      return;
    }
    fail('subscribe from a position', 'the subscription ended without delivering the appended event');
  });
}

const describe = (event: RecordedEvent): string => `${event.type} ${event.id} at revision ${event.revision} of ${event.streamId}`;
