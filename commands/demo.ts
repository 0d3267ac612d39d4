import { DEMO_ORGANIZATION_ID, DEMO_ORGANIZATION_NAME } from '../domain/demo.js';
import { Conflict } from '../domain/errors.js';
import { organizationDecider } from '../domain/organization/index.js';
import type { Plan } from '../domain/plan.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { handleCommand } from './handle.js';

/**
 * Creates the demo organization unless it exists. Several API processes may start at once: the
 * fixed correlation id makes their appends the same events, and a lost race is a Conflict.
 */
export async function ensureDemoOrganization(store: EventStore, plan: Plan, now: string): Promise<Position | null> {
  try {
    const { position } = await handleCommand(
      store,
      organizationDecider,
      { type: 'CreateOrganization', data: { organizationId: DEMO_ORGANIZATION_ID, name: DEMO_ORGANIZATION_NAME, plan } },
      { now, actor: { kind: 'system', id: 'demo' }, correlationId: DEMO_ORGANIZATION_ID },
    );
    return position;
  } catch (error) {
    if (error instanceof Conflict) return null;
    throw error;
  }
}
