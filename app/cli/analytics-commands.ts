// `stylist analytics rebuild --org ID [--wait]`: counts the organization's analytics again from its
// events, beside the numbers in use (which keep answering), then swaps them in. The server's
// projections role does the work; progress shows in `stylist projections status`. With `--wait`
// the command returns once the new numbers answer (and, with no server running, builds them here).
import { setTimeout as sleep } from 'node:timers/promises';
import { requestAnalyticsRebuild } from '../../commands/organizations.js';
import { NotFound } from '../../domain/errors.js';
import { activeGeneration, buildingGenerations } from '../../projections/queries/analytics.js';
import { operator, required, type CommandSpec } from './spec.js';

const WAIT_LIMIT_MS = 60 * 60 * 1000;

export const analyticsCommands: CommandSpec[] = [
  {
    words: ['analytics', 'rebuild'],
    usage: 'stylist analytics rebuild --org ID [--wait]',
    options: { org: { type: 'string' }, wait: { type: 'boolean' } },
    run: async (platform, values) => {
      const organizationId = required(values, 'org');
      const db = platform.database.db;
      const before = await activeGeneration(db, organizationId);
      if (!before) throw new NotFound(`Organization '${organizationId}' not found.`);
      const { position } = await requestAnalyticsRebuild(platform.eventStore, { organizationId }, operator());
      if (position) await platform.projections.waitFor(position, ['analytics'], 30_000);
      const [building] = await buildingGenerations(db, organizationId);
      if (!values.wait || !building) return { organizationId, generation: building?.generation ?? null, timezone: building?.timezone ?? before.timezone, state: building ? 'building' : 'active' };
      const started = Date.now();
      for (;;) {
        // No server here to build it (or one that has not claimed it yet): build it in this process.
        if (!building.claimedBy) await platform.analytics.runOnce();
        const active = await activeGeneration(db, organizationId);
        if (active && active.generation >= building.generation) return { organizationId, generation: active.generation, timezone: active.timezone, state: 'active', seconds: (Date.now() - started) / 1000 };
        if (Date.now() - started > WAIT_LIMIT_MS) throw new Error('the rebuild did not finish within an hour; see stylist projections status');
        await sleep(200);
      }
    },
    text: (r) =>
      r.state === 'active' && r.seconds !== undefined
        ? `analytics of ${r.organizationId} rebuilt in ${r.seconds} s (generation ${r.generation}, ${r.timezone})`
        : `analytics rebuild of ${r.organizationId} started (generation ${r.generation}, ${r.timezone}); the current numbers answer until it is done (stylist projections status)`,
  },
];
