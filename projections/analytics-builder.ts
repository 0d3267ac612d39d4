// Fills building analytics generations (projections/analytics.ts) from history: replays `$all`
// from the start up to the position that opened the generation, folding the organization's
// shopper events through the same tally as the live projector (which adds everything after that
// position), then swaps it in: in one transaction it adds what it counted, becomes the active
// generation and drops the old one. Until then the old numbers answer.
//
// Runs in every process with the projections role. A generation is claimed with a heartbeat, so
// two processes never fill the same one and a claim left by a killed process is taken over after
// CLAIM_TIMEOUT; the replay then starts again (it writes nothing until the swap).
import { hostname } from 'node:os';
import { sql, type Kysely } from 'kysely';
import { attribute, noteShown, ShownItems } from '../domain/analytics/attribution.js';
import { emptyIncrements, tally } from '../domain/analytics/days.js';
import type { AgentTurnCompleted, SearchResultsShown, ShopperEventsRecorded } from '../domain/session/events.js';
import type { EventStore, RecordedEvent } from '../infra/eventstore/port.js';
import { comparePositions, parsePosition } from '../infra/eventstore/position.js';
import { addIncrements, dropGeneration } from './analytics.js';
import type { BuildingGeneration } from './queries/analytics.js';
import type { RunnerLogger } from './runner-core.js';

const CLAIM_TIMEOUT_SECONDS = 30;
const PAGE = 2000;


export interface AnalyticsBuilderOptions {
  store: EventStore;
  db: Kysely<any>;
  logger?: RunnerLogger;
  /** How often it looks for work when idle (default 0.5 s). */
  pollMs?: number;
  /** Events read from `$all` at once (default 2,000; tests make replays span many pages). */
  pageSize?: number;
}

/** The builders running in this process, so a caller waiting for a new count can spare them a poll. */
const runningHere = new Set<AnalyticsBuilder>();

/** Asks every builder running in this process to look for work now (another process's finds it at its next poll). */
export const wakeAnalyticsBuilders = (): void => {
  for (const builder of runningHere) builder.wakeUp();
};

export class AnalyticsBuilder {
  private readonly me = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  private running: Promise<void> | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;
  /** Work was announced while a pass ran: the next pass starts at once. */
  private woken = false;

  private readonly options: AnalyticsBuilderOptions;
  constructor(options: AnalyticsBuilderOptions) {
    this.options = options;
  }

  start(): void {
    if (this.running) return;
    this.stopped = false;
    runningHere.add(this);
    this.running = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    runningHere.delete(this);
    this.wake?.();
    await this.running;
    this.running = null;
  }

  wakeUp(): void {
    this.woken = true;
    this.wake?.();
  }

  /** Builds every generation waiting now, here; returns how many it completed (tests, the CLI without a server). */
  async runOnce(): Promise<number> {
    let built = 0;
    for (;;) {
      const claimed = await this.claim();
      if (!claimed) return built;
      if (await this.build(claimed)) built++;
    }
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      try {
        await this.runOnce();
      } catch (error) {
        this.options.logger?.error({ err: error }, 'analytics rebuild failed; it is tried again');
      }
      if (this.stopped) break;
      if (this.woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollMs ?? 500);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private async claim(): Promise<(BuildingGeneration & { sincePosition: string }) | null> {
    const { rows } = await sql<{ organization_id: string; generation: number; timezone: string; reason: string; requested_at: string; since_position: string }>`
      update analytics_generations g set claimed_by = ${this.me}, heartbeat_at = now(), events_read = 0
       where (g.organization_id, g.generation) = (
         select organization_id, generation from analytics_generations
          where state = 'building' and (heartbeat_at is null or heartbeat_at < now() - make_interval(secs => ${CLAIM_TIMEOUT_SECONDS}))
          order by requested_at, organization_id limit 1 for update skip locked)
      returning g.organization_id, g.generation, g.timezone, g.reason, g.requested_at, g.since_position`.execute(this.options.db);
    const row = rows[0];
    if (!row) return null;
    return {
      organizationId: row.organization_id,
      generation: Number(row.generation),
      timezone: row.timezone,
      reason: row.reason,
      requestedAt: row.requested_at,
      eventsRead: 0,
      claimedBy: this.me,
      sincePosition: row.since_position,
    };
  }

  /** False when the generation was superseded or taken over meanwhile. */
  private async build(target: BuildingGeneration & { sincePosition: string }): Promise<boolean> {
    const { store, db, logger } = this.options;
    const started = Date.now();
    const until = parsePosition(target.sincePosition);
    const increments = emptyIncrements();
    const shown = new ShownItems();
    let read = 0;
    let after: RecordedEvent['position'] | undefined;
    logger?.info({ organizationId: target.organizationId, generation: target.generation, timezone: target.timezone, reason: target.reason }, 'analytics rebuild started');
    for (let done = false; !done; ) {
      const page = await store.readAll({ ...(after ? { after } : {}), maxCount: this.options.pageSize ?? PAGE });
      if (!page.length) break;
      for (const event of page) {
        if (comparePositions(event.position, until) >= 0) {
          done = true;
          break;
        }
        read++;
        if (event.type === 'AgentTurnCompleted' || event.type === 'SearchResultsShown') {
          const showing = (event as RecordedEvent<AgentTurnCompleted> | RecordedEvent<SearchResultsShown>).data;
          if (showing.organizationId !== target.organizationId) continue;
          noteShown(showing.sessionId, showing.shown, showing.at, shown);
          continue;
        }
        if (event.type !== 'ShopperEventsRecorded') continue;
        const data = (event as RecordedEvent<ShopperEventsRecorded>).data;
        if (data.organizationId !== target.organizationId) continue;
        const assisted = attribute(data.sessionId, data.events, data.receivedAt, shown);
        tally(increments, target.timezone, data, assisted);
      }
      after = page.at(-1)!.position;
      // Only showings the rule has already forgotten go: where a page ends changes no figure.
      shown.forgetPast();
      if (!(await this.heartbeat(target, read))) return false;
      if (this.stopped) return false;
    }
    const swapped = await db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('analytics_generations')
        .select(['state', 'claimed_by'])
        .where('organization_id', '=', target.organizationId)
        .where('generation', '=', target.generation)
        .forUpdate()
        .executeTakeFirst();
      if (!current || current.state !== 'building' || current.claimed_by !== this.me) return false;
      await addIncrements(trx, target.organizationId, target.generation, increments);
      const older = await trx
        .selectFrom('analytics_generations')
        .select('generation')
        .where('organization_id', '=', target.organizationId)
        .where('generation', '<', target.generation)
        .execute();
      for (const row of older) await dropGeneration(trx, target.organizationId, Number(row.generation));
      await trx
        .updateTable('analytics_generations')
        .set({ state: 'active', completed_at: new Date().toISOString(), events_read: read, claimed_by: null, heartbeat_at: null })
        .where('organization_id', '=', target.organizationId)
        .where('generation', '=', target.generation)
        .execute();
      return true;
    });
    logger?.info(
      { organizationId: target.organizationId, generation: target.generation, timezone: target.timezone, events: read, seconds: (Date.now() - started) / 1000, swapped },
      swapped ? 'analytics rebuilt and swapped in' : 'analytics rebuild superseded',
    );
    return swapped;
  }

  /** Records progress; false when the generation is gone (superseded) or claimed by another process. */
  private async heartbeat(target: BuildingGeneration, read: number): Promise<boolean> {
    const result = await this.options.db
      .updateTable('analytics_generations')
      .set({ heartbeat_at: sql`now()`, events_read: read })
      .where('organization_id', '=', target.organizationId)
      .where('generation', '=', target.generation)
      .where('state', '=', 'building')
      .where('claimed_by', '=', this.me)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
