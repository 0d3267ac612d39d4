// Operator commands for the read models: their state and lag, a rebuild, the audited way past
// a poisoned event (skip it, or retry it once its cause is fixed), and the replay of one
// organization's parked events. A running service picks up a skip or retry made from another
// process within a couple of seconds.
import { parsePosition, type Position } from '../../infra/eventstore/position.js';
import { allProjectors } from '../../projections/index.js';
import { FaultMismatch, type DegradedLane, type FailedLane, type LaneReadiness, type OldestTransaction, type ProjectionStatus, type ReplayedLane } from '../../projections/runner.js';
import { buildingGenerations, type BuildingGeneration } from '../../projections/queries/analytics.js';
import { operator, required, UsageError, type CommandSpec } from './spec.js';

const knownProjection = (name: string | undefined): string => {
  const known = allProjectors.map((p) => p.name);
  if (!name) throw new UsageError(`name a projection (known: ${known.join(', ')})`);
  if (!known.includes(name)) throw new UsageError(`unknown projection ${name} (known: ${known.join(', ')})`);
  return name;
};

const positionOption = (text: string): Position => {
  try {
    return parsePosition(text);
  } catch {
    throw new UsageError(`--position takes a position as status shows it (commit/prepare), got ${JSON.stringify(text)}`);
  }
};

/** The fault module's refusals are the operator's to fix: one line, no stack. */
const operatorMistake = (error: unknown): never => {
  if (error instanceof FaultMismatch) throw new UsageError(error.message);
  throw error;
};

const statusLine = (p: ProjectionStatus): string => {
  const lag = `lag ${p.lag ?? '?'} events, ${p.lagSeconds} s`;
  const head = `${p.name.padEnd(18)} ${p.state.padEnd(10)} ${String(p.position ?? 'not started').padEnd(16)} ${String(p.eventsApplied).padStart(8)} applied  ${lag}`;
  if (p.fault) {
    const f = p.fault;
    return `${head}\n  poisoned event ${f.position}: ${f.eventType} in ${f.streamId} (event ${f.eventId})\n  ${f.attempts} attempts, first ${f.firstSeenAt}, last ${f.lastSeenAt}\n  error: ${f.error}\n  stylist projections skip ${p.name} --position ${f.position} --reason TEXT  |  stylist projections retry ${p.name}`;
  }
  const lanes = (p.degraded ?? []).map(laneLine).join('');
  if (lanes) return `${head}${lanes}`;
  if (p.retrying) return `${head}\n  retrying (${p.retrying.attempts} attempts since ${p.retrying.since}): ${p.retrying.error}`;
  return head;
};

const laneLine = (l: DegradedLane): string =>
  `\n  degraded for organization ${l.organizationId}: ${l.parkedEvents} event${l.parkedEvents === 1 ? '' : 's'} parked since ${l.parkedAt}\n    failed on ${l.eventType} at ${l.position} in ${l.streamId} (event ${l.eventId}), ${l.attempts} attempts: ${l.error}\n    stylist projections replay-parked ${l.projector} --org ${l.organizationId}`;

/** Each lane's projectors under one line of its own: where its loop runs and how far behind it is. */
const laneLines = (statuses: readonly ProjectionStatus[], lanes: readonly LaneReadiness[]): string[] =>
  lanes.flatMap(({ name, here, lagSeconds }) => {
    const own = statuses.filter((p) => p.lane === name);
    const lag = own.some((p) => p.lag === undefined) ? '' : `, up to ${Math.max(...own.map((p) => p.lag ?? 0))} events`;
    return [`${name} lane: ${here ? 'runs in this process' : 'not run by this process'}; behind by up to ${lagSeconds} s${lag}`, ...own.map(statusLine)];
  });

const replayedLine = (l: ReplayedLane): string => `${l.projector} for organization ${l.organizationId}: ${l.events} parked event${l.events === 1 ? '' : 's'} applied`;
const failedLine = (l: FailedLane): string => `${l.projector} for organization ${l.organizationId}: still parked, ${l.error}`;

const analyticsLine = (b: BuildingGeneration): string =>
  `analytics rebuild of ${b.organizationId} (${b.reason}, ${b.timezone}) since ${b.requestedAt}: ${b.eventsRead} events replayed, ${b.claimedBy ? `by ${b.claimedBy}` : 'waiting for a projections process'}; the previous numbers answer until it is done`;

const oldestLine = (oldest: OldestTransaction | null): string => {
  if (!oldest) return 'oldest open transaction on the server: n/a (embedded database)';
  if (!oldest.pid && !oldest.state) return 'oldest open transaction on the server: none';
  const where = oldest.pid ? `pid ${oldest.pid}, database ${oldest.database ?? '?'}, ${oldest.state ?? 'state unknown'}` : `prepared, database ${oldest.database ?? '?'}`;
  return `oldest open transaction on the server: ${oldest.seconds} s (${where}); events committed after it began stay invisible to projections until it ends`;
};

export const projectionCommands: CommandSpec[] = [
  {
    words: ['projections', 'status'],
    usage: 'stylist projections status',
    options: {},
    run: async (platform) => {
      const [projections, oldest, analyticsRebuilds] = await Promise.all([
        platform.projections.status(),
        platform.projections.oldestTransaction(),
        buildingGenerations(platform.database.db),
      ]);
      return { projections, lanes: platform.projections.laneSummaries(projections), oldestTransaction: oldest ?? 'n/a', analyticsRebuilds };
    },
    text: (r) =>
      [
        ...laneLines(r.projections as ProjectionStatus[], r.lanes as LaneReadiness[]),
        ...(r.analyticsRebuilds as BuildingGeneration[]).map(analyticsLine),
        oldestLine(r.oldestTransaction === 'n/a' ? null : r.oldestTransaction),
      ].join('\n'),
  },
  {
    words: ['projections', 'rebuild'],
    usage: 'stylist projections rebuild [NAME]',
    options: {},
    maxArguments: 1,
    run: async (platform, _values, args, { progress }) => {
      for (const name of args) knownProjection(name);
      const what = `rebuilding ${args.length ? args.join(', ') : 'every projection'}`;
      return { ...(await platform.projections.rebuild(args.length ? args : undefined, (events) => progress({ what, done: events, total: null, unit: 'events' }))) };
    },
    text: (r) => `rebuilt ${r.rebuilt.join(', ')} from ${r.events} events`,
  },
  {
    words: ['projections', 'skip'],
    usage: 'stylist projections skip NAME --position P --reason TEXT',
    options: { position: { type: 'string' }, reason: { type: 'string' } },
    maxArguments: 1,
    run: async (platform, values, args) => {
      const name = knownProjection(args[0]);
      const position = positionOption(required(values, 'position'));
      const decision = { actor: operator().actor.id, reason: required(values, 'reason') };
      const fault = await platform.projections.skip(name, position, decision).catch(operatorMistake);
      return { projection: name, skipped: { position: fault.position, eventType: fault.eventType, streamId: fault.streamId, eventId: fault.eventId } };
    },
    text: (r) => `${r.projection}: skipped ${r.skipped.eventType} at ${r.skipped.position} (${r.skipped.streamId}); it resumes with the next event`,
  },
  {
    words: ['projections', 'retry'],
    usage: 'stylist projections retry NAME [--reason TEXT]',
    options: { reason: { type: 'string' } },
    maxArguments: 1,
    run: async (platform, values, args) => {
      const name = knownProjection(args[0]);
      const reason = typeof values.reason === 'string' && values.reason.trim() ? values.reason : 'retry requested';
      const fault = await platform.projections.retry(name, { actor: operator().actor.id, reason }).catch(operatorMistake);
      return { projection: name, retried: { position: fault.position, eventType: fault.eventType, streamId: fault.streamId, eventId: fault.eventId } };
    },
    text: (r) => `${r.projection}: applying ${r.retried.eventType} at ${r.retried.position} again`,
  },
  {
    words: ['projections', 'replay-parked'],
    usage: 'stylist projections replay-parked [NAME] [--org ID] [--reason TEXT]',
    options: { org: { type: 'string' }, reason: { type: 'string' } },
    maxArguments: 1,
    run: async (platform, values, args) => {
      const projector = args[0] === undefined ? undefined : knownProjection(args[0]);
      const organizationId = typeof values.org === 'string' && values.org.trim() ? values.org.trim() : undefined;
      const reason = typeof values.reason === 'string' && values.reason.trim() ? values.reason : 'replay requested';
      const decision = { actor: operator().actor.id, reason };
      const { replayed, failed } = await platform.projections
        .replayParked({ ...(projector ? { projector } : {}), ...(organizationId ? { organizationId } : {}) }, decision)
        .catch(operatorMistake);
      // A lane that failed again is the operator's to look at: one line each, exit code 1.
      if (failed.length) throw new Error(`${[...replayed.map(replayedLine), ...failed.map(failedLine)].join('; ')}`);
      return { replayed };
    },
    text: (r) => (r.replayed as ReplayedLane[]).map(replayedLine).join('\n'),
  },
];
