// The two bounds on new image variants, alone: transform slots served in turn by address with a
// share per address and a lane for AVIF (infra/images/fair-slots.ts), and each address's bucket of
// new variants (infra/images/miss-budget.ts), on a clock the test moves; and what counts as one
// address (api/routes/images.ts).
import t from 'tap';
import { clientGroup } from '../../api/routes/images.js';
import { FairSlots, ImagesBusy, WaitingLineFull } from '../../infra/images/fair-slots.js';
import { MissBudget } from '../../infra/images/miss-budget.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A job that runs until the test ends it, recording when it started. */
function jobs() {
  const started: string[] = [];
  const ends = new Map<string, () => void>();
  const job = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      ends.set(name, () => resolve(name));
    });
  const end = async (name: string) => {
    ends.get(name)!();
    await tick();
  };
  return { started, job, end };
}

t.test('a flooding address holds its share; newcomers are served before its next, in turn', async (t) => {
  const slots = new FairSlots({ slots: 2, perOwner: 1, heavySlots: 1, maxWaiting: 100, maxWaitingPerOwner: 100 });
  const { started, job, end } = jobs();
  const runs = ['f1', 'f2', 'f3', 'f4'].map((name) => slots.run('flood', false, job(name)));
  await tick();
  t.same(started, ['f1'], 'one slot of two for one address');
  const b1 = slots.run('b', false, job('b1'));
  await tick();
  t.same(started, ['f1', 'b1'], 'a newcomer starts at once on the slot kept free');
  const b2 = slots.run('b', false, job('b2'));
  const c1 = slots.run('c', false, job('c1'));
  await end('f1');
  await end('b1');
  await end('f2');
  t.same(started, ['f1', 'b1', 'f2', 'b2', 'c1'], 'in turn: flood, b, then c before the flood again');
  await end('b2');
  await end('c1');
  await end('f3');
  await end('f4');
  await Promise.all([...runs, b1, b2, c1]);
  t.match(slots.counts, { running: 0, queued: 0, heavyRunning: 0 });
});

t.test('heavy jobs (AVIF) take a slot and one of their own: a line of them leaves the other slots to the rest', async (t) => {
  const slots = new FairSlots({ slots: 3, perOwner: 3, heavySlots: 1, maxWaiting: 100, maxWaitingPerOwner: 100 });
  const { started, job, end } = jobs();
  const heavy = ['h1', 'h2', 'h3'].map((name) => slots.run('a', true, job(name)));
  const light = slots.run('b', false, job('l1'));
  await tick();
  t.same(started, ['h1', 'l1'], 'one heavy at a time; a light job beside it');
  await end('h1');
  t.same(started, ['h1', 'l1', 'h2']);
  await end('l1');
  await end('h2');
  await end('h3');
  await Promise.all([...heavy, light]);
});

t.test('waiting is bounded per address and in all; a refused request holds nothing', async (t) => {
  const slots = new FairSlots({ slots: 1, perOwner: 1, heavySlots: 1, maxWaiting: 3, maxWaitingPerOwner: 2 });
  const { job, end } = jobs();
  const held = slots.run('a', false, job('a1'));
  const waiting = [slots.run('a', false, job('a2')), slots.run('a', false, job('a3'))];
  await t.rejects(slots.run('a', false, job('a4')), WaitingLineFull);
  const other = slots.run('b', false, job('b1'));
  await t.rejects(slots.run('c', false, job('c1')), ImagesBusy);
  t.match(slots.counts, { running: 1, queued: 3 });
  for (const name of ['a1', 'a2', 'b1', 'a3']) await end(name);
  await Promise.all([held, ...waiting, other]);
  t.match(slots.counts, { running: 0, queued: 0 });
});

t.test('a bucket of new variants per address: full at first, refilled with time, an AVIF costs more', async (t) => {
  const budget = new MissBudget({ perMinute: 60, burst: 3 });
  const at = 1_000_000;
  t.same([1, 2, 3, 4].map(() => budget.charge('a', 1, at).allowed), [true, true, true, false]);
  t.same(budget.charge('a', 1, at), { allowed: false, retryAfter: 1 }, 'one a second');
  t.ok(budget.charge('b', 1, at).allowed, 'each address its own');
  t.ok(budget.charge('a', 1, at + 1000).allowed, 'a second later, one more');
  t.same(budget.charge('a', 3, at + 1000), { allowed: false, retryAfter: 3 });
  budget.refund('a', 2, at + 1000);
  t.ok(budget.charge('a', 2, at + 1000).allowed, 'given back when the work was not done');
  t.ok(budget.charge('c', 50, at).allowed, 'a cost over the whole bucket takes the whole bucket');
  t.notOk(budget.charge('c', 1, at).allowed);
  const few = new MissBudget({ perMinute: 60, burst: 2, maxAddresses: 2 });
  few.charge('x', 2, at);
  few.charge('y', 1, at);
  few.charge('z', 1, at);
  t.ok(few.charge('x', 2, at).allowed, 'the least recently seen address is forgotten: a full bucket again');
});

t.test('one address: an IPv4 address as it is (mapped or not), an IPv6 address by its /64', async (t) => {
  t.equal(clientGroup('203.0.113.7'), '203.0.113.7');
  t.equal(clientGroup('::ffff:203.0.113.7'), '203.0.113.7');
  t.equal(clientGroup('2001:db8::1'), '2001:db8:0:0::/64');
  t.equal(clientGroup('2001:0db8:0000:0000:abcd:1:2:3'), '2001:db8:0:0::/64', 'the rest of the /64 is the same client');
  t.equal(clientGroup('2001:DB8:0:1::9'), '2001:db8:0:1::/64', 'the next /64 is another');
  t.equal(clientGroup('::1'), '0:0:0:0::/64');
});
