// The agent benchmark's report: what each phase measured, the verdict on each goal of the issue,
// and the tables bench/agent.ts prints (markdown, as docs/storefront.md carries them). Pure formatting.
import os from 'node:os';
import type { loadCatalogue } from '../search.js';
import type { CpuUse } from './cpu.js';
import type { RelayPhase } from './relay-hops.js';
import type { Quantiles, ShoppersResult } from './shoppers.js';

// v1FirstTextMarginMs: a v1 turn's first text (POST /v1/chat) at most this much after v2's, at p50 and at p95, one shopper.
export const GOALS = { firstEventMs: 50, firstResultsMs: 250, wholeTurnMs: 400, relayHopMs: 5, v1FirstTextMarginMs: 50 };

const round1 = (n: number) => Math.round(n * 10) / 10;

export interface HealthzRun {
  connections: number;
  requestsPerSecond: number;
  p50: number;
  p97_5: number;
  p99: number;
  non2xx: number;
}

export interface Phase {
  name: string;
  agentProcesses: number;
  shoppers: ShoppersResult;
  relay: RelayPhase;
  /** The bare NATS hop meanwhile: an idle publisher → this process (bench/agent/nats-probe.ts). */
  natsProbe: Quantiles;
  /** CPU used during the phase (warm-up included), by process. */
  cpu: CpuUse | null;
}

export interface Report {
  at: string;
  machine: string;
  items: number;
  loading: Awaited<ReturnType<typeof loadCatalogue>>['loading'] | null;
  model: string;
  agent: { concurrencyPerProcess: number; maxPerOrganization: number };
  goals: typeof GOALS;
  healthz: HealthzRun[];
  /** The bare NATS hop before any turn. */
  natsProbeIdle: Quantiles | null;
  phases: Phase[];
  verdicts: Verdict[];
}

export interface Verdict {
  figure: string;
  goal: string;
  measured: string;
  met: boolean | null;
}

const ms = (n: number | null | undefined) => (n === null || n === undefined || Number.isNaN(n) ? '–' : String(n));
const triple = (q: { n: number; p50: number; p95: number; p99: number }) => (q.n ? `${ms(q.p50)} / **${ms(q.p95)}** / ${ms(q.p99)}` : '–');

export function verdicts(phases: Phase[]): Verdict[] {
  const out: Verdict[] = [];
  const one = phases.find((p) => p.shoppers.mode === 'sequential' && p.shoppers.api !== 'v1');
  const oneV1 = phases.find((p) => p.shoppers.mode === 'sequential' && p.shoppers.api === 'v1');
  const many = phases.filter((p) => p.shoppers.mode === 'concurrent');
  const upTo = (figure: string, value: number | undefined, goal: number, count?: string) =>
    out.push({ figure, goal: `≤ ${goal} ms`, measured: value === undefined || Number.isNaN(value) ? `not measured${count ? ` (${count})` : ''}` : `${value} ms${count ? ` (${count})` : ''}`, met: value === undefined || Number.isNaN(value) ? false : value <= goal });
  if (one) {
    const s = one.shoppers;
    upTo('first event p95, one shopper', s.firstEvent.n ? s.firstEvent.p95 : undefined, GOALS.firstEventMs);
    upTo('first search_results p95, one shopper', s.firstResults.n ? s.firstResults.p95 : undefined, GOALS.firstResultsMs, `${s.firstResults.n} of ${s.turns} turns showed products`);
    upTo('whole turn p95, one shopper', s.whole.n ? s.whole.p95 : undefined, GOALS.wholeTurnMs);
    upTo('relay worker → API p95 (relay.hopTimes), one shopper', (one.relay.relay ?? one.relay.measured).p95, GOALS.relayHopMs, `${one.relay.frames} frames`);
  }
  if (one && oneV1) {
    // The issue: v1 is an adapter over the same turn, so what it may add to the first text is bounded.
    const [v2, v1] = [one.shoppers.firstText, oneV1.shoppers.firstText];
    const measured = v1.n && v2.n;
    const [d50, d95] = [round1(v1.p50 - v2.p50), round1(v1.p95 - v2.p95)];
    out.push({
      figure: 'v1 first text p50/p95 minus v2 first text p50/p95, one shopper',
      goal: `≤ ${GOALS.v1FirstTextMarginMs} ms`,
      measured: measured ? `${d50} / ${d95} ms (v1 ${v1.p50} / ${v1.p95}, ${v1.n} turns; v2 ${v2.p50} / ${v2.p95}, ${v2.n} turns)` : 'not measured',
      met: measured ? d50 <= GOALS.v1FirstTextMarginMs && d95 <= GOALS.v1FirstTextMarginMs : false,
    });
  }
  for (const p of many) {
    const s = p.shoppers;
    const who = `${s.concurrency} shoppers, ${p.agentProcesses} agent process${p.agentProcesses > 1 ? 'es' : ''}`;
    out.push({ figure: `turns/s, ${who}`, goal: 'reported', measured: `${s.turnsPerSecond} (${s.turns} turns in ${s.seconds} s)`, met: null });
    out.push({ figure: `first event / first search_results / whole turn p95, ${who}`, goal: 'reported', measured: `${ms(s.firstEvent.p95)} / ${ms(s.firstResults.p95)} / ${ms(s.whole.p95)} ms`, met: null });
    upTo(`relay worker → API p95 (relay.hopTimes), ${who}`, (p.relay.relay ?? p.relay.measured).p95, GOALS.relayHopMs, `${p.relay.frames} frames`);
  }
  const all = phases.map((p) => p.shoppers);
  const sum = (f: (s: ShoppersResult) => number) => all.reduce((n, s) => n + f(s), 0);
  const turns = sum((s) => s.turns);
  out.push({ figure: 'turns with an event lost (all phases)', goal: '0', measured: `${sum((s) => s.lostTurns)} of ${turns}`, met: sum((s) => s.lostTurns) === 0 });
  out.push({ figure: 'turns with an event reordered (all phases)', goal: '0', measured: `${sum((s) => s.reorderedTurns)} of ${turns}`, met: sum((s) => s.reorderedTurns) === 0 });
  out.push({ figure: 'turns whose done.history is not the stream or not re-sendable', goal: '0', measured: `${sum((s) => s.historyTurns)} of ${turns}`, met: sum((s) => s.historyTurns) === 0 });
  out.push({ figure: 'turns ending in error or without done (all phases)', goal: '0', measured: `${sum((s) => s.outcomes.error + s.outcomes.incomplete + s.outcomes.http)} of ${turns}`, met: sum((s) => s.outcomes.error + s.outcomes.incomplete + s.outcomes.http) === 0 });
  return out;
}

const pair = (q: Quantiles | null | undefined) => (q && q.n ? `${ms(q.p50)} / ${ms(q.p95)}` : '–');

export function printTables(report: Report): void {
  console.log(`\nStylist agent, POST /v2/agent/chat (and POST /v1/chat, one shopper): ${report.machine}`);
  console.log(`${report.items.toLocaleString('en')} items${report.loading ? ` (uploaded ${report.loading.uploadSeconds} s, processed ${report.loading.processedSeconds} s, ${report.loading.itemsPerSecond} items/s)` : ''}; model ${report.model}; ${report.agent.concurrencyPerProcess} turns at once per agent process, ${report.agent.maxPerOrganization} per organization.`);
  console.log('\nWhat the shoppers saw (ms from sending the request; p50 / **p95** / p99):');
  console.log('| Phase | Shoppers | Agent processes | Turns | Turns/s | First event | First text (turns) | First search_results (turns) | Whole turn (to done) | Errors | Lost | Reordered | History |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const p of report.phases) {
    const s = p.shoppers;
    console.log(
      `| ${p.name} | ${s.concurrency} | ${p.agentProcesses} | ${s.turns} | ${s.turnsPerSecond} | ${triple(s.firstEvent)} | ${triple(s.firstText)} (${s.firstText.n}) | ${triple(s.firstResults)} (${s.firstResults.n}) | ${triple(s.whole)} | ${s.outcomes.error + s.outcomes.incomplete + s.outcomes.http} | ${s.lostTurns} | ${s.reorderedTurns} | ${s.historyTurns} |`,
    );
  }
  console.log('\nWhere the time goes (ms, p50 / p95; the relay hop p50 / **p95** / p99): the relay hop from relay.hopTimes(); the bare NATS hop from an idle publisher meanwhile; the stages on the API process\'s clock; the first tool and the worker loop as the stream reports them');
  console.log('| Phase | Relay hop (frames) | done frames\' hop | Bare NATS hop | API loop delay p99 / max | Listening → started | Started → first event | First tool | Worker loop (usage.ms) | /healthz meanwhile |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const p of report.phases) {
    const r = p.relay;
    console.log(
      `| ${p.name} | ${triple(r.relay ?? r.measured)} (${r.frames}) | ${pair(r.doneFrames)} | ${pair(p.natsProbe)} | ${ms(r.loopDelay.p99)} / ${ms(r.loopDelay.max)} | ${pair(r.pickup)} | ${pair(r.startedToFirstEvent)} | ${pair(p.shoppers.firstToolMs)} | ${pair(p.shoppers.loopMs)} | ${pair(p.shoppers.healthz)} |`,
    );
  }
  console.log('\nCPU during each phase (warm-up included), in % of one core and ms per turn (at the measured turns/s); "other work" is the machine\'s busy time less these five processes: whatever else ran on the machine meanwhile');
  console.log('| Phase | API process (this one) | Agent worker process(es) | Postgres (all its processes) | NATS server | Shoppers\' process | Other work | Machine busy |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const p of report.phases) {
    const c = p.cpu;
    if (!c) continue;
    const share = (cpuMs: number) => `${Math.round(cpuMs / c.seconds / 10)}%, ${p.shoppers.turnsPerSecond ? round1(cpuMs / c.seconds / p.shoppers.turnsPerSecond) : '–'} ms`;
    const rest = c.machineBusyMs - c.apiMs - c.agentWorkersMs - c.postgresMs - c.natsMs - p.shoppers.cpuMs;
    console.log(`| ${p.name} | ${share(c.apiMs)} | ${share(c.agentWorkersMs)} | ${share(c.postgresMs)} | ${share(c.natsMs)} | ${share(p.shoppers.cpuMs)} | ${Math.round(rest / c.seconds / 10)}% | ${c.machineBusyPercent}% of ${os.cpus().length} cores |`);
  }
  console.log('\nBaseline, the bare server in the same run, before the turns: GET /healthz (autocannon)');
  console.log('| Connections | Requests/s | p50 ms | p97.5 ms | p99 ms | non-2xx |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const h of report.healthz) console.log(`| ${h.connections} | ${h.requestsPerSecond.toLocaleString('en')} | ${h.p50} | ${h.p97_5} | ${h.p99} | ${h.non2xx} |`);
  if (report.natsProbeIdle) console.log(`Bare NATS hop, idle (an idle publisher → the API process, 5 s): p50 ${report.natsProbeIdle.p50} ms, p95 ${report.natsProbeIdle.p95} ms, p99 ${report.natsProbeIdle.p99} ms (${report.natsProbeIdle.n} frames).`);
  console.log('\n| Figure | Goal | Measured | |');
  console.log('| --- | --- | --- | --- |');
  for (const v of report.verdicts) console.log(`| ${v.figure} | ${v.goal} | ${v.measured} | ${v.met === null ? '' : v.met ? 'met' : '**missed**'} |`);
  for (const p of report.phases) {
    if (p.relay.note) console.log(`${p.name}: relay: ${p.relay.note}`);
    const errors = Object.entries(p.shoppers.errors);
    if (errors.length) console.log(`${p.name}: errors: ${errors.map(([m, n]) => `${n}× ${m}`).join('; ')}`);
    for (const problem of p.shoppers.problems.slice(0, 5)) console.log(`${p.name}: ${problem}`);
    const counts = (record: Record<string, number>) => Object.entries(record).map(([name, n]) => `${name} ${n}`).join(', ');
    console.log(`${p.name}: first event ${counts(p.shoppers.firstEvents)}; first tool ${counts(p.shoppers.firstTools)}; ${p.shoppers.eventsPerTurn} events per turn${p.shoppers.coldTurnMs !== null ? `; first (cold) turn ${p.shoppers.coldTurnMs} ms` : ''}`);
  }
}

