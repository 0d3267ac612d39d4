// Dead letters as an operator meets them: a message of any subject that the queue gives up on is
// listed by `stylist queue dead-letters` (kept in the database, so it outlives the process and the
// queue) and put back by `stylist queue replay`. Embedded: PGlite and the in-process queue; on the
// integration run: Postgres and NATS JetStream.
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { SYNC_SUBJECT } from '../../infra/queue/messages.js';
import type { Job } from '../../infra/queue/port.js';
import { startTestService } from '../support/service.js';

const until = async (what: string, condition: () => Promise<boolean> | boolean, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
};

t.test('a sync message that cannot be read is a dead letter on sync.jobs', async (t) => {
  const service = await startTestService(t, { workers: ['sync'] });
  await service.platform.queue.enqueue(SYNC_SUBJECT, { jobId: 'not-a-uuid' }, { dedupeId: 'broken-sync' });
  let listed: any[] = [];
  await until('the dead letter', async () => (listed = (await service.cli(['queue', 'dead-letters', '--json'])).deadLetters).length === 1);
  t.match(listed[0], { subject: SYNC_SUBJECT, messageId: 'broken-sync', deliveries: 1, payload: { jobId: 'not-a-uuid' }, reason: /^invalid payload: /, replayedAt: null });
  await t.rejects(service.cli(['queue', 'replay', listed[0].deadLetterId]), /does not fit sync\.jobs/, 'a payload that can never parse is not put back');
});

t.test('a job given up on is listed, replayed once, and then shown only with --all', async (t) => {
  const service = await startTestService(t, { workers: ['sync'] });
  const { queue } = service.platform;
  const seen: Job<{ sku: string }>[] = [];
  let healthy = false;
  const consumer = await queue.consume<{ sku: string }>('labels.retry', async (job) => {
    seen.push(job);
    if (!healthy) throw new Error('labelling service unavailable');
  }, { maxDeliver: 2, retryDelayMs: 50, ackWaitMs: 5000 });
  t.teardown(() => consumer.stop());
  await queue.enqueue('labels.retry', { sku: 'navy-coat' }, { dedupeId: 'label-navy-coat' });

  let listed: any[] = [];
  await until('the dead letter', async () => (listed = (await service.cli(['queue', 'dead-letters', '--json'])).deadLetters).length === 1);
  t.match(listed[0], { subject: 'labels.retry', messageId: 'label-navy-coat', deliveries: 2, reason: 'labelling service unavailable', payload: { sku: 'navy-coat' } });
  t.same(seen.map((job) => job.deliveryCount), [1, 2]);
  const id = listed[0].deadLetterId as string;

  healthy = true;
  t.same((await service.cli(['queue', 'replay', id])).replayed, [{ deadLetterId: id, subject: 'labels.retry', messageId: 'label-navy-coat' }]);
  await until('the replayed job', () => seen.length === 3);
  t.same(seen[2]!.payload, { sku: 'navy-coat' }, 'the same payload, delivered afresh');
  t.equal(seen[2]!.deliveryCount, 1);
  t.same((await service.cli(['queue', 'dead-letters', '--json'])).deadLetters, [], 'gone from the default list');
  const all = (await service.cli(['queue', 'dead-letters', '--all', '--json'])).deadLetters;
  t.equal(all.length, 1);
  t.ok(all[0].replayedAt, 'shown with --all, marked replayed');
  await t.rejects(service.cli(['queue', 'replay', id]), /was replayed at/, 'a second replay is refused');
  t.same((await service.cli(['queue', 'replay', '--all'])).replayed, [], '--all finds nothing left');
  await t.rejects(service.cli(['queue', 'replay']), /one dead letter by its id, or --all/);
  await sleep(300);
  t.equal(seen.length, 3, 'replayed exactly once');
});
