// What the relay through NATS costs, per phase of the agent benchmark: a frame's hop from the agent
// worker's `publish` to this process's relay, as the relay itself records it
// (`platform.relay.hopTimes()`: the latest 10,000 frames, in a ring). The ring does not say which
// frames belong to which phase, so the frames the relay hears are counted on the way in (the
// channel's `listen` wrapped: the same object the relay calls), and the ring is read every
// DRAIN_MS during a phase, taking the entries of the frames counted since the last read (far fewer
// than 10,000 a second). On the way in, the same hop is also timed by frame kind (a `done` frame
// carries the whole history), and each turn's stages on this process's clock: listening →
// `started` (enqueue on JetStream, a worker's pull, its cancel subscription), `started` → first
// event and → `done` (the worker's own work plus the hop). This process's event-loop delay is
// sampled too: a busy loop is time a frame waits before anyone reads it.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { TurnRelay } from '../../api/agent-relay.js';
import type { TurnChannel, TurnFrame } from '../../infra/channel/port.js';
import { quantiles, type Quantiles } from './shoppers.js';

/** The relay keeps this many of the latest hops (api/agent-relay.ts RELAY_SAMPLES). */
const RING = 10_000;
const DRAIN_MS = 500;

export interface RelayPhase {
  frames: number;
  /** From `platform.relay.hopTimes()`, every frame of the phase; null when the ring could not be matched to the frames counted. */
  relay: Quantiles | null;
  /** The same hop timed at the channel, by frame: all, `done` frames, and the rest. */
  measured: Quantiles;
  doneFrames: Quantiles;
  otherFrames: Quantiles;
  /** Per turn, on this process's clock: listen → started; started → first event; started → done. */
  pickup: Quantiles;
  startedToFirstEvent: Quantiles;
  startedToDone: Quantiles;
  /** This process's event-loop delay meanwhile (ms). */
  loopDelay: { p50: number; p99: number; max: number };
  note?: string;
}

export interface RelayWatch {
  /** Starts a phase: counts and samples from now. */
  begin(): void;
  end(): RelayPhase;
  /** The channel's own `listen`, not counted (for a probe beside the relay). */
  listenUnwatched: TurnChannel['listen'];
  /** Turns ended so far by each worker (its name in the `started` frame, `host:pid`). */
  turnsByWorker(): ReadonlyMap<string, number>;
}

const epochMs = () => performance.timeOrigin + performance.now();

export function watchRelay(channel: TurnChannel, relay: () => TurnRelay | undefined): RelayWatch {
  let recorded = 0;
  let from = 0;
  let drained = 0;
  let relayed: number[] = [];
  let notes: string[] = [];
  let drainTimer: NodeJS.Timeout | null = null;
  // The ring's slot for hop k is k mod RING; the hops counted since the last read are slots drained..recorded-1.
  const drain = () => {
    const ring = relay()?.hopTimes() ?? [];
    if (ring.length !== Math.min(recorded, RING)) {
      if (!notes.length) notes.push(`the relay holds ${ring.length} hops where ${Math.min(recorded, RING)} were counted: its samples are not used`);
    } else if (recorded - drained > RING) notes.push(`${recorded - drained - RING} hops left the ring before they were read`);
    else for (let k = drained; k < recorded; k++) relayed.push(ring[k % RING]!);
    drained = recorded;
  };
  let hops: Array<{ ms: number; done: boolean }> = [];
  let stages = { pickup: [] as number[], firstEvent: [] as number[], done: [] as number[] };
  const byWorker = new Map<string, number>();
  const listen = channel.listen.bind(channel);
  // Counted as the relay counts: frames in sequence, carrying `at`, until the turn's final event.
  channel.listen = (turnId, onFrame) => {
    const listening = performance.now();
    let started: number | null = null;
    let worker = '';
    let sawEvent = false;
    let expected = 1;
    let finished = false;
    const seen = (frame: TurnFrame) => {
      if (finished || frame.seq !== expected || typeof frame.at !== 'number') return;
      recorded++;
      const now = performance.now();
      const final = frame.kind === 'event' && (frame.event === 'done' || frame.event === 'error');
      hops.push({ ms: epochMs() - frame.at, done: final });
      if (frame.kind === 'started') {
        started = now;
        worker = frame.worker;
        stages.pickup.push(now - listening);
      } else if (frame.kind === 'event' && started !== null) {
        if (!sawEvent) stages.firstEvent.push(now - started);
        sawEvent = true;
        if (final) stages.done.push(now - started);
      }
      if (final) {
        finished = true;
        byWorker.set(worker, (byWorker.get(worker) ?? 0) + 1);
      }
    };
    return listen(turnId, (frame) => {
      seen(frame);
      if (frame.seq === expected) expected++;
      onFrame(frame);
    });
  };
  let loop: IntervalHistogram | null = null;
  return {
    listenUnwatched: listen,
    turnsByWorker: () => byWorker,
    begin() {
      from = recorded;
      drained = recorded;
      relayed = [];
      notes = [];
      if (drainTimer) clearInterval(drainTimer);
      drainTimer = setInterval(drain, DRAIN_MS);
      hops = [];
      stages = { pickup: [], firstEvent: [], done: [] };
      loop?.disable();
      loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
    },
    end() {
      if (drainTimer) clearInterval(drainTimer);
      drainTimer = null;
      drain();
      const count = recorded - from;
      const usable = !notes.length && relayed.length === count;
      loop?.disable();
      const ms = (ns: number | undefined) => Math.round(((ns ?? NaN) / 1e6) * 10) / 10;
      const loopDelay = { p50: ms(loop?.percentile(50)), p99: ms(loop?.percentile(99)), max: ms(loop?.max) };
      loop = null;
      return {
        frames: count,
        relay: usable ? quantiles(relayed) : null,
        measured: quantiles(hops.map((h) => h.ms)),
        doneFrames: quantiles(hops.filter((h) => h.done).map((h) => h.ms)),
        otherFrames: quantiles(hops.filter((h) => !h.done).map((h) => h.ms)),
        pickup: quantiles(stages.pickup),
        startedToFirstEvent: quantiles(stages.firstEvent),
        startedToDone: quantiles(stages.done),
        loopDelay,
        ...(notes.length ? { note: notes.join('; ') } : {}),
      };
    },
  };
}
