// What `stylist serve` starts itself again with (bin/serve-restart.mjs): what only a starting
// process reads, each added only when neither the command line nor NODE_OPTIONS gives it.
import t from 'tap';
import { serveRestart } from '../../bin/serve-restart.mjs';

t.test('given nothing set, then the heap limit, the growing factor and MALLOC_ARENA_MAX are added, the own flags kept last', async (t) => {
  const start = serveRestart(['--enable-source-maps'], { SEARCH_MEMORY_MB: '2048' });
  t.same(start?.flags, ['--max-old-space-size=3072', '--heap-growing-percent=25', '--enable-source-maps']);
  t.equal(start?.env.MALLOC_ARENA_MAX, '2');
  t.equal(start?.env.SEARCH_MEMORY_MB, '2048', 'the environment passes on');
  t.same(serveRestart([], {})?.flags, ['--max-old-space-size=1536', '--heap-growing-percent=25'], '1,536 MB at least');
});

t.test('given what an operator set, then it is kept and not added again', async (t) => {
  t.equal(serveRestart(['--max-old-space-size=300', '--heap-growing-percent=50'], { MALLOC_ARENA_MAX: '4' }), null, 'everything given: no restart');
  const fromOptions = serveRestart([], { NODE_OPTIONS: '--max-old-space-size=300', MALLOC_ARENA_MAX: '4' });
  t.same(fromOptions?.flags, ['--heap-growing-percent=25'], 'a heap limit in NODE_OPTIONS counts');
  t.equal(fromOptions?.env.MALLOC_ARENA_MAX, '4', 'the arena count given is kept');
  t.same(serveRestart(['--heap-growing-percent=100'], {})?.flags, ['--max-old-space-size=1536', '--heap-growing-percent=100']);
});
