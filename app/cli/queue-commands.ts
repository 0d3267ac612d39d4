// Operator commands for the work queue: list the messages it gave up on (every subject) and put
// them back on their subject once the cause is fixed.
import { queueMessages } from '../../infra/queue/messages.js';
import { DeadLetterAlreadyReplayed, DeadLetterNotFound, replayDeadLetter, type StoredDeadLetter } from '../../infra/queue/dead-letters.js';
import { UsageError, type CommandSpec } from './spec.js';

const summary = (payload: unknown): string => {
  const text = JSON.stringify(payload) ?? String(payload);
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
};

const line = (dead: StoredDeadLetter): string =>
  `${dead.deadLetterId}  ${dead.deadAt}  ${dead.subject}  message ${dead.messageId}  ${dead.deliveries} deliveries${dead.replayedAt ? `  replayed ${dead.replayedAt}` : ''}\n  reason:  ${dead.reason}\n  payload: ${summary(dead.payload)}`;

export const queueCommands: CommandSpec[] = [
  {
    words: ['queue', 'dead-letters'],
    usage: 'stylist queue dead-letters [--all] [--limit N]',
    options: { all: { type: 'boolean' }, limit: { type: 'string' } },
    run: async (platform, values) => {
      const limit = values.limit === undefined ? 100 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError('--limit takes a whole number from 1 to 10000');
      const deadLetters = await platform.deadLetters.list({ includeReplayed: values.all === true, limit });
      return { deadLetters };
    },
    text: (r) => (r.deadLetters.length ? (r.deadLetters as StoredDeadLetter[]).map(line).join('\n') : 'no dead letters'),
  },
  {
    words: ['queue', 'replay'],
    usage: 'stylist queue replay ID | --all',
    options: { all: { type: 'boolean' } },
    maxArguments: 1,
    run: async (platform, values, args, { progress }) => {
      if ((values.all === true) === (args.length === 1)) throw new UsageError('name one dead letter by its id, or --all');
      const ids = values.all === true ? (await platform.deadLetters.list({ limit: 10_000 })).map((dead) => dead.deadLetterId) : args;
      const replayed: Array<{ deadLetterId: string; subject: string; messageId: string }> = [];
      for (const [done, id] of ids.entries()) {
        progress({ what: 'replaying dead letters', done, total: ids.length, unit: 'messages' });
        try {
          const dead = await replayDeadLetter(platform.deadLetters, platform.queue, id, queueMessages);
          replayed.push({ deadLetterId: dead.deadLetterId, subject: dead.subject, messageId: dead.messageId });
        } catch (error) {
          // With --all, another operator's replay in between is no failure.
          if (values.all === true && error instanceof DeadLetterAlreadyReplayed) continue;
          if (error instanceof DeadLetterNotFound || error instanceof DeadLetterAlreadyReplayed) throw new UsageError(error.message);
          throw error;
        }
      }
      return { replayed };
    },
    text: (r) => (r.replayed.length ? r.replayed.map((d: { deadLetterId: string; subject: string }) => `replayed ${d.deadLetterId} on ${d.subject}`).join('\n') : 'nothing to replay'),
  },
];
