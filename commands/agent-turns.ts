// Recording a finished agent turn on its widget session's stream `session-<id>` (AgentTurnCompleted):
// the products shown feed assisted revenue in analytics. The session decider refuses a session of
// another organization and caps the turns a session records; the event id comes from the turn id,
// so a retried append records the turn once.
import type { CommandMeta } from '../domain/metadata.js';
import { sessionDecider, type RecordAgentTurn } from '../domain/session/index.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { handleCommand } from './handle.js';

export async function recordAgentTurn(store: EventStore, turn: RecordAgentTurn['data'], meta: CommandMeta): Promise<{ recorded: boolean; position: Position | null }> {
  const handled = await handleCommand(store, sessionDecider, { type: 'RecordAgentTurn', data: turn }, meta, { organizationId: turn.organizationId });
  return { recorded: handled.events.length > 0, position: handled.position };
}
