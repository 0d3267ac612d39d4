// bin/typescript.mjs, the loader of the `stylist` command and of the tests: a TypeScript source
// importing `./file.js` gets `./file.ts`, a real `./file.js` is still found, and a missing one is
// Node's own error; the same with Node's type stripping turned off, through tsx instead. Its compile
// cache is a folder of the user's own, never one another user could write to.
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';

const loader = fileURLToPath(new URL('../../bin/typescript.mjs', import.meta.url));
const run = promisify(execFile);

t.test('a TypeScript source imports its siblings by their .js names, natively and through tsx', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'stylist-loader-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  await writeFile(path.join(dir, 'typed.ts'), 'export const typed = (n: number): string => `typed ${n}`;\n');
  await writeFile(path.join(dir, 'plain.js'), 'export const plain = "plain";\n');
  await writeFile(
    path.join(dir, 'main.ts'),
    [
      "import { typed } from './typed.js';",
      "import { plain } from './plain.js';",
      'interface Shown { typed: string; plain: string; stripping: unknown }',
      'const shown: Shown = { typed: typed(2), plain, stripping: process.features.typescript ?? false };',
      'console.log(JSON.stringify(shown));',
    ].join('\n'),
  );
  await writeFile(path.join(dir, 'missing.ts'), "import './nowhere.js';\n");

  for (const [label, flags] of [
    ['Node strips the types', []],
    ['tsx, with Node not stripping', ['--no-experimental-strip-types']],
  ] as const) {
    const { stdout } = await run(process.execPath, [...flags, '--import', loader, path.join(dir, 'main.ts')], { cwd: dir });
    const shown = JSON.parse(stdout) as { typed: string; plain: string; stripping: unknown };
    t.same({ typed: shown.typed, plain: shown.plain }, { typed: 'typed 2', plain: 'plain' }, `${label}: the .ts sibling and the real .js file are found`);
    t.equal(Boolean(shown.stripping), flags.length === 0, `${label}: process.features.typescript is ${String(shown.stripping)}`);

    const failed = await run(process.execPath, [...flags, '--import', loader, path.join(dir, 'missing.ts')], { cwd: dir }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    t.equal(failed?.code, 1, `${label}: a missing import fails the process`);
    t.match(failed?.stderr ?? '', /nowhere/, `${label}: naming the file it could not find`);
  }
});

t.test('the compile cache is a folder only this user can write to, or none', async (t) => {
  const temp = await mkdtemp(path.join(tmpdir(), 'stylist-loader-tmp-'));
  t.teardown(() => rm(temp, { recursive: true, force: true }));
  // The test runner's own processes have a cache folder: the child must choose its own.
  const { NODE_COMPILE_CACHE: _inherited, ...inherited } = process.env;
  const env = { ...inherited, TMPDIR: temp };
  const cacheOf = async () => (await run(process.execPath, ['--import', loader, '-e', 'console.log(process.env.NODE_COMPILE_CACHE ?? "none")'], { env })).stdout.trim();
  const own = path.join(temp, `stylist-compile-cache-${process.getuid?.() ?? 'user'}`);

  t.equal(await cacheOf(), own, 'made in the temporary folder, and handed to child processes');
  t.equal((await stat(own)).mode & 0o777, 0o700, 'readable and writable by this user alone');

  await rm(own, { recursive: true });
  await mkdir(own);
  await chmod(own, 0o777);
  t.equal(await cacheOf(), 'none', 'a folder others can write to is not used');
});
