// The shoppers of the agent benchmark, in a process of their own so reading streams does not share
// the API's event loop: each turn is a POST /v2/agent/chat over a keep-alive socket, its Server-Sent
// Events read as they arrive and timed from the moment the request is sent (first event, first
// text, first `search_results`, `done`), then checked (stream-check.ts). A conversation's later
// turns send the previous turn's `history` back with the next message, as a widget does.
// With `api: 'v1'` the same conversations go to POST /v1/chat (`stream: true`), the v1 adapter over
// the same turn: the service keeps the chat, so a later turn sends the first turn's `chatId`.
//   sequential   one shopper: `warmupTurns` turns, then `turns` measured, one at a time;
//   concurrent   `concurrency` shoppers in a closed loop (the next turn as soon as the last one
//                ended), `warmupSeconds` then `seconds` measured; `/healthz` probed meanwhile.
// Prints one JSON line (ShoppersResult).
//   node --import tsx bench/agent/shoppers.ts CONFIG.json
// `runShoppers` spawns it and parses the line (bench/shared/child-process.ts).
import { Agent, request as httpRequest } from 'node:http';
import { parseSse } from '../../test/support/agent.js';
import { quantile } from '../search/load.js';
import { childProcessMain, runInChildProcess } from '../shared/child-process.js';
import type { BenchConversation } from './conversations.js';
import { checkChatTurn, checkTurn, type StreamedEvent } from './stream-check.js';

export interface ShoppersConfig {
  baseUrl: string;
  publicKey: string;
  conversations: BenchConversation[];
  /** The route: v2 (default) POST /v2/agent/chat, v1 POST /v1/chat. */
  api?: 'v2' | 'v1';
  /** v1: a store's origin → its dataset id. v1 takes no `store`, so a conversation on a store's site sends that store's dataset: the scope v2 gets from the origin. */
  storeDatasets?: Record<string, string>;
  mode: 'sequential' | 'concurrent';
  /** sequential */
  warmupTurns?: number;
  turns?: number;
  /** concurrent */
  concurrency?: number;
  warmupSeconds?: number;
  seconds?: number;
  /** concurrent: one GET /healthz after another on a socket of its own, timed, while the shoppers chat. */
  probeHealthz?: boolean;
}

export interface Quantiles {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface ShoppersResult {
  mode: ShoppersConfig['mode'];
  api: 'v2' | 'v1';
  concurrency: number;
  /** Turns measured (every outcome). */
  turns: number;
  seconds: number;
  turnsPerSecond: number;
  firstEvent: Quantiles;
  /**
   * The first text the shopper reads, over the turns that wrote some: the first `text_delta`, or in
   * v2 a `question` before it (v1 writes the question into its text, so both count the same moment).
   */
  firstText: Quantiles;
  /** Over the turns that showed products (v2; v1 has no such event). */
  firstResults: Quantiles;
  /** Request sent → `done` received, over the turns that ended with `done`. */
  whole: Quantiles;
  outcomes: { done: number; error: number; incomplete: number; http: number };
  /** `error` events by message, and non-200 answers by status. */
  errors: Record<string, number>;
  /** Turns with something missing, out of place, or a history that does not match the stream. */
  lostTurns: number;
  reorderedTurns: number;
  historyTurns: number;
  /** The first problems seen, for the report. */
  problems: string[];
  eventsPerTurn: number;
  /** Turns by the kind of their first tool (what the agent did), e.g. lookup_products: 40. */
  firstTools: Record<string, number>;
  /** Turns by the name of their first event. */
  firstEvents: Record<string, number>;
  /** The first tool's own time (`tool_output.ms`): its events are held until it returns. */
  firstToolMs: Quantiles;
  /** The worker's loop, `done.usage.ms` (model steps and tools, without queue, scope and relay). */
  loopMs: Quantiles;
  /** The sequential run's first warm-up turn: the worker's search memory loads on it. */
  coldTurnMs: number | null;
  healthz: Quantiles | null;
  /** CPU this shoppers' process used, start to end (ms). */
  cpuMs: number;
}

interface TimedEvent extends StreamedEvent {
  ms: number;
}

interface TurnRecord {
  sent: number;
  status: number;
  events: TimedEvent[];
  ended: number;
  failure: string | null;
  /** The messages sent, for the history check. */
  messages: any[];
}

const round = (ms: number) => Math.round(ms * 10) / 10;

export const quantiles = (values: readonly number[]): Quantiles => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: round(quantile(sorted, 0.5)), p95: round(quantile(sorted, 0.95)), p99: round(quantile(sorted, 0.99)), max: round(sorted.at(-1) ?? NaN) };
};

/** One turn over a socket of `agent`: events with their arrival time (ms after sending). `messages`: what the shopper said, for the checks. */
function streamTurn(agent: Agent, config: ShoppersConfig, route: string, body: object, messages: any[]): Promise<TurnRecord> {
  const payload = JSON.stringify(body);
  return new Promise((resolve) => {
    const events: TimedEvent[] = [];
    let sent = 0;
    let status = 0;
    let failure: string | null = null;
    const finish = () => resolve({ sent, status, events, ended: performance.now(), failure, messages });
    const req = httpRequest(
      new URL(route, config.baseUrl),
      { agent, method: 'POST', headers: { authorization: `Bearer ${config.publicKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        status = res.statusCode ?? 0;
        const streamed = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          if (!streamed) return;
          let at: number;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, at + 2);
            buffer = buffer.slice(at + 2);
            const ms = performance.now() - sent;
            for (const event of parseSse(frame)) events.push({ ...event, ms });
          }
        });
        res.on('end', () => {
          if (!streamed || status !== 200) failure = `${status} ${buffer.slice(0, 200)}`;
          finish();
        });
        res.on('error', (error) => {
          failure = `response: ${error.message}`;
          finish();
        });
      },
    );
    req.on('error', (error) => {
      failure = `request: ${error.message}`;
      finish();
    });
    sent = performance.now();
    req.end(payload);
  });
}

const turnBody = (conversation: BenchConversation, messages: any[]) => ({
  messages,
  ...(conversation.country ? { country: conversation.country } : {}),
  ...(conversation.storeOrigin ? { store: { origin: conversation.storeOrigin, shop: null } } : {}),
});

/** The same turn as POST /v1/chat takes it: one message, the chat to continue, the store as its dataset. */
const v1Body = (config: ShoppersConfig, conversation: BenchConversation, message: string, chatId: string | null) => ({
  message,
  stream: true,
  ...(chatId ? { chatId } : {}),
  ...(conversation.country ? { country: conversation.country } : {}),
  // An origin without a dataset sends [null]: the 422 shows in the errors rather than a wider scope.
  ...(conversation.storeOrigin ? { datasetIds: [config.storeDatasets?.[conversation.storeOrigin] ?? null] } : {}),
});

/**
 * A conversation's turns, one after the other, each sending the last one's history (v1: the chat's
 * id); stops at a turn without `done` or when `more()` says so.
 */
async function converse(agent: Agent, config: ShoppersConfig, conversation: BenchConversation, more: () => boolean, onTurn: (turn: TurnRecord) => void): Promise<void> {
  let history: any[] = [];
  let chatId: string | null = null;
  for (const message of conversation.turns) {
    if (!more()) return;
    const said = { role: 'user', content: message };
    const turn: TurnRecord =
      config.api === 'v1'
        ? await streamTurn(agent, config, '/v1/chat', v1Body(config, conversation, message, chatId), [said])
        : await streamTurn(agent, config, '/v2/agent/chat', turnBody(conversation, [...history, said]), [...history, said]);
    onTurn(turn);
    const done = turn.events.find((e) => e.event === 'done')?.data;
    if (config.api === 'v1' ? typeof done?.chatId !== 'string' : !Array.isArray(done?.history)) return;
    history = done.history;
    chatId = done.chatId;
  }
}

function summarise(config: ShoppersConfig, turns: TurnRecord[], seconds: number, extra: { coldTurnMs: number | null; healthz: number[] | null }): ShoppersResult {
  const firstEvent: number[] = [];
  const firstText: number[] = [];
  const firstResults: number[] = [];
  const whole: number[] = [];
  const outcomes = { done: 0, error: 0, incomplete: 0, http: 0 };
  const errors: Record<string, number> = {};
  const problems: string[] = [];
  const firstTools: Record<string, number> = {};
  const firstEvents: Record<string, number> = {};
  const firstToolMs: number[] = [];
  const loopMs: number[] = [];
  let lostTurns = 0;
  let reorderedTurns = 0;
  let historyTurns = 0;
  let events = 0;
  for (const turn of turns) {
    if (turn.failure !== null) {
      outcomes.http++;
      const key = `HTTP ${turn.failure.slice(0, 120)}`;
      errors[key] = (errors[key] ?? 0) + 1;
      continue;
    }
    events += turn.events.length;
    if (turn.events.length) firstEvent.push(turn.events[0]!.ms);
    const text = turn.events.find((e) => (e.event === 'text_delta' && e.data?.delta) || e.event === 'question');
    if (text) firstText.push(text.ms);
    const shown = turn.events.find((e) => e.event === 'search_results');
    if (shown) firstResults.push(shown.ms);
    const tool = turn.events.find((e) => e.event === 'tool_called')?.data?.name ?? '(none)';
    firstTools[tool] = (firstTools[tool] ?? 0) + 1;
    const first = turn.events[0]?.event ?? '(none)';
    firstEvents[first] = (firstEvents[first] ?? 0) + 1;
    const toolMs = turn.events.find((e) => e.event === 'tool_output')?.data?.ms;
    if (typeof toolMs === 'number') firstToolMs.push(toolMs);
    const check = config.api === 'v1' ? checkChatTurn(turn.events) : checkTurn(turn.events, turn.messages);
    outcomes[check.outcome]++;
    if (check.outcome === 'done') {
      const done = turn.events.find((e) => e.event === 'done')!;
      whole.push(done.ms);
      if (typeof done.data?.usage?.ms === 'number') loopMs.push(done.data.usage.ms);
    }
    if (check.outcome === 'error') {
      const message = String(turn.events.find((e) => e.event === 'error')?.data?.error);
      errors[message] = (errors[message] ?? 0) + 1;
    }
    if (check.lost.length) lostTurns++;
    if (check.reordered.length) reorderedTurns++;
    if (check.history.length) historyTurns++;
    const said = JSON.stringify(turn.messages.at(-1)?.content);
    for (const problem of [...check.lost.map((p) => `lost: ${p}`), ...check.reordered.map((p) => `reordered: ${p}`), ...check.history.map((p) => `history: ${p}`)]) {
      if (problems.length < 20) problems.push(`${said}: ${problem}`);
    }
  }
  return {
    mode: config.mode,
    api: config.api ?? 'v2',
    concurrency: config.mode === 'sequential' ? 1 : config.concurrency ?? 1,
    turns: turns.length,
    seconds: round(seconds),
    turnsPerSecond: Math.round((turns.length / seconds) * 100) / 100,
    firstEvent: quantiles(firstEvent),
    firstText: quantiles(firstText),
    firstResults: quantiles(firstResults),
    whole: quantiles(whole),
    outcomes,
    errors,
    lostTurns,
    reorderedTurns,
    historyTurns,
    problems,
    eventsPerTurn: turns.length ? Math.round(events / turns.length) : 0,
    firstTools,
    firstEvents,
    firstToolMs: quantiles(firstToolMs),
    loopMs: quantiles(loopMs),
    coldTurnMs: extra.coldTurnMs,
    healthz: extra.healthz ? quantiles(extra.healthz) : null,
    cpuMs: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000),
  };
}

async function sequential(config: ShoppersConfig): Promise<ShoppersResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const warmup = config.warmupTurns ?? 10;
  const wanted = config.turns ?? 100;
  const turns: TurnRecord[] = [];
  let seen = 0;
  let coldTurnMs: number | null = null;
  let measuredFrom = performance.now();
  for (let c = 0; turns.length < wanted; c++) {
    await converse(agent, config, config.conversations[c % config.conversations.length]!, () => turns.length < wanted, (turn) => {
      seen++;
      if (seen === 1) coldTurnMs = round(turn.ended - turn.sent);
      if (seen <= warmup) {
        measuredFrom = performance.now();
        return;
      }
      turns.push(turn);
    });
  }
  agent.destroy();
  return summarise(config, turns, (performance.now() - measuredFrom) / 1000, { coldTurnMs, healthz: null });
}

async function concurrent(config: ShoppersConfig): Promise<ShoppersResult> {
  const clients = config.concurrency ?? 20;
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const start = performance.now();
  const measureFrom = start + (config.warmupSeconds ?? 5) * 1000;
  const end = measureFrom + (config.seconds ?? 30) * 1000;
  const turns: TurnRecord[] = [];
  const shopper = async (c: number) => {
    for (let n = c * 7; performance.now() < end; n++) {
      await converse(agent, config, config.conversations[n % config.conversations.length]!, () => performance.now() < end, (turn) => {
        if (turn.sent >= measureFrom && turn.ended <= end) turns.push(turn);
      });
    }
  };
  const probe = async (): Promise<number[]> => {
    const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const times: number[] = [];
    while (performance.now() < end) {
      const sent = performance.now();
      await new Promise<void>((resolve) => {
        httpRequest(new URL('/healthz', config.baseUrl), { agent: probeAgent }, (res) => res.resume().on('end', resolve)).on('error', () => resolve()).end();
      });
      if (sent >= measureFrom && performance.now() <= end) times.push(performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    probeAgent.destroy();
    return times;
  };
  const [healthz] = await Promise.all([config.probeHealthz ? probe() : Promise.resolve(null), ...Array.from({ length: clients }, (_, c) => shopper(c))]);
  agent.destroy();
  return summarise(config, turns, (end - measureFrom) / 1000, { coldTurnMs: null, healthz });
}

/** Runs the shoppers in a child process (config passed in a file) and returns what they measured. */
export function runShoppers(configFile: string): Promise<ShoppersResult> {
  return runInChildProcess<ShoppersResult>(import.meta.url, configFile, "the shoppers' process");
}

await childProcessMain<ShoppersConfig, ShoppersResult>(import.meta.url, (config) => (config.mode === 'sequential' ? sequential(config) : concurrent(config)));
