// An agent worker's handling of one queued turn: it says it has the turn (`started`), keeps saying
// so (heartbeats, so the API notices a worker that died), runs the loop with every event published
// on the turn's channel subject in order, ends with `done` or `error`, and records the finished
// turn on the widget session when there is one.
//
// A turn is worth running once: the shopper is waiting on a live connection. A turn the API has
// already given up on (past `giveUpAt`), or a redelivery after a worker died mid-turn (the API told
// the shopper the turn failed), is dropped. The shopper leaving (a cancel from the API) or the turn
// running past its deadline aborts the model call and the tools where they are.
import type { Logger } from 'pino';
import { toolSpecs } from '../../domain/agent/tools.js';
import { chatRequestSchema, type ChatRequest } from '../../domain/agent/request.js';
import { AGENT_FAILURES, type AgentEvent } from '../../domain/agent/stream-events.js';
import type { ShownProduct } from '../../domain/agent/products.js';
import { recordAgentTurn } from '../../commands/agent-turns.js';
import type { TurnChannel, TurnFrame } from '../../infra/channel/port.js';
import type { EventStore } from '../../infra/eventstore/port.js';
import { ModelUnavailable, type ChatModel } from '../../infra/models/chat.js';
import type { Embedder } from '../../infra/models/port.js';
import type { Job } from '../../infra/queue/port.js';
import type { AgentTurnMessage } from '../../infra/queue/messages.js';
import type { SearchMemory } from '../../projections/search-memory.js';
import { isUuid } from '../../projections/queries/rows.js';
import type { Kysely } from 'kysely';
import { runTurn, type TurnRecord } from './loop.js';
import { resolveScope, turnContext } from './scope.js';

export interface AgentWorkerDeps {
  db: Kysely<any>;
  eventStore: EventStore;
  channel: TurnChannel;
  search(): { memory: SearchMemory; embedder: Embedder };
  model: ChatModel;
  serverSecret: string;
  baseUrl: string;
  logger: Logger;
  workerName: string;
  heartbeatMs: number;
  turnTimeoutMs: number;
  /** Aborted when the process is abandoned (a test standing in for a kill): stop and send nothing more. */
  halt: AbortSignal;
  now?: () => Date;
}

/** How often a held job tells the queue it is still being worked on (its ack wait is 30 s). */
const JOB_WORKING_EVERY_MS = 10_000;

/** A frame before the turn's sequence number is put on it. */
type UnnumberedFrame = TurnFrame extends infer F ? (F extends TurnFrame ? Omit<F, 'seq' | 'at'> : never) : never;

const epochMs = () => performance.timeOrigin + performance.now();

export async function handleTurnJob(deps: AgentWorkerDeps, job: Job<AgentTurnMessage>): Promise<void> {
  const message = job.payload;
  const now = deps.now ?? (() => new Date());
  if (job.deliveryCount > 1) {
    deps.logger.warn({ turnId: message.turnId, deliveryCount: job.deliveryCount }, 'agent turn delivered again after its worker stopped; the shopper was already told, dropped');
    return;
  }
  if (Date.parse(message.giveUpAt) <= now().getTime()) {
    deps.logger.warn({ turnId: message.turnId, waitedMs: now().getTime() - Date.parse(message.enqueuedAt) }, 'agent turn taken after the API stopped waiting for it; dropped');
    return;
  }
  const log = deps.logger.child({ turnId: message.turnId, organizationId: message.organizationId });
  let seq = 0;
  const publish = (frame: UnnumberedFrame) => {
    if (deps.halt.aborted) return;
    deps.channel.publish(message.turnId, { ...frame, seq: ++seq, at: epochMs() } as TurnFrame);
  };
  const abort = new AbortController();
  const deadline = setTimeout(() => abort.abort(new Error('turn deadline')), deps.turnTimeoutMs);
  const onHalt = () => abort.abort(deps.halt.reason);
  deps.halt.addEventListener('abort', onHalt, { once: true });
  // `started` goes first: the shopper's first frame does not wait for the cancel subscription's round trip.
  publish({ kind: 'started', worker: deps.workerName });
  const cancelling = deps.channel.onCancel(message.turnId, () => abort.abort(new Error('shopper left'))).catch(() => null);
  const heartbeat = setInterval(() => publish({ kind: 'heartbeat' }), deps.heartbeatMs);
  const working = setInterval(() => void job.working().catch(() => undefined), JOB_WORKING_EVERY_MS);

  const started = performance.now();
  let firstEventMs: number | null = null;
  let firstResultsMs: number | null = null;
  // Text written in one go (a model streams it word by word) travels as one frame: fewer messages, same text.
  let text = '';
  let textFlush: NodeJS.Immediate | null = null;
  const flushText = () => {
    if (textFlush) clearImmediate(textFlush);
    textFlush = null;
    if (!text) return;
    publish({ kind: 'event', event: 'text_delta', data: { delta: text } });
    text = '';
  };
  const emit = (event: AgentEvent) => {
    const at = Math.round(performance.now() - started);
    firstEventMs ??= at;
    if (event.event === 'text_delta') {
      text += event.data.delta;
      textFlush ??= setImmediate(flushText);
      return;
    }
    flushText();
    if (event.event === 'search_results') firstResultsMs ??= at;
    publish({ kind: 'event', event: event.event, data: event.data });
  };
  let request: ChatRequest | null = null;
  let record: TurnRecord | null = null;
  const shown: ShownProduct[] = [];
  try {
    const parsed = chatRequestSchema(deps.model.thinkingLevels).safeParse(message.request);
    if (!parsed.success) throw new Error(`queued chat request does not parse: ${parsed.error.issues[0]?.message}`);
    request = parsed.data;
    const scope = await resolveScope(deps.db, message.organizationId, request);
    const context = await turnContext(deps.db, scope, request);
    const search = deps.search();
    record = await runTurn(
      { turnId: message.turnId, request, context, tools: toolSpecs(context.hasCart) },
      {
        model: deps.model,
        emit,
        signal: abort.signal,
        onToolCrash: (name, error) => log.error({ err: error, tool: name }, 'agent tool failed unexpectedly'),
        tools: {
          db: deps.db,
          search,
          scope,
          country: request.country,
          currency: context.currency,
          cart: request.cart,
          sessionId: request.sessionId,
          serverSecret: deps.serverSecret,
          baseUrl: deps.baseUrl,
          now,
          seen: new Map(),
          shown,
        },
      },
    );
    emit({ event: 'done', data: record.done });
  } catch (error) {
    if (deps.halt.aborted) return;
    const reason = abort.signal.aborted ? String((abort.signal.reason as Error)?.message ?? abort.signal.reason) : null;
    if (reason === 'shopper left') log.info('agent turn cancelled: the shopper left');
    else {
      if (error instanceof ModelUnavailable) log.warn({ err: error }, 'agent turn failed: the model is unavailable');
      else if (reason === 'turn deadline') log.warn('agent turn stopped at its deadline');
      else log.error({ err: error }, 'agent turn failed');
      emit({ event: 'error', data: { error: error instanceof ModelUnavailable ? AGENT_FAILURES.model : reason === 'turn deadline' ? AGENT_FAILURES.timeout : AGENT_FAILURES.internal } });
    }
  } finally {
    clearTimeout(deadline);
    clearInterval(heartbeat);
    clearInterval(working);
    if (textFlush) clearImmediate(textFlush);
    void cancelling.then((subscription) => subscription?.close());
    deps.halt.removeEventListener('abort', onHalt);
  }
  if (deps.halt.aborted) return;
  await deps.channel.flush().catch(() => undefined);
  const totalMs = Math.round(performance.now() - started);
  log.debug({ ms: totalMs, modelCalls: record?.modelCalls, tools: record?.tools.length }, 'agent turn finished');
  if (request?.sessionId && isUuid(request.sessionId)) {
    await recordTurn(deps, message, request, { record, shown, firstEventMs, firstResultsMs, totalMs }).catch((error) =>
      log.warn({ err: error }, 'agent turn could not be recorded on its session'),
    );
  }
}

async function recordTurn(
  deps: AgentWorkerDeps,
  message: AgentTurnMessage,
  request: ChatRequest,
  turn: { record: TurnRecord | null; shown: ShownProduct[]; firstEventMs: number | null; firstResultsMs: number | null; totalMs: number },
): Promise<void> {
  const session = request.session;
  const now = (deps.now ?? (() => new Date()))().toISOString();
  const data = {
    sessionId: request.sessionId!.toLowerCase(),
    organizationId: message.organizationId,
    demo: message.demo,
    turnId: message.turnId,
    outcome: turn.record ? ('done' as const) : ('error' as const),
    model: deps.model.name,
    shown: turn.shown.slice(0, 500).map((product) => ({ itemId: product.itemId, datasetId: product.datasetId })),
    tools: (turn.record?.tools ?? []).slice(0, 100),
    timings: { modelCalls: turn.record?.modelCalls ?? 0, firstEventMs: turn.firstEventMs, firstResultsMs: turn.firstResultsMs, totalMs: turn.totalMs },
    visit: session ? { surface: session.surface, agentVersion: session.agentVersion, storageMode: session.storageMode, tz: session.tz, locale: session.locale, device: session.device } : null,
  };
  // A store that is briefly unreachable gets a few tries: the turn is recorded once (the event id comes from the turn).
  for (let attempt = 1; ; attempt++) {
    try {
      await recordAgentTurn(deps.eventStore, data, { now, actor: { kind: 'system', id: 'agent' }, correlationId: message.turnId });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
