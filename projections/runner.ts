// Runs the projectors, lane by lane (projections/index.ts): each lane its own live loop, started
// together or one per process. The jobs live in their own modules: the live loop (live-loop.ts), the
// read-your-writes waits (waits.ts), the rebuild hand-off (rebuild.ts), status and readiness
// (status.ts), the retry-or-poison step every batch goes through (runner-core.ts), and the
// per-organization lanes: an organization's event that keeps failing is parked for that
// organization alone (parked.ts) until an operator replays it (parked-replay.ts).
import { userInfo } from 'node:os';
import type { Kysely } from 'kysely';
import type { EventStore } from '../infra/eventstore/port.js';
import type { Position } from '../infra/eventstore/position.js';
import { openFaults, retryFault, skipFault, type ProjectionFault } from './faults.js';
import type { ProjectionLane } from './index.js';
import { LiveLoop } from './live-loop.js';
import { replayParked, type FailedLane, type ReplayedLane } from './parked-replay.js';
import type { Projector } from './projector.js';
import { rebuildProjectors } from './rebuild.js';
import { DEFAULT_RETRY, RunnerCore, type RetryPolicy, type RunnerLogger } from './runner-core.js';
import { laneSummaries, oldestTransaction, projectionStatus, readinessOf, type LaneReadiness, type LaneView, type OldestTransaction, type ProjectionReadiness, type ProjectionStatus } from './status.js';
import { waitForPosition } from './waits.js';

export { ProjectionDegraded, ProjectionTimeout, RebuildFailed } from './runner-errors.js';
export type { DegradedLane } from './parked.js';
export type { FailedLane, ReplayedLane } from './parked-replay.js';
export { FaultMismatch, type ProjectionFault } from './faults.js';
export { LAG_COUNT_LIMIT, type DegradedOrganization, type LaneReadiness, type OldestTransaction, type ProjectionReadiness, type ProjectionStatus } from './status.js';
export type { RetryPolicy, RunnerLogger } from './runner-core.js';

export interface ProjectionRunnerOptions {
  store: EventStore;
  db: Kysely<any>;
  /** The read models in their lanes, each lane one live loop (the service: projectionLanes). */
  lanes?: readonly ProjectionLane[];
  /** Or the read models in one lane (named `projections`). */
  projectors?: readonly Projector[];
  logger?: RunnerLogger;
  /** Most events per transaction (default 500). */
  batchSize?: number;
  /** Backoff and attempts before an event is poisoned (default 100 ms doubling to 5 s; 5 attempts, 50 for statement-level errors). */
  retry?: Partial<RetryPolicy>;
  /** How often a running loop looks for skips and retries decided in another process (default 2 s). */
  faultPollMs?: number;
}

/** Who took an operator decision, for the audit columns and the log. */
export interface OperatorDecision {
  /** The actor the command runs as (the CLI's `cli`); the operating-system user is added. */
  actor: string;
  reason: string;
}

const silent: RunnerLogger = { info() {}, warn() {}, error() {} };

export class ProjectionRunner {
  readonly #core: RunnerCore;
  /** One loop per lane, by lane name. */
  readonly #loops = new Map<string, LiveLoop>();
  /** The loop of each projector, by projector name. */
  readonly #loopOf = new Map<string, LiveLoop>();
  readonly #faultPollMs: number;
  #poller: NodeJS.Timeout | undefined;
  #polling: Promise<void> | undefined;

  constructor(options: ProjectionRunnerOptions) {
    const retry = { ...DEFAULT_RETRY, ...options.retry };
    const batchSize = options.batchSize ?? 500;
    const lanes = options.lanes ?? [{ name: 'projections', projectors: options.projectors ?? [] }];
    this.#core = new RunnerCore(options.store, options.db, options.logger ?? silent, batchSize, retry, lanes.flatMap((lane) => lane.projectors));
    this.#faultPollMs = options.faultPollMs ?? 2000;
    for (const lane of lanes) {
      if (this.#loops.has(lane.name)) throw new Error(`two projection lanes are named ${lane.name}`);
      const states = lane.projectors.map((p) => this.#core.state(p.name));
      const loop = new LiveLoop(this.#core, { name: lane.name, states, batchSize: lane.batchSize ?? batchSize });
      this.#loops.set(lane.name, loop);
      for (const state of states) this.#loopOf.set(state.projector.name, loop);
    }
  }

  /** The lane names, in order. */
  get lanes(): string[] {
    return [...this.#loops.keys()];
  }

  /**
   * Starts the live loop of each named lane (every lane when absent). Needs the read-model
   * migrations applied. Poisoned projectors stay stopped until skip or retry.
   */
  async start(lanes?: readonly string[]): Promise<void> {
    const loops = (lanes ?? this.lanes).map((name) => this.#loop(name));
    await Promise.all(loops.map((loop) => loop.start()));
    // One poll for all the lanes this process runs: the faults and the parked count are the runner's, not a lane's.
    this.#poller ??= setInterval(() => void this.#syncFaults().catch(() => {}), this.#faultPollMs);
    this.#poller.unref();
  }

  /** Ends every subscription and waits for the batches being applied. */
  async stop(): Promise<void> {
    clearInterval(this.#poller);
    this.#poller = undefined;
    await Promise.all([...this.#loops.values()].map((loop) => loop.stop()));
    await this.#polling?.catch(() => {});
    // Parking happens in the loops: without them this process no longer knows the count.
    this.#core.parked.count = undefined;
  }

  /** Resolves once every named projector has applied `position`; ProjectionTimeout otherwise. */
  waitFor(position: Position, names: readonly string[], timeoutMs = 5000): Promise<void> {
    // Local when this process runs the loop of every projector waited for: it is told of each
    // batch; otherwise it looks at the stored checkpoints.
    const local = names.every((name) => this.#loopOf.get(name)?.running);
    return waitForPosition(this.#core, local, position, names, timeoutMs);
  }

  /** Checkpoints, lag and faults as stored (so it also sees another process's runner) with this process's states. */
  status(): Promise<ProjectionStatus[]> {
    return projectionStatus(this.#core, this.#laneView());
  }

  oldestTransaction(): Promise<OldestTransaction | null> {
    return oldestTransaction(this.#core.db, this.#core.store.kind);
  }

  /** For `/readyz`: poisoned or lagging projectors, and a stopped loop in a process that ran one. */
  async readiness(lagLimitSeconds: number): Promise<ProjectionReadiness> {
    const [statuses, oldest] = await Promise.all([projectionStatus(this.#core, this.#laneView(), { count: false }), this.oldestTransaction()]);
    return readinessOf(statuses, oldest, lagLimitSeconds, this.#laneStates());
  }

  /** Each lane of these statuses: whether it runs here and how far behind it is (as `/readyz` says it). */
  laneSummaries(statuses: readonly ProjectionStatus[]): LaneReadiness[] {
    return laneSummaries(statuses, this.#laneStates());
  }

  #laneStates(): Map<string, { running: boolean; started: boolean }> {
    return new Map([...this.#loops].map(([name, loop]) => [name, { running: loop.running, started: loop.started }]));
  }

  /**
   * Empties the named projectors' tables (all projectors when absent) and replays `$all` through
   * them in one pass. Live processing of those projectors pauses meanwhile and takes over after.
   */
  /** `onProgress`: events replayed so far, after each page. */
  rebuild(names?: readonly string[], onProgress?: (events: number) => void): Promise<{ rebuilt: string[]; events: number }> {
    return rebuildProjectors(this.#core, (state) => this.#loopOf.get(state.projector.name)!, names, onProgress);
  }

  /** Moves the projector past its poisoned event at `position` without applying it. */
  async skip(name: string, position: Position, decision: OperatorDecision): Promise<ProjectionFault> {
    this.#core.state(name);
    const by = decidedBy(decision.actor);
    const fault = await skipFault(this.#core.db, name, position, { by, reason: decision.reason });
    this.#core.log.warn({ projection: name, position: fault.position, eventType: fault.eventType, streamId: fault.streamId, by, reason: decision.reason }, 'poisoned event skipped by an operator');
    await this.#syncFaultsAfterDecision();
    return fault;
  }

  /** Clears the projector's fault: it applies the poisoned event again. */
  async retry(name: string, decision: OperatorDecision): Promise<ProjectionFault> {
    this.#core.state(name);
    const by = decidedBy(decision.actor);
    const fault = await retryFault(this.#core.db, name, { by, reason: decision.reason });
    this.#core.log.warn({ projection: name, position: fault.position, eventType: fault.eventType, by, reason: decision.reason }, 'poisoned event retried by an operator');
    await this.#syncFaultsAfterDecision();
    return fault;
  }

  /**
   * Applies the parked events of every stopped organization lane (narrowed by projector and
   * organization), each lane in order and in one transaction; a lane that fails again stays parked.
   */
  async replayParked(filter: { projector?: string; organizationId?: string }, decision: OperatorDecision): Promise<{ replayed: ReplayedLane[]; failed: FailedLane[] }> {
    return replayParked(this.#core, filter, { by: decidedBy(decision.actor), reason: decision.reason });
  }

  /**
   * The open faults and the parked count read once, for every running loop: a loop here resumes
   * at once after an operator's decision; the process running it elsewhere notices within its poll.
   */
  #syncFaults(): Promise<void> {
    this.#polling ??= (async () => {
      const running = [...this.#loops.values()].filter((loop) => loop.running);
      if (!running.length) return;
      const recordedBefore = this.#core.faultsRecorded;
      const [open] = await Promise.all([openFaults(this.#core.db), this.#core.recountParked()]);
      await Promise.all(running.map((loop) => loop.applyFaults(open, recordedBefore)));
    })().finally(() => (this.#polling = undefined));
    return this.#polling;
  }

  /** After an operator's decision: a poll already under way may have read the faults before it. */
  async #syncFaultsAfterDecision(): Promise<void> {
    await this.#polling?.catch(() => {});
    await this.#syncFaults();
  }

  #loop(name: string): LiveLoop {
    const loop = this.#loops.get(name);
    if (!loop) throw new Error(`unknown projection lane ${JSON.stringify(name)}; known: ${this.lanes.join(', ')}`);
    return loop;
  }

  /** Per projector: its lane, and whether that lane's loop runs here. */
  #laneView(): LaneView {
    return (name) => {
      const loop = this.#loopOf.get(name)!;
      return { lane: loop.lane.name, running: loop.running };
    };
  }
}

const decidedBy = (actor: string): string => {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (a container's arbitrary uid): the actor alone.
  }
  return `${actor} (os user ${user})`;
};
