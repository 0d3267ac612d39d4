// The key directory's memory of unknown keys: a wrong key repeated costs one read-model query per
// period, a flood of made-up keys cannot push the keys in use out of the cache, and a key that is
// created is found at once.
import type { KyselyPlugin } from 'kysely';
import t from 'tap';
import { KeyDirectory } from '../../api/auth/key-directory.js';
import { lookupOf, PRIVATE_PREFIX } from '../../domain/apikey/key-format.js';
import { startTestService } from '../support/service.js';

t.test('unknown keys are remembered briefly, apart from the known ones', async (t) => {
  const service = await startTestService(t);
  let queries = 0;
  const counting: KyselyPlugin = {
    transformQuery: (args) => {
      queries++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  let clock = 1_000_000;
  const directory = new KeyDirectory({ db: service.platform.database.db.withPlugin(counting), now: () => clock, missTtlMs: 5_000, maxEntries: 100 });

  const unknown = '0'.repeat(33);
  for (let i = 0; i < 20; i++) t.equal(await directory.findKey('private', unknown), null);
  t.equal(queries, 1, 'twenty tries of one unknown key: one query');
  clock += 5_001;
  t.equal(await directory.findKey('private', unknown), null);
  t.equal(queries, 2, 'asked again once the period is over');

  const org = await service.cli(['org', 'create', '--name', 'Miss Boutique', '--json']);
  const lookup = lookupOf((org.privateKey as string).slice(PRIVATE_PREFIX.length).split('::')[0]!)!;
  t.equal((await directory.findKey('private', lookup))?.organizationId, org.organizationId, 'a new key is found at once');
  const before = queries;
  for (let i = 0; i < 1_000; i++) await directory.findKey('private', `x${String(i).padStart(32, '0')}`);
  t.equal(queries - before, 1_000, 'a thousand made-up keys: a query each, once');
  const afterFlood = queries;
  t.equal((await directory.findKey('private', lookup))?.organizationId, org.organizationId);
  t.equal(queries, afterFlood, 'the key in use is still cached after the flood');

  t.equal(await directory.findKey('public', unknown), null);
  const counted = queries;
  directory.forgetMisses();
  t.equal(await directory.findKey('public', unknown), null);
  t.equal(queries, counted + 1, 'a created or rotated key clears the memory of misses');
});
